/*
 * dsctl --plot: the rollout simulation as a chart over time, explain as a node map.
 *
 * Plain SVG 1.1 written with fprintf: no scripts, no external fonts or images, so the file shows the same in a
 * browser, an image viewer or a README. Tooltips are SVG <title> elements. Elements carry class and data-*
 * attributes (series, status, node) so that tests and scripts can find them.
 */
#include "plot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define FONT "font-family=\"DejaVu Sans, Verdana, Arial, Helvetica, sans-serif\""

/* Text for XML content and attributes: markup characters escaped, the characters XML 1.0 forbids (C0 controls
 * but tab and line feed, U+FFFE, U+FFFF) replaced by '?'; at most max characters (0: all), then "…". */
static void xml_text(FILE *f, const char *s, size_t max)
{
	size_t chars = 0;
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if ((*p & 0xC0) != 0x80 && max && chars++ == max) {
			fputs("\xE2\x80\xA6", f);
			return;
		}
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if ((*p < 0x20 && *p != '\t' && *p != '\n') ||
			    (p[0] == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF))) {
				fputc('?', f);
				if (*p >= 0x20)
					p += 2;
			} else {
				fputc(*p, f);
			}
		}
	}
}

static size_t utf8_len(const char *s)
{
	size_t n = 0;
	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

static const char *str(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

static long long num(const json_t *o, const char *k) { return (long long)json_number_value(json_object_get(o, k)); }

static void svg_open(FILE *f, int w, int h, const char *title)
{
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" " FONT
		" font-size=\"14\">\n<title>",
		w, h, w, h);
	xml_text(f, title, 0);
	fprintf(f,
		"</title>\n<rect class=\"background\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
		w, h);
	fputs("<text class=\"title\" x=\"24\" y=\"34\" font-size=\"21\" font-weight=\"bold\" fill=\"#222222\">", f);
	xml_text(f, title, 160);
	fputs("</text>\n", f);
}

static int svg_close(FILE *f)
{
	fputs("</svg>\n", f);
	fflush(f);
	return ferror(f) ? -1 : 0;
}

/* ---- rollout -------------------------------------------------------------------------------------- */

typedef struct series {
	const char *key, *label, *colour, *dash;
	double width, opacity;
} series;

/* Drawn in this order: updated is a wide, pale band under the others, which often follow it. The first two
 * are drawn against the number of nodes (the upper panel), the last two against the budgets (the lower
 * panel, scaled to maxUnavailable and maxSurge: on a thousand nodes a budget of 1 would otherwise be a
 * flat line at the bottom). */
static const series rollout_series[] = {
	{"updated", "updated (new revision)", "#1f77b4", NULL, 7, 0.45},
	{"available", "available", "#2ca02c", NULL, 2.5, 1},
	{"unavailableForBudget", "unavailable (as the budget counts)", "#d62728", NULL, 2.5, 1},
	{"surge", "surge (nodes with two pods)", "#9467bd", "6 3", 2.5, 1},
};
#define NSERIES (sizeof(rollout_series) / sizeof(rollout_series[0]))
#define LOWER_FIRST 2 /* the series of the lower panel start here */

/* A tick step for counts: 1, 2 or 5 times a power of ten, at most max_steps steps. */
static long long count_step(long long span, long long max_steps)
{
	for (long long base = 1;; base *= 10) {
		if (span <= max_steps * base)
			return base;
		if (span <= 2 * max_steps * base)
			return 2 * base;
		if (span <= 5 * max_steps * base)
			return 5 * base;
	}
}

/* A tick step for time: at most max_steps steps over span seconds. */
static double time_step(double span, double max_steps)
{
	static const double steps[] = {0.001, 0.002, 0.005, 0.01,  0.02,  0.05,  0.1,   0.2,    0.5,    1,
				       2,     5,     10,    15,    30,    60,    120,   300,    600,    900,
				       1800,  3600,  7200,  10800, 21600, 43200, 86400, 172800, 432000, 864000};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (span / steps[i] <= max_steps)
			return steps[i];
	return span / max_steps;
}

/* "250ms", "45s", "2m", "1m30s", "3h", "1h15m", "2d" */
static void duration_label(double s, char *buf, size_t size)
{
	long long ms = (long long)(s * 1000 + 0.5);
	if (ms == 0) {
		snprintf(buf, size, "0");
		return;
	}
	if (ms % 1000) {
		if (ms < 1000)
			snprintf(buf, size, "%lldms", ms);
		else
			snprintf(buf, size, "%.3gs", (double)ms / 1000);
		return;
	}
	long long t = ms / 1000;
	if (t < 60)
		snprintf(buf, size, "%llds", t);
	else if (t < 3600)
		snprintf(buf, size, t % 60 ? "%lldm%llds" : "%lldm", t / 60, t % 60);
	else if (t < 86400 || t % 3600)
		snprintf(buf, size, t % 3600 ? "%lldh%lldm" : "%lldh", t / 3600, (t % 3600) / 60);
	else
		snprintf(buf, size, "%lldd", t / 86400);
}

typedef struct label {
	double y;
	const char *text, *colour;
	long long value;
} label;

static int by_y(const void *a, const void *b)
{
	double d = ((const label *)a)->y - ((const label *)b)->y;
	return d < 0 ? -1 : d > 0;
}

/* A list of names for a tooltip: at most 12, then how many more. */
static void name_list(FILE *f, const json_t *arr)
{
	size_t i, n = json_array_size(arr);
	json_t *x;
	json_array_foreach(arr, i, x)
	{
		if (i == 12) {
			fprintf(f, " and %zu more", n - 12);
			break;
		}
		fputs(i ? ", " : " ", f);
		xml_text(f, json_string_value(x), 80);
	}
}

/* A panel of the chart: its top and bottom, the value at its top, its tick step. */
typedef struct panel {
	const char *name;
	double top, bottom, vmax, step;
} panel;

static double panel_y(const panel *p, double v) { return p->bottom - v / p->vmax * (p->bottom - p->top); }

/* The scale of a panel for values up to top: a little headroom, a round value at the top, at most
 * max_steps ticks (so that their labels, 14 px high, are apart). */
static void panel_scale(panel *p, long long top, long long max_steps)
{
	long long want = top + (top / 10 > 0 ? top / 10 : 1), step = count_step(want, max_steps);
	p->step = (double)step;
	p->vmax = (double)((want + step - 1) / step * step);
}

/* Its grid lines, y axis and tick labels (class ytick, data-panel: the panel's name). */
static void panel_axes(FILE *f, const panel *p, int x0, int x1, const char *ylabel)
{
	fputs("<g class=\"grid\" stroke=\"#e3e3e3\" stroke-width=\"1\">\n", f);
	for (double v = 0; v <= p->vmax + 1e-9; v += p->step)
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", x0, panel_y(p, v), x1,
			panel_y(p, v));
	fputs("</g>\n<g class=\"axes\" fill=\"#333333\">\n", f);
	fprintf(f, "<path d=\"M%d %.1f V%.1f H%d\" fill=\"none\" stroke=\"#555555\" stroke-width=\"1.5\"/>\n", x0,
		p->top, p->bottom, x1);
	for (double v = 0; v <= p->vmax + 1e-9; v += p->step)
		fprintf(f,
			"<text class=\"ytick\" data-panel=\"%s\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			p->name, x0 - 8, panel_y(p, v) + 5, v);
	fprintf(f,
		"<text class=\"ylabel\" transform=\"translate(%d %.1f) rotate(-90)\" text-anchor=\"middle\" "
		"font-size=\"13\">%s</text>\n</g>\n",
		22, (p->top + p->bottom) / 2, ylabel);
}

/* Budget lines across a panel, labelled at the right, the labels pushed apart where they meet but kept
 * within the panel. */
static void budget_lines(FILE *f, label *labels, size_t n, const char *const *dashes, int x0, int x1, const panel *p)
{
	for (size_t k = 0; k < n; k++)
		fprintf(f,
			"<line class=\"budget\" data-budget=\"%s\" data-panel=\"%s\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
			"y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\" opacity=\"0.9\"/>\n",
			labels[k].text, p->name, x0, labels[k].y, x1, labels[k].y, labels[k].colour, dashes[k]);
	label sorted[3];
	memcpy(sorted, labels, n * sizeof(sorted[0]));
	qsort(sorted, n, sizeof(sorted[0]), by_y);
	for (size_t k = 1; k < n; k++)
		if (sorted[k].y < sorted[k - 1].y + 16)
			sorted[k].y = sorted[k - 1].y + 16;
	if (n && sorted[n - 1].y > p->bottom) { /* not below the axis: push up instead */
		sorted[n - 1].y = p->bottom;
		for (size_t k = n - 1; k-- > 0;)
			if (sorted[k].y > sorted[k + 1].y - 16)
				sorted[k].y = sorted[k + 1].y - 16;
	}
	for (size_t k = 0; k < n; k++)
		fprintf(f, "<text class=\"budget-label\" x=\"%d\" y=\"%.1f\" fill=\"%s\" font-size=\"13\">%s %lld</text>\n",
			x1 + 8, sorted[k].y + 4, sorted[k].colour, sorted[k].text, sorted[k].value);
}

/* The instants with creates or deletes, each with its pods. */
typedef struct instant {
	const char *at;
	double x;
	size_t first, last, creates, deletes; /* waves [first, last) */
} instant;

int plot_rollout_svg(FILE *f, const json_t *sim, const char *title)
{
	const json_t *timeline = json_object_get(sim, "timeline"), *waves = json_object_get(sim, "waves");
	ds_time start, end, t;
	ds_error err;
	if (!json_is_array(timeline) || !json_array_size(timeline) ||
	    ds_time_parse(str(sim, "start"), &start, &err) < 0 || ds_time_parse(str(sim, "end"), &end, &err) < 0) {
		fprintf(stderr, "error: cannot plot: not the result of a rollout simulation (timeline, start, end)\n");
		return -1;
	}
	/* an upper panel for the nodes, a lower one for the budgets, a strip of waves above them */
	const int W = 1100, H = 740, X0 = 80, X1 = 930, STRIP = 104;
	panel upper = {"nodes", 138, 430, 1, 1}, lower = {"budget", 470, 600, 1, 1};
	const int AXIS = 600; /* the time axis, under the lower panel */
	size_t i, k;
	json_t *s, *w;
	/* the spans of both axes */
	double span = (double)(end - start) / 1000.0;
	long long mu = num(sim, "maxUnavailable"), ms = num(sim, "maxSurge");
	long long top = num(sim, "desired"), btop = mu > ms ? mu : ms;
	btop = btop > num(sim, "maxUnavailableSeen") ? btop : num(sim, "maxUnavailableSeen");
	btop = btop > num(sim, "maxSurgeSeen") ? btop : num(sim, "maxSurgeSeen");
	json_array_foreach(timeline, i, s)
	{
		if (ds_time_parse(str(s, "at"), &t, &err) == 0 && (double)(t - start) / 1000.0 > span)
			span = (double)(t - start) / 1000.0;
		for (k = 0; k < NSERIES; k++) {
			long long v = num(s, rollout_series[k].key);
			if (k < LOWER_FIRST && v > top)
				top = v;
			if (k >= LOWER_FIRST && v > btop)
				btop = v;
		}
	}
	panel_scale(&upper, top, 8);
	panel_scale(&lower, btop, 4);
	/* the simulated time; the axis goes a little further, where the last state holds (10s when the
	 * simulation ended where it started) */
	double run = span;
	span = span > 0 ? span * 1.05 : 10;
	double tstep = time_step(run > 0 ? run : span, 8);
#define XT(sec) ((double)X0 + (sec) / span * (double)(X1 - X0))

	svg_open(f, W, H, title);
	const char *result = str(sim, "result");
	char dur[40] = "at once";
	if (end > start) {
		snprintf(dur, sizeof(dur), "after ");
		duration_label((double)(end - start) / 1000.0, dur + 6, sizeof(dur) - 6);
	}
	fputs("<text class=\"subtitle\" x=\"24\" y=\"60\" fill=\"#444444\">", f);
	xml_text(f, result, 20);
	fprintf(f, " %s: %lld of %lld nodes updated in %lld sync%s, %lld pod%s created, %lld deleted</text>\n", dur,
		num(sim, "updated"), num(sim, "desired"), num(sim, "syncs"), num(sim, "syncs") == 1 ? "" : "s",
		num(sim, "creates"), num(sim, "creates") == 1 ? "" : "s", num(sim, "deletes"));
	fprintf(f,
		"<text class=\"subtitle\" x=\"24\" y=\"82\" fill=\"#444444\">at most %lld unavailable (maxUnavailable "
		"%lld), at most %lld nodes with two pods (maxSurge %lld)%s</text>\n",
		num(sim, "maxUnavailableSeen"), mu, num(sim, "maxSurgeSeen"), ms,
		json_is_true(json_object_get(sim, "budgetExceeded")) ? ": budget EXCEEDED" : "");

	/* the panels, and the time axis under both */
	panel_axes(f, &upper, X0, X1, "nodes");
	panel_axes(f, &lower, X0, X1, "unavailable, surge");
	fputs("<g class=\"grid\" stroke=\"#e3e3e3\" stroke-width=\"1\">\n", f);
	for (double sec = 0; sec <= span + 1e-9; sec += tstep)
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><line x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\"/>\n",
			XT(sec), upper.top, XT(sec), upper.bottom, XT(sec), lower.top, XT(sec), lower.bottom);
	fputs("</g>\n<g class=\"axes\" fill=\"#333333\">\n", f);
	for (double sec = 0; sec <= span + 1e-9; sec += tstep) {
		char l[32];
		duration_label(sec, l, sizeof(l));
		fprintf(f, "<text class=\"xtick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", XT(sec),
			AXIS + 22, l);
	}
	fprintf(f, "<text class=\"xlabel\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">time after ", (X0 + X1) / 2,
		AXIS + 48);
	xml_text(f, str(sim, "start"), 40);
	fputs("</text>\n</g>\n", f);

	/* the instants with creates or deletes */
	size_t nw = json_array_size(waves), ni = 0;
	instant *inst = calloc(nw + 1, sizeof(*inst));
	if (!inst)
		return -1;
	for (i = 0; i < nw;) {
		const char *at = str(json_array_get(waves, i), "at");
		instant *in = &inst[ni++];
		in->at = at;
		in->first = i;
		for (; i < nw && strcmp(str(json_array_get(waves, i), "at"), at) == 0; i++) {
			w = json_array_get(waves, i);
			in->creates += json_array_size(json_object_get(w, "creates"));
			in->deletes += json_array_size(json_object_get(w, "deletes"));
		}
		in->last = i;
		in->x = ds_time_parse(at, &t, &err) == 0 ? XT((double)(t - start) / 1000.0) : X0;
	}
	/* a mark per instant while they are apart; closer than 14 px, a strip of bars instead (pods created
	 * above, deleted below, per 5 px of time), where a mark per instant would be a black band */
	double gap = 1e9;
	for (i = 1; i < ni; i++)
		gap = inst[i].x - inst[i - 1].x < gap ? inst[i].x - inst[i - 1].x : gap;
	int dense = ni > 1 && gap < 14;
	fprintf(f, "<g class=\"waves\" data-style=\"%s\">\n", dense ? "strip" : "marks");
	double last_label[2] = {-1e9, -1e9}, last_width[2] = {0, 0}; /* two staggered rows of counts */
	for (i = 0; i < ni; i++) {
		instant *in = &inst[i];
		fputs("<g class=\"wave\" data-at=\"", f);
		xml_text(f, in->at, 40);
		fputs("\"><title>", f);
		xml_text(f, in->at, 40);
		for (k = in->first; k < in->last; k++) {
			w = json_array_get(waves, k);
			if (json_array_size(json_object_get(w, "creates"))) {
				fputs("\ncreate on", f);
				name_list(f, json_object_get(w, "creates"));
			}
			if (json_array_size(json_object_get(w, "deletes"))) {
				fputs("\ndelete", f);
				name_list(f, json_object_get(w, "deletes"));
			}
		}
		fputs("</title>\n", f);
		if (dense) { /* only a target for the tooltip: the strip below shows the counts */
			fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"2\" height=\"28\" fill=\"#ffffff\" opacity=\"0\"/>\n",
				in->x - 1, STRIP);
			fputs("</g>\n", f);
			continue;
		}
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#777777\" stroke-width=\"1\" "
			"stroke-dasharray=\"3 3\" opacity=\"0.6\"/>\n"
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#777777\" stroke-width=\"1\" "
			"stroke-dasharray=\"3 3\" opacity=\"0.6\"/>\n"
			"<path d=\"M%.1f %.1f l-6 -9 h12 z\" fill=\"#555555\"/>\n",
			in->x, upper.top, in->x, upper.bottom, in->x, lower.top, in->x, lower.bottom, in->x,
			upper.top - 2);
		/* its counts above the mark, where they do not meet the last ones of a row */
		char text[64];
		int len = snprintf(text, sizeof(text), "%s%zu%s%s%zu", in->creates ? "+" : "", in->creates,
				   in->creates && in->deletes ? " " : "", in->deletes ? "-" : "", in->deletes);
		(void)text;
		double width = 7.0 * (double)len;
		int row = -1;
		for (int r = 0; r < 2 && row < 0; r++)
			if (in->x - width / 2 >= last_label[r] + last_width[r] / 2 + 6)
				row = r;
		if (row >= 0) {
			fprintf(f,
				"<text class=\"wave-count\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
				"font-size=\"12\">",
				in->x, upper.top - 16 - 15 * row);
			if (in->creates)
				fprintf(f, "<tspan fill=\"#1f77b4\">+%zu</tspan>", in->creates);
			if (in->deletes)
				fprintf(f, "%s<tspan fill=\"#d62728\">\xE2\x88\x92%zu</tspan>", in->creates ? " " : "",
					in->deletes);
			fputs("</text>\n", f);
			last_label[row] = in->x;
			last_width[row] = width;
		}
		fputs("</g>\n", f);
	}
	fputs("</g>\n", f);
	if (dense) {
		/* pods created (up) and deleted (down) per 5 px of time, the tallest bin 12 px each way */
		enum { BIN = 5 };
		size_t nbins = (size_t)(X1 - X0) / BIN + 1, most = 1;
		size_t *cr = calloc(nbins, sizeof(*cr)), *de = calloc(nbins, sizeof(*de));
		if (!cr || !de) {
			free(cr);
			free(de);
			free(inst);
			return -1;
		}
		for (i = 0; i < ni; i++) {
			size_t b = (size_t)((inst[i].x - X0) / BIN);
			b = b < nbins ? b : nbins - 1;
			cr[b] += inst[i].creates;
			de[b] += inst[i].deletes;
		}
		for (size_t b = 0; b < nbins; b++) {
			most = cr[b] > most ? cr[b] : most;
			most = de[b] > most ? de[b] : most;
		}
		double mid = STRIP + 14;
		fprintf(f, "<g class=\"wave-strip\" data-bin-px=\"%d\" data-most=\"%zu\">\n", BIN, most);
		fprintf(f,
			"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#bbbbbb\" stroke-width=\"1\"/>\n",
			X0, mid, X1, mid);
		for (size_t b = 0; b < nbins; b++) {
			double x = X0 + (double)(b * BIN);
			if (cr[b])
				fprintf(f,
					"<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"#1f77b4\"/>\n",
					x, mid - 1 - 12.0 * (double)cr[b] / (double)most, BIN - 1,
					12.0 * (double)cr[b] / (double)most);
			if (de[b])
				fprintf(f,
					"<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"#d62728\"/>\n",
					x, mid + 1, BIN - 1, 12.0 * (double)de[b] / (double)most);
		}
		fprintf(f,
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\" fill=\"#555555\">pods</text>\n"
			"<text x=\"%d\" y=\"%.1f\" font-size=\"11\" fill=\"#555555\">up to %zu per %d "
			"px</text>\n</g>\n",
			X0 - 8, mid + 4, X1 + 8, mid + 4, most, BIN);
		free(cr);
		free(de);
	}
	free(inst);

	/* the budget lines (under the series, which often run along them): desired over the nodes, maxUnavailable and
	 * maxSurge over the budgets */
	label ulabels[1] = {{panel_y(&upper, (double)num(sim, "desired")), "desired", "#555555", num(sim, "desired")}};
	label llabels[2] = {{panel_y(&lower, (double)mu), "maxUnavailable", "#ff7f0e", mu},
			    {panel_y(&lower, (double)ms), "maxSurge", "#e377c2", ms}};
	static const char *const dashes[] = {"2 4", "10 5", "10 5"};
	fputs("<g class=\"budgets\">\n", f);
	budget_lines(f, ulabels, 1, dashes, X0, X1, &upper);
	budget_lines(f, llabels, 2, dashes + 1, X0, X1, &lower);
	fputs("</g>\n", f);

	/* the series as steps: a value holds until the next sample, and after the last one where nothing more
	 * happens by itself (complete, stalled, paused; not after a timeout) */
	double xend = XT(run), xlast = strcmp(result, "timeout") == 0 ? xend : XT(span);
	for (k = 0; k < NSERIES; k++) {
		const series *sr = &rollout_series[k];
		const panel *p = k < LOWER_FIRST ? &upper : &lower;
		fprintf(f,
			"<path class=\"series\" data-series=\"%s\" data-panel=\"%s\" fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"%g\" stroke-linejoin=\"round\" opacity=\"%g\"%s%s%s d=\"",
			sr->key, p->name, sr->colour, sr->width, sr->opacity, sr->dash ? " stroke-dasharray=\"" : "",
			sr->dash ? sr->dash : "", sr->dash ? "\"" : "");
		json_array_foreach(timeline, i, s)
		{
			double x = ds_time_parse(str(s, "at"), &t, &err) == 0 ? XT((double)(t - start) / 1000.0) : X0;
			if (i == 0)
				fprintf(f, "M%.1f %.1f", x, panel_y(p, (double)num(s, sr->key)));
			else
				fprintf(f, " H%.1f V%.1f", x, panel_y(p, (double)num(s, sr->key)));
		}
		fprintf(f, " H%.1f\"/>\n", xlast);
	}

	/* how it ended */
	const json_t *stall = json_object_get(sim, "stall");
	int complete = strcmp(result, "complete") == 0;
	const char *endc = complete ? "#2ca02c" : "#b71c1c";
	int right = xend > (X0 + X1) / 2.0;
	fprintf(f,
		"<g class=\"%s\">\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"%s\"%s/>\n",
		complete ? "end" : "stall", xend, upper.top, xend, lower.bottom, endc, complete ? "1.5" : "2.5",
		complete ? " stroke-dasharray=\"5 4\"" : "");
	/* its label: the result, the reason wrapped at about 48 characters, the nodes; on a white box */
	char lines[7][320];
	int nl = 0;
	snprintf(lines[nl++], sizeof(lines[0]), "%.20s %s", result, dur);
	if (stall) {
		const char *r = str(stall, "reason");
		while (*r && nl < 6) {
			size_t cut = strlen(r);
			if (utf8_len(r) > 48) {
				for (cut = 48; cut > 20 && r[cut] != ' ';)
					cut--;
				while (cut > 1 && ((unsigned char)r[cut] & 0xC0) == 0x80) /* not inside a character */
					cut--;
			}
			snprintf(lines[nl++], sizeof(lines[0]), "%.*s", (int)(cut < 300 ? cut : 300), r);
			for (r += cut; *r == ' '; r++)
				;
		}
		size_t nn = json_array_size(json_object_get(stall, "nodes"));
		if (nn) {
			size_t len = (size_t)snprintf(lines[nl], sizeof(lines[0]), "nodes:");
			json_array_foreach(json_object_get(stall, "nodes"), i, s)
			{
				if (i == 4) {
					snprintf(lines[nl] + len, sizeof(lines[0]) - len, " and %zu more", nn - 4);
					break;
				}
				len += (size_t)snprintf(lines[nl] + len, sizeof(lines[0]) - len, "%s%.40s",
							i ? ", " : " ",
							json_string_value(s) ? json_string_value(s) : "");
				if (len >= sizeof(lines[0]))
					break;
			}
			nl++;
		}
	}
	size_t widest = 0;
	for (int l = 0; l < nl; l++)
		widest = utf8_len(lines[l]) > widest ? utf8_len(lines[l]) : widest;
	double bw = 7.6 * (double)widest + 16, bx = right ? xend - 4 - bw : xend + 4;
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" rx=\"4\" fill=\"#ffffff\" opacity=\"0.88\"/>\n",
		bx, upper.top + 6, bw, 12 + 18 * nl);
	for (int l = 0; l < nl; l++) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\"%s>",
			right ? xend - 12 : xend + 12, upper.top + 24 + 18 * l, right ? "end" : "start", endc,
			l == 0 ? " font-weight=\"bold\"" : " font-size=\"13\"");
		xml_text(f, lines[l], 0);
		fputs("</text>\n", f);
	}
	fputs("</g>\n\n", f);

	/* the legend, in rows under the chart */
	fputs("<g class=\"legend\" font-size=\"13\" fill=\"#222222\">\n", f);
	int lx = X0, ly = AXIS + 82;
	for (k = 0; k < NSERIES; k++) {
		const series *sr = &rollout_series[k];
		int wdt = 40 + 7 * (int)strlen(sr->label) + 24;
		if (lx + wdt > W - 20) {
			lx = X0;
			ly += 26;
		}
		fprintf(f,
			"<g class=\"legend-item\" data-series=\"%s\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"%s\" "
			"stroke-width=\"%g\" opacity=\"%g\"%s%s%s/><text x=\"%d\" y=\"%d\">%s</text></g>\n",
			sr->key, lx, ly - 5, lx + 32, ly - 5, sr->colour, sr->width > 4 ? 6 : sr->width, sr->opacity,
			sr->dash ? " stroke-dasharray=\"" : "", sr->dash ? sr->dash : "", sr->dash ? "\"" : "", lx + 40,
			ly, sr->label);
		lx += wdt;
	}
	lx = X0;
	ly += 26;
	static const char *const budget_text[] = {"desired", "maxUnavailable budget", "maxSurge budget"};
	static const char *const budget_key[] = {"desired", "maxUnavailable", "maxSurge"};
	static const char *const budget_colour[] = {"#555555", "#ff7f0e", "#e377c2"};
	for (k = 0; k < 3; k++) {
		fprintf(f,
			"<g class=\"legend-item\" data-budget=\"%s\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"%s\" "
			"stroke-width=\"1.8\" stroke-dasharray=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text></g>\n",
			budget_key[k], lx, ly - 5, lx + 32, ly - 5, budget_colour[k], dashes[k], lx + 40, ly,
			budget_text[k]);
		lx += 40 + 7 * (int)strlen(budget_text[k]) + 24;
	}
	if (dense)
		fprintf(f,
			"<g class=\"legend-item\" data-mark=\"wave\"><rect x=\"%d\" y=\"%d\" width=\"4\" height=\"8\" "
			"fill=\"#1f77b4\"/><rect x=\"%d\" y=\"%d\" width=\"4\" height=\"8\" fill=\"#d62728\"/>"
			"<text x=\"%d\" y=\"%d\">pods <tspan fill=\"#1f77b4\">created</tspan> / <tspan "
			"fill=\"#d62728\">"
			"deleted</tspan> over time</text></g>\n",
			lx + 10, ly - 12, lx + 16, ly - 4, lx + 40, ly);
	else
		fprintf(f,
			"<g class=\"legend-item\" data-mark=\"wave\"><path d=\"M%d %d l-6 -9 h12 z\" fill=\"#555555\"/>"
			"<text x=\"%d\" y=\"%d\">a wave: <tspan fill=\"#1f77b4\">+created</tspan> "
			"<tspan fill=\"#d62728\">\xE2\x88\x92"
			"deleted</tspan> pods</text></g>\n",
			lx + 16, ly, lx + 40, ly);
	fputs("</g>\n", f);
#undef XT
	return svg_close(f);
}

/* ---- explain -------------------------------------------------------------------------------------- */

typedef struct status_style {
	const char *status, *fill, *text, *meaning;
} status_style;

static const status_style statuses[] = {
	{"placed", "#2e7d32", "#ffffff", "runs a pod"},
	{"create", "#81c784", "#1b1b1b", "the next sync creates one"},
	{"pending", "#ffd54f", "#1b1b1b", "created, waits for the scheduler"},
	{"needs-preemption", "#fb8c00", "#1b1b1b", "fits after preemption"},
	{"unschedulable", "#c62828", "#ffffff", "does not fit"},
	{"not-evaluated", "#bcaaa4", "#1b1b1b", "needs a filter the library does not run"},
	{"kept", "#4fc3f7", "#1b1b1b", "stays though it should not run"},
	{"evict", "#6a1b9a", "#ffffff", "the controller deletes it"},
	{"not-placed", "#d5d9dc", "#37474f", "should not run here"},
};
#define NSTATUS (sizeof(statuses) / sizeof(statuses[0]))

static const status_style *style_of(const char *status)
{
	for (size_t i = 0; i < NSTATUS; i++)
		if (strcmp(statuses[i].status, status) == 0)
			return &statuses[i];
	return NULL;
}

/* The first reason of a row, for its tooltip (as the explain table shows it). */
static void row_reason(FILE *f, const json_t *row)
{
	json_t *r = json_array_get(json_object_get(row, "reasons"), 0);
	if (!r)
		r = json_array_get(json_object_get(row, "scheduler"), 0);
	if (!r)
		return;
	const char *d = json_string_value(json_object_get(r, "detail"));
	fputc('\n', f);
	xml_text(f, d ? d : str(r, "message"), 200);
}

int plot_explain_svg(FILE *f, const json_t *doc, const char *title)
{
	const json_t *rows = json_object_get(doc, "rows");
	if (!json_is_array(rows)) {
		fprintf(stderr, "error: cannot plot: not the result of explain (rows)\n");
		return -1;
	}
	size_t n = json_array_size(rows), i, k, counts[NSTATUS + 1] = {0};
	json_t *r;
	json_array_foreach(rows, i, r)
	{
		const status_style *st = style_of(str(r, "status"));
		counts[st ? (size_t)(st - statuses) : NSTATUS]++;
	}
	/* the grid: named tiles 96-170 px wide while they fit in MAXH, else squares as large as fit */
	const int W = 1100, X0 = 24, GW = W - 2 * X0, MAXH = 640, GAP = 2;
	int tw = 0, th = 0, cols = 1, rows_n = 1, named = 0;
	for (int cand = 170; cand >= 96 && !named; cand -= 2) {
		cols = (GW + GAP) / (cand + GAP);
		rows_n = (int)((n + (size_t)cols - 1) / (size_t)cols);
		if (rows_n * (40 + GAP) <= MAXH) {
			named = 1;
			tw = cand;
			th = 40;
			if (n < (size_t)cols) /* a single short row: tiles as wide as they may be */
				cols = (int)(n ? n : 1);
		}
	}
	if (!named) {
		int size = 40;
		for (; size > 3; size--) {
			cols = (GW + 1) / (size + 1);
			rows_n = (int)((n + (size_t)cols - 1) / (size_t)cols);
			if (rows_n * (size + 1) <= MAXH)
				break;
		}
		cols = (GW + 1) / (size + 1);
		rows_n = (int)((n + (size_t)cols - 1) / (size_t)cols);
		tw = th = size;
	}
	int gap = named ? GAP : (tw >= 8 ? 1 : 0);
	if (!named && tw < 8) /* tiny tiles touch: a gap would be most of them */
		cols = GW / tw, rows_n = (int)((n + (size_t)cols - 1) / (size_t)cols);
	/* legend: two rows of four */
	const int LY = 100, GY = LY + 2 * 40 + 6;
	int H = GY + rows_n * (th + gap) + 30;
	if (H < 260)
		H = 260;
	svg_open(f, W, H, title);
	const json_t *ds = json_object_get(doc, "daemonSet");
	fputs("<text class=\"subtitle\" x=\"24\" y=\"60\" fill=\"#444444\">DaemonSet ", f);
	xml_text(f, str(ds, "namespace"), 64);
	fputc('/', f);
	xml_text(f, str(ds, "name"), 64);
	fprintf(f, ": %zu node%s shown%s</text>\n", n, n == 1 ? "" : "s",
		named ? "" : " (names in the tooltips: the tiles are too small)");
	fputs("<g class=\"legend\" font-size=\"13\" fill=\"#222222\">\n", f);
	for (k = 0; k < NSTATUS; k++) {
		int x = X0 + (int)(k % 4) * 266, y = LY + (int)(k / 4) * 40;
		fprintf(f,
			"<g class=\"legend-item\" data-status=\"%s\" data-count=\"%zu\"%s><rect x=\"%d\" y=\"%d\" "
			"width=\"26\" height=\"26\" rx=\"4\" fill=\"%s\" stroke=\"#9e9e9e\" stroke-width=\"0.5\"/>"
			"<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s %zu</text>"
			"<text x=\"%d\" y=\"%d\" fill=\"#666666\" font-size=\"11.5\">%s</text></g>\n",
			statuses[k].status, counts[k], counts[k] ? "" : " opacity=\"0.45\"", x, y - 14,
			statuses[k].fill, x + 34, y - 2, statuses[k].status, counts[k], x + 34, y + 12,
			statuses[k].meaning);
	}
	if (counts[NSTATUS])
		fprintf(f, "<text x=\"%d\" y=\"%d\">other %zu</text>\n", X0, LY + 60, counts[NSTATUS]);
	fputs("</g>\n<g class=\"nodes\" font-size=\"13\">\n", f);
	int fs = 13;
	size_t fit = named ? (size_t)((tw - 10) / (fs * 0.62)) : 0; /* characters a name may have in a tile */
	json_array_foreach(rows, i, r)
	{
		const char *node = str(r, "node"), *status = str(r, "status");
		const status_style *st = style_of(status);
		int x = X0 + (int)(i % (size_t)cols) * (tw + gap), y = GY + (int)(i / (size_t)cols) * (th + gap);
		fputs("<g class=\"tile\" data-node=\"", f);
		xml_text(f, node, 0);
		fputs("\" data-status=\"", f);
		xml_text(f, status, 40);
		fputs("\"><title>", f);
		xml_text(f, node, 0);
		fputs(": ", f);
		xml_text(f, status, 40);
		row_reason(f, r);
		fprintf(f, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"%s fill=\"%s\"/>", x, y, tw, th,
			named ? " rx=\"4\"" : "", st ? st->fill : "#000000");
		if (named && fit >= 4) {
			fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"%s\">", x + tw / 2,
				y + th / 2 + 4, st ? st->text : "#ffffff");
			xml_text(f, node, utf8_len(node) > fit ? fit - 1 : 0);
			fputs("</text>", f);
		}
		fputs("</g>\n", f);
	}
	fputs("</g>\n", f);
	return svg_close(f);
}

int plot_hook(const char *path, plot_fn draw, const json_t *doc, const char *what, const char *ns, const char *name)
{
	char title[2 * DSCTL_NAME_MAX + 64];
	snprintf(title, sizeof(title), "%s of %s/%s", what, ns, name);
	int to_stdout = strcmp(path, "-") == 0;
	FILE *f = to_stdout ? stdout : fopen(path, "w");
	if (!f) {
		fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(errno));
		return EXIT_ERROR;
	}
	int rc = draw(f, doc, title);
	int werr = ferror(f);
	if (!to_stdout) {
		werr |= fclose(f) != 0;
		if (rc < 0 || werr)
			remove(path); /* no half picture */
	}
	if (werr)
		fprintf(stderr, "error: cannot write the picture to %s\n", path);
	if (rc < 0 || werr)
		return EXIT_ERROR;
	if (!to_stdout)
		return -1;
	/* the picture was the output: the exit status the table would have had (dsctl(1): it does not depend
	 * on the format), 3 for a rollout that does not complete */
	const char *result = json_string_value(json_object_get(doc, "result"));
	return draw == plot_rollout_svg && result && strcmp(result, "complete") != 0 ? EXIT_CHECK : EXIT_OK;
}
