/*
 * The pieces of the scenario runner (include/daemonset/scenario.h):
 * scenario_form.c checks a scenario's form before anything runs,
 * scenario_checks.c runs one well-formed check, scenario.c reads the text,
 * layers the options, loads the cluster and assembles the result.
 */
#ifndef DSI_SCENARIO_INT_H
#define DSI_SCENARIO_INT_H

#include <jansson.h>

#include "daemonset.h"
#include "daemonset/jansson.h"

/* The kinds of check, in the order that decides a check's kind when it names several. */
typedef enum dsi_sc_kind {
	DSI_SC_EXPLAIN,
	DSI_SC_SHOULD_RUN,
	DSI_SC_PLAN,
	DSI_SC_STATUS,
	DSI_SC_POD,
	DSI_SC_ROLLOUT,
	DSI_SC_DRAIN,
	DSI_SC_AUDIT,
	DSI_SC_KINDS
} dsi_sc_kind;

/* "explain", "shouldRunOn", ... */
const char *dsi_scenario_kind_name(dsi_sc_kind kind);
/* The kind of a check: the first kind key it has, or DSI_SC_KINDS. */
dsi_sc_kind dsi_scenario_kind_of(const json_t *check);

/*
 * Check the form of a scenario document: a mapping whose keys are all known
 * and whose every value has a type its field takes, down to the elements of
 * each expectation. Values are not interpreted beyond that (times and
 * options are read by the runner). 0, or DS_ETYPE, DS_EVALUE or DS_EMISSING
 * with err->path the field's path in the scenario ("checks[2].creates[0]").
 */
int dsi_scenario_form(const json_t *scenario, ds_error *err);

/*
 * Run one check that dsi_scenario_form accepted, on the snapshot, at now,
 * with options o; append a text to failures for each comparison that fails
 * (prefixed with the check's name when it has one). An error of the library
 * function the check calls is one more failure ("DS_ENOTFOUND: ..."). Returns
 * 0, or DS_EARG for a check without a kind.
 */
int dsi_scenario_check(const ds_cluster *cluster, const json_t *check, ds_time now, const ds_options *o,
		       json_t *failures, ds_error *err);

/* A JSON string of s, with '?' for bytes that are not UTF-8 (a text cut short). */
json_t *dsi_scenario_text(const char *s);

#endif
