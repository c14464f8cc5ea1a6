/* SPDX-License-Identifier: BSD-3-Clause */
/* --mode conn-rate's figures, verdict and JSON (connrate.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "connrate.h"
#include "conn_doc.h"

static uint64_t
unsent_of(const struct wr_conn_books *b)
{
	return b->nb_unstarted_pool + b->nb_unstarted_tuples +
		b->nb_unstarted_tx + b->nb_unstarted_late;
}

void
wr_connrate_trial_of(const struct wr_conn_books *before,
		const struct wr_conn_books *after, double cps, double duration_s,
		struct wr_connrate_trial *t)
{
	memset(t, 0, sizeof(*t));
	t->cps = cps;
	t->duration_s = duration_s;
	t->nb_attempted = after->nb_attempted - before->nb_attempted;
	t->nb_completed = after->nb_completed - before->nb_completed;
	/* A connection of an earlier trial completes in none: the engine
	 * resets them as a trial starts (wr_conn_engine_reopen). */
	t->nb_failed = t->nb_attempted > t->nb_completed ?
		t->nb_attempted - t->nb_completed : 0;
	t->nb_unsent_pool = after->nb_unstarted_pool - before->nb_unstarted_pool;
	t->nb_unsent_tuples = after->nb_unstarted_tuples -
		before->nb_unstarted_tuples;
	t->nb_unsent_tx = after->nb_unstarted_tx - before->nb_unstarted_tx;
	t->nb_unsent_late = after->nb_unstarted_late - before->nb_unstarted_late;
	t->nb_unsent = unsent_of(after) - unsent_of(before);
	t->nb_syn_rtx = after->nb_rtx_rto - before->nb_rtx_rto;
}

bool
wr_connrate_limited(const struct wr_connrate_trial *t)
{
	return t->nb_unsent != 0 || t->nb_tx_refused != 0;
}

uint64_t
wr_connrate_loss(const struct wr_connrate_trial *t, uint64_t *sent)
{
	*sent = t->nb_attempted + t->nb_unsent;
	if (*sent == 0) {
		/* Nothing was due: no evidence of a pass. */
		*sent = 1;
		return 1;
	}
	return wr_connrate_limited(t) ? *sent : t->nb_failed;
}

json_t *
wr_connrate_trial_json(const struct wr_connrate_trial *t)
{
	return json_pack("{s:s, s:f, s:f, s:f, s:I, s:I, s:I, s:f, s:{s:I, s:I, "
		"s:I, s:I, s:I}, s:I, s:I, s:b}",
		"what", "conn-rate", "cps", t->cps, "duration_s", t->duration_s,
		"achieved_cps", t->duration_s > 0 ?
			(double)t->nb_attempted / t->duration_s : 0.0,
		"attempted", (json_int_t)t->nb_attempted,
		"completed", (json_int_t)t->nb_completed,
		"failed", (json_int_t)t->nb_failed,
		"failed_ratio", t->nb_attempted > 0 ?
			(double)t->nb_failed / (double)t->nb_attempted : 0.0,
		"unsent", "total", (json_int_t)t->nb_unsent,
		"pool", (json_int_t)t->nb_unsent_pool,
		"tuples", (json_int_t)t->nb_unsent_tuples,
		"tx", (json_int_t)t->nb_unsent_tx,
		"late", (json_int_t)t->nb_unsent_late,
		"rtx_rto", (json_int_t)t->nb_syn_rtx,
		"tx_refused_frames", (json_int_t)t->nb_tx_refused,
		"generator_limited", wr_connrate_limited(t));
}

void
wr_connrate_trial_record(json_t *trials, const struct wr_connrate_trial *t,
		bool pass)
{
	json_t *o = wr_connrate_trial_json(t);

	if (o == NULL)
		return;
	json_object_set_new(o, "pass", json_boolean(pass));
	json_array_append_new(trials, o);
}

void
wr_connrate_judge(struct wr_connrate_verdict *v,
		const struct wr_connrate_trial *trials, uint32_t nb)
{
	uint32_t i;

	v->upper = NULL;
	v->nb_limited = 0;
	for (i = 0; i < nb; i++) {
		v->nb_limited += wr_connrate_limited(&trials[i]);
		/* The first trial at the upper bound: the one that set it. */
		if (v->upper == NULL && v->r.ndr_upper_pps > 0 &&
				trials[i].cps == v->r.ndr_upper_pps)
			v->upper = &trials[i];
	}
	if (v->r.ndr_found && v->r.ndr_pps >= v->top_cps)
		v->limit = WR_CONNRATE_TOP;
	else if (v->upper != NULL && wr_connrate_limited(v->upper))
		v->limit = WR_CONNRATE_GENERATOR;
	else
		v->limit = WR_CONNRATE_DEVICE;
}

/* The unsent starts of t in words, into buf. */
static void
unsent_words(const struct wr_connrate_trial *t, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64 " connections not started (pool full %"
		PRIu64 ", no source tuple %" PRIu64 ", no TX buffer %" PRIu64
		", held up %" PRIu64 ") and %" PRIu64 " frames its port refused",
		t->nb_unsent, t->nb_unsent_pool, t->nb_unsent_tuples,
		t->nb_unsent_tx, t->nb_unsent_late, t->nb_tx_refused);
}

void
wr_connrate_sentence(const struct wr_connrate_verdict *v, char *buf,
		size_t len)
{
	const struct wr_connrate_trial *u = v->upper;
	char words[160];

	if (v->limit == WR_CONNRATE_TOP) {
		snprintf(buf, len, "no connection failed up to the top rate, "
			"%.0f/s (--conn-rate): the device takes at least that",
			v->top_cps);
	} else if (v->limit == WR_CONNRATE_GENERATOR) {
		unsent_words(u, words, sizeof(words));
		snprintf(buf, len, "the generator's limit, not the device's: at "
			"%.1f/s it had %s; the highest rate without a failure is "
			"%.1f/s", u->cps, words, v->r.ndr_found ? v->r.ndr_pps : 0.0);
	} else if (!v->r.ndr_found) {
		snprintf(buf, len, "connections failed at every rate tried, down "
			"to %.1f/s", v->r.ndr_upper_pps);
	} else if (u != NULL) {
		snprintf(buf, len, "the device's limit: no connection failed at "
			"%.1f/s; at %.1f/s %" PRIu64 " of %" PRIu64 " failed",
			v->r.ndr_pps, u->cps, u->nb_failed, u->nb_attempted);
	} else {
		snprintf(buf, len, "no connection failed at %.1f/s",
			v->r.ndr_pps);
	}
}

static const char *const limit_words[] = {
	[WR_CONNRATE_DEVICE] = "device",
	[WR_CONNRATE_GENERATOR] = "generator",
	[WR_CONNRATE_TOP] = "top",
};

/* A rate, or null when the search found none. */
static json_t *
rate_or_null(bool found, double cps)
{
	return found ? json_real(cps) : json_null();
}

json_t *
wr_connrate_json(const struct wr_connrate_verdict *v)
{
	const struct wr_search_result *r = &v->r;
	char s[512];
	json_t *o;

	wr_connrate_sentence(v, s, sizeof(s));
	o = json_pack("{s:f, s:o, s:o, s:f, s:o, s:o, s:b, s:i, s:i, s:s, s:s}",
		"top_cps", v->top_cps,
		"max_cps", rate_or_null(r->ndr_found, r->ndr_pps),
		"upper_cps", rate_or_null(r->ndr_upper_pps > 0, r->ndr_upper_pps),
		"pdr_ratio", v->pdr_ratio,
		"pdr_cps", rate_or_null(v->pdr_ratio > 0 && r->pdr_found, r->pdr_pps),
		"pdr_upper_cps", rate_or_null(v->pdr_ratio > 0 &&
			r->pdr_upper_pps > 0, r->pdr_upper_pps),
		"converged", r->converged,
		"nb_trials", (int)r->nb_trials,
		"trials_generator_limited", (int)v->nb_limited,
		"limit", limit_words[v->limit],
		"verdict", s);
	return o;
}

void
wr_connrate_put(json_t *doc, const struct wr_connrate_verdict *v)
{
	json_object_set_new(doc, "conn_rate", wr_connrate_json(v));
}

/* The number at key of o into metric id when it is one (null: none). */
static int
figure(const json_t *o, const char *key, unsigned int id, struct wr_point *p,
		struct wr_error *err)
{
	const json_t *x = json_object_get(o, key);

	if (json_is_null(x))
		return 0;
	if (!json_is_number(x))
		return wr_err_usage(err, -EINVAL, "field 'conn_rate.%s' is "
			"missing or not a number", key);
	p->m.have[id] = true;
	p->m.v[id] = json_number_value(x);
	return 0;
}

int
wr_connrate_points(const json_t *doc, struct wr_points *out,
		struct wr_error *err)
{
	const json_t *o = json_object_get(doc, "conn_rate");

	if (o == NULL && wr_kind_running(doc))
		return 0;       /* killed during the search: nothing found yet */
	if (!json_is_object(o))
		return wr_err_usage(err, -EINVAL, "field 'conn_rate' is missing or "
			"not an object: the search did not finish");
	out->p[0].frame_size = 0;
	out->nb = 1;
	if (figure(o, "max_cps", WR_METRIC_CONN_MAX_CPS, &out->p[0], err) != 0)
		return -EINVAL;
	return figure(o, "pdr_cps", WR_METRIC_CONN_MAX_CPS_PDR, &out->p[0], err);
}
