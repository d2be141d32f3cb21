/*
 * libdaemonset: offline scenario tests. Include <daemonset.h> rather than
 * this file.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DAEMONSET_SCENARIO_H
#define DAEMONSET_SCENARIO_H

#include "daemonset/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Run scenario tests: YAML or JSON documents, each a scenario
 *
 *   name: control-plane nodes need a toleration
 *   load: ../cluster            # files or directories, relative to the scenario file
 *   objects: [ ...inline Kubernetes objects... ]
 *   now: 2026-12-02T15:00:00Z
 *   options: {burstReplicas: 250}
 *   checks:
 *   - explain: kube-system/fluentd-logging
 *     placed: [worker-1, worker-2]
 *     notPlaced: {cp-1: untolerated taint}
 *   - plan: kube-system/fluentd-logging
 *     creates: [worker-4]
 *
 * with checks explain, shouldRunOn, plan, status, pod, rollout, drain and audit
 * (daemonset-scenario(5) lists their fields and types). The result JSON:
 * {"passed":N,"failed":N,"scenarios":[{"name","file","passed","error"?,
 *  "checks":[{"check","name"?,"passed","failures":[...]}]}]}.
 *
 * Options: a copy of opts (NULL: the defaults), then the scenario's options,
 * load the snapshot and run the checks; a check's own options apply on top
 * for that check. opts also sets the limits for reading the text.
 *
 * Errors: a scenario that cannot run (an unknown key, kind or field, a value
 * of the wrong type, a bad option or time, a cluster that cannot be loaded)
 * fails with "error", which names the field's path ("checks[2].creates[0]:
 * expected a string, got an integer"), and none of its checks runs; a check
 * whose library call fails fails with that error. The call itself fails only
 * for bad arguments, an unreadable path, text that is not JSON or YAML
 * (DS_ESYNTAX with err->line and err->column: there is no scenario to
 * report), text beyond the loading limits (DS_ELIMIT), or lack of memory;
 * ds_scenario_run_file reports a file of either kind as one failed scenario
 * named after the file, and goes on with the next.
 */
DS_EXTERN int ds_scenario_run(const char *text, size_t size, const char *base_dir, const ds_options *opts,
			      char **json_out, ds_error *err);
/* The same for a file, or every *.yaml, *.yml and *.json file of a directory (by name). */
DS_EXTERN int ds_scenario_run_file(const char *path, const ds_options *opts, char **json_out, ds_error *err);

#ifdef __cplusplus
}
#endif
#endif
