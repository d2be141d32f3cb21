#include "sched/sched_options.h"

#include <string.h>

#include "core/alloc.h"

static const dsi_sched_options defaults = {NULL, NULL};

const dsi_sched_options *dsi_sched_options_default(void) { return &defaults; }

#define O(field) offsetof(dsi_sched_options, field)
static const dsi_opt_def defs[] = {
	{"ignoredResources", DSI_OPT_STRING, O(ignored_resources), 0, 0, NULL, NULL, NULL},
	{"ignoredResourceGroups", DSI_OPT_STRING, O(ignored_resource_groups), 0, 0, NULL, NULL, NULL},
};
#undef O

const dsi_opt_table dsi_sched_option_table = {defs, DSI_ARRAY_LEN(defs), sizeof(dsi_sched_options), &defaults};

/* s[0..n) is one of the comma-separated entries of list (blanks around entries ignored). */
static int listed(const char *list, const char *s, size_t n)
{
	for (const char *p = list; p && *p;) {
		p += strspn(p, ", \t");
		size_t len = strcspn(p, ",");
		size_t end = len;
		while (end && (p[end - 1] == ' ' || p[end - 1] == '\t'))
			end--;
		if (end && end == n && memcmp(p, s, n) == 0)
			return 1;
		p += len;
	}
	return 0;
}

/* Fit's ignoredResources and ignoredResourceGroups (scheduler plugins/noderesources/fit.go fitsRequest) */
void dsi_requests_ignore(const dsi_atoms *atoms, dsi_resources *req, const dsi_sched_options *o)
{
	if (!o->ignored_resources && !o->ignored_resource_groups)
		return;
	for (uint32_t i = 0; i < req->nscalars; i++) {
		const char *name = dsi_atom_str(atoms, req->scalars[i].name);
		if (!name || !dsi_is_extended_resource_name(name))
			continue;
		const char *slash = strchr(name, '/');
		if (listed(o->ignored_resources, name, strlen(name)) ||
		    (slash && listed(o->ignored_resource_groups, name, (size_t)(slash - name))))
			req->scalars[i].value = 0;
	}
}
