/* The driver's lifetime, its work queue as the host sees it, and the expectations report. */
#include <stddef.h>
#include <string.h>

#include "controller/controller.h"
#include "controller/expectations.h"
#include "controller/queue.h"
#include "core/sized.h"
#include "core/alloc.h"

/* controller.KeyFunc (cache.MetaNamespaceKeyFunc) */
char *dsi_ctrl_key(const char *ns, const char *name)
{
	size_t nl = ns ? strlen(ns) : 0, ml = strlen(name);
	char *k = dsi_malloc(nl + ml + 2);
	if (!k)
		return NULL;
	if (nl) {
		memcpy(k, ns, nl);
		k[nl++] = '/';
	}
	memcpy(k + nl, name, ml + 1);
	return k;
}

int dsi_ctrl_init(dsi_controller *c, const ds_transport *tp, const dsi_ctrl_settings *set,
		  const ds_controller_config *cfg, ds_error *err)
{
	memset(c, 0, sizeof(*c));
	/* the host's table may be older (smaller) than ours: the rest stays NULL */
	size_t n = tp->size < sizeof(c->tp) ? tp->size : sizeof(c->tp);
	memcpy(&c->tp, tp, n);
	c->tp.size = sizeof(c->tp);
	c->core = *set->core;
	c->model = *set->model;
	c->ctrl = *set->ctrl;
	if (dsi_opt_copy(&dsi_daemon_option_table, &c->daemon, set->daemon) < 0)
		return dsi_error_nomem(err);
	c->sync_cfg.core = &c->core;
	c->sync_cfg.daemon = &c->daemon;
	c->retry_base_ms = 5;
	c->retry_max_ms = 1000 * 1000;
	const char *component = "daemonset-controller";
	if (cfg) {
		if (DSI_SIZE_COVERS(cfg, ds_controller_config, retry_base_ms) && cfg->retry_base_ms > 0)
			c->retry_base_ms = cfg->retry_base_ms;
		if (DSI_SIZE_COVERS(cfg, ds_controller_config, retry_max_ms) && cfg->retry_max_ms > 0)
			c->retry_max_ms = cfg->retry_max_ms;
		if (DSI_SIZE_COVERS(cfg, ds_controller_config, component) && cfg->component)
			component = cfg->component;
		if (cfg->namespace_ && *cfg->namespace_ && !(c->ns_filter = dsi_strdup(cfg->namespace_)))
			return dsi_error_nomem(err);
	}
	if (c->retry_max_ms < c->retry_base_ms)
		c->retry_max_ms = c->retry_base_ms;
	dsi_dstable_init(&c->table);
	c->component = dsi_strdup(component);
	c->cluster = dsi_calloc(1, sizeof(*c->cluster));
	if (!c->component || !c->cluster || dsi_cluster_init(c->cluster, &c->core, &c->model) < 0) {
		dsi_free(c->cluster);
		c->cluster = NULL;
		dsi_ctrl_destroy(c);
		return dsi_error_nomem(err);
	}
	return 0;
}

void dsi_ctrl_destroy(dsi_controller *c)
{
	if (c->cluster) {
		dsi_cluster_destroy(c->cluster);
		dsi_free(c->cluster);
	}
	dsi_dstable_free(&c->table);
	dsi_free(c->ns_filter);
	dsi_free(c->component);
	dsi_opt_free(&dsi_daemon_option_table, &c->daemon);
	json_decref(c->call_log);
	memset(c, 0, sizeof(*c));
}

/* processNextWorkItem in a loop, over what is due now, each key once. */
int dsi_ctrl_run(dsi_controller *c, ds_time now, int64_t *wait_ms, json_t **out, ds_error *err)
{
	*out = json_array();
	if (!*out)
		return dsi_error_nomem(err);
	int synced = 0;
	/* the keys due now, in due order; a sync may queue its key again (for later) */
	for (;;) {
		dsi_dsstate *s = dsi_queue_first(&c->table);
		if (!s || dsi_queue_due(s) > now)
			break;
		int dup = 0;
		for (size_t i = 0; i < json_array_size(*out) && !dup; i++)
			dup = strcmp(json_string_value(json_object_get(json_array_get(*out, i), "key")), s->key) == 0;
		if (dup)
			break;
		char *key = dsi_strdup(s->key);
		if (!key) {
			json_decref(*out);
			*out = NULL;
			return dsi_error_nomem(err);
		}
		dsi_queue_take(s, now);
		char *slash = strchr(key, '/');
		const char *ns = "", *name = key;
		if (slash) {
			*slash = '\0';
			ns = key;
			name = slash + 1;
		}
		json_t *doc = NULL;
		int rc = dsi_ctrl_sync(c, ns, name, now, NULL, &doc, err);
		dsi_free(key);
		if (rc < 0 || json_array_append_new(*out, doc)) {
			json_decref(*out);
			*out = NULL;
			return rc < 0 ? rc : dsi_error_nomem(err);
		}
		synced++;
	}
	if (wait_ms)
		*wait_ms = dsi_queue_wait(&c->table, now);
	return synced;
}

json_t *dsi_ctrl_expectations(const dsi_controller *c, const char *key, ds_time now)
{
	const dsi_dsstate *s = dsi_dstable_get(&c->table, key);
	int64_t timeout = c->ctrl.expectations_timeout_ms;
	int set = s && s->exp_set;
	return json_pack("{s:s, s:b, s:I, s:I, s:b, s:b}", "key", key, "set", set, "add",
			 (json_int_t)(set ? s->exp_add : 0), "del", (json_int_t)(set ? s->exp_del : 0), "satisfied",
			 dsi_exp_satisfied(s, now, timeout), "expired", set && dsi_exp_expired(s, now, timeout));
}
