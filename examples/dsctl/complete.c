/*
 * Shell completion: `dsctl completion bash|zsh` prints a script; the script asks
 * `dsctl __complete -- WORD...` (the words of the line up to the cursor, the last one being
 * completed) for candidates, one per line, and falls back to file names when there are none.
 * Candidates: commands, flags, flag values (formats, levels, statuses, namespaces), and the
 * DaemonSet and node names of the files given with -f on the line.
 */
#include <stdlib.h>
#include <string.h>

#include "dsctl.h"

static const char bash_script[] =
	"# bash completion for dsctl; load it with: source <(dsctl completion bash)\n"
	"_dsctl() {\n"
	"\tlocal line=\"${COMP_LINE:0:COMP_POINT}\" cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
	"\tlocal -a words cands\n"
	"\t# the words as dsctl sees them (bash splits --output=json at '=' for COMP_WORDS)\n"
	"\tread -r -a words <<<\"$line\"\n"
	"\t[[ $line =~ [[:space:]]$ ]] && words+=(\"\")\n"
	"\tlocal last=\"${words[${#words[@]}-1]}\"\n"
	"\tmapfile -t cands < <(\"${words[0]}\" __complete -- \"${words[@]:1}\" 2>/dev/null)\n"
	"\t# bash replaces only what follows its last word break: drop what precedes it\n"
	"\t[[ $cur == \"=\" || $cur == \":\" ]] && cur=\"\"\n"
	"\tlocal prefix=\"${last%\"$cur\"}\"\n"
	"\tCOMPREPLY=(\"${cands[@]#\"$prefix\"}\")\n"
	"\t[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null\n"
	"\treturn 0\n"
	"}\n"
	"complete -o default -F _dsctl dsctl\n";

static const char zsh_script[] =
	"#compdef dsctl\n"
	"# zsh completion for dsctl: save it as _dsctl in a directory of $fpath, or source it\n"
	"_dsctl() {\n"
	"\tlocal -a cands\n"
	"\tcands=(\"${(@f)$(${words[1]} __complete -- \"${(@)words[2,CURRENT]}\" 2>/dev/null)}\")\n"
	"\tcands=(${cands:#})\n"
	"\tif (( ${#cands} )); then\n"
	"\t\tlocal -a nospace=(${(M)cands:#*=}) rest=(${cands:#*=})\n"
	"\t\t(( ${#nospace} )) && compadd -Q -S '' -- \"${nospace[@]}\"\n"
	"\t\t(( ${#rest} )) && compadd -Q -- \"${rest[@]}\"\n"
	"\telse\n"
	"\t\t_files\n"
	"\tfi\n"
	"}\n"
	"if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n"
	"\t_dsctl \"$@\"\n"
	"else\n"
	"\tcompdef _dsctl dsctl\n"
	"fi\n";

int cmd_completion(ctx *c)
{
	if (strcmp(c->argv[0], "bash") == 0)
		fputs(bash_script, stdout);
	else if (strcmp(c->argv[0], "zsh") == 0)
		fputs(zsh_script, stdout);
	else
		return usage_error("completion", "unsupported shell type \"%s\": bash or zsh", c->argv[0]);
	return EXIT_OK;
}

/* ---- the candidates --------------------------------------------------------------------------- */

static void offer(const char *prefix, const char *cand)
{
	if (strncmp(cand, prefix, strlen(prefix)) == 0)
		puts(cand);
}

static const flag *find_flag(const command *cmd, const char *word)
{
	const flag *sets[2] = {dsctl_global_flags, cmd ? cmd->flags : NULL};
	for (int s = 0; s < 2; s++)
		for (const flag *f = sets[s]; f && f->name; f++) {
			size_t n = strlen(f->name);
			if ((word[0] == '-' && word[1] == '-' && strncmp(word + 2, f->name, n) == 0 &&
			     (word[2 + n] == '\0' || word[2 + n] == '=')) ||
			    (f->letter && word[0] == '-' && word[1] == f->letter))
				return f;
		}
	return NULL;
}

/* The words of a value of flag f that start with prefix; names come from the loaded files. */
static void offer_values(ctx *c, const command *cmd, const flag *f, const char *prefix, const char *before)
{
	static const char *const formats[] = {"table",
					      "wide",
					      "json",
					      "yaml",
					      "jsonpath=",
					      "jsonpath-file=",
					      "custom-columns=",
					      "custom-columns-file="};
	static const char *const statuses[] = {"placed",        "create",        "needs-preemption",
					       "unschedulable", "not-evaluated", "pending",
					       "kept",          "evict",         "not-placed"};
	static const char *const severities[] = {"critical", "high", "medium", "low", "info", "none"};
	char buf[512];
#define OFFER_ALL(list)                                                                                                \
	for (size_t i = 0; i < sizeof(list) / sizeof(list[0]); i++) {                                                  \
		snprintf(buf, sizeof(buf), "%s%s", before, list[i]);                                                   \
		offer(prefix, buf);                                                                                    \
	}
	if (strcmp(f->name, "output") == 0) {
		OFFER_ALL(formats);
		static const char *const extra[] = {"name", "svg", "sarif"};
		const int kinds[] = {OUT_NAME, OUT_SVG, OUT_SARIF};
		for (size_t i = 0; i < 3; i++)
			if (cmd && (cmd->formats & (1u << kinds[i]))) {
				snprintf(buf, sizeof(buf), "%s%s", before, extra[i]);
				offer(prefix, buf);
			}
	} else if (strcmp(f->name, "color") == 0) {
		static const char *const v[] = {"auto", "always", "never"};
		OFFER_ALL(v);
	} else if (strcmp(f->name, "validate") == 0) {
		static const char *const v[] = {"strict", "warn", "ignore", "true", "false"};
		OFFER_ALL(v);
	} else if (strcmp(f->name, "status") == 0 && f->kind == FLAG_VALUE) {
		OFFER_ALL(statuses);
	} else if (strcmp(f->name, "fail-on") == 0) {
		OFFER_ALL(severities);
	} else if (strcmp(f->name, "subresource") == 0) {
		static const char *const v[] = {"status"};
		OFFER_ALL(v);
	} else if (strcmp(f->name, "namespace") == 0 && c->cluster) {
		const char *ns, *name, *prev = NULL;
		for (size_t i = 0; ds_cluster_daemonset_at(c->cluster, i, &ns, &name, NULL) == 0; i++)
			if (!prev || strcmp(prev, ns) != 0) { /* (namespace, name) order: each namespace once */
				snprintf(buf, sizeof(buf), "%s%s", before, ns);
				offer(prefix, buf);
				prev = ns;
			}
	}
#undef OFFER_ALL
}

/* DaemonSets as the commands take them: NAME within -n; else NAMESPACE/NAME, and NAME alone when
 * it is unique across namespaces. */
static void offer_daemonsets(ctx *c, const char *prefix)
{
	const char *ns, *name, *ons, *oname;
	char buf[2 * DSCTL_NAME_MAX + 2];
	for (size_t i = 0; c->cluster && ds_cluster_daemonset_at(c->cluster, i, &ns, &name, NULL) == 0; i++) {
		if (c->ns) {
			if (strcmp(ns, c->ns) == 0)
				offer(prefix, name);
			continue;
		}
		snprintf(buf, sizeof(buf), "%s/%s", ns, name);
		offer(prefix, buf);
		size_t same = 0;
		for (size_t k = 0; ds_cluster_daemonset_at(c->cluster, k, &ons, &oname, NULL) == 0; k++)
			same += strcmp(oname, name) == 0;
		if (same == 1)
			offer(prefix, name);
	}
}

static void offer_nodes(ctx *c, const char *prefix)
{
	size_t n = c->cluster ? ds_cluster_count(c->cluster, "Node") : 0;
	const char *node;
	for (size_t i = 0; i < n; i++)
		if (ds_cluster_node_name_at(c->cluster, i, &node, NULL) == 0)
			offer(prefix, node);
}

/* The containers of a DaemonSet as "NAME=" (set image, --image). */
static void offer_containers(ctx *c, const char *ds, const char *prefix)
{
	char ns[DSCTL_NAME_MAX] = "", name[DSCTL_NAME_MAX], *text;
	const char *slash = strchr(ds, '/'), *dns, *dname;
	if (!c->cluster)
		return;
	snprintf(name, sizeof(name), "%s", slash ? slash + 1 : ds);
	if (slash)
		snprintf(ns, sizeof(ns), "%.*s", (int)(slash - ds), ds);
	else if (c->ns)
		snprintf(ns, sizeof(ns), "%s", c->ns);
	else /* a name unique across namespaces */
		for (size_t i = 0, found = 0; ds_cluster_daemonset_at(c->cluster, i, &dns, &dname, NULL) == 0; i++)
			if (strcmp(dname, name) == 0 && found++ == 0)
				snprintf(ns, sizeof(ns), "%s", dns);
			else if (strcmp(dname, name) == 0)
				return;
	if (ds_cluster_get(c->cluster, "DaemonSet", ns, name, &text, NULL) < 0)
		return;
	json_t *obj = take_json(text),
	       *spec = json_object_get(json_object_get(json_object_get(obj, "spec"), "template"), "spec");
	const char *lists[] = {"initContainers", "containers"};
	for (int l = 0; l < 2; l++) {
		size_t i;
		json_t *ct;
		json_array_foreach(json_object_get(spec, lists[l]), i, ct)
		{
			char buf[300];
			snprintf(buf, sizeof(buf), "%s=", json_string_value(json_object_get(ct, "name")));
			offer(prefix, buf);
		}
	}
	json_decref(obj);
}

/* What the k-th argument of cmd is: a DaemonSet, a node, a container pair or a file (none). */
static void offer_argument(ctx *c, const command *cmd, int k, char **args, const char *prefix)
{
	const char *n = cmd->name;
	int ds = strcmp(n, "plan") == 0 || strcmp(n, "rollout") == 0 || strcmp(n, "status") == 0 ||
		 strcmp(n, "history") == 0 || strcmp(n, "rollback") == 0 || strcmp(n, "audit") == 0 ||
		 strcmp(n, "demo") == 0 || ((strcmp(n, "explain") == 0 || strcmp(n, "pod") == 0) && k == 0);
	int node = strcmp(n, "cordon") == 0 || strcmp(n, "uncordon") == 0 || strcmp(n, "drain") == 0 ||
		   strcmp(n, "upgrade") == 0 || ((strcmp(n, "explain") == 0 || strcmp(n, "pod") == 0) && k == 1) ||
		   (strcmp(n, "fit") == 0 && k == 1);
	if (ds)
		offer_daemonsets(c, prefix);
	else if (node)
		offer_nodes(c, prefix);
	else if (strcmp(n, "help") == 0 && k == 0) {
		for (const command *x = dsctl_commands; x->name; x++)
			if (x->name[0] != '_')
				offer(prefix, x->name);
	} else if (strcmp(n, "completion") == 0 && k == 0) {
		offer(prefix, "bash");
		offer(prefix, "zsh");
	} else if (strcmp(n, "set") == 0) {
		if (k == 0)
			offer(prefix, "image");
		else if (k == 1)
			offer_daemonsets(c, prefix);
		else
			offer_containers(c, args[1], prefix);
	}
}

int cmd_complete(ctx *c)
{
	int nw = c->argc;
	char **w = c->argv;
	if (nw == 0)
		return EXIT_OK;
	const char *cur = w[nw - 1];
	/* the command, the arguments before the cursor, -f and -n: read from the words as dsctl will */
	const command *cmd = NULL;
	char **args = calloc((size_t)nw + 1, sizeof(*args));
	const char **files = calloc((size_t)nw + 1, sizeof(*files));
	int nargs = 0, nfiles = 0, after_dashes = 0;
	const flag *pending = NULL; /* the flag whose value the next word is */
	if (!args || !files) {
		free(args);
		free(files);
		return EXIT_ERROR;
	}
	for (int i = 0; i < nw - 1; i++) {
		const char *x = w[i];
		if (pending) {
			if (strcmp(pending->name, "filename") == 0)
				files[nfiles++] = x;
			else if (strcmp(pending->name, "namespace") == 0)
				c->ns = x;
			pending = NULL;
		} else if (!after_dashes && strcmp(x, "--") == 0) {
			after_dashes = 1;
		} else if (!after_dashes && x[0] == '-' && x[1]) {
			const flag *f = find_flag(cmd, x);
			const char *eq = strchr(x, '=');
			int attached = f && (eq || (x[1] != '-' && x[2]));
			if (f && f->kind != FLAG_BOOL && !attached)
				pending = f;
			else if (f && attached) {
				const char *v = eq ? eq + 1 : x + 2;
				if (strcmp(f->name, "filename") == 0)
					files[nfiles++] = v;
				else if (strcmp(f->name, "namespace") == 0)
					c->ns = v;
			}
		} else if (!cmd) {
			for (const command *k = dsctl_commands; k->name && !cmd; k++)
				if (strcmp(k->name, x) == 0)
					cmd = k;
		} else {
			args[nargs++] = w[i];
		}
	}
	/* the names come from the files of the line (standard input is not read: it is the terminal) */
	if (nfiles && ds_cluster_new(c->opts, &c->cluster, NULL) == 0)
		for (int i = 0; i < nfiles; i++)
			if (strcmp(files[i], "-") != 0)
				ds_cluster_load_file(c->cluster, files[i], NULL, NULL);
	if (pending) {
		offer_values(c, cmd, pending, cur, "");
	} else if (cur[0] == '-' && strchr(cur, '=') && !after_dashes) {
		const flag *f = find_flag(cmd, cur);
		if (f) {
			char before[128];
			snprintf(before, sizeof(before), "%.*s", (int)(strchr(cur, '=') - cur + 1), cur);
			offer_values(c, cmd, f, cur, before);
		}
	} else if (cur[0] == '-' && !after_dashes) {
		const flag *sets[2] = {dsctl_global_flags, cmd ? cmd->flags : NULL};
		for (int s = 0; s < 2; s++)
			for (const flag *f = sets[s]; f && f->name; f++) {
				char buf[128];
				snprintf(buf, sizeof(buf), "--%s%s", f->name, f->kind == FLAG_BOOL ? "" : "=");
				offer(cur, buf);
			}
	} else if (!cmd) {
		for (const command *k = dsctl_commands; k->name; k++)
			if (k->name[0] != '_')
				offer(cur, k->name);
	} else {
		offer_argument(c, cmd, nargs, args, cur);
	}
	free(args);
	free(files);
	return EXIT_OK;
}
