/* The command table: each command's arguments, flags, help and examples. */
#include "dsctl.h"

#define SELECTOR_FLAG                                                                                                  \
	{                                                                                                              \
		"selector", 'l', FLAG_VALUE, "SELECTOR",                                                               \
			"only the nodes with these labels (app=x,tier in (a,b),!legacy)"                               \
	}
#define EDIT_FLAGS                                                                                                     \
	{"image", 0, FLAG_LIST, "CONTAINER=IMAGE",                                                                     \
	 "first set the image as 'dsctl set image' does (the API server's update: generation bumped)"},                \
		{"template", 0, FLAG_VALUE, "FILE",                                                                    \
		 "first replace the pod template with FILE's (a PodTemplateSpec, or a DaemonSet's)"},                  \
	{                                                                                                              \
		"strategy", 0, FLAG_VALUE, "SETTINGS",                                                                 \
			"first change the update strategy: maxUnavailable=10%,maxSurge=1 or type=OnDelete"             \
	}
#define DRAIN_FLAGS                                                                                                    \
	{"force", 0, FLAG_BOOL, NULL, "also pods without a controller (kubectl drain --force)"},                       \
		{"ignore-daemonsets", 0, FLAG_BOOL, NULL,                                                              \
		 "ignore DaemonSet-managed pods instead of refusing the drain"},                                       \
		{"delete-emptydir-data", 0, FLAG_BOOL, NULL, "also pods with emptyDir volumes (their data is lost)"},  \
		{"disable-eviction", 0, FLAG_BOOL, NULL,                                                               \
		 "delete instead of evicting (bypasses PodDisruptionBudgets)"},                                        \
		{"grace-period", 0, FLAG_VALUE, "SECONDS", "each pod's grace period (-1: the pod's own)"},             \
		{"skip-wait-for-delete-timeout", 0, FLAG_VALUE, "SECONDS",                                             \
		 "skip pods whose deletionTimestamp is older than this"},                                              \
	{                                                                                                              \
		"pod-selector", 0, FLAG_VALUE, "SELECTOR", "only the pods with these labels"                           \
	}

static const flag explain_flags[] = {
	SELECTOR_FLAG,
	{"status", 0, FLAG_VALUE, "STATUS[,STATUS]",
	 "only the nodes with these statuses (placed, create, not-placed, ...)"},
	{"reason", 0, FLAG_VALUE, "TEXT", "only the nodes whose reasons mention TEXT (a plugin, a taint key, ...)"},
	{"summary", 0, FLAG_BOOL, NULL, "counts by status and by reason instead of one row per node"},
	{"plot", 0, FLAG_VALUE, "FILE", "also draw the node map as SVG into FILE ('-': standard output, as -o svg)"},
	EDIT_FLAGS,
	{NULL, 0, 0, NULL, NULL},
};
static const flag get_flags[] = {
	{"selector", 'l', FLAG_VALUE, "SELECTOR", "only the objects with these labels (app=x,tier in (a,b),!legacy)"},
	{"field-selector", 0, FLAG_VALUE, "SELECTOR",
	 "only the objects whose fields match (metadata.name=x, spec.nodeName=worker-1, status.phase!=Running, "
	 "spec.unschedulable=true)"},
	{"all-namespaces", 'A', FLAG_BOOL, NULL, "every namespace (the default without -n: a dump has no current one)"},
	{"show-labels", 0, FLAG_BOOL, NULL, "a LABELS column"},
	{NULL, 0, 0, NULL, NULL},
};
static const flag plan_flags[] = {SELECTOR_FLAG, EDIT_FLAGS, {NULL, 0, 0, NULL, NULL}};
static const flag edit_only_flags[] = {EDIT_FLAGS, {NULL, 0, 0, NULL, NULL}};
static const flag rollout_flags[] = {
	{"plot", 0, FLAG_VALUE, "FILE", "also draw the rollout as SVG into FILE ('-': standard output, as -o svg)"},
	EDIT_FLAGS,
	{"to-revision", 0, FLAG_VALUE, "N", "rollout undo: the revision to roll back to (default 0: the previous one)"},
	{"revision", 0, FLAG_VALUE, "N", "rollout history: the details of revision N"},
	{"watch", 'w', FLAG_BOOL, NULL,
	 "rollout status: false prints the status and exits 0, as kubectl's --watch=false (default true: exit 3 "
	 "when the rollout is not finished, which dsctl cannot wait for)"},
	{NULL, 0, 0, NULL, NULL},
};
static const flag rollback_flags[] = {
	{"to-revision", 0, FLAG_VALUE, "N", "the revision to roll back to (default 0: the previous one)"},
	{NULL, 0, 0, NULL, NULL},
};
static const flag audit_flags[] = {
	{"fail-on", 0, FLAG_VALUE, "SEVERITY",
	 "exit 3 when a finding is at least this severe: critical, high, medium, low, info or none"},
	{"ignore", 0, FLAG_LIST, "ID", "leave out this check (repeatable; the annotation does it per DaemonSet)"},
	{NULL, 0, 0, NULL, NULL},
};
static const flag validate_flags[] = {
	{"old", 0, FLAG_VALUE, "FILE", "validate an update of the stored DaemonSet in FILE"},
	{"subresource", 0, FLAG_VALUE, "status", "with --old: a write to the status subresource"},
	{"status", 0, FLAG_BOOL, NULL, "the same as --subresource=status"},
	{"as-is", 0, FLAG_BOOL, NULL, "upstream's validation alone: no defaults, no registry preparation"},
	{NULL, 0, 0, NULL, NULL},
};
static const flag cordon_flags[] = {SELECTOR_FLAG, {NULL, 0, 0, NULL, NULL}};
static const flag drain_flags[] = {SELECTOR_FLAG, DRAIN_FLAGS, {NULL, 0, 0, NULL, NULL}};
static const flag upgrade_flags[] = {
	SELECTOR_FLAG,
	{"batch-size", 0, FLAG_VALUE, "N", "nodes drained at a time (default 1)"},
	DRAIN_FLAGS,
	{NULL, 0, 0, NULL, NULL},
};

#define FORMAT(x) (1u << (x))

const command dsctl_commands[] = {
	{"get", "[TYPE[,TYPE...] [NAME...] | TYPE/NAME...]",
	 "kubectl get over the loaded objects; without TYPE, a summary of what was loaded",
	 "TYPE is daemonsets (ds), nodes (no), pods (po), controllerrevisions, poddisruptionbudgets (pdb) or\n"
	 "priorityclasses (pc), in any of kubectl's spellings. Without -n, every namespace (a dump has no current\n"
	 "namespace), as -A. The tables are kubectl's; a DaemonSet's counts are the status the controller would\n"
	 "write at --now. -o json and -o yaml print the objects themselves (one that was named, else a v1 List)\n"
	 "as loaded, which dsctl -f and kubectl read back; -o jsonpath= and -o custom-columns= run over them as\n"
	 "kubectl's do. Without TYPE, -o prints every loaded object.",
	 "  # The DaemonSets of a dump, as kubectl get ds -A shows them\n"
	 "  kubectl get nodes,pods,ds,controllerrevisions -A -o yaml > dump.yaml\n"
	 "  dsctl -f dump.yaml get ds\n\n"
	 "  # One DaemonSet as YAML, which loads again\n"
	 "  dsctl -f dump.yaml get ds/fluentd-logging -n kube-system -o yaml\n\n"
	 "  # The names of the DaemonSets\n"
	 "  dsctl -f dump.yaml get ds -o jsonpath='{.items[*].metadata.name}'\n\n"
	 "  # The pods on one node, and the GPU nodes\n"
	 "  dsctl -f dump.yaml get pods --field-selector spec.nodeName=worker-1 -o wide\n"
	 "  dsctl -f dump.yaml get nodes -l nvidia.com/gpu.present=true\n\n"
	 "  # What was loaded\n"
	 "  dsctl -f dump.yaml get\n",
	 get_flags, 0, -1, FORMAT(OUT_NAME), NULL, 1, cmd_get, "list ls"},
	{"explain", "DAEMONSET [NODE]", "Per node: placed or not, and why (the controller's and the scheduler's view)",
	 "DAEMONSET is NAME, NAMESPACE/NAME or ds/NAME (with -n, or a name unique across namespaces). With NODE,\n"
	 "every reason for that node. Statuses: placed, create (the next sync creates a pod), needs-preemption,\n"
	 "unschedulable, not-evaluated (volumes or resource claims: a filter the library does not run), pending,\n"
	 "kept (a NoSchedule taint came later: the pod stays), evict, not-placed.",
	 "  # Why fluentd runs or does not run on each node\n"
	 "  dsctl -f dump.yaml explain kube-system/fluentd-logging\n\n"
	 "  # How many nodes are not placed, and why\n"
	 "  dsctl -f dump.yaml explain fluentd-logging --summary\n\n"
	 "  # Only the GPU nodes that get no pod\n"
	 "  dsctl -f dump.yaml explain ds/nvidia-device-plugin -n kube-system -l gpu=true --status not-placed\n\n"
	 "  # A node map as a picture\n"
	 "  dsctl -f dump.yaml explain fluentd-logging --plot placement.svg\n",
	 explain_flags, 1, 2, FORMAT(OUT_SVG), "rows", 1, cmd_explain, "describe why"},
	{"plan", "DAEMONSET", "What one sync of the DaemonSet controller does now: creates, deletes, status",
	 "Deterministic: nodes are walked in name order. --now sets the time; --set burstReplicas=N and\n"
	 "--set kubernetesVersion=1.33 change what the controller does.",
	 "  # The next sync\n"
	 "  dsctl -f dump.yaml plan kube-system/fluentd-logging\n\n"
	 "  # The next sync after an image bump, on the nodes of one zone\n"
	 "  dsctl -f dump.yaml plan fluentd-logging --image fluentd=fluentd:v1.17 -l "
	 "topology.kubernetes.io/zone=eu-west-1b\n",
	 plan_flags, 1, 1, 0, NULL, 1, cmd_plan, "diff sync"},
	{"rollout", "[status|history|undo] DAEMONSET",
	 "Simulate the whole rollout: waves, per-node times, budgets, stalls",
	 "The simulation states its assumptions; set them with --set simReadyAfter=10s, simTerminateAfter=5s,\n"
	 "simFailNodes=node-a,node-b, simMaxTime=24h. partition, paused, rolloutNodeSelector and updateOrder\n"
	 "control the update (see ds_options_create(3)). Exit status 3 when the rollout does not complete,\n"
	 "whatever the output format.\n\n"
	 "kubectl's subcommands, on the snapshot: 'rollout status ds/NAME' prints kubectl's line for the status the\n"
	 "controller would write now (exit status 3 while the rollout is not finished, 0 with --watch=false);\n"
	 "'rollout history ds/NAME' lists the ControllerRevisions as kubectl does (--revision N: that revision's\n"
	 "template, as YAML); 'rollout undo ds/NAME [--to-revision N]' is dsctl rollback.",
	 "  # Roll out a new image with 10% unavailable at a time, and draw it\n"
	 "  dsctl -f dump.yaml rollout fluentd-logging --image fluentd=fluentd:v1.17 \\\n"
	 "      --strategy maxUnavailable=10% --plot rollout.svg\n\n"
	 "  # When does each node get the new pod\n"
	 "  dsctl -f dump.yaml rollout fluentd-logging --template new-template.yaml -o wide\n\n"
	 "  # kubectl's rollout commands\n"
	 "  dsctl -f dump.yaml rollout status ds/fluentd-logging -n kube-system\n"
	 "  dsctl -f dump.yaml rollout history daemonset/fluentd-logging -n kube-system\n"
	 "  dsctl -f dump.yaml rollout undo ds/fluentd-logging -n kube-system --to-revision 1\n",
	 rollout_flags, 1, 1, FORMAT(OUT_SVG), "waves", 1, cmd_rollout, "simulate"},
	{"status", "DAEMONSET", "The status counters the controller would write", NULL,
	 "  dsctl -f dump.yaml status kube-system/fluentd-logging\n", edit_only_flags, 1, 1, 0, NULL, 1, cmd_status,
	 NULL},
	{"pod", "DAEMONSET NODE", "The Pod the controller creates for NODE (YAML by default)", NULL,
	 "  dsctl -f dump.yaml pod fluentd-logging worker-1\n\n"
	 "  # With a new image: the pod the rollout creates\n"
	 "  dsctl -f dump.yaml pod fluentd-logging worker-1 --image fluentd=fluentd:v1.17\n",
	 edit_only_flags, 2, 2, 0, NULL, 1, cmd_pod, NULL},
	{"history", "DAEMONSET", "ControllerRevisions: current, old, pods per revision", NULL,
	 "  dsctl -f dump.yaml history kube-system/fluentd-logging\n", NULL, 1, 1, 0, "revisions", 1, cmd_history,
	 NULL},
	{"rollback", "DAEMONSET", "kubectl rollout undo: the template restored (prints the result)",
	 "Prints kubectl's message; -o yaml prints the restored DaemonSet and the patch kubectl sends.",
	 "  dsctl -f dump.yaml rollback fluentd-logging --to-revision 2\n", rollback_flags, 1, 1, 0, NULL, 1,
	 cmd_rollback, "undo"},
	{"set", "image DAEMONSET CONTAINER=IMAGE...", "kubectl set image: the DaemonSet as the API server stores it",
	 "CONTAINER is a container's or init container's name, or * for all. Prints kubectl's message, then the\n"
	 "DaemonSet as stored (generation and template generation bumped) with -o yaml or json. To see what the\n"
	 "change does, give the same --image to plan, rollout, pod or explain.",
	 "  dsctl -f dump.yaml set image ds/fluentd-logging -n kube-system fluentd=fluentd:v1.17\n"
	 "  dsctl -f dump.yaml set image fluentd-logging '*=registry.local/fluentd:v1.17' -o yaml\n",
	 NULL, 3, -1, 0, NULL, 1, cmd_set, NULL},
	{"fit", "POD-FILE NODE", "Scheduler filters and preemption for a pod manifest on a node", NULL,
	 "  dsctl -f dump.yaml fit my-pod.yaml worker-1\n", NULL, 2, 2, 0, "reasons", 1, cmd_fit, NULL},
	{"audit", "[DAEMONSET]...", "Pod Security Standards and DaemonSet risks (all DaemonSets without arguments)",
	 "--set podSecurityLevel=baseline|restricted and --set podSecurityVersion=v1.30 select the standard.\n"
	 "Unknown fields are findings (--validate=ignore leaves them out). A finding is suppressed by the\n"
	 "DaemonSet's annotation audit.libdaemonset.io/ignore: \"id,id\" or by --ignore ID.\n"
	 "Exit status 3 when a DaemonSet does not meet the requested level, or has a finding at --fail-on.",
	 "  # Every DaemonSet of a dump\n"
	 "  dsctl -f dump.yaml audit\n\n"
	 "  # In CI: fail on high findings, write SARIF for code scanning\n"
	 "  dsctl -f manifests/ audit --fail-on high -o sarif > audit.sarif\n",
	 audit_flags, 0, -1, FORMAT(OUT_SARIF), NULL, 1, cmd_audit, "scan security"},
	{"validate", "[FILE]...", "The API server's validation of DaemonSet manifests, in kubectl's words",
	 "FILE is a JSON or YAML file (several documents, a List), a directory of them, or '-'; -f FILE works\n"
	 "too, and standard input without either. Other kinds in a stream are skipped. Unknown and repeated\n"
	 "fields fail an object as kubectl's default --validate=strict does; --validate=warn prints them as\n"
	 "warnings. Exit status 3 when a DaemonSet is invalid, 1 when an input cannot be read or decoded.",
	 "  dsctl validate daemonset.yaml\n"
	 "  helm template ./chart | dsctl validate -\n\n"
	 "  # An update: what the API server says to kubectl apply\n"
	 "  dsctl validate new.yaml --old stored.yaml\n",
	 validate_flags, 0, -1, 0, NULL, 0, cmd_validate, "apply create lint"},
	{"defaults", "[FILE]...", "The DaemonSet with the API server's defaults applied (YAML by default)",
	 "Several DaemonSets: a YAML stream, or with -o json a v1 List.", "  dsctl defaults daemonset.yaml\n", NULL, 0,
	 -1, 0, NULL, 0, cmd_defaults, NULL},
	{"cordon", "NODE...", "kubectl cordon: its PATCH and line, the taint, what each DaemonSet does on the node",
	 NULL,
	 "  dsctl -f dump.yaml cordon worker-1\n"
	 "  dsctl -f dump.yaml cordon -l topology.kubernetes.io/zone=eu-west-1a\n",
	 cordon_flags, 0, -1, 0, NULL, 1, cmd_cordon, NULL},
	{"uncordon", "NODE...", "kubectl uncordon: its PATCH and line, the taint, what each DaemonSet does on the node",
	 NULL, "  dsctl -f dump.yaml uncordon worker-1\n", cordon_flags, 0, -1, 0, NULL, 1, cmd_uncordon, NULL},
	{"drain", "NODE...",
	 "kubectl drain: what it prints, each pod's fate against the PodDisruptionBudgets, the reboot",
	 "The flags are kubectl drain's (--set force=true etc. works too). Prints what kubectl prints (both\n"
	 "streams, in the order kubectl writes them), then the verdict - drained, failed, or blocked (an\n"
	 "eviction is retried until its PodDisruptionBudget allows it, so kubectl would not exit) - each\n"
	 "pod's fate, and what the reboot does to the DaemonSets. Several nodes (or -l) are drained one after\n"
	 "the other, as kubectl does, each with the pods the earlier ones evicted gone.\n"
	 "Exit status: kubectl's (0 drained, 1 failed); 3 when blocked.",
	 "  dsctl -f dump.yaml drain worker-1 --ignore-daemonsets --delete-emptydir-data\n"
	 "  dsctl -f dump.yaml drain -l topology.kubernetes.io/zone=eu-west-1b --ignore-daemonsets --force "
	 "--delete-emptydir-data\n",
	 drain_flags, 0, -1, 0, "pods", 1, cmd_drain, NULL},
	{"upgrade", "[NODE]...", "Plan a cluster upgrade: nodes drained and rebooted in batches, with budget warnings",
	 "Without NODE or --selector, every node. Nodes without a control-plane role go first, by name,\n"
	 "--batch-size at a time (default 1); then each control-plane node alone. The drain flags are\n"
	 "those of 'dsctl drain'.\n"
	 "Exit status 3 when a batch fails or blocks, or a batch takes a DaemonSet past its maxUnavailable\n"
	 "or a PodDisruptionBudget past its budget.",
	 "  dsctl -f dump.yaml upgrade --batch-size 3 --ignore-daemonsets --delete-emptydir-data\n", upgrade_flags, 0,
	 -1, 0, "batches", 1, cmd_upgrade, NULL},
	{"test", "PATH...", "Run scenario files (YAML) and report N passed, N failed",
	 "A scenario loads a cluster (load: paths, objects: inline) at a time (now:) and checks explain, shouldRun,\n"
	 "plan, status, pod, rollout, drain and audit results; see dsctl(1) and examples/scenarios.\n"
	 "Exit status 3 when a scenario fails.",
	 "  dsctl test examples/scenarios\n", NULL, 1, -1, 0, "scenarios", 0, cmd_test, NULL},
	{"demo", "[DAEMONSET]", "A tour: get, explain, plan and audit (make demo runs it on examples/cluster)", NULL,
	 "  dsctl -f examples/cluster demo\n", NULL, 0, 1, 0, NULL, 1, cmd_demo, NULL},
	{"completion", "bash|zsh", "Print the shell completion script",
	 "Commands, flags, and the DaemonSet and node names of the files given with -f on the line being completed.",
	 "  # bash, for this shell; or save it in /etc/bash_completion.d/dsctl\n"
	 "  source <(dsctl completion bash)\n\n"
	 "  # zsh: a file named _dsctl in a directory of $fpath\n"
	 "  dsctl completion zsh > \"${fpath[1]}/_dsctl\"\n",
	 NULL, 1, 1, 0, NULL, 0, cmd_completion, NULL},
	{"__complete", "WORD...", "The candidates for the last word (for the completion scripts)", NULL, NULL, NULL, 0,
	 -1, 0, NULL, 0, cmd_complete, NULL},
	{"version", "", "Print the versions of dsctl and libdaemonset", NULL, "  dsctl version -o json\n", NULL, 0, 0,
	 0, NULL, 0, cmd_version, NULL},
	{"help", "[COMMAND]", "Help about any command (the same as --help)", NULL, "  dsctl help explain\n", NULL, 0, 1,
	 0, NULL, 0, cmd_help, NULL},
	{NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, NULL, 0, NULL, NULL},
};
