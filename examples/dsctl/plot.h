/*
 * dsctl --plot: pictures as self-contained SVG (no scripts, no external resources). See plot.c.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DSCTL_PLOT_H
#define DSCTL_PLOT_H

#include <jansson.h>
#include <stdio.h>

#include "dsctl.h"

/* The result of ds_daemonset_rollout(3) over time: updated, available and unavailable pods and surge as steps,
 * the maxUnavailable and maxSurge budgets and desired as lines, each wave marked (with the pods it created and
 * deleted in a tooltip), the stall or the end, axes and a legend. Returns 0, or -1 when the document is not a
 * simulation (message on stderr) or writing fails. */
int plot_rollout_svg(FILE *out, const json_t *simulation, const char *title);

/* The result of ds_daemonset_explain(3) as a node map: one tile per row, in the rows' order, coloured by status, the
 * node's name inside when it fits, a tooltip with its first reason, and a legend with the count of each
 * status. Tiles shrink with the number of nodes (5,000 nodes fit in about 1100 x 800 pixels). Returns 0 or -1
 * as plot_rollout_svg. */
int plot_explain_svg(FILE *out, const json_t *explain, const char *title);

/* The drawing functions' type. */
typedef int (*plot_fn)(FILE *out, const json_t *doc, const char *title);

/* Draw doc into path ("-": standard output), titled "<what> of NAMESPACE/NAME". Returns -1 when the command
 * should go on with its usual output (the picture went to a file), else its exit status: after writing to
 * standard output the one its table would have had (EXIT_CHECK for a rollout that does not complete, else
 * EXIT_OK), EXIT_ERROR after a message. */
int plot_hook(const char *path, plot_fn draw, const json_t *doc, const char *what, const char *ns, const char *name);

#endif
