#include "daemon/daemontolerations.h"

#include <string.h>

#include "core/alloc.h"

/* In the order upstream adds them. */
static const char *const default_keys[7] = {
	DSI_TAINT_NOT_READY,    DSI_TAINT_UNREACHABLE,   DSI_TAINT_DISK_PRESSURE,       DSI_TAINT_MEMORY_PRESSURE,
	DSI_TAINT_PID_PRESSURE, DSI_TAINT_UNSCHEDULABLE, DSI_TAINT_NETWORK_UNAVAILABLE,
};

static const uint8_t default_effects[7] = {DSI_EFFECT_NO_EXECUTE,  DSI_EFFECT_NO_EXECUTE,  DSI_EFFECT_NO_SCHEDULE,
					   DSI_EFFECT_NO_SCHEDULE, DSI_EFFECT_NO_SCHEDULE, DSI_EFFECT_NO_SCHEDULE,
					   DSI_EFFECT_NO_SCHEDULE};

/* Toleration.MatchToleration: key, operator, value and effect equal. */
static int match_toleration(const dsi_toleration *a, const dsi_toleration *b)
{
	return a->key == b->key && a->op == b->op && a->op_empty == b->op_empty && a->value == b->value &&
	       a->effect == b->effect;
}

/* AddOrUpdateTolerationInPodSpec (pkg/apis/core/v1/helper) as upstream runs it: every entry that
 * MatchToleration matches is replaced by t, and t is appended when none does. Its early return for
 * an identical entry never fires: Semantic.DeepEqual(toleration, podTolerations[i]) compares a
 * *Toleration with a Toleration, which are never equal, so a matching entry loses its
 * tolerationSeconds too. */
static void add_or_update(dsi_toleration *list, uint32_t *n, const dsi_toleration *t)
{
	int matched = 0;
	for (uint32_t i = 0; i < *n; i++)
		if (match_toleration(&list[i], t)) {
			list[i] = *t;
			matched = 1;
		}
	if (!matched)
		list[(*n)++] = *t;
}

int dsi_daemon_tolerations(const dsi_atoms *atoms, const dsi_tolerations *tmpl, int host_network, dsi_tolerations *out)
{
	out->n = 0;
	out->v = dsi_malloc((tmpl->n + 7) * sizeof(dsi_toleration));
	if (!out->v)
		return -1;
	if (tmpl->n) /* memcpy from NULL is undefined even for zero bytes */
		memcpy(out->v, tmpl->v, tmpl->n * sizeof(dsi_toleration));
	out->n = tmpl->n;
	for (int i = 0; i < (host_network ? 7 : 6); i++) {
		dsi_toleration t;
		memset(&t, 0, sizeof(t));
		t.key = dsi_atom_lookup_cstr(atoms, default_keys[i]);
		t.op = DSI_TOL_EXISTS;
		t.effect = default_effects[i];
		add_or_update(out->v, &out->n, &t);
	}
	/* the atoms are borrowed from the template and the snapshot's pinned keys: no references taken */
	return 0;
}
