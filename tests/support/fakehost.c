/* The controller driver over the fake API server (see fakehost.h). */
#include "fakehost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fake_transport_result(int code, const char *body)
{
	if (code >= 200 && code < 300)
		return DS_TRANSPORT_OK;
	if (code == 404)
		return DS_TRANSPORT_NOT_FOUND;
	if (code == 409) {
		json_t *st = body ? json_loads(body, 0, NULL) : NULL;
		const char *reason = json_string_value(json_object_get(st, "reason"));
		int r = reason && !strcmp(reason, "AlreadyExists") ? DS_TRANSPORT_ALREADY_EXISTS
								   : DS_TRANSPORT_CONFLICT;
		json_decref(st);
		return r;
	}
	if (code == 422)
		return DS_TRANSPORT_INVALID;
	if (code == 429 || code >= 500 || code <= 0)
		return DS_TRANSPORT_TRANSIENT;
	return DS_TRANSPORT_FATAL;
}

/* The fake's answer into the reply: the body on success, the Status message otherwise. */
static int reply_with(int code, char *body, ds_reply *reply)
{
	int r = fake_transport_result(code, body);
	if (r == DS_TRANSPORT_OK) {
		if (body && ds_reply_append2(reply, body, strlen(body), NULL) < 0)
			r = DS_TRANSPORT_FATAL;
	} else {
		json_t *st = body ? json_loads(body, 0, NULL) : NULL;
		const char *msg = json_string_value(json_object_get(st, "message"));
		char fallback[96];
		snprintf(fallback, sizeof(fallback), "%s",
			 code == FAKE_ETIMEDOUT ? "context deadline exceeded (Client.Timeout exceeded while awaiting "
						  "headers)"
			 : code == FAKE_ECONNRESET   ? "read: connection reset by peer"
			 : code == FAKE_ECONNREFUSED ? "connect: connection refused"
						     : "the server answered without a Status");
		ds_reply_set_message2(reply, msg ? msg : fallback, NULL);
		json_decref(st);
	}
	free(body);
	return r;
}

static int tp_list(void *ud, const char *resource, const char *ns, const char *selector, ds_reply *reply)
{
	char *out = NULL;
	fake_list_opts o = {selector, NULL, 0, NULL};
	int code = fake_list(ud, resource, ns, &o, &out);
	return reply_with(code, out, reply);
}

static int tp_get(void *ud, const char *resource, const char *ns, const char *name, ds_reply *reply)
{
	char *out = NULL;
	int code = fake_get(ud, resource, ns, name, &out);
	return reply_with(code, out, reply);
}

static int tp_create(void *ud, const char *resource, const char *ns, const char *body, ds_reply *reply)
{
	char *out = NULL;
	int code = fake_create(ud, resource, ns, body, &out);
	return reply_with(code, out, reply);
}

static int tp_remove(void *ud, const char *resource, const char *ns, const char *name, const char *uid, ds_reply *reply)
{
	char *out = NULL, opts[200];
	if (uid)
		snprintf(opts, sizeof(opts), "{\"preconditions\":{\"uid\":\"%s\"}}", uid);
	int code = fake_delete(ud, resource, ns, name, uid ? opts : NULL, &out);
	return reply_with(code, out, reply);
}

static int tp_update_status(void *ud, const char *resource, const char *ns, const char *name, const char *body,
			    ds_reply *reply)
{
	char *out = NULL;
	int code = fake_update(ud, resource, ns, name, "status", body, &out);
	return reply_with(code, out, reply);
}

static int tp_patch(void *ud, const char *resource, const char *ns, const char *name, const char *type,
		    const char *body, ds_reply *reply)
{
	char *out = NULL;
	int code = fake_patch(ud, resource, ns, name, NULL, type, body, &out);
	return reply_with(code, out, reply);
}

static int tp_event(void *ud, const char *ns, const char *body, ds_reply *reply)
{
	char *out = NULL;
	int code = fake_create(ud, "events", ns, body, &out);
	return reply_with(code, out, reply);
}

void fake_transport(fake_api *api, ds_transport *t)
{
	memset(t, 0, sizeof(*t));
	t->size = sizeof(*t);
	t->user_data = api;
	t->list = tp_list;
	t->get = tp_get;
	t->create = tp_create;
	t->remove = tp_remove;
	t->update_status = tp_update_status;
	t->patch = tp_patch;
	t->record_event = tp_event;
}

/* ---- the host: fake_loop on virtual time ---- */

/* lists and events from the loop (ds_controller_loop_status(3): each resource's lists). */
static void count(fake_host *h)
{
	char *out = NULL;
	ds_error err;
	h->events = fake_loop_events(h->loop);
	h->calls = fake_loop_sync_calls(h->loop);
	if (ds_controller_loop_status(h->ctrl, fake_now(h->api), &out, &err) < 0)
		return;
	json_t *st = json_loads(out, 0, NULL);
	ds_free(out);
	const char *k;
	json_t *res;
	json_object_foreach(json_object_get(st, "resources"), k, res)
	{
		int n = (int)json_integer_value(json_object_get(res, "lists"));
		if (n > h->lists)
			h->lists = n;
	}
	json_decref(st);
}

static int failed(fake_host *h)
{
	snprintf(h->error, sizeof(h->error), "%s", fake_loop_error(h->loop));
	return -1;
}

int fake_host_start(fake_host *h, fake_api *api, const ds_options *opts, const ds_controller_config *cfg)
{
	memset(h, 0, sizeof(*h));
	h->api = api;
	if (!(h->loop = fake_loop_new(api, opts, cfg, 1, h->error, sizeof(h->error))))
		return -1;
	h->ctrl = fake_loop_controller(h->loop);
	/* turns at this instant until every resource is listed and watched (or the lists wait to
	 * be retried) */
	for (int i = 0; i < 16; i++) {
		if (fake_loop_try_turn(h->loop, 0) == FAKE_LOOP_ERROR)
			return failed(h);
		count(h);
		char *out = NULL;
		ds_error err;
		if (ds_controller_loop_status(h->ctrl, fake_now(api), &out, &err) < 0)
			continue;
		json_t *st = json_loads(out, 0, NULL);
		ds_free(out);
		int synced = json_is_true(json_object_get(st, "synced"));
		json_decref(st);
		if (synced)
			break;
	}
	return 0;
}

int fake_host_step(fake_host *h, int64_t step_ms)
{
	fake_loop_set_chunk(h->loop, h->chunk);
	ds_time start = fake_now(h->api);
	int turns = 0;
	do {
		int64_t r = fake_loop_try_turn(h->loop, step_ms > 0 ? step_ms : 0);
		if (r == FAKE_LOOP_ERROR)
			return failed(h);
		turns++;
		if (r == -2)
			break; /* stopped */
		if (turns == 10000) {
			snprintf(h->error, sizeof(h->error), "the loop let no time pass in %d turns", turns);
			return -1;
		}
	} while (step_ms > 0 && fake_now(h->api) == start);
	count(h);
	return turns;
}

void fake_host_stop(fake_host *h)
{
	fake_loop_free(h->loop);
	memset(h, 0, sizeof(*h));
}
