/* The command table. */
#include "dsctl.h"


const command dsctl_commands[] = {
	{"get", "", "summarise what was loaded: counts, DaemonSets with their status, nodes", NULL, 1, cmd_get},
	{"explain", "DAEMONSET [NODE]", "per node: placed or not, and why (the controller's and the scheduler's view)",
	 "DAEMONSET is NAMESPACE/NAME, or NAME with -n or when unique. With NODE, every reason for that node.\n"
	 "Statuses: placed, create (the next sync creates a pod), needs-preemption, unschedulable, pending,\n"
	 "kept (a NoSchedule taint came later: the pod stays), evict, not-placed.",
	 1, cmd_explain},
	{"plan", "DAEMONSET", "what one sync of the DaemonSet controller does now: creates, deletes, status",
	 "Deterministic: nodes are walked in name order. --now sets the time; --set burstReplicas=N and\n"
	 "--set kubernetesVersion=1.33 change what the controller does.",
	 1, cmd_plan},
	{"rollout", "DAEMONSET", "simulate the whole rollout: waves, per-node times, budgets, stalls",
	 "Options: --set simReadyAfter=10s, simTerminateAfter=5s, simFailNodes=node-a,node-b, simMaxTime=24h;\n"
	 "partition, paused, rolloutNodeSelector and updateOrder control the update (see ds_options(3)).\n"
	 "Exit status 3 when the rollout does not complete.",
	 1, cmd_rollout},
	{"status", "DAEMONSET", "the status counters the controller would write", NULL, 1, cmd_status},
	{"pod", "DAEMONSET NODE", "the Pod the controller creates for NODE (YAML by default)", NULL, 1, cmd_pod},
	{"history", "DAEMONSET", "ControllerRevisions: current, old, pods per revision", NULL, 1, cmd_history},
	{"rollback", "DAEMONSET [--to-revision N]", "kubectl rollout undo: the template restored (prints the result)",
	 "Prints kubectl's message; -o yaml prints the restored DaemonSet and the patch kubectl sends.", 1, cmd_rollback},
	{"fit", "POD-FILE NODE", "scheduler filters and preemption for a pod manifest on a node", NULL, 1, cmd_fit},
	{"audit", "[DAEMONSET]...", "Pod Security Standards and DaemonSet risks (all DaemonSets without arguments)",
	 "--set podSecurityLevel=baseline|restricted and --set podSecurityVersion=v1.30 select the standard.\n"
	 "Exit status 3 when a DaemonSet does not meet the requested level.",
	 1, cmd_audit},
	{"validate", "[FILE]... [--old FILE [--status]] [--as-is]",
	 "the API server's validation of DaemonSet manifests, in kubectl's words",
	 "FILE is a JSON or YAML file (several documents, a JSON List), a directory of them, or '-';\n"
	 "-f FILE works too, and standard input without either. Other kinds in a stream are skipped.\n"
	 "  --old FILE   validate an update of the stored DaemonSet in FILE (one DaemonSet each)\n"
	 "  --status     with --old: a write to the status subresource\n"
	 "  --as-is      upstream's validation alone: no defaults, no registry preparation\n"
	 "Exit status 3 when a DaemonSet is invalid, 1 when an input cannot be read or decoded.",
	 0, cmd_validate},
	{"defaults", "[FILE]...", "the DaemonSet with the API server's defaults applied (YAML by default)",
	 "Several DaemonSets: a YAML stream, or with -o json a v1 List.", 0, cmd_defaults},
	{"cordon", "NODE", "kubectl cordon: its PATCH and line, the taint, what each DaemonSet does on the node",
	 NULL, 1, cmd_cordon},
	{"uncordon", "NODE", "kubectl uncordon: its PATCH and line, the taint, what each DaemonSet does on the node",
	 NULL, 1, cmd_uncordon},
	{"drain", "NODE [--force] [--ignore-daemonsets] [--delete-emptydir-data] [--disable-eviction]\n"
		  "      [--grace-period N] [--skip-wait-for-delete-timeout N] [--pod-selector SELECTOR]",
	 "kubectl drain: what it prints, each pod's fate against the PodDisruptionBudgets, the reboot",
	 "The flags are kubectl drain's (--set force=true etc. works too). Prints what kubectl prints (both\n"
	 "streams, in the order kubectl writes them), then the verdict - drained, failed, or blocked (an\n"
	 "eviction is retried until its PodDisruptionBudget allows it, so kubectl would not exit) - each\n"
	 "pod's fate, and what the reboot does to the DaemonSets.\n"
	 "Exit status: kubectl's (0 drained, 1 failed); 3 when blocked.",
	 1, cmd_drain},
	{"upgrade", "[NODE]... [-l|--selector SELECTOR] [--batch-size N] [DRAIN FLAGS]",
	 "plan a cluster upgrade: nodes drained and rebooted in batches, with budget warnings",
	 "Without NODE or --selector, every node. Nodes without a control-plane role go first, by name,\n"
	 "--batch-size at a time (default 1); then each control-plane node alone. The drain flags are\n"
	 "those of 'dsctl drain'.\n"
	 "Exit status 3 when a batch fails or blocks, or a batch takes a DaemonSet past its maxUnavailable\n"
	 "or a PodDisruptionBudget past its budget.",
	 1, cmd_upgrade},
	{"test", "PATH...", "run scenario files (YAML) and report N passed, N failed",
	 "A scenario loads a cluster (load: paths, objects: inline) at a time (now:) and checks explain, shouldRun,\n"
	 "plan, status, pod, rollout, drain and audit results; see dsctl(1) and examples/scenarios.\n"
	 "Exit status 3 when a scenario fails.",
	 0, cmd_test},
	{"demo", "[DAEMONSET]", "a tour: get, explain, plan and audit (make demo runs it on examples/cluster)", NULL, 1,
	 cmd_demo},
	{"version", "", "print the versions of dsctl and libdaemonset", NULL, 0, cmd_version},
	{NULL, NULL, NULL, NULL, 0, NULL},
};
