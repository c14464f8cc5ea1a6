/* SPDX-License-Identifier: BSD-3-Clause */
/* Progress lines and result tables of the test modes (sweep, RFC 2544). */
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include <unistd.h>

#include "base/units.h"
#include "view.h"
#include "view_methods.h"
#include "view_mode.h"

/*
 * Why a trial does not count as it ran: said in full, never cut. The
 * port refusing frames (a shaper's back-pressure, a full TX ring) is
 * told apart from the generator's own limit (CPU, a stalled worker).
 */
#define TRIAL_STALLED "(rate not reached: generator stalled)"
#define TRIAL_REFUSED "(rate not reached: the port refused TX, back-pressure)"
#define TRIAL_SHORT(s) ((s)->tx_refused ? TRIAL_REFUSED : TRIAL_STALLED)

/* Columns a trial line may use: the terminal's, 80 piped. */
static unsigned int
trial_width(FILE *f)
{
	return isatty(fileno(f)) ? view_width(f) : 80u;
}

/* Every figure in full: for a wide terminal. */
static int
trial_wide(char *b, size_t n, const struct wr_run *run, const char *what,
		const struct wr_trial_summary *s)
{
	int k = snprintf(b, n, "trial %3u %-9s %5u B  offered %10.4f Mpps  sent %12"
		PRIu64 "  lost %10" PRId64 " (%.4f%%)", wr_run_nb_trials(run), what,
		s->frame_size, s->achieved_pps / 1e6, s->sent_pkts, s->lost_pkts,
		100.0 * s->loss_ratio);

	if (s->lat_valid && k > 0 && (size_t)k < n)
		k += snprintf(b + k, n - (size_t)k, "  lat p50 %.2f us", s->lat_p50_ns / 1e3);
	if (!s->rate_reached && k > 0 && (size_t)k < n)
		k += snprintf(b + k, n - (size_t)k, "  %s", TRIAL_SHORT(s));
	return k;
}

/* Counts with SI prefixes: at most 74 columns (the exact ones are in the JSON). */
static int
trial_narrow(char *b, size_t n, const struct wr_run *run, const char *what,
		const struct wr_trial_summary *s)
{
	char sent[24], lost[24];

	return snprintf(b, n, "trial %3u %-9s %5u B %9.4f Mpps sent %7s lost %7s "
		"%7.3f%%", wr_run_nb_trials(run), what, s->frame_size,
		s->achieved_pps / 1e6, wr_units_si((double)s->sent_pkts, sent,
		sizeof(sent)), wr_units_si((double)s->lost_pkts, lost, sizeof(lost)),
		100.0 * s->loss_ratio);
}

void
app_view_trial(FILE *f, const struct wr_run *run, const char *what,
		const struct wr_trial_summary *s)
{
	unsigned int width = trial_width(f);
	char line[256], tail[96] = "";
	int k = trial_wide(line, sizeof(line), run, what, s);

	if (k > 0 && (unsigned int)k <= width) {
		fprintf(f, "%s\n", line);
		fflush(f);
		return;
	}
	k = trial_narrow(line, sizeof(line), run, what, s);
	if (s->lat_valid)
		snprintf(tail, sizeof(tail), "  lat p50 %.2f us", s->lat_p50_ns / 1e3);
	if (!s->rate_reached)
		snprintf(tail + strlen(tail), sizeof(tail) - strlen(tail), "  %s",
			TRIAL_SHORT(s));
	/* What has no room on the line goes below it, indented. */
	if (tail[0] == '\0' || (k > 0 && (size_t)k + strlen(tail) <= width))
		fprintf(f, "%s%s\n", line, tail);
	else
		fprintf(f, "%s\n%8s%s\n", line, "", tail);
	fflush(f);
}

static double
num(json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

static void
table_sweep(FILE *f, json_t *results)
{
	size_t i;
	json_t *r;

	fprintf(f, "%6s %10s %10s %10s %12s %10s %12s\n", "size", "Mpps",
		"Gb/s L1", "Gb/s L2", "lost", "loss %", "lat p50 us");
	json_array_foreach(results, i, r)
		fprintf(f, "%6.0f %10.4f %10.4f %10.4f %12.0f %10.4f %12.2f\n",
			num(r, "frame_size"), num(r, "achieved_pps") / 1e6,
			num(r, "gbps_l1"), num(r, "gbps_l2"), num(r, "lost_pkts"),
			100 * num(r, "loss_ratio"), num(r, "latency_p50_ns") / 1e3);
}

/* A figure of r, or "-" when r does not have it (no trusted link, no NDR). */
static const char *
opt_num(json_t *r, const char *k, double scale, int prec, char *buf, size_t len)
{
	json_t *v = json_object_get(r, k);

	if (!json_is_number(v))
		return "-";
	snprintf(buf, len, "%.*f", prec, json_number_value(v) * scale);
	return buf;
}

/* Where a row's 100% rate came from, in one word for the table. */
static const char *
max_from_word(json_t *r)
{
	const char *from = json_string_value(json_object_get(r, "max_from"));

	if (from == NULL)
		return "-";
	if (strncmp(from, "calibration", 11) == 0)
		return "calib";
	if (strcmp(from, "line rate") == 0)
		return "line";
	return from;
}

/* What the table's marks mean, once, under it. */
static void
throughput_notes(FILE *f, json_t *results)
{
	bool calib = false, open = false;
	size_t i;
	json_t *r;

	json_array_foreach(results, i, r) {
		calib |= strcmp(max_from_word(r), "calib") == 0;
		open |= !json_is_true(json_object_get(r, "converged"));
	}
	if (calib)
		fprintf(f, "100%% from calib: the rate an unpaced calibration "
			"trial reached\n");
	if (open)
		fprintf(f, "* not converged: the search stopped at its trial cap "
			"(--max-trials)\n");
}

/*
 * NDR per size; PDR only when --pdr asked for it; % of line when trusted.
 * 78 columns with the PDR.
 */
static void
table_throughput(FILE *f, json_t *doc, json_t *results)
{
	bool pdr = num(doc, "pdr_ratio") > 0;
	char line[24], pdrs[24], lat[24];
	size_t i;
	json_t *r;

	fprintf(f, "%6s %9s %8s %8s %7s", "size", "NDR Mpps", "Gb/s L1",
		"Gb/s L2", "% line");
	if (pdr)
		fprintf(f, " %9s", "PDR Mpps");
	fprintf(f, " %6s %10s %s\n", "trials", "lat p50 us", "100%");
	json_array_foreach(results, i, r) {
		json_t *at = json_object_get(r, "at_ndr");

		fprintf(f, "%6.0f %9.4f %8.4f %8.4f %7s", num(r, "frame_size"),
			num(r, "ndr_mpps"), num(r, "ndr_gbps_l1"), num(r, "ndr_gbps_l2"),
			opt_num(r, "ndr_pct_of_line", 1, 2, line, sizeof(line)));
		if (pdr)
			fprintf(f, " %9s", json_is_true(json_object_get(r, "pdr_found")) ?
				opt_num(r, "pdr_pps", 1e-6, 4, pdrs, sizeof(pdrs)) : "-");
		fprintf(f, " %6.0f %10s %s%s\n", num(r, "search_trials"),
			at ? opt_num(at, "latency_p50_ns", 1e-3, 2, lat, sizeof(lat)) : "-",
			max_from_word(r),
			json_is_true(json_object_get(r, "converged")) ? "" : " *");
	}
	throughput_notes(f, results);
}

static void
table_loss(FILE *f, json_t *results)
{
	size_t i, j;
	json_t *r, *s;

	fprintf(f, "%6s %8s %12s %14s %12s\n", "size", "% max", "Mpps", "sent", "loss %");
	json_array_foreach(results, i, r)
		json_array_foreach(json_object_get(r, "steps"), j, s)
			fprintf(f, "%6.0f %8.1f %12.4f %14.0f %12.4f\n", num(r, "frame_size"),
				num(s, "pct_of_max"), num(s, "achieved_pps") / 1e6,
				num(s, "sent_pkts"), num(s, "loss_pct"));
}

static void
table_b2b(FILE *f, json_t *results)
{
	size_t i;
	json_t *r;

	fprintf(f, "%6s %14s %14s %14s %14s\n", "size", "mean burst", "min", "max",
		"longest tried");
	json_array_foreach(results, i, r)
		fprintf(f, "%6.0f %14.1f %14.0f %14.0f %14.0f\n", num(r, "frame_size"),
			num(r, "mean_pkts"), num(r, "min_pkts"), num(r, "max_pkts"),
			num(r, "max_tried_pkts"));
}

void
app_view_mode(FILE *f, json_t *doc)
{
	const char *mode = json_string_value(json_object_get(doc, "mode"));
	json_t *results = json_object_get(doc, "results");

	if (json_object_get(doc, "rfc2889") != NULL) {
		if (json_object_get(json_object_get(doc, "rfc2889"), "pattern") != NULL)
			app_view_mesh(f, json_object_get(doc, "rfc2889"));
		else
			app_view_rfc2889(f, json_object_get(doc, "rfc2889"));
		fflush(f);
		return;
	}
	if (strcmp(mode, "conn-load") == 0) {
		app_view_connload(f, doc);
		fflush(f);
		return;
	}
	if (strcmp(mode, "conn-teardown") == 0) {
		app_view_conntear(f, doc);
		fflush(f);
		return;
	}
	if (strcmp(mode, "conn-rate") == 0) {
		app_view_connrate(f, doc);
		fflush(f);
		return;
	}
	if (json_object_get(doc, "y1564") != NULL) {
		app_view_y1564(f, json_object_get(doc, "y1564"));
		fflush(f);
		return;
	}
	if (json_is_number(json_object_get(doc, "trial_pkts")) && num(doc, "trial_s") == 0)
		fprintf(f, "\n%s results (trials of %.0f frames per TX port)\n", mode,
			num(doc, "trial_pkts"));
	else
		fprintf(f, "\n%s results (trials of %.1f s%s)\n", mode, num(doc, "trial_s"),
			json_is_true(json_object_get(doc, "rfc2544_trial_length")) ? "" :
			", shorter than RFC 2544's 60 s");
	if (strcmp(mode, "throughput") == 0)
		table_throughput(f, doc, results);
	else if (strcmp(mode, "loss") == 0)
		table_loss(f, results);
	else if (strcmp(mode, "b2b") == 0)
		table_b2b(f, results);
	else if (strcmp(mode, "mlr") == 0)
		app_view_mlr(f, results);
	else
		table_sweep(f, results);
	app_view_lat_load(f, results);
	fflush(f);
}
