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
