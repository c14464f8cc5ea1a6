/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a result says about its own integrity: the document written during
 * a run (--checkpoint) and the cross-check warnings (xcheck.h).
 */
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "base/jsonw.h"
#include "result.h"
#include "result_int.h"
#include "stats/rxpub.h"
#include "trials.h"

json_t *
wr_result_warnings_json(const struct wr_xcheck *x)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < x->nb; i++) {
		const struct wr_xcheck_warning *w = &x->w[i];
		json_t *o = json_object();

		wr_json_set(o, "check", json_string(w->check));
		wr_json_set(o, "port_id", w->port_id == UINT16_MAX ? json_null() :
			wr_json_u64(w->port_id));
		wr_json_set(o, "queue", w->queue < 0 ? json_null() : json_integer(w->queue));
		wr_json_set(o, "wirerate", wr_json_u64(w->wirerate));
		wr_json_set(o, "pmd", wr_json_u64(w->pmd));
		wr_json_set(o, "what", json_string(w->what));
		json_array_append_new(a, o);
	}
	if (x->nb_dropped != 0)
		json_array_append_new(a, json_pack("{s:s, s:n, s:n, s:I, s:I, s:s}",
			"check", "more", "port_id", "queue", "wirerate",
			(json_int_t)x->nb_dropped, "pmd", (json_int_t)0, "what",
			"further warnings not listed"));
	return a;
}

/* Totals of port index p at interval iv: counters, rates over the run so
 * far, drops, latency of the run so far (published copies). */
static json_t *
running_total_json(const struct wr_run *run, const struct wr_interval *iv,
		unsigned int p)
{
	json_t *o = wr_result_port_counters_json(run, p, &iv->port[p].cnt,
		(uint64_t)(iv->t_s * (double)run->setup.tsc_hz));

	wr_json_set(o, "latency", wr_result_lat_figs_json(&iv->port[p].seq.lat_run));
	return o;
}

/*
 * Shallow copies of the finished trials less their "samples": those are in
 * the companion NAME.samples.jsonl already, and up to 120 a trial would
 * grow each checkpoint with every --repeat trial. Returns NULL on no memory.
 */
static json_t *
trials_without_samples(json_t *trials)
{
	json_t *a = json_array(), *v, *t;
	size_t i;

	json_array_foreach(trials, i, v) {
		t = json_copy(v);
		if (t == NULL || json_array_append_new(a, t) != 0) {
			json_decref(a);
			return NULL;
		}
		json_object_del(t, "samples");
	}
	return a;
}

/*
 * What finished before the trial in progress (wr_result_checkpoint_keep):
 * its keys replace the running ones ("trials" becomes the finished trials,
 * without their samples), and --repeat's finished trials get their summary.
 */
static void
add_done(json_t *doc, const struct wr_run *run)
{
	json_t *trials, *summary;

	if (run->live.ckpt_done == NULL)
		return;
	json_object_update(doc, run->live.ckpt_done);
	trials = json_object_get(doc, "trials");
	if (json_object_get(doc, "mode") != NULL || json_array_size(trials) == 0)
		return;
	summary = wr_trials_summarize(trials, run->setup.cfg->nb_warmup, NULL);
	if (summary != NULL)
		wr_json_set(doc, "summary", summary);
	wr_json_set(doc, "trials", trials_without_samples(trials));
}

/* The keys every checkpoint has: the head, "running", the trial. */
static json_t *
running_head(const struct wr_run *run)
{
	json_t *doc = wr_result_head(run);

	if (doc == NULL)
		return NULL;
	wr_json_set(doc, "frame_size", wr_json_u64(run->live.trial.frame_size));
	wr_json_set(doc, "stop_reason", json_string("running"));
	wr_json_set(doc, "complete", json_false());
	wr_json_set(doc, "trial", wr_json_u64(run->live.nb_trials));
	return doc;
}

/*
 * A checkpoint as a trial ends that saw no interval (a trial shorter than
 * --interval: b2b's bursts, MLRsearch's short trials): the latest reading
 * is that trial's own final one, the last of the finished trials (an
 * RFC 2889 mode's: the head and its "rfc2889" alone). NULL when there is
 * none (no trial finished yet) or without memory.
 */
static json_t *
build_after_trial(const struct wr_run *run)
{
	static const char *const keys[] = { "duration_s", "totals", "streams",
		"tx_streams", "accounting", "warnings" };
	const json_t *trials = json_object_get(run->live.ckpt_done, "trials");
	json_t *last = json_array_get(trials, json_array_size(trials) - 1);
	json_t *doc, *acc;
	unsigned int i;

	/* An RFC 2889 mode's trials are in its "rfc2889", the head holds the rest. */
	if (!json_is_object(last) && json_array_size(json_object_get(json_object_get(
			run->live.ckpt_done, "rfc2889"), "trials")) != 0) {
		doc = running_head(run);
		if (doc != NULL)
			add_done(doc, run);
		return doc;
	}
	if (!json_is_object(last))
		return NULL;
	doc = running_head(run);
	if (doc == NULL)
		return NULL;
	for (i = 0; i < RTE_DIM(keys); i++)
		if (json_object_get(last, keys[i]) != NULL)
			wr_json_set(doc, keys[i], json_deep_copy(json_object_get(last,
				keys[i])));
	/* As a checkpoint's: no mbufs figures yet, the run not complete. */
	acc = json_object_get(doc, "accounting");
	json_object_del(acc, "mbufs_missing");
	json_object_del(acc, "stranded_pkts");
	if (acc != NULL)
		wr_json_set(acc, "complete", json_false());
	add_done(doc, run);
	return doc;
}

json_t *
wr_result_build_running(const struct wr_run *run)
{
	struct wr_xcheck *warn;
	const struct wr_interval *iv;
	json_t *doc, *totals, *streams, *acc;
	unsigned int i;

	if (run->live.nb_intervals == 0)
		return build_after_trial(run);
	iv = wr_run_interval(run, run->live.nb_intervals - 1);
	doc = running_head(run);
	if (doc == NULL)
		return NULL;
	totals = json_array();
	streams = json_array();
	wr_result_add_samples(doc, run);
	wr_json_set(doc, "duration_s", json_real(iv->t_s));
	for (i = 0; i < run->setup.nb_ports; i++)
		json_array_append_new(totals, running_total_json(run, iv, i));
	wr_json_set(doc, "totals", totals);
	for (i = 0; i < run->res.nb_streams; i++)
		json_array_append_new(streams, wr_result_stream_json(run, &run->res.streams[i], true));
	wr_json_set(doc, "streams", streams);
	wr_json_set(doc, "tx_streams", wr_result_tx_streams_json(run));
	/* In flight frames read as lost: the balance is final only at the end. */
	acc = wr_result_accounting_json(run);
	json_object_del(acc, "mbufs_missing");
	json_object_del(acc, "stranded_pkts");
	wr_json_set(acc, "complete", json_false());
	wr_json_set(doc, "accounting", acc);
	/* 17 KB: not on the stack, not kept between checkpoints. */
	warn = malloc(sizeof(*warn));
	if (warn == NULL) {
		json_decref(doc);
		return NULL;
	}
	wr_xcheck_init(warn);
	wr_rxpub_warnings(run, warn);
	wr_json_set(doc, "warnings", wr_result_warnings_json(warn));
	free(warn);
	add_done(doc, run);
	return doc;
}

/* Write the checkpoint; flushed to disk (file and directory) if durable. */
static void
checkpoint(struct wr_run *run, bool durable)
{
	json_t *doc = wr_result_build_running(run);
	const char *path = run->setup.cfg->json_path;

	run->live.ckpt_ready = false;
	/* A failed checkpoint is counted; the final write reports its error. */
	if (doc == NULL || (durable ? wr_result_write_json(doc, path, NULL) :
			wr_result_write_json_nosync(doc, path, NULL)) != 0)
		run->live.nb_ckpt_failed++;
	else
		run->live.nb_ckpt_written++;
	json_decref(doc);
}

void
wr_result_checkpoint(struct wr_run *run)
{
	checkpoint(run, true);
}

/*
 * Whether the checkpoint as a trial or point ends goes to disk: once per
 * --checkpoint period, as the ticks' do. Every such checkpoint survives a
 * crash of the process; an fsync each, hundreds of short search trials
 * apart, would stall a run on a busy disk (80 ms a trial measured).
 */
static bool
keep_durable(struct wr_run *run)
{
	uint64_t now = rte_rdtsc();

	/* Since the last durable one, across trials (not wr_run_checkpoint_due:
	 * it counts from the trial's start, which a short trial never passes). */
	if (now - run->live.ckpt_tsc < run->setup.cfg->checkpoint_ms *
			(run->setup.tsc_hz / 1000))
		return false;
	run->live.ckpt_tsc = now;
	return true;
}

void
wr_result_checkpoint_keep(struct wr_run *run, json_t *done)
{
	run->live.ckpt_done = done;
	/*
	 * Something to write: an interval, or a finished trial
	 * (build_after_trial; an RFC 2889 mode's are in its "rfc2889").
	 */
	if (done != NULL && (run->live.nb_intervals != 0 ||
			json_array_size(json_object_get(done, "trials")) != 0 ||
			json_array_size(json_object_get(json_object_get(done,
			"rfc2889"), "trials")) != 0) &&
			run->setup.cfg->json_path[0] != '\0' &&
			run->setup.cfg->checkpoint_ms != 0)
		checkpoint(run, keep_durable(run));
}
