/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `wirerate report` on two-ended results: the cells a campaign recorded
 * (schema wirerate-cell/2, or /1 before goals, scripts/campaign/) and `wirerate merge` files
 * (wirerate-merge/1). A merged cell becomes a run of the usual tables and
 * plots (figures: TX from the sender, RX and latency from the receiver,
 * loss from the merge, cycles per frame from the sender), and every cell,
 * failed ones too, a row of the campaign table with both ends' cycles per
 * frame. No EAL.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "base/units.h"
#include "jsonpath.h"
#include "report_campaign.h"
#include "analysis/compare.h"
#include "results/kinds.h"

#define CELL_SCHEMA "wirerate-cell/2"
#define CELL1_SCHEMA "wirerate-cell/1"   /* before goals: passed = ran */
#define MERGE_SCHEMA "wirerate-merge/1"

/* One row of the campaign table. */
struct rep_cell {
	char label[WR_LABEL_LEN];
	char where[REP_CELL];         /* "sender -> receiver", or the merge file */
	/* "passed" (ran, goal met), "ran (no goal)", "MISSED: why" (ran,
	 * goal not met), "merged" (a merge file) or "FAILED: reason". */
	char status[REP_CELL];
	char merge_path[PATH_MAX];
	char search[REP_CELL];        /* a search cell's NDR / PDR / MLR, or "-" */
	double ndr_pps;               /* a search cell's NDR, frames/s; 0: none */
	unsigned int frame_size;
	int run;                      /* index in rep.run[], -1: no figures */
	struct wr_metric_values snd;  /* the sender's own figures */
	struct wr_metric_values rcv;  /* the receiver's own figures */
	uint64_t sent_pkts;
	int64_t lost_pkts;
	json_t *doc;                  /* the input: a cell record or a merge */
	json_t *merge;                /* the merge (borrowed when doc is one) */
	json_t *sender;               /* the sender's result */
};

struct rep_campaign {
	unsigned int nb_cells;
	struct rep_cell cell[REP_MAX_RUNS];
};

static int
load_json(const char *path, json_t **doc, struct wr_error *err)
{
	json_error_t je;

	*doc = json_load_file(path, 0, &je);
	if (*doc != NULL && json_is_object(*doc))
		return 0;
	json_decref(*doc);
	*doc = NULL;
	return wr_err_usage(err, -EINVAL, "%s: cannot read as JSON: %s", path, je.text);
}

/* One end of a merge: its result file, checked like any report input. */
static int
load_end(const char *merge_path, const json_t *m, const char *end, json_t **doc,
		struct wr_metric_values *v, struct wr_error *err)
{
	const char *file = rep_str_of(json_object_get(m, end), "file", NULL);
	char path[PATH_MAX];

	if (file == NULL)
		return wr_err_usage(err, -EINVAL, "%s: field '%s.file' is missing", merge_path, end);
	rep_sibling(path, sizeof(path), merge_path, file);
	if (wr_compare_load(path, doc, err) != 0)
		return -EINVAL;
	if (wr_metrics_extract(*doc, v, err) != 0)
		return wr_err_prefix(err, "%s: ", path);
	return 0;
}

/* Figures of a merged pair; the receiver's document is the run's. */
static void
pair_figures(struct rep_run *run, const struct wr_metric_values *s,
		const struct wr_metric_values *r, const struct rep_cell *c)
{
	static const unsigned int from_snd[] = { WR_METRIC_TX_MPPS,
		WR_METRIC_TX_GBPS_L1, WR_METRIC_TX_GBPS_L2, WR_METRIC_CYCLES_PER_PKT };
	unsigned int i;

	run->m = *r;
	for (i = 0; i < RTE_DIM(from_snd); i++) {
		run->m.have[from_snd[i]] = s->have[from_snd[i]];
		run->m.v[from_snd[i]] = s->v[from_snd[i]];
	}
	run->m.have[WR_METRIC_LOSS_PCT] = c->sent_pkts > 0;
	run->m.v[WR_METRIC_LOSS_PCT] = c->sent_pkts > 0 ?
		100.0 * (double)c->lost_pkts / (double)c->sent_pkts : 0;
	run->lo = run->hi = run->m;
	run->n = 1;
}

/*
 * The receiver's latency percentiles as one-way latency, by the merge's
 * one_way (results/oneway.h): as they are with one TSC, shifted onto the
 * sender's clock with synchronised clocks, left out otherwise (the
 * receiver's TSC minus another host's is no latency).
 */
static void
oneway_figures(struct rep_run *run, const json_t *merge)
{
	static const unsigned int lat[] = { WR_METRIC_LAT_P50, WR_METRIC_LAT_P90,
		WR_METRIC_LAT_P99, WR_METRIC_LAT_P99_9 };
	const json_t *ow = json_object_get(merge, "one_way");
	const json_t *shift = json_object_get(ow, "shift_ns");
	unsigned int i;

	/* A merge of an older wirerate says nothing: as it was. */
	if (ow == NULL)
		return;
	for (i = 0; i < RTE_DIM(lat); i++) {
		double *v = &run->m.v[lat[i]];

		if (json_is_number(shift))
			*v -= json_number_value(shift);
		if (!json_is_true(json_object_get(ow, "available")) || *v < 0)
			run->m.have[lat[i]] = false;
	}
	run->lo = run->hi = run->m;
}

/* The merge at c->merge_path: a run of the report, figures of the row. */
static int
load_merge(struct rep *rep, struct rep_cell *c, struct wr_error *err)
{
	struct rep_run *run = &rep->run[rep->nb_runs];
	const json_t *tot;
	struct wr_error why;
	uint64_t size;

	if (c->merge == NULL && load_json(c->merge_path, &c->merge, err) != 0)
		return -EINVAL;
	if (strcmp(rep_str_of(c->merge, "schema", ""), MERGE_SCHEMA) != 0)
		return wr_err_usage(err, -EINVAL, "%s: schema is not \"%s\"", c->merge_path, MERGE_SCHEMA);
	if (rep->nb_runs == REP_MAX_RUNS)
		return wr_err_usage(err, -EINVAL, "%s: more than %u rows in all", c->merge_path,
			REP_MAX_RUNS);
	if (load_end(c->merge_path, c->merge, "sender", &c->sender, &c->snd,
			err) != 0 || load_end(c->merge_path, c->merge, "receiver",
			&rep->docs[rep->nb_files], &c->rcv, err) != 0)
		return -EINVAL;
	run->doc = rep->docs[rep->nb_files];
	run->kind = wr_kind_of(run->doc, &why);
	if (run->kind == NULL || strcmp(run->kind->name, "run") != 0)
		return wr_err_usage(err, -EINVAL, "%s: the receiver's result is %s, not a single run",
			c->merge_path, run->kind != NULL ? run->kind->name : why.msg);
	tot = json_object_get(c->merge, "totals");
	c->sent_pkts = (uint64_t)json_integer_value(json_object_get(tot, "sent_pkts"));
	c->lost_pkts = json_integer_value(json_object_get(tot, "lost_pkts"));
	if (wr_metrics_get_count(c->sender, "config.frame_size", UINT16_MAX, &size,
			err) != 0)
		return wr_err_prefix(err, "%s: the sender's ", c->merge_path);
	if (c->label[0] == '\0')
		snprintf(c->label, sizeof(c->label), "%s", rep_str_of(c->sender, "label",
			rep_str_of(json_object_get(c->merge, "sender"), "hostname", "?")));
	snprintf(run->label, sizeof(run->label), "%s", c->label);
	run->path = c->merge_path;
	run->file = rep->nb_files++;
	run->load_pct = -1;
	run->frame_size = c->frame_size = (unsigned int)size;
	pair_figures(run, &c->snd, &c->rcv, c);
	oneway_figures(run, c->merge);
	c->run = (int)rep->nb_runs++;
	return 0;
}

/*
 * The result column of a cell that ran: whether it met its goal
 * (wirerate-cell/2's goal; a wirerate-cell/1 record knows none).
 */
static void
goal_status(struct rep_cell *c)
{
	const json_t *goal = json_object_get(c->doc, "goal");
	const json_t *met = json_object_get(goal, "met");

	if (json_is_true(met))
		snprintf(c->status, sizeof(c->status), "passed");
	else if (json_is_false(met))
		snprintf(c->status, sizeof(c->status), "MISSED: %s",
			rep_str_of(goal, "why", "goal not met"));
	else
		snprintf(c->status, sizeof(c->status), "ran (no goal)");
}

/*
 * A search cell's figures (cell.json "search", frames/s) in Mpps: NDR and
 * PDR of a throughput search, the conditional throughput of each of
 * MLRsearch's goals (with its loss ratio); "-" for none.
 */
static void
search_text(struct rep_cell *c)
{
	const json_t *f = json_object_get(c->doc, "search");
	const json_t *mlr = json_object_get(f, "mlr"), *g;
	size_t i, n = 0;

	snprintf(c->search, sizeof(c->search), "-");
	c->ndr_pps = json_is_true(json_object_get(f, "ndr_found")) ?
		json_number_value(json_object_get(f, "ndr_pps")) : 0.0;
	if (json_is_true(json_object_get(f, "ndr_found")))
		n += (size_t)snprintf(c->search, sizeof(c->search), "NDR %.4g",
			json_number_value(json_object_get(f, "ndr_pps")) / 1e6);
	if (n > 0 && json_is_true(json_object_get(f, "pdr_found")))
		snprintf(c->search + n, sizeof(c->search) - n, " / PDR %.4g",
			json_number_value(json_object_get(f, "pdr_pps")) / 1e6);
	json_array_foreach(mlr, i, g) {
		if (n >= sizeof(c->search) - 1)
			break;
		n += (size_t)snprintf(c->search + n, sizeof(c->search) - n, "%sMLR %.4g "
			"(loss %.3g%%)%s", i == 0 ? "" : " / ", json_number_value(
			json_object_get(g, "conditional_throughput_pps")) / 1e6, 100 *
			json_number_value(json_object_get(g, "loss_ratio")),
			json_is_true(json_object_get(g, "done")) ? "" : " not done");
	}
}

/* A campaign's record of one cell; its merge when it ran. */
static int
load_cell(struct rep *rep, struct rep_cell *c, const char *path, struct wr_error *err)
{
	static const char *const need[] = { "label", "status", "sender", "receiver" };
	const char *merged = rep_str_of(c->doc, "merged", NULL);
	unsigned int i;
	bool ran;

	for (i = 0; i < RTE_DIM(need); i++)
		if (rep_str_of(c->doc, need[i], NULL) == NULL)
			return wr_err_usage(err, -EINVAL, "%s: field '%s' is missing or not text",
				path, need[i]);
	if (!json_is_integer(json_object_get(c->doc, "frame_size")))
		return wr_err_usage(err, -EINVAL, "%s: field 'frame_size' is missing or not a whole "
			"number", path);
	snprintf(c->label, sizeof(c->label), "%s", rep_str_of(c->doc, "label", "?"));
	snprintf(c->where, sizeof(c->where), "%s -> %s", rep_str_of(c->doc, "sender",
		"?"), rep_str_of(c->doc, "receiver", "?"));
	c->frame_size = (unsigned int)json_integer_value(json_object_get(c->doc,
		"frame_size"));
	ran = strcmp(rep_str_of(c->doc, "schema", ""), CELL1_SCHEMA) == 0 ?
		strcmp(rep_str_of(c->doc, "status", ""), "passed") == 0 :
		json_is_true(json_object_get(c->doc, "ran"));
	search_text(c);
	if (ran && json_is_object(json_object_get(c->doc, "search"))) {
		/* A search cell (--peer): its figures are the search's. */
		goal_status(c);
		return 0;
	}
	if (!ran || merged == NULL) {
		snprintf(c->status, sizeof(c->status), "FAILED: %s",
			rep_str_of(c->doc, "reason", "no reason recorded"));
		return 0;
	}
	goal_status(c);
	rep_sibling(c->merge_path, sizeof(c->merge_path), path, merged);
	return load_merge(rep, c, err);
}

int
rep_campaign_load(struct rep *rep, const char *path, struct wr_error *err)
{
	struct rep_cell *c;
	const char *schema;
	json_t *doc;

	/* Unreadable: the result loader says why, in its words. */
	if (load_json(path, &doc, err) != 0)
		return 1;
	schema = rep_str_of(doc, "schema", "");
	if (strcmp(schema, CELL_SCHEMA) != 0 && strcmp(schema, CELL1_SCHEMA) != 0 &&
			strcmp(schema, MERGE_SCHEMA) != 0) {
		json_decref(doc);
		return 1;
	}
	if (rep->campaign == NULL)
		rep->campaign = calloc(1, sizeof(*rep->campaign));
	if (rep->campaign == NULL) {
		json_decref(doc);
		return wr_err_env(err, -ENOMEM, "no memory for the campaign table");
	}
	c = &rep->campaign->cell[rep->campaign->nb_cells++];
	c->run = -1;
	c->doc = doc;
	if (strcmp(schema, MERGE_SCHEMA) != 0)
		return load_cell(rep, c, path, err);
	c->merge = doc;
	snprintf(c->status, sizeof(c->status), "%s", json_is_true(
		json_object_get(doc, "balanced")) ? "merged" : "FAILED: not balanced");
	snprintf(c->merge_path, sizeof(c->merge_path), "%s", path);
	snprintf(c->where, sizeof(c->where), "%s", path);
	return load_merge(rep, c, err);
}

void
rep_campaign_free(struct rep *rep)
{
	unsigned int i;

	if (rep->campaign == NULL)
		return;
	for (i = 0; i < rep->campaign->nb_cells; i++) {
		struct rep_cell *c = &rep->campaign->cell[i];

		if (c->merge != c->doc)
			json_decref(c->merge);
		json_decref(c->doc);
		json_decref(c->sender);
	}
	free(rep->campaign);
	rep->campaign = NULL;
}

/* A figure times scale with p decimals (the other tables' per unit). */
static void
fig(char *buf, const struct wr_metric_values *v, unsigned int id, double scale,
		int p)
{
	if (v == NULL || !v->have[id])
		snprintf(buf, REP_CELL, "-");
	else
		snprintf(buf, REP_CELL, "%.*f", p, v->v[id] * scale);
}

/* A search cell's rate columns: those of its NDR (the frames/s found). */
static void
ndr_figures(char (*row)[REP_CELL], const struct rep_cell *c)
{
	double pps = c->ndr_pps;

	snprintf(row[3], REP_CELL, "%.1f", wr_units_l2_bps(pps, c->frame_size) / 8 / 1e6);
	snprintf(row[4], REP_CELL, "%.4f", pps / 1e6);
	snprintf(row[5], REP_CELL, "%.3f", wr_units_l1_bps(pps, c->frame_size) / 1e9);
	snprintf(row[6], REP_CELL, "%.3f", wr_units_l2_bps(pps, c->frame_size) / 1e9);
}

static void
cell_row(char (*row)[REP_CELL], const struct rep *rep, const struct rep_cell *c)
{
	const struct wr_metric_values *m = c->run >= 0 ? &rep->run[c->run].m : NULL;

	snprintf(row[0], REP_CELL, "%s", c->label);
	snprintf(row[1], REP_CELL, "%u", c->frame_size);
	snprintf(row[2], REP_CELL, "%s", c->status);
	/* MB/s: 10^6 bytes of Ethernet frames received per second (L2). */
	fig(row[3], m, WR_METRIC_RX_GBPS_L2, 1e9 / 8 / 1e6, 1);
	fig(row[4], m, WR_METRIC_RX_MPPS, 1, 4);
	fig(row[5], m, WR_METRIC_RX_GBPS_L1, 1, 3);
	fig(row[6], m, WR_METRIC_RX_GBPS_L2, 1, 3);
	if (m == NULL && c->ndr_pps > 0)
		ndr_figures(row, c);
	if (m != NULL)
		snprintf(row[7], REP_CELL, "%" PRIu64 " / %" PRId64 " (%.4f%%)",
			c->sent_pkts, c->lost_pkts, m->v[WR_METRIC_LOSS_PCT]);
	else
		snprintf(row[7], REP_CELL, "-");
	fig(row[8], m, WR_METRIC_LAT_P50, 1, 0);
	fig(row[9], m != NULL ? &c->snd : NULL, WR_METRIC_CYCLES_PER_PKT, 1, 1);
	fig(row[10], m != NULL ? &c->rcv : NULL, WR_METRIC_CYCLES_PER_PKT, 1, 1);
	snprintf(row[11], REP_CELL, "%s", c->where);
	snprintf(row[12], REP_CELL, "%s", c->search[0] != '\0' ? c->search : "-");
}

int
rep_campaign_table(const struct rep *rep, struct rep_doc *doc)
{
	static const char *const head[] = { "cell", "frame B", "result", "MB/s",
		"Mpps", "Gb/s L1", "Gb/s L2", "sent / lost (loss)", "latency p50 ns",
		"cycles/frame TX", "cycles/frame RX", "sender -> receiver",
		"NDR / PDR / MLR Mpps" };
	const struct rep_campaign *cp = rep->campaign;
	struct rep_table *t;
	unsigned int i;

	RTE_BUILD_BUG_ON(RTE_DIM(head) > REP_MAX_COLS);
	if (cp == NULL)
		return 0;
	if (doc->nb_tables == RTE_DIM(doc->tables))
		return -ENOMEM;
	t = &doc->tables[0];
	memmove(t + 1, t, doc->nb_tables * sizeof(*t));
	doc->nb_tables++;
	memset(t, 0, sizeof(*t));
	t->cell = calloc(cp->nb_cells ? cp->nb_cells : 1, sizeof(*t->cell));
	if (t->cell == NULL)
		return -ENOMEM;
	snprintf(t->title, sizeof(t->title), "Campaign: %u cells, as received "
		"(MB/s = 10^6 frame bytes/s); cycles per frame at each end; a "
		"search cell's NDR / PDR / MLR, its rates those of its NDR",
		cp->nb_cells);
	t->nb_cols = RTE_DIM(head);
	t->nb_rows = cp->nb_cells;
	memcpy(t->head, head, sizeof(head));
	for (i = 0; i < cp->nb_cells; i++)
		cell_row(t->cell[i], rep, &cp->cell[i]);
	return 0;
}
