/* ds_options: one struct of settings per layer, fed through each layer's table by name. */
#ifndef DSI_API_OPTIONS_H
#define DSI_API_OPTIONS_H

#include "apiserver/apiserver_options.h"
#include "controller/ctrl_options.h"
#include "core/optparse.h"
#include "daemon/daemon_options.h"
#include "model/model_options.h"
#include "ops/ops_options.h"
#include "pss/pss_options.h"
#include "sched/sched_options.h"

struct ds_options {
	dsi_core_options core;
	dsi_model_options model;
	dsi_apiserver_options apiserver;
	dsi_sched_options sched;
	dsi_daemon_options daemon;
	dsi_pss_options pss;
	dsi_ops_options ops;
	dsi_ctrl_options ctrl;
};

/* Each layer's settings of opts, or that layer's defaults when opts is NULL. */
static inline const dsi_core_options *dsi_o_core(const ds_options *o)
{
	return o ? &o->core : dsi_core_options_default();
}
static inline const dsi_model_options *dsi_o_model(const ds_options *o)
{
	return o ? &o->model : dsi_model_options_default();
}
static inline const dsi_apiserver_options *dsi_o_apiserver(const ds_options *o)
{
	return o ? &o->apiserver : dsi_apiserver_options_default();
}
static inline const dsi_sched_options *dsi_o_sched(const ds_options *o)
{
	return o ? &o->sched : dsi_sched_options_default();
}
static inline const dsi_daemon_options *dsi_o_daemon(const ds_options *o)
{
	return o ? &o->daemon : dsi_daemon_options_default();
}
static inline const dsi_pss_options *dsi_o_pss(const ds_options *o) { return o ? &o->pss : dsi_pss_options_default(); }
static inline const dsi_ops_options *dsi_o_ops(const ds_options *o) { return o ? &o->ops : dsi_ops_options_default(); }
static inline const dsi_ctrl_options *dsi_o_ctrl(const ds_options *o)
{
	return o ? &o->ctrl : dsi_ctrl_options_default();
}

/* What a layer's functions read, gathered from opts (NULL: the defaults). */
static inline dsi_daemon_cfg dsi_o_daemon_cfg(const ds_options *o)
{
	dsi_daemon_cfg c = {dsi_o_core(o), dsi_o_daemon(o)};
	return c;
}
static inline dsi_ops_cfg dsi_o_ops_cfg(const ds_options *o)
{
	dsi_ops_cfg c = {dsi_o_core(o), dsi_o_ops(o), dsi_o_pss(o)};
	return c;
}

/* A new set equal to src (the defaults when src is NULL). 0 or DS_ENOMEM. */
int dsi_options_dup(const ds_options *src, ds_options **out);
/* The name of option i (0, 1, ...), NULL past the last. */
const char *dsi_options_name(size_t i);

#endif
