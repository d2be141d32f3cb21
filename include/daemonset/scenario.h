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
 * (dsctl(1) and ds_scenario_run(3) list their fields). The result JSON:
 * {"passed":N,"failed":N,"scenarios":[{"name","file","passed","error"?,
 *  "checks":[{"check","passed","failures":[...]}]}]}. A scenario that cannot
 * run (bad file, unknown check, unknown field) fails with "error"; the call
 * itself fails only for bad arguments or an unreadable path.
 */
DS_EXTERN int ds_scenario_run(const char *text, size_t size, const char *base_dir, const ds_options *opts,
			      char **json_out, ds_error *err);
/* The same for a file, or every *.yaml, *.yml and *.json file of a directory (by name). */
DS_EXTERN int ds_scenario_run_file(const char *path, const ds_options *opts, char **json_out, ds_error *err);

#ifdef __cplusplus
}
#endif
#endif
