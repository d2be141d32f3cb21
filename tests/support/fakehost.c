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

/* ---- the host's loop ---- */

static const char *const watched[FAKE_HOST_WATCHES] = {"nodes", "pods", "daemonsets", "controllerrevisions"};

static void unwatch(fake_host *h, int i)
{
	fake_watch_close(h->watch[i]);
	h->watch[i] = NULL;
	free(h->part[i]);
	h->part[i] = NULL;
	h->part_len[i] = 0;
}

static void set_rv(fake_host *h, int i, const char *rv)
{
	if (!rv)
		return;
	free(h->rv[i]);
	h->rv[i] = strdup(rv);
}

static int list_all(fake_host *h)
{
	char *out = NULL;
	ds_error err;
	for (int i = 0; i < FAKE_HOST_WATCHES; i++)
		unwatch(h, i);
	h->lists++;
	if (ds_controller_resync(h->ctrl, fake_now(h->api), &out, &err) < 0) {
		snprintf(h->error, sizeof(h->error), "list: %s", err.message);
		h->need_list = 1;
		return -1;
	}
	json_t *doc = json_loads(out, 0, NULL);
	ds_free(out);
	h->need_list = 0;
	for (int i = 0; i < FAKE_HOST_WATCHES; i++) {
		set_rv(h, i, json_string_value(json_object_get(json_object_get(doc, "resourceVersions"), watched[i])));
		fake_watch_opts o = {NULL, NULL, 1, 0, 0};
		h->watch[i] = fake_watch_open(h->api, watched[i], NULL, h->rv[i], &o, NULL, NULL);
		if (!h->watch[i])
			h->need_list = 1; /* a refused watch: list again later */
	}
	json_decref(doc);
	return 0;
}

/* The complete events in what watch i delivered, fed to the controller. */
static void feed_lines(fake_host *h, int i, const char *data, size_t n)
{
	char *all = malloc(h->part_len[i] + n + 1);
	memcpy(all, h->part[i] ? h->part[i] : "", h->part_len[i]);
	memcpy(all + h->part_len[i], data, n);
	size_t len = h->part_len[i] + n, end = len;
	while (end > 0 && all[end - 1] != '\n')
		end--;
	free(h->part[i]);
	h->part[i] = NULL;
	h->part_len[i] = len - end;
	if (h->part_len[i]) {
		h->part[i] = malloc(h->part_len[i]);
		memcpy(h->part[i], all + end, h->part_len[i]);
	}
	if (end) { /* the resourceVersion of the last event, for watching again */
		for (size_t s = 0; s < end;) {
			char *nl = memchr(all + s, '\n', end - s);
			json_t *ev = json_loadb(all + s, (size_t)(nl - (all + s)), 0, NULL);
			const char *rv = json_string_value(json_object_get(
				json_object_get(json_object_get(ev, "object"), "metadata"), "resourceVersion"));
			const char *type = json_string_value(json_object_get(ev, "type"));
			if (rv && type && strcmp(type, "ERROR"))
				set_rv(h, i, rv);
			json_decref(ev);
			h->events++;
			s = (size_t)(nl - all) + 1;
		}
		ds_error err;
		if (ds_controller_apply_events(h->ctrl, all, end, fake_now(h->api), NULL, NULL, &err) < 0) {
			snprintf(h->error, sizeof(h->error), "watch %s: %s%s%s", watched[i], err.path,
				 err.path[0] ? ": " : "", err.message);
			h->need_list = 1; /* a 410, or an event the snapshot refused: list again */
		}
	}
	free(all);
}

void fake_host_feed(fake_host *h)
{
	size_t chunk = h->chunk ? h->chunk : 4096;
	char *buf = malloc(chunk);
	for (int i = 0; i < FAKE_HOST_WATCHES && !h->need_list; i++) {
		size_t n;
		while (h->watch[i] && (n = fake_watch_read(h->watch[i], buf, chunk)) > 0)
			feed_lines(h, i, buf, n);
		if (h->watch[i] && fake_watch_done(h->watch[i]) && !h->need_list) {
			/* the server ended it: watch again from the last version seen */
			unwatch(h, i);
			fake_watch_opts o = {NULL, NULL, 1, 0, 0};
			h->watch[i] = fake_watch_open(h->api, watched[i], NULL, h->rv[i], &o, NULL, NULL);
			if (!h->watch[i])
				h->need_list = 1;
		}
	}
	free(buf);
}

int fake_host_start(fake_host *h, fake_api *api, const ds_options *opts, const ds_controller_config *cfg)
{
	memset(h, 0, sizeof(*h));
	h->api = api;
	ds_transport tp;
	fake_transport(api, &tp);
	ds_error err;
	if (ds_controller_new(&tp, opts, cfg, &h->ctrl, &err) < 0) {
		snprintf(h->error, sizeof(h->error), "controller: %s", err.message);
		return -1;
	}
	list_all(h);
	return 0;
}

int fake_host_step(fake_host *h, int64_t step_ms)
{
	if (h->need_list && list_all(h) < 0) { /* the list failed: try again after a while */
		fake_advance(h->api, fake_now(h->api) + (step_ms > 0 ? step_ms : 1));
		return 0;
	}
	int64_t wait = -1;
	char *out = NULL;
	ds_error err;
	int n = ds_controller_run(h->ctrl, fake_now(h->api), &wait, &out, &err);
	if (n < 0) {
		snprintf(h->error, sizeof(h->error), "run: %s", err.message);
		return -1;
	}
	h->syncs += n;
	if (n > 0) {
		json_decref(h->last);
		h->last = json_loads(out, 0, NULL);
		size_t i;
		json_t *res;
		int calls = 0;
		json_array_foreach(h->last, i, res) calls |= json_array_size(json_object_get(res, "calls")) > 0;
		if (calls) {
			json_decref(h->acted);
			h->acted = json_incref(h->last);
		}
	}
	ds_free(out);
	fake_host_feed(h);
	int64_t dt = step_ms;
	if (wait >= 0 && wait < dt)
		dt = wait;
	ds_time now = fake_now(h->api), next = fake_next_due(h->api);
	if (next > now && next - now < dt)
		dt = next - now;
	if (dt <= 0 && n == 0 && step_ms > 0)
		dt = 1; /* nothing ran: time must move */
	if (dt > 0) {
		fake_advance(h->api, now + dt);
		fake_host_feed(h);
	}
	return n;
}

void fake_host_stop(fake_host *h)
{
	for (int i = 0; i < FAKE_HOST_WATCHES; i++) {
		unwatch(h, i);
		free(h->rv[i]);
	}
	ds_controller_free(h->ctrl);
	json_decref(h->last);
	json_decref(h->acted);
	memset(h, 0, sizeof(*h));
}
