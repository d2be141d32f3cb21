/* dsctl version, demo. */
#include <stdlib.h>
#include <string.h>

#include "dsctl.h"

int cmd_version(ctx *c)
{
	json_t *v = json_pack("{s:s, s:s}", "dsctl", DS_VERSION_STRING, "libdaemonset", ds_version());
	int p = print_structured(c, v);
	if (!p)
		printf("dsctl %s (libdaemonset %s)\n", DS_VERSION_STRING, ds_version());
	json_decref(v);
	return p < 0 ? EXIT_ERROR : EXIT_OK;
}

/* The tour `make demo` runs: what was loaded, fluentd's placement, its next sync, its audit. */
int cmd_demo(ctx *c)
{
	const char *ds = c->argc ? c->argv[0] : "kube-system/fluentd-logging";
	char *saved[1] = {(char *)ds}, **argv = c->argv;
	int argc = c->argc;
	heading(c, "== What the snapshot holds (dsctl get)");
	c->argc = 0; /* get without a type: the summary */
	int rc = cmd_get(c);
	/* the other commands take the DaemonSet as their argument */
	c->argc = 1;
	c->argv = saved;
	if (rc == EXIT_OK) {
		printf("\n");
		heading(c, "== Where fluentd-logging runs, and why not elsewhere (dsctl explain)");
		rc = cmd_explain(c);
	}
	if (rc == EXIT_OK) {
		printf("\n");
		heading(c, "== What the controller's next sync does (dsctl plan)");
		rc = cmd_plan(c);
	}
	if (rc == EXIT_OK) {
		printf("\n");
		heading(c, "== Is it safe (dsctl audit)");
		rc = cmd_audit(c);
		rc = rc == EXIT_CHECK ? EXIT_OK : rc; /* a failing audit is the demo's point, not an error */
	}
	c->argc = argc;
	c->argv = argv;
	return rc;
}
