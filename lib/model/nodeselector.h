/*
 * Node selectors as pod specs carry them: the required node affinity
 * (NodeSelector: terms ORed, requirements ANDed) and preferred terms with
 * weights. Parsed once per object; matching lives in lib/sched/nodeaffinity.c.
 */
#ifndef DSI_NODESELECTOR_H
#define DSI_NODESELECTOR_H

#include <jansson.h>
#include <stdint.h>

#include "core/atoms.h"
#include "core/reader.h"
#include "model/selector.h"

/* A matchFields requirement: only metadata.name exists as a node field. */
typedef struct dsi_field_req {
	uint8_t is_name; /* key is metadata.name; any other key reads as "" */
	uint8_t not_in;  /* NotIn rather than In */
	dsi_atom value;
} dsi_field_req;

typedef struct dsi_ns_term {
	dsi_requirement *exprs; /* sorted by key atom id (stable), as node labels are */
	dsi_field_req *fields;
	uint32_t nexprs, nfields;
	int32_t weight;  /* preferred terms only */
	uint8_t invalid; /* a parse error: the term never matches (errors are lazy upstream) */
	uint8_t empty;   /* neither expressions nor fields: dropped, matches nothing */
	char *error;     /* upstream's error text for an invalid term */
} dsi_ns_term;

typedef struct dsi_node_selector {
	dsi_ns_term *terms;
	uint32_t n;
	uint8_t present; /* a required selector exists: with no usable term it matches nothing */
} dsi_node_selector;

/* Read a NodeSelector (required affinity) from member key of obj. Wrong JSON
 * types are errors; invalid requirements only mark their term invalid. */
int dsi_node_selector_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_node_selector *out);
/* The same for the NodeSelector value sel itself, at rd's current path. */
int dsi_node_selector_read_value(dsi_rd *rd, dsi_atoms *atoms, const json_t *sel, dsi_node_selector *out);
/* Read preferredDuringSchedulingIgnoredDuringExecution ([]PreferredSchedulingTerm). */
int dsi_preferred_terms_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_node_selector *out);
void dsi_node_selector_release(dsi_atoms *atoms, dsi_node_selector *s);

#endif
