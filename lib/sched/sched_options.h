/* The settings of the scheduler's view: NodeResourcesFitArgs. */
#ifndef DSI_SCHED_OPTIONS_H
#define DSI_SCHED_OPTIONS_H

#include "core/optparse.h"
#include "model/resources.h"

typedef struct dsi_sched_options {
	char *ignored_resources;       /* NodeResourcesFitArgs.ignoredResources: names separated by commas */
	char *ignored_resource_groups; /* NodeResourcesFitArgs.ignoredResourceGroups: prefixes before '/' */
} dsi_sched_options;

extern const dsi_opt_table dsi_sched_option_table;
const dsi_sched_options *dsi_sched_options_default(void);

/* fitsRequest's skip of ignored extended resources, applied to a pod's own request: each extended
 * resource (IsExtendedResourceName) named in ignoredResources, or whose group (the text before '/')
 * is in ignoredResourceGroups, is set to 0. fitsRequest then skips it as upstream does (a request
 * of 0 is never insufficient) while it still counts as an entry of the request. */
void dsi_requests_ignore(const dsi_atoms *atoms, dsi_resources *req, const dsi_sched_options *o);

#endif
