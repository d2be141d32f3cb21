#include <string.h>

#include "controller/errors.h"
#include "controller/sync.h"
#include "controller/transport.h"

/* The DaemonSet object with the counters written into .status. */
static int fill_status(json_t *obj, const dsi_ds_status *st, int set_generation, int64_t generation)
{
	json_t *status = json_object_get(obj, "status");
	if (!json_is_object(status)) {
		status = json_object();
		if (!status || json_object_set_new(obj, "status", status))
			return -1;
	}
	struct {
		const char *key;
		json_int_t v;
	} f[] = {
		{"desiredNumberScheduled", st->desired_number_scheduled},
		{"currentNumberScheduled", st->current_number_scheduled},
		{"numberMisscheduled", st->number_misscheduled},
		{"numberReady", st->number_ready},
		{"updatedNumberScheduled", st->updated_number_scheduled},
		{"numberAvailable", st->number_available},
		{"numberUnavailable", st->number_unavailable},
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (json_object_set_new(status, f[i].key, json_integer(f[i].v)))
			return -1;
	if (set_generation && json_object_set_new(status, "observedGeneration", json_integer(generation)))
		return -1;
	return 0;
}

/* storeDaemonSetStatus (daemon_controller.go): StatusUpdateRetries = 1. A failed write is
 * followed by a GET (whose failure is the more interesting error) and one more write.
 * A fatal result is not retried: the same request cannot succeed. */
int dsi_store_status(dsi_sync *s, const dsi_ds_status *st, int changed, int update_observed_generation, json_t *errs)
{
	if (!changed)
		return 0;
	json_t *obj = json_deep_copy(s->ds->obj);
	if (!obj || fill_status(obj, st, update_observed_generation, s->ds->meta.generation) < 0) {
		json_decref(obj);
		return dsi_error_nomem(s->err);
	}
	int rc = 0;
	for (int attempt = 0;; attempt++) {
		dsi_call upd;
		if ((rc = dsi_tp_update_status(s->c, "daemonsets", s->ns, s->name, obj, &upd, s->err)) < 0)
			break;
		if (upd.result == DS_TRANSPORT_OK) {
			dsi_call_release(&upd);
			s->status_written = 1;
			rc = 0;
			break;
		}
		if (attempt >= 1 || upd.result == DS_TRANSPORT_FATAL) {
			rc = dsi_errs_add(errs, "error storing status for daemon set \"%s\": %s", s->key, upd.message) <
					     0
				     ? dsi_error_nomem(s->err)
				     : 1;
			dsi_call_release(&upd);
			break;
		}
		dsi_call_release(&upd);
		dsi_call got;
		if ((rc = dsi_tp_get(s->c, "daemonsets", s->ns, s->name, &got, s->err)) < 0)
			break;
		if (got.result != DS_TRANSPORT_OK) {
			rc = dsi_errs_add(errs, "error storing status for daemon set \"%s\": %s", s->key, got.message) <
					     0
				     ? dsi_error_nomem(s->err)
				     : 1;
			dsi_call_release(&got);
			break;
		}
		json_decref(obj);
		obj = got.body; /* the latest resourceVersion, its own status otherwise */
		got.body = NULL;
		dsi_call_release(&got);
		if (fill_status(obj, st, update_observed_generation, s->ds->meta.generation) < 0) {
			rc = dsi_error_nomem(s->err);
			break;
		}
	}
	json_decref(obj);
	return rc;
}
