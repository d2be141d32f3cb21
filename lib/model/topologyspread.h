/* topologySpreadConstraints as a pod carries them, parsed once per object (the DoNotSchedule ones
 * matter to the Filter); evaluation lives in lib/sched/podtopologyspread.c. */
#ifndef DSI_TOPOLOGYSPREAD_H
#define DSI_TOPOLOGYSPREAD_H

#include <jansson.h>
#include <stdint.h>

#include "core/atoms.h"
#include "core/reader.h"
#include "model/selector.h"

typedef struct dsi_spread_constraint {
	int32_t max_skew;
	int32_t min_domains; /* nil: 1 */
	dsi_atom topology_key;
	dsi_selector selector;      /* labelSelector: nil is Nothing */
	dsi_atom *match_label_keys; /* matchLabelKeys */
	uint32_t nmatch_label_keys;
	uint8_t do_not_schedule; /* whenUnsatisfiable: DoNotSchedule */
	uint8_t affinity_ignore; /* nodeAffinityPolicy: Ignore (nil: Honor) */
	uint8_t taints_honor;    /* nodeTaintsPolicy: Honor (nil: Ignore) */
} dsi_spread_constraint;

/* The constraints in order. A DoNotSchedule constraint whose labelSelector does not convert makes
 * upstream's filterTopologySpreadConstraints fail: error holds the text and v is empty. */
typedef struct dsi_spread_constraints {
	dsi_spread_constraint *v;
	uint32_t n;
	char *error;
} dsi_spread_constraints;

/* Read spec.topologySpreadConstraints. Wrong JSON types are errors. */
int dsi_spread_constraints_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *spec, dsi_spread_constraints *out);
void dsi_spread_constraints_release(dsi_atoms *atoms, dsi_spread_constraints *s);
int dsi_spread_constraints_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_spread_constraints *src,
				  dsi_spread_constraints *dst);

#endif
