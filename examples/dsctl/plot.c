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

/* Drawn in this order: updated is a wide, pale band under the others, which often follow it. */
static const series rollout_series[] = {
	{"updated", "updated (new revision)", "#1f77b4", NULL, 7, 0.45},
	{"available", "available", "#2ca02c", NULL, 2.5, 1},
	{"unavailableForBudget", "unavailable (as the budget counts)", "#d62728", NULL, 2.5, 1},
	{"surge", "surge (nodes with two pods)", "#9467bd", "6 3", 2.5, 1},
};
#define NSERIES (sizeof(rollout_series) / sizeof(rollout_series[0]))

/* A tick step for counts: 1, 2 or 5 times a power of ten, at most 8 steps. */
static long long count_step(long long span)
{
	for (long long base = 1;; base *= 10) {
		if (span <= 8 * base)
			return base;
		if (span <= 16 * base)
			return 2 * base;
		if (span <= 40 * base)
			return 5 * base;
	}
}

static double time_step(double span)
{
	static const double steps[] = {0.001, 0.002, 0.005, 0.01,  0.02,  0.05,  0.1,   0.2,    0.5,    1,
				       2,     5,     10,    15,    30,    60,    120,   300,    600,    900,
				       1800,  3600,  7200,  10800, 21600, 43200, 86400, 172800, 432000, 864000};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (span / steps[i] <= 10)
			return steps[i];
	return span / 10;
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

int plot_rollout_svg(FILE *f, const json_t *sim, const char *title)
{
	const json_t *timeline = json_object_get(sim, "timeline");
	ds_time start, end, t;
	ds_error err;
	if (!json_is_array(timeline) || !json_array_size(timeline) ||
	    ds_time_parse(str(sim, "start"), &start, &err) < 0 || ds_time_parse(str(sim, "end"), &end, &err) < 0) {
		fprintf(stderr, "error: cannot plot: not the result of a rollout simulation (timeline, start, end)\n");
		return -1;
	}
	const int W = 1100, H = 700, X0 = 80, X1 = 930, Y0 = 138, Y1 = 560;
	size_t n = json_array_size(timeline), i, k;
	json_t *s, *w;
	/* the spans of both axes */
	double span = (double)(end - start) / 1000.0;
	long long top = num(sim, "desired");
	long long mu = num(sim, "maxUnavailable"), ms = num(sim, "maxSurge");
	top = top > mu ? top : mu;
	top = top > ms ? top : ms;
	json_array_foreach(timeline, i, s)
	{
		if (ds_time_parse(str(s, "at"), &t, &err) == 0 && (double)(t - start) / 1000.0 > span)
			span = (double)(t - start) / 1000.0;
		for (k = 0; k < NSERIES; k++)
			if (num(s, rollout_series[k].key) > top)
				top = num(s, rollout_series[k].key);
	}
	/* the simulated time; the axis goes a little further, where the last state holds (10s when the
	 * simulation ended where it started) */
	double run = span;
	span = span > 0 ? span * 1.05 : 10;
	/* headroom above the highest line: a twentieth, at least one */
	long long want = top + (top / 20 > 0 ? top / 20 : 1), ystepi = count_step(want);
	double ystep = (double)ystepi, ytop = (double)((want + ystepi - 1) / ystepi * ystepi);
	double tstep = time_step(run > 0 ? run : span);
#define XT(sec) ((double)X0 + (sec) / span * (double)(X1 - X0))
#define YV(v) ((double)Y1 - (double)(v) / ytop * (double)(Y1 - Y0))

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

	/* grid and axes */
	fputs("<g class=\"grid\" stroke=\"#e3e3e3\" stroke-width=\"1\">\n", f);
	for (double v = 0; v <= ytop + 1e-9; v += ystep)
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", X0, YV(v), X1, YV(v));
	for (double sec = 0; sec <= span + 1e-9; sec += tstep)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", XT(sec), Y0, XT(sec), Y1);
	fputs("</g>\n<g class=\"axes\" fill=\"#333333\">\n", f);
	fprintf(f, "<path d=\"M%d %d V%d H%d\" fill=\"none\" stroke=\"#555555\" stroke-width=\"1.5\"/>\n", X0, Y0, Y1,
		X1);
	for (double v = 0; v <= ytop + 1e-9; v += ystep)
		fprintf(f, "<text class=\"ytick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", X0 - 8,
			YV(v) + 5, v);
	for (double sec = 0; sec <= span + 1e-9; sec += tstep) {
		char l[32];
		duration_label(sec, l, sizeof(l));
		fprintf(f, "<text class=\"xtick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", XT(sec),
			Y1 + 22, l);
	}
	fprintf(f, "<text class=\"xlabel\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">time after ", (X0 + X1) / 2,
		Y1 + 48);
	xml_text(f, str(sim, "start"), 40);
	fprintf(f,
		"</text>\n<text class=\"ylabel\" transform=\"translate(%d %d) rotate(-90)\" text-anchor=\"middle\">"
		"nodes</text>\n</g>\n",
		24, (Y0 + Y1) / 2);

	/* the waves: a mark per instant with creates or deletes, the pods in its tooltip */
	fputs("<g class=\"waves\">\n", f);
	double last_label[2] = {-1e9, -1e9}; /* two staggered rows of counts */
	size_t nw = json_array_size(json_object_get(sim, "waves"));
	for (i = 0; i < nw;) {
		json_t *first = json_array_get(json_object_get(sim, "waves"), i);
		const char *at = str(first, "at");
		size_t j = i, creates = 0, deletes = 0;
		for (; j < nw && strcmp(str(json_array_get(json_object_get(sim, "waves"), j), "at"), at) == 0; j++) {
			w = json_array_get(json_object_get(sim, "waves"), j);
			creates += json_array_size(json_object_get(w, "creates"));
			deletes += json_array_size(json_object_get(w, "deletes"));
		}
		double x = ds_time_parse(at, &t, &err) == 0 ? XT((double)(t - start) / 1000.0) : X0;
		fputs("<g class=\"wave\" data-at=\"", f);
		xml_text(f, at, 40);
		fputs("\"><title>", f);
		xml_text(f, at, 40);
		for (k = i; k < j; k++) {
			w = json_array_get(json_object_get(sim, "waves"), k);
			if (json_array_size(json_object_get(w, "creates"))) {
				fputs("\ncreate on", f);
				name_list(f, json_object_get(w, "creates"));
			}
			if (json_array_size(json_object_get(w, "deletes"))) {
				fputs("\ndelete", f);
				name_list(f, json_object_get(w, "deletes"));
			}
		}
		fprintf(f,
			"</title>\n<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#777777\" "
			"stroke-width=\"1\" "
			"stroke-dasharray=\"3 3\" opacity=\"0.6\"/>\n"
			"<path d=\"M%.1f %d l-6 -9 h12 z\" fill=\"#555555\"/>\n",
			x, Y0, x, Y1, x, Y0 - 2);
		int row = x - last_label[0] >= 50 ? 0 : x - last_label[1] >= 50 ? 1 : -1;
		if (row >= 0) { /* counts above the mark when there is room */
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">", x,
				Y0 - 16 - 15 * row);
			if (creates)
				fprintf(f, "<tspan fill=\"#1f77b4\">+%zu</tspan>", creates);
			if (deletes)
				fprintf(f, "%s<tspan fill=\"#d62728\">\xE2\x88\x92%zu</tspan>", creates ? " " : "",
					deletes);
			fputs("</text>\n", f);
			last_label[row] = x;
		}
		fputs("</g>\n", f);
		i = j;
	}
	fputs("</g>\n", f);

	/* the series as steps: a value holds until the next sample, and after the last one where nothing more
	 * happens by itself (complete, stalled, paused; not after a timeout) */
	double xend = XT(run), xlast = strcmp(result, "timeout") == 0 ? xend : XT(span);
	for (k = 0; k < NSERIES; k++) {
		const series *sr = &rollout_series[k];
		fprintf(f,
			"<path class=\"series\" data-series=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%g\" "
			"stroke-linejoin=\"round\" opacity=\"%g\"%s%s%s d=\"",
			sr->key, sr->colour, sr->width, sr->opacity, sr->dash ? " stroke-dasharray=\"" : "",
			sr->dash ? sr->dash : "", sr->dash ? "\"" : "");
		json_array_foreach(timeline, i, s)
		{
			double x = ds_time_parse(str(s, "at"), &t, &err) == 0 ? XT((double)(t - start) / 1000.0) : X0;
			if (i == 0)
				fprintf(f, "M%.1f %.1f", x, YV(num(s, sr->key)));
			else
				fprintf(f, " H%.1f V%.1f", x, YV(num(s, sr->key)));
		}
		fprintf(f, " H%.1f\"/>\n", xlast);
	}
	(void)n;

	/* budget lines, labelled at the right, labels pushed apart where they meet */
	label labels[3] = {{YV(num(sim, "desired")), "desired", "#555555", num(sim, "desired")},
			   {YV(mu), "maxUnavailable", "#ff7f0e", mu},
			   {YV(ms), "maxSurge", "#e377c2", ms}};
	static const char *const dashes[] = {"2 4", "10 5", "10 5"};
	fputs("<g class=\"budgets\">\n", f);
	for (k = 0; k < 3; k++)
		fprintf(f,
			"<line class=\"budget\" data-budget=\"%s\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			"stroke=\"%s\" "
			"stroke-width=\"2\" stroke-dasharray=\"%s\" opacity=\"0.9\"/>\n",
			labels[k].text, X0, labels[k].y, X1, labels[k].y, labels[k].colour, dashes[k]);
	label sorted[3];
	memcpy(sorted, labels, sizeof(sorted));
	qsort(sorted, 3, sizeof(sorted[0]), by_y);
	for (k = 1; k < 3; k++)
		if (sorted[k].y < sorted[k - 1].y + 16)
			sorted[k].y = sorted[k - 1].y + 16;
	if (sorted[2].y > Y1) { /* not below the axis: push up instead */
		sorted[2].y = Y1;
		for (k = 2; k-- > 0;)
			if (sorted[k].y > sorted[k + 1].y - 16)
				sorted[k].y = sorted[k + 1].y - 16;
	}
	for (k = 0; k < 3; k++)
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" fill=\"%s\" font-size=\"13\">%s %lld</text>\n", X1 + 8,
			sorted[k].y + 4, sorted[k].colour, sorted[k].text, sorted[k].value);
	fputs("</g>\n", f);

	/* how it ended */
	const json_t *stall = json_object_get(sim, "stall");
	int complete = strcmp(result, "complete") == 0;
	const char *endc = complete ? "#2ca02c" : "#b71c1c";
	int right = xend > (X0 + X1) / 2.0;
	fprintf(f,
		"<g class=\"%s\">\n<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
		"stroke-width=\"%s\"%s/>\n",
		complete ? "end" : "stall", xend, Y0, xend, Y1, endc, complete ? "1.5" : "2.5",
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
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" rx=\"4\" fill=\"#ffffff\" opacity=\"0.88\"/>\n",
		bx, Y0 + 6, bw, 12 + 18 * nl);
	for (int l = 0; l < nl; l++) {
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"%s\" fill=\"%s\"%s>", right ? xend - 12 : xend + 12,
			Y0 + 24 + 18 * l, right ? "end" : "start", endc,
			l == 0 ? " font-weight=\"bold\"" : " font-size=\"13\"");
		xml_text(f, lines[l], 0);
		fputs("</text>\n", f);
	}
	fputs("</g>\n\n", f);

	/* the legend, in two rows under the chart */
	fputs("<g class=\"legend\" font-size=\"13\" fill=\"#222222\">\n", f);
	int lx = X0, ly = Y1 + 82;
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
	for (k = 0; k < 3; k++) {
		fprintf(f,
			"<g class=\"legend-item\" data-budget=\"%s\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"%s\" "
			"stroke-width=\"1.8\" stroke-dasharray=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text></g>\n",
			labels[k].text, lx, ly - 5, lx + 32, ly - 5, labels[k].colour, dashes[k], lx + 40, ly,
			budget_text[k]);
		lx += 40 + 7 * (int)strlen(budget_text[k]) + 24;
	}
	fprintf(f,
		"<g class=\"legend-item\" data-mark=\"wave\"><path d=\"M%d %d l-6 -9 h12 z\" fill=\"#555555\"/>"
		"<text x=\"%d\" y=\"%d\">a wave: <tspan fill=\"#1f77b4\">+created</tspan> "
		"<tspan fill=\"#d62728\">\xE2\x88\x92"
		"deleted</tspan> pods</text></g>\n",
		lx + 16, ly, lx + 40, ly);
	fputs("</g>\n", f);
#undef XT
#undef YV
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
