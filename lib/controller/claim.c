#include <stdio.h>
#include <string.h>

#include "controller/errors.h"
#include "controller/sync.h"
#include "controller/transport.h"
#include "core/alloc.h"
#include "core/strbuf.h"
#include "core/time.h"

/* RecheckDeletionTimestamp (controller_ref_manager.go) around the DaemonSet's uncached
 * re-read in getDaemonPods / controlledHistories (daemon_controller.go, update.go). */
int dsi_can_adopt(dsi_sync *s, char **why)
{
	*why = NULL;
	dsi_call call;
	int rc = dsi_tp_get(s->c, "daemonsets", s->ns, s->name, &call, s->err);
	if (rc < 0)
		return rc;
	/* the reason whole (the transport's message may be of any length) */
	char *buf = NULL;
	int none = 0;
	if (call.result != DS_TRANSPORT_OK) {
		buf = dsi_format("can't recheck DeletionTimestamp: %s", call.message);
	} else {
		json_t *meta = json_object_get(call.body, "metadata");
		const char *uid = json_string_value(json_object_get(meta, "uid"));
		const char *del = json_string_value(json_object_get(meta, "deletionTimestamp"));
		if (!uid || strcmp(uid, s->uid) != 0) {
			buf = dsi_format(
				"can't recheck DeletionTimestamp: original DaemonSet %s/%s is gone: got uid %s, "
				"wanted %s",
				s->ns, s->name, uid ? uid : "", s->uid);
		} else if (del) {
			ds_time t = 0;
			char when[64];
			ds_error tmp;
			if (dsi_time_parse(del, strlen(del), &t, &tmp) == 0)
				dsi_go_time_string(t, when, sizeof(when));
			else
				snprintf(when, sizeof(when), "%s", del);
			buf = dsi_format("%s/%s has just been deleted at %s", s->ns, s->name, when);
		} else {
			none = 1;
		}
	}
	dsi_call_release(&call);
	if (none)
		return 0;
	if (!(*why = buf))
		return dsi_error_nomem(s->err);
	return 1;
}

/* PodControllerRefManager.AdoptPod / ReleasePod (controller_ref_manager.go): strategic
 * merge patches; a pod that is gone is no error, and neither is 422 on a release. */
static int patch_pods(dsi_sync *s, const dsi_plan *p, int adopt, int *can_adopt, char **why, json_t *errs)
{
	int failed = 0;
	const dsi_plan_claim *list = adopt ? p->adopt : p->release;
	uint32_t n = adopt ? p->nadopt : p->nrelease;
	for (uint32_t i = 0; i < n; i++) {
		const char *ns = list[i].ns, *name = list[i].name, *uid = list[i].uid;
		if (adopt && *can_adopt < 0) { /* CanAdopt runs once per claim */
			int rc = dsi_can_adopt(s, why);
			if (rc < 0)
				return rc;
			*can_adopt = rc == 0;
		}
		if (adopt && !*can_adopt) {
			if (dsi_errs_add(errs, "can't adopt Pod %s/%s (%s): %s", ns, name, uid, *why) < 0)
				return dsi_error_nomem(s->err);
			failed = 1;
			continue;
		}
		json_t *patch = adopt ? dsi_plan_adopt_patch(p, uid) : dsi_plan_release_patch(p, uid);
		dsi_call call;
		int rc = patch ? dsi_tp_patch(s->c, "pods", ns, name, DS_PATCH_STRATEGIC, patch, &call, s->err)
			       : dsi_error_nomem(s->err);
		json_decref(patch);
		if (rc < 0)
			return rc;
		int ok = call.result == DS_TRANSPORT_OK || call.result == DS_TRANSPORT_NOT_FOUND ||
			 (!adopt && call.result == DS_TRANSPORT_INVALID);
		if (!ok) {
			failed = 1;
			if (dsi_errs_add(errs, "%s", call.message) < 0) {
				dsi_call_release(&call);
				return dsi_error_nomem(s->err);
			}
		}
		dsi_call_release(&call);
	}
	return failed;
}

/* ClaimPods (controller_ref_manager.go): every pod is tried, the errors are aggregated. */
int dsi_claim_pods(dsi_sync *s, const dsi_plan *p, json_t *errs)
{
	int can_adopt = -1;
	char *why = NULL;
	int a = patch_pods(s, p, 1, &can_adopt, &why, errs);
	int r = a < 0 ? a : patch_pods(s, p, 0, &can_adopt, &why, errs);
	dsi_free(why);
	if (a < 0 || r < 0)
		return a < 0 ? a : r;
	return a || r;
}
