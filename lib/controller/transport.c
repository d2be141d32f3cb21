#include "controller/transport.h"

#include <stdio.h>
#include <string.h>

#include "controller/reply.h"
#include "core/alloc.h"
#include "core/jsonfast.h"
#include "core/jsonout.h"

enum { OP_LIST, OP_GET, OP_CREATE, OP_REMOVE, OP_UPDATE_STATUS, OP_PATCH, OP_EVENT };

static const char *const op_names[] = {"list", "get", "create", "delete", "updateStatus", "patch", "recordEvent"};

static const char *const result_names[] = {"ok",      "notFound",  "conflict", "alreadyExists",
					   "invalid", "transient", "fatal"};

const char *dsi_result_name(int r) { return r >= 0 && r <= DS_TRANSPORT_FATAL ? result_names[r] : "fatal"; }

void dsi_call_release(dsi_call *c)
{
	json_decref(c->body);
	dsi_free(c->message);
	memset(c, 0, sizeof(*c));
}

typedef struct req {
	int op;
	const char *resource, *ns, *name, *uid, *selector, *type;
	const json_t *body;
} req;

/* The message the API server would send when the host gave none. */
static char *default_message(const req *q, int result)
{
	char buf[512];
	const char *name = q->name ? q->name : "";
	switch (result) {
	case DS_TRANSPORT_NOT_FOUND: snprintf(buf, sizeof(buf), "%s \"%s\" not found", q->resource, name); break;
	case DS_TRANSPORT_ALREADY_EXISTS:
		snprintf(buf, sizeof(buf), "%s \"%s\" already exists", q->resource, name);
		break;
	case DS_TRANSPORT_CONFLICT:
		snprintf(buf, sizeof(buf), "Operation cannot be fulfilled on %s \"%s\"", q->resource, name);
		break;
	case DS_TRANSPORT_INVALID: snprintf(buf, sizeof(buf), "%s \"%s\" is invalid", q->resource, name); break;
	case DS_TRANSPORT_TRANSIENT:
		snprintf(buf, sizeof(buf), "the server is currently unable to handle the request");
		break;
	default: snprintf(buf, sizeof(buf), "the transport failed to %s %s", op_names[q->op], q->resource); break;
	}
	return dsi_strdup(buf);
}

static int needs_body(int op) { return op == OP_LIST || op == OP_GET || op == OP_CREATE; }

static int log_call(dsi_controller *c, const req *q, const dsi_call *out)
{
	if (out->result != DS_TRANSPORT_OK && q->op != OP_EVENT) /* events are fire and forget */
		c->failed_calls++;
	if (!c->call_log)
		return 0;
	json_t *e = json_pack("{s:s, s:s, s:s}", "op", op_names[q->op], "resource", q->resource, "result",
			      dsi_result_name(out->result));
	if (!e)
		return -1;
	if (q->ns)
		json_object_set_new(e, "namespace", json_string(q->ns));
	if (q->name)
		json_object_set_new(e, "name", json_string(q->name));
	else if (q->op == OP_CREATE && out->body) {
		const char *n = json_string_value(json_object_get(json_object_get(out->body, "metadata"), "name"));
		if (n)
			json_object_set_new(e, "name", json_string(n));
	}
	if (out->message)
		json_object_set_new(e, "message", json_string(out->message));
	return json_array_append_new(c->call_log, e);
}

static int invoke(dsi_controller *c, const req *q, dsi_call *out, ds_error *err)
{
	memset(out, 0, sizeof(*out));
	const ds_transport *t = &c->tp;
	ds_reply r;
	dsi_reply_init(&r, c->core.limits.max_bytes);
	char *body = NULL;
	if (q->body && !(body = dsi_json_dumps(q->body, JSON_COMPACT | JSON_SORT_KEYS))) {
		dsi_reply_release(&r);
		return dsi_error_nomem(err);
	}
	int res = -1;
	int missing = 0;
	void *ud = t->user_data;
	switch (q->op) {
	case OP_LIST:
		if (!(missing = !t->list))
			res = t->list(ud, q->resource, q->ns, q->selector, &r);
		break;
	case OP_GET:
		if (!(missing = !t->get))
			res = t->get(ud, q->resource, q->ns, q->name, &r);
		break;
	case OP_CREATE:
		if (!(missing = !t->create))
			res = t->create(ud, q->resource, q->ns, body, &r);
		break;
	case OP_REMOVE:
		if (!(missing = !t->remove))
			res = t->remove(ud, q->resource, q->ns, q->name, q->uid, &r);
		break;
	case OP_UPDATE_STATUS:
		if (!(missing = !t->update_status))
			res = t->update_status(ud, q->resource, q->ns, q->name, body, &r);
		break;
	case OP_PATCH:
		if (!(missing = !t->patch))
			res = t->patch(ud, q->resource, q->ns, q->name, q->type, body, &r);
		break;
	default:
		if (!(missing = !t->record_event))
			res = t->record_event(ud, q->ns, body, &r);
		break;
	}
	dsi_free(body);
	char buf[300];
	const char *why = NULL;
	if (missing) {
		snprintf(buf, sizeof(buf), "the transport has no %s callback", op_names[q->op]);
		why = buf;
		res = DS_TRANSPORT_FATAL;
	} else if (res < DS_TRANSPORT_OK || res > DS_TRANSPORT_FATAL) {
		snprintf(buf, sizeof(buf), "the transport's %s callback returned an unknown result %d", op_names[q->op],
			 res);
		why = buf;
		res = DS_TRANSPORT_FATAL;
	} else if (r.over) {
		snprintf(buf, sizeof(buf), "the reply to %s %s is larger than maxDocumentBytes", op_names[q->op],
			 q->resource);
		why = buf;
		res = DS_TRANSPORT_FATAL;
	} else if (r.body.oom) {
		dsi_reply_release(&r);
		return dsi_error_nomem(err);
	}
	out->result = res;
	if (res == DS_TRANSPORT_OK && r.body.len) {
		json_error_t je;
		out->body = dsi_json_loadb_fast(r.body.data, r.body.len, 0, &je);
		if (!out->body && needs_body(q->op)) {
			snprintf(buf, sizeof(buf), "the reply to %s %s is not JSON: %s", op_names[q->op], q->resource,
				 je.text);
			why = buf;
			out->result = DS_TRANSPORT_FATAL;
		}
	}
	if (out->result == DS_TRANSPORT_OK && needs_body(q->op) && !json_is_object(out->body) && !why) {
		snprintf(buf, sizeof(buf), "the reply to %s %s is not a JSON object", op_names[q->op], q->resource);
		why = buf;
		out->result = DS_TRANSPORT_FATAL;
	}
	if (out->result != DS_TRANSPORT_OK) {
		json_decref(out->body);
		out->body = NULL;
		if (why)
			out->message = dsi_strdup(why);
		else if (r.message && *r.message)
			out->message = dsi_strdup(r.message);
		else
			out->message = default_message(q, out->result);
		if (!out->message) {
			dsi_reply_release(&r);
			return dsi_error_nomem(err);
		}
	}
	dsi_reply_release(&r);
	if (log_call(c, q, out) < 0) {
		dsi_call_release(out);
		return dsi_error_nomem(err);
	}
	return 0;
}

int dsi_tp_list(dsi_controller *c, const char *resource, const char *ns, const char *selector, dsi_call *out,
		ds_error *err)
{
	req q = {OP_LIST, resource, ns, NULL, NULL, selector, NULL, NULL};
	return invoke(c, &q, out, err);
}

int dsi_tp_get(dsi_controller *c, const char *resource, const char *ns, const char *name, dsi_call *out, ds_error *err)
{
	req q = {OP_GET, resource, ns, name, NULL, NULL, NULL, NULL};
	return invoke(c, &q, out, err);
}

int dsi_tp_create(dsi_controller *c, const char *resource, const char *ns, const json_t *body, dsi_call *out,
		  ds_error *err)
{
	req q = {OP_CREATE, resource, ns, NULL, NULL, NULL, NULL, body};
	return invoke(c, &q, out, err);
}

int dsi_tp_remove(dsi_controller *c, const char *resource, const char *ns, const char *name, const char *uid,
		  dsi_call *out, ds_error *err)
{
	req q = {OP_REMOVE, resource, ns, name, uid, NULL, NULL, NULL};
	return invoke(c, &q, out, err);
}

int dsi_tp_update_status(dsi_controller *c, const char *resource, const char *ns, const char *name, const json_t *body,
			 dsi_call *out, ds_error *err)
{
	req q = {OP_UPDATE_STATUS, resource, ns, name, NULL, NULL, NULL, body};
	return invoke(c, &q, out, err);
}

int dsi_tp_patch(dsi_controller *c, const char *resource, const char *ns, const char *name, const char *type,
		 const json_t *body, dsi_call *out, ds_error *err)
{
	req q = {OP_PATCH, resource, ns, name, NULL, NULL, type, body};
	return invoke(c, &q, out, err);
}

int dsi_tp_event(dsi_controller *c, const char *ns, const json_t *body, dsi_call *out, ds_error *err)
{
	req q = {OP_EVENT, "events", ns, NULL, NULL, NULL, NULL, body};
	return invoke(c, &q, out, err);
}
