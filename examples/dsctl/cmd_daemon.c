/* dsctl pod, history, rollback: the pod for a node and the revision history. */
#include <stdlib.h>
#include <string.h>

#include "dsctl.h"

int cmd_pod(ctx *c)
{
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	int rc = command_ds(c, ns, name);
	if (rc)
		return rc;
	/* the library makes a pod for any node name (NewPod needs none); a node the dump does not have is a
	 * typo, not a question */
	if (!node_exists(c, node_arg(c->argv[1])))
		return not_found(c, "Node", NULL, node_arg(c->argv[1]));
	char *text;
	ds_error err;
	if (ds_daemonset_pod(c->cluster, ns, name, node_arg(c->argv[1]), c->opts, &text, &err) < 0)
		return fail("cannot generate the pod", &err);
	json_t *pod = take_json(text);
	int p = print_structured(c, pod);
	if (!p)
		print_yaml(pod); /* a manifest reads best as YAML, also by default */
	json_decref(pod);
	return p < 0 ? EXIT_ERROR : EXIT_OK;
}

int cmd_history(ctx *c)
{
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	int rc = command_ds(c, ns, name);
	if (rc)
		return rc;
	char *text;
	ds_error err;
	if (ds_daemonset_history(c->cluster, ns, name, c->opts, &text, &err) < 0)
		return fail("cannot read the history", &err);
	json_t *doc = take_json(text);
	int p = print_structured(c, doc);
	if (!p) {
		json_t *cur = json_object_get(doc, "current");
		say(c, 2, "daemonset.apps/%s: current revision %lld (%s%s), pods labelled %s\n\n", name,
		    (long long)json_integer_value(json_object_get(cur, "revision")),
		    json_string_value(json_object_get(cur, "name")),
		    json_is_true(json_object_get(cur, "exists")) ? "" : ", created by the next sync",
		    json_string_value(json_object_get(doc, "hash")));
		table *t = table_new(4, "REVISION", "NAME", "HASH", "PODS");
		size_t i;
		json_t *r;
		json_array_foreach(json_object_get(doc, "revisions"), i, r)
		{
			char rev[32], pods[32];
			snprintf(rev, sizeof(rev), "%lld%s",
				 (long long)json_integer_value(json_object_get(r, "revision")),
				 json_is_true(json_object_get(r, "current")) ? " (current)" : "");
			const char *h = json_string_value(json_object_get(r, "hash"));
			snprintf(pods, sizeof(pods), "%lld",
				 (long long)json_integer_value(json_object_get(json_object_get(doc, "podsByHash"), h)));
			table_row(t, rev, json_string_value(json_object_get(r, "name")), h, pods);
		}
		table_print(t, c);
		if (json_array_size(json_object_get(doc, "wouldDelete")))
			say(c, 2, "\nThe next sync deletes %zu revision(s) beyond revisionHistoryLimit %lld.\n",
			    json_array_size(json_object_get(doc, "wouldDelete")),
			    (long long)json_integer_value(json_object_get(doc, "revisionHistoryLimit")));
		size_t k;
		json_t *w;
		json_array_foreach(json_object_get(doc, "warnings"), k, w) printf(
			"%swarning:%s %s\n", colour(c, "warn"), colour(c, "reset"),
			json_is_string(w) ? json_string_value(w) : json_string_value(json_object_get(w, "message")));
	}
	json_decref(doc);
	return p < 0 ? EXIT_ERROR : EXIT_OK;
}

int cmd_rollback(ctx *c)
{
	long long to = 0;
	const char *v = flag_value(c, "to-revision");
	if (v) {
		char *end;
		to = strtoll(v, &end, 10);
		if (!*v || *end || to < 0)
			return usage_error("rollback",
					   "invalid argument \"%s\" for \"--to-revision\" flag: a revision number", v);
	}
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX];
	int rc = resolve_ds(c, c->argv[0], ns, name);
	if (rc)
		return rc;
	char *text;
	ds_error err;
	if (ds_daemonset_rollback(c->cluster, ns, name, to, c->opts, &text, &err) < 0) {
		fprintf(stderr, "error: %s\n", err.message); /* kubectl's own words */
		return EXIT_ERROR;
	}
	json_t *doc = take_json(text);
	int p = print_structured(c, doc);
	if (!p)
		puts(json_string_value(json_object_get(doc, "message")));
	json_decref(doc);
	return p < 0 ? EXIT_ERROR : EXIT_OK;
}

/* kubectl rollout status for a DaemonSet (DaemonSetStatusViewer.Status in k8s.io/kubectl
 * pkg/polymorphichelpers/rollout_status.go), on the status the controller would write at --now, whose
 * observedGeneration is the generation. kubectl then waits; a snapshot does not change. */
int cmd_rollout_status(ctx *c)
{
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX], *text;
	int rc = command_ds(c, ns, name);
	if (rc)
		return rc;
	ds_error err;
	if (ds_cluster_get(c->cluster, "DaemonSet", ns, name, &text, &err) < 0)
		return fail("cannot read the DaemonSet", &err);
	json_t *ds = take_json(text);
	const char *type = json_string_value(
		json_object_get(json_object_get(json_object_get(ds, "spec"), "updateStrategy"), "type"));
	int rolling = !type || strcmp(type, "RollingUpdate") == 0; /* the API server's default */
	json_decref(ds);
	if (!rolling) {
		fprintf(stderr, "error: rollout status is only available for RollingUpdate strategy type\n");
		return EXIT_ERROR;
	}
	ds_status st = DS_STATUS_INIT;
	if (ds_daemonset_status(c->cluster, ns, name, c->now, c->opts, &st, &err) < 0)
		return fail("status failed", &err);
	int done = 0;
	if (st.updated_number_scheduled < st.desired_number_scheduled)
		say(c, 2,
		    "Waiting for daemon set \"%s\" rollout to finish: %d out of %d new pods have been updated...\n",
		    name, st.updated_number_scheduled, st.desired_number_scheduled);
	else if (st.number_available < st.desired_number_scheduled)
		say(c, 2, "Waiting for daemon set \"%s\" rollout to finish: %d of %d updated pods are available...\n",
		    name, st.number_available, st.desired_number_scheduled);
	else
		done = printf("daemon set \"%s\" successfully rolled out\n", name) > 0;
	if (done || (flag_value(c, "watch") && !flag_on(c, "watch")))
		return EXIT_OK;
	fflush(stdout); /* kubectl's line first, then why dsctl stops there */
	fprintf(stderr,
		"dsctl reads a snapshot and cannot wait for the rollout;\n'dsctl rollout %s/%s' simulates the rest\n",
		ns, name);
	return EXIT_CHECK;
}

/* kubectl rollout history (printHistory in k8s.io/kubectl pkg/polymorphichelpers/history.go): the
 * DaemonSet's ControllerRevisions by revision with their change-cause annotation. --revision N prints
 * that revision's template, as YAML where kubectl describes it. */
int cmd_rollout_history(ctx *c)
{
	char ns[DSCTL_NAME_MAX], name[DSCTL_NAME_MAX], *text;
	long long want = 0;
	const char *v = flag_value(c, "revision");
	if (v) {
		char *end;
		want = strtoll(v, &end, 10);
		if (!*v || *end || want < 0)
			return usage_error("rollout",
					   "invalid argument \"%s\" for \"--revision\" flag: a revision number", v);
	}
	int rc = resolve_ds(c, c->argv[0], ns, name);
	if (rc)
		return rc;
	ds_error err;
	if (ds_daemonset_history(c->cluster, ns, name, c->opts, &text, &err) < 0)
		return fail("cannot read the history", &err);
	json_t *doc = take_json(text), *r, *found = NULL, *rows = json_array();
	size_t i;
	json_array_foreach(json_object_get(doc, "revisions"), i, r)
	{
		const char *crname = json_string_value(json_object_get(r, "name"));
		char *crtext;
		if (!crname || ds_cluster_get(c->cluster, "ControllerRevision", ns, crname, &crtext, &err) < 0)
			continue; /* the revision the next sync creates: not there yet */
		json_t *cr = take_json(crtext);
		long long rev = json_integer_value(json_object_get(r, "revision"));
		const char *cause = json_string_value(json_object_get(
			json_object_get(json_object_get(cr, "metadata"), "annotations"), "kubernetes.io/change-cause"));
		json_array_append_new(rows, json_pack("{s:I, s:s}", "revision", (json_int_t)rev, "cause",
						      cause && *cause ? cause : "<none>"));
		if (want && rev == want && !found)
			found = json_incref(cr);
		json_decref(cr);
	}
	json_decref(doc);
	rc = EXIT_OK;
	if (!json_array_size(rows)) {
		printf("daemonset.apps/%s \nNo rollout history found.\n", name);
	} else if (want && !found) {
		fprintf(stderr, "error: unable to find the specified revision\n");
		rc = EXIT_ERROR;
	} else if (want) {
		/* the revision's data is the patch of the template (spec.template, with $patch: replace) */
		json_t *tpl = json_object_get(json_object_get(json_object_get(found, "data"), "spec"), "template");
		printf("daemonset.apps/%s with revision #%lld\nPod Template:\n", name, want);
		json_t *copy = json_deep_copy(tpl ? tpl : json_object());
		json_object_del(copy, "$patch");
		print_yaml(copy);
		json_decref(copy);
	} else {
		/* kubectl's tabwriter: columns padded by 2 */
		printf("daemonset.apps/%s \n", name);
		int w = 8;
		json_array_foreach(rows, i, r)
		{
			int n = snprintf(NULL, 0, "%lld",
					 (long long)json_integer_value(json_object_get(r, "revision")));
			if (n > w)
				w = n;
		}
		printf("%-*s  CHANGE-CAUSE\n", w, "REVISION");
		json_array_foreach(rows, i, r)
		{
			char num[32];
			snprintf(num, sizeof(num), "%lld",
				 (long long)json_integer_value(json_object_get(r, "revision")));
			printf("%-*s  %s\n", w, num, json_string_value(json_object_get(r, "cause")));
		}
		printf("\n");
	}
	json_decref(found);
	json_decref(rows);
	return rc;
}
