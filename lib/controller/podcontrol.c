#include <string.h>

#include "controller/errors.h"
#include "controller/expectations.h"
#include "controller/sync.h"
#include "controller/transport.h"
#include "core/alloc.h"
#include "core/strbuf.h"

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* RealPodControl.CreatePods (controller_utils.go): an event either way. */
static int create_pod(dsi_sync *s, const dsi_plan_create *cr, int *failed, json_t *errs)
{
	dsi_call call;
	int rc = dsi_tp_create(s->c, "pods", s->ns, cr->pod, &call, s->err);
	if (rc < 0)
		return rc;
	/* the event's message whole, as the recorder's Eventf formats it */
	char *msg = NULL;
	if (call.result == DS_TRANSPORT_OK) {
		const char *name = json_string_value(json_object_get(json_object_get(call.body, "metadata"), "name"));
		s->creates++;
		if (!(msg = dsi_format("Created pod: %s", name ? name : "")) ||
		    json_array_append_new(s->created, json_string(name ? name : "")) ||
		    (rc = dsi_record_event(s, "Normal", "SuccessfulCreate", msg)) < 0) {
			dsi_free(msg);
			dsi_call_release(&call);
			return rc < 0 ? rc : dsi_error_nomem(s->err);
		}
	} else {
		/* syncNodes: a failed create is an observed one */
		dsi_exp_lower(s->st, 1, 0);
		*failed = 1;
		if (!(msg = dsi_format("Error creating: %s", call.message)) ||
		    (rc = dsi_record_event(s, "Warning", "FailedCreate", msg)) < 0 ||
		    dsi_errs_add(errs, "%s", call.message) < 0) {
			dsi_free(msg);
			dsi_call_release(&call);
			return rc < 0 ? rc : dsi_error_nomem(s->err);
		}
	}
	dsi_free(msg);
	dsi_call_release(&call);
	return 0;
}

/* RealPodControl.DeletePod (controller_utils.go), with a uid precondition: a pod that is
 * gone (404), or replaced by another of the same name (409 on the precondition), needs
 * no delete. */
static int delete_pod(dsi_sync *s, const dsi_plan_delete *d, int *failed, json_t *errs)
{
	dsi_call call;
	int rc = dsi_tp_remove(s->c, "pods", d->ns, d->name, d->uid && *d->uid ? d->uid : NULL, &call, s->err);
	if (rc < 0)
		return rc;
	char *msg = NULL;
	if (call.result == DS_TRANSPORT_OK) {
		s->deletes++;
		if (!(msg = dsi_format("Deleted pod: %s", d->name)) ||
		    json_array_append_new(s->deleted, json_string(d->name)) ||
		    (rc = dsi_record_event(s, "Normal", "SuccessfulDelete", msg)) < 0) {
			dsi_free(msg);
			dsi_call_release(&call);
			return rc < 0 ? rc : dsi_error_nomem(s->err);
		}
	} else {
		dsi_exp_lower(s->st, 0, 1);
		if (call.result == DS_TRANSPORT_NOT_FOUND || call.result == DS_TRANSPORT_CONFLICT) {
			s->deletes++;
			if (json_array_append_new(s->deleted, json_string(d->name))) {
				dsi_call_release(&call);
				return dsi_error_nomem(s->err);
			}
		} else {
			*failed = 1;
			if (!(msg = dsi_format("Error deleting: %s", call.message)) ||
			    (rc = dsi_record_event(s, "Warning", "FailedDelete", msg)) < 0 ||
			    dsi_errs_add(errs, "unable to delete pods: %s", call.message) < 0) {
				dsi_free(msg);
				dsi_call_release(&call);
				return rc < 0 ? rc : dsi_error_nomem(s->err);
			}
		}
	}
	dsi_free(msg);
	dsi_call_release(&call);
	return 0;
}

/* syncNodes (daemon_controller.go) */
int dsi_sync_nodes(dsi_sync *s, const dsi_plan *p, json_t *errs)
{
	uint32_t ncreate = min_u32(p->ncreates, p->burst), ndelete = min_u32(p->ndeletes, p->burst);
	/* expectations first, so that watch events racing the calls are counted */
	dsi_exp_set(s->st, ncreate, ndelete, s->now);
	int failed = 0, rc;
	/* slow start: batches of 1, 2, 4, ...; a batch with a failure ends the creates */
	uint32_t batch = min_u32(ncreate, p->slow_start ? p->slow_start : 1);
	for (uint32_t pos = 0; pos < ncreate;) {
		int batch_failed = 0;
		for (uint32_t i = pos; i < pos + batch; i++)
			if ((rc = create_pod(s, &p->creates[i], &batch_failed, errs)) < 0)
				return rc;
		failed |= batch_failed;
		uint32_t skipped = ncreate - (pos + batch);
		if (batch_failed && skipped > 0) {
			/* the creates never attempted are not expected any more */
			dsi_exp_lower(s->st, skipped, 0);
			break;
		}
		pos += batch;
		batch = min_u32(2 * batch, ncreate - pos);
	}
	for (uint32_t i = 0; i < ndelete; i++)
		if ((rc = delete_pod(s, &p->deletes[i], &failed, errs)) < 0)
			return rc;
	return failed;
}
