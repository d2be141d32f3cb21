/*
 * One reflector per watched resource (client-go tools/cache/reflector.go), as
 * decisions: list, then watch from the list's resourceVersion; 410 Gone or "too
 * old resource version" lists again; bookmarks move the resourceVersion; every
 * failure waits a step of the shared back-off; a watch silent past its
 * timeoutSeconds plus a margin is closed; a malformed event is never dropped in
 * silence: it is logged with the resource and its byte offset, and the
 * resource is listed again.
 */
#ifndef DSI_CTRL_REFLECTOR_H
#define DSI_CTRL_REFLECTOR_H

#include "controller/controller.h"

void dsi_refl_init(dsi_reflector *r, int index);
void dsi_refl_release(dsi_reflector *r);
/* "nodes", "pods", "daemonsets", "controllerrevisions" */
const char *dsi_refl_resource(int index);

/* Start what is due: 1 with io filled, 0 when nothing is, or a negative ds_error_code. */
int dsi_refl_next(dsi_controller *c, dsi_reflector *r, ds_time now, ds_io *io, ds_error *err);
/* Bytes of the answer to call: 0, 1 when the call was given up (the host should abort it), or
 * a negative ds_error_code. */
int dsi_refl_data(dsi_controller *c, dsi_reflector *r, dsi_iocall *call, const char *data, size_t size, ds_time now,
		  ds_error *err);
/* The host ended call (error: what failed, NULL when the answer ended as sent). */
int dsi_refl_end(dsi_controller *c, dsi_reflector *r, dsi_iocall *call, const char *error, ds_time now, ds_error *err);
/* Deadlines and periodic relists at now. */
int dsi_refl_timers(dsi_controller *c, dsi_reflector *r, ds_time now, ds_error *err);
/* Milliseconds until the reflector has something to do (0: now), -1: nothing. */
int64_t dsi_refl_wait(const dsi_controller *c, const dsi_reflector *r, ds_time now);
/* Close its call and start nothing more (-1: out of memory). */
int dsi_refl_halt(dsi_controller *c, dsi_reflector *r);
json_t *dsi_refl_status(const dsi_controller *c, const dsi_reflector *r, ds_time now);

#endif
