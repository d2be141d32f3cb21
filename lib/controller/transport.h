/*
 * Calling the host's transport: one function per operation, each checking
 * what comes back (the result code, the body when one is needed) and
 * recording the call in the sync's log. A reply that breaks the contract
 * (an unknown result, a missing or malformed body) is a fatal result, never
 * a crash.
 */
#ifndef DSI_CTRL_TRANSPORT_H
#define DSI_CTRL_TRANSPORT_H

#include <jansson.h>

#include "controller/controller.h"

typedef struct dsi_call {
	int result;    /* ds_transport_result */
	json_t *body;  /* the parsed reply (when OK and there was one) */
	char *message; /* when not OK: what failed (never NULL then) */
} dsi_call;

void dsi_call_release(dsi_call *c);
const char *dsi_result_name(int result);

/* Each returns 0 with *out filled, or DS_ENOMEM. */
int dsi_tp_list(dsi_controller *c, const char *resource, const char *ns, const char *selector, dsi_call *out,
		ds_error *err);
int dsi_tp_get(dsi_controller *c, const char *resource, const char *ns, const char *name, dsi_call *out, ds_error *err);
int dsi_tp_create(dsi_controller *c, const char *resource, const char *ns, const json_t *body, dsi_call *out,
		  ds_error *err);
int dsi_tp_remove(dsi_controller *c, const char *resource, const char *ns, const char *name, const char *uid,
		  dsi_call *out, ds_error *err);
int dsi_tp_update_status(dsi_controller *c, const char *resource, const char *ns, const char *name, const json_t *body,
			 dsi_call *out, ds_error *err);
int dsi_tp_patch(dsi_controller *c, const char *resource, const char *ns, const char *name, const char *type,
		 const json_t *body, dsi_call *out, ds_error *err);
int dsi_tp_event(dsi_controller *c, const char *ns, const json_t *body, dsi_call *out, ds_error *err);

#endif
