/* Public wrappers of the controller driver and leader election (include/daemonset/controller.h). */
#include <stddef.h>
#include <string.h>

#include "daemonset.h"
#include "api/api_options.h"
#include "api/args.h"
#include "api/exec.h"
#include "apiserver/canonical.h"
#include "controller/controller.h"
#include "controller/lease.h"
#include "controller/queue.h"
#include "controller/reply.h"
#include "core/sized.h"
#include "core/alloc.h"
#include "core/jsonout.h"
#include "core/load.h"

int ds_reply_append2(ds_reply *reply, const char *data, size_t size, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!reply || (!data && size))
		return dsi_error_set(err, DS_EARG, NULL, "reply must not be NULL, nor data when size > 0");
	return dsi_reply_write(reply, data, size, err);
}

int ds_reply_set_message2(ds_reply *reply, const char *message, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!reply)
		return dsi_error_set(err, DS_EARG, NULL, "reply must not be NULL");
	return dsi_reply_set_message(reply, message, err);
}

int ds_controller_new(const ds_transport *transport, const ds_options *opts, const ds_controller_config *config,
		      ds_controller **out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, out);
	*out = NULL;
	DSI_ARG_SIZED(err, transport, ds_transport, user_data);
	if (config && !DSI_SIZE_COVERS(config, ds_controller_config, namespace_))
		return dsi_error_set(err, DS_EARG, "config", "set config->size to sizeof(ds_controller_config)");
	ds_controller *c = dsi_calloc(1, sizeof(*c));
	if (!c)
		return dsi_error_nomem(err);
	dsi_model_options model = *dsi_o_model(opts);
	model.prepare = dsi_canonical_prepare; /* watch events as the API server holds the objects */
	model.exec = &dsi_api_exec;            /* a relist's List loads on several threads */
	dsi_ctrl_settings set = {dsi_o_core(opts), &model, dsi_o_daemon(opts), dsi_o_ctrl(opts)};
	int rc = dsi_ctrl_init(c, transport, &set, config, err);
	if (rc < 0) {
		dsi_free(c);
		return rc;
	}
	*out = c;
	return 0;
}

void ds_controller_free(ds_controller *ctrl)
{
	if (!ctrl || ctrl->busy)
		return;
	dsi_ctrl_destroy(ctrl);
	dsi_free(ctrl);
}

/* Entry points that call the transport or change state: not from inside a callback. */
static int enter(ds_controller *ctrl, ds_error *err)
{
	DSI_ARGS_NONNULL(err, ctrl);
	if (ctrl->busy)
		return dsi_error_set(err, DS_ESTATE, NULL,
				     "a transport callback must not call back into the controller");
	ctrl->busy = 1;
	return 0;
}

static int emit(json_t *doc, char **json_out, int rc, ds_error *err)
{
	if (rc < 0 || !json_out) {
		json_decref(doc);
		return rc;
	}
	int e = dsi_json_emit(doc, json_out, err);
	return e < 0 ? e : rc;
}

int ds_controller_resync(ds_controller *ctrl, ds_time now, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	int rc = enter(ctrl, err);
	if (rc < 0)
		return rc;
	json_t *doc = NULL;
	rc = dsi_ctrl_resync(ctrl, now, &doc, err);
	ctrl->busy = 0;
	return emit(doc, json_out, rc, err);
}

int ds_controller_apply_events(ds_controller *ctrl, const char *data, size_t size, ds_time now, size_t *count,
			       char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (count)
		*count = 0;
	if (json_out)
		*json_out = NULL;
	DSI_ARG_DOC(err, data, size);
	int rc = enter(ctrl, err);
	if (rc < 0)
		return rc;
	json_t *doc = NULL;
	rc = dsi_ctrl_apply_events(ctrl, data ? data : "", size, now, count, &doc, err);
	ctrl->busy = 0;
	return emit(doc, json_out, rc, err);
}

int ds_controller_sync(ds_controller *ctrl, const char *namespace_, const char *name, ds_time now,
		       ds_sync_result *result, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	DSI_ARG_NAME(err, name);
	if (result && !DSI_SIZE_COVERS(result, ds_sync_result, status_written))
		return dsi_error_set(err, DS_EARG, NULL, "set result->size to sizeof(ds_sync_result)");
	int rc = enter(ctrl, err);
	if (rc < 0)
		return rc;
	json_t *doc = NULL;
	dsi_sync_report rep;
	rc = dsi_ctrl_sync(ctrl, namespace_ ? namespace_ : "", name, now, &rep, json_out ? &doc : NULL, err);
	ctrl->busy = 0;
	if (rc == 0 && result) {
		result->found = rep.found;
		result->expectations_satisfied = rep.satisfied;
		result->creates = rep.creates;
		result->deletes = rep.deletes;
		result->failed_calls = rep.failed_calls;
		result->status_written = rep.status_written;
		if (DSI_SIZE_COVERS(result, ds_sync_result, requeue_after_ms))
			result->requeue_after_ms = rep.requeue_after_ms;
	}
	if (rc == 0)
		dsi_sync_report_release(&rep);
	return emit(doc, json_out, rc, err);
}

int ds_controller_enqueue(ds_controller *ctrl, const char *namespace_, const char *name, ds_time now, int64_t after_ms,
			  ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARG_NAME(err, name);
	int rc = enter(ctrl, err);
	if (rc < 0)
		return rc;
	char *key = dsi_ctrl_key(namespace_, name);
	dsi_dsstate *s = key ? dsi_dstable_ensure(&ctrl->table, key) : NULL;
	dsi_free(key);
	ctrl->busy = 0;
	if (!s)
		return dsi_error_nomem(err);
	dsi_queue_add_after(s, now, after_ms);
	return 0;
}

int ds_controller_next(ds_controller *ctrl, ds_time now, char **key_out, int64_t *wait_ms, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (wait_ms)
		*wait_ms = -1;
	DSI_ARGS_NONNULL(err, key_out);
	*key_out = NULL;
	int rc = enter(ctrl, err);
	if (rc < 0)
		return rc;
	dsi_dsstate *s = dsi_queue_first(&ctrl->table);
	if (s && dsi_queue_due(s) <= now) {
		if (!(*key_out = dsi_strdup(s->key))) {
			ctrl->busy = 0;
			return dsi_error_nomem(err);
		}
		dsi_queue_take(s, now);
		rc = 1;
	}
	if (wait_ms)
		*wait_ms = dsi_queue_wait(&ctrl->table, now);
	ctrl->busy = 0;
	return rc;
}

int ds_controller_run(ds_controller *ctrl, ds_time now, int64_t *wait_ms, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (json_out)
		*json_out = NULL;
	if (wait_ms)
		*wait_ms = -1;
	int rc = enter(ctrl, err);
	if (rc < 0)
		return rc;
	json_t *doc = NULL;
	rc = dsi_ctrl_run(ctrl, now, wait_ms, json_out ? &doc : NULL, NULL, NULL, err);
	ctrl->busy = 0;
	return emit(doc, json_out, rc, err);
}

int ds_controller_expectations(const ds_controller *ctrl, const char *namespace_, const char *name, ds_time now,
			       char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, ctrl, name, json_out);
	*json_out = NULL;
	char *key = dsi_ctrl_key(namespace_, name);
	if (!key)
		return dsi_error_nomem(err);
	json_t *doc = dsi_ctrl_expectations(ctrl, key, now);
	dsi_free(key);
	return dsi_json_emit(doc, json_out, err);
}

const ds_cluster *ds_controller_cluster(const ds_controller *ctrl) { return ctrl ? ctrl->cluster : NULL; }

/* ---- the list-watch loop ---- */

int ds_controller_step(ds_controller *ctrl, ds_time now, ds_io *io, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!io || !DSI_SIZE_COVERS(io, ds_io, message))
		return dsi_error_set(err, DS_EARG, NULL, "io must not be NULL; set io->size to sizeof(ds_io)");
	size_t size = io->size;
	memset(io, 0, size < sizeof(*io) ? size : sizeof(*io));
	io->size = size;
	int rc = enter(ctrl, err);
	if (rc < 0)
		return rc;
	rc = dsi_loop_step(ctrl, now, io, err);
	ctrl->busy = 0;
	return rc;
}

int ds_controller_io_response(ds_controller *ctrl, uint64_t id, int status, ds_time now, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (status < 0 || status > 999)
		return dsi_error_set(err, DS_EARG, NULL, "status must be an HTTP status (0 when none), got %d", status);
	int rc = enter(ctrl, err);
	if (rc < 0)
		return rc;
	rc = dsi_loop_response(ctrl, id, status, now, err);
	ctrl->busy = 0;
	return rc;
}

int ds_controller_io_data(ds_controller *ctrl, uint64_t id, const char *data, size_t size, ds_time now, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!data && size)
		return dsi_error_set(err, DS_EARG, NULL, "data must not be NULL when size > 0");
	int rc = enter(ctrl, err);
	if (rc < 0)
		return rc;
	rc = dsi_loop_data(ctrl, id, data ? data : "", size, now, err);
	ctrl->busy = 0;
	return rc;
}

int ds_controller_io_end(ds_controller *ctrl, uint64_t id, const char *error, ds_time now, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	int rc = enter(ctrl, err);
	if (rc < 0)
		return rc;
	rc = dsi_loop_end(ctrl, id, error, now, err);
	ctrl->busy = 0;
	return rc;
}

int ds_controller_set_lease(ds_controller *ctrl, const ds_lease_config *cfg, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	int rc = enter(ctrl, err);
	if (rc < 0)
		return rc;
	rc = dsi_loop_set_lease(ctrl, cfg, err);
	ctrl->busy = 0;
	return rc;
}

int ds_controller_stop(ds_controller *ctrl, ds_time now, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	int rc = enter(ctrl, err);
	if (rc < 0)
		return rc;
	rc = dsi_loop_stop(ctrl, now, err);
	ctrl->busy = 0;
	return rc;
}

int ds_controller_loop_status(const ds_controller *ctrl, ds_time now, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	if (!ctrl || !json_out)
		return dsi_error_set(err, DS_EARG, NULL, "ctrl and json_out must not be NULL");
	*json_out = NULL;
	json_t *doc = dsi_loop_status(ctrl, now);
	return doc ? dsi_json_emit(doc, json_out, err) : dsi_error_nomem(err);
}

/* Optional JSON text: NULL, "" and "null" are none. */
static int parse_opt(const char *text, size_t size, const char *what, json_t **out, ds_error *err)
{
	*out = NULL;
	if (!text || !size)
		return 0;
	json_t *v;
	int rc = dsi_json_loadb(text, size, JSON_DECODE_ANY, what, "", &v, err);
	if (rc < 0)
		return rc;
	if (json_is_null(v)) {
		json_decref(v);
		return 0;
	}
	if (!json_is_object(v)) {
		json_decref(v);
		return dsi_error_set(err, DS_ETYPE, what, "expected an object");
	}
	*out = v;
	return 0;
}

typedef int (*lease_fn)(const dsi_lease_cfg *, const json_t *, const json_t *, ds_time, json_t **, ds_error *);

static int lease_call(lease_fn fn, const ds_lease_config *cfg, const char *lease_json, size_t lease_size,
		      const char *state_json, size_t state_size, ds_time now, char **json_out, ds_error *err)
{
	DSI_ARGS_NONNULL(err, json_out);
	*json_out = NULL;
	dsi_lease_cfg c;
	json_t *lease = NULL, *state = NULL, *doc = NULL;
	int rc = dsi_lease_cfg_read(cfg, &c, err);
	if (rc == 0)
		rc = parse_opt(lease_json, lease_size, "lease", &lease, err);
	if (rc == 0)
		rc = parse_opt(state_json, state_size, "state", &state, err);
	if (rc == 0)
		rc = fn(&c, lease, state, now, &doc, err);
	if (rc == 0)
		rc = dsi_json_emit(doc, json_out, err);
	else if (strncmp(err->path, "spec", 4) == 0)
		dsi_error_prefix_path(err, "lease");
	else if (strncmp(err->path, "observed", 8) == 0)
		dsi_error_prefix_path(err, "state");
	json_decref(lease);
	json_decref(state);
	return rc;
}

int ds_lease_try_acquire_or_renew(const ds_lease_config *cfg, const char *lease, size_t lease_size, const char *state,
				  size_t state_size, ds_time now, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	return lease_call(dsi_lease_decide, cfg, lease, lease_size, state, state_size, now, json_out, err);
}

int ds_lease_try_release(const ds_lease_config *cfg, const char *lease, size_t lease_size, const char *state,
			 size_t state_size, ds_time now, char **json_out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	return lease_call(dsi_lease_release, cfg, lease, lease_size, state, state_size, now, json_out, err);
}

int ds_lease_leading(const ds_lease_config *cfg, const char *state_json, size_t state_size, ds_time now, int *leader,
		     ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, leader);
	*leader = 0;
	dsi_lease_cfg c;
	json_t *state = NULL;
	int rc = dsi_lease_cfg_read(cfg, &c, err);
	if (rc == 0)
		rc = parse_opt(state_json, state_size, "state", &state, err);
	if (rc == 0)
		rc = dsi_lease_is_leader(&c, state, now, leader, err);
	json_decref(state);
	return rc;
}
