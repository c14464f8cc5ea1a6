/* SPDX-License-Identifier: BSD-3-Clause */
/* --mode conn-teardown's figures, verdict and JSON (conntear.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "conntear.h"

bool
wr_conntear_trial_of(const struct wr_conn_books *before,
		const struct wr_conn_books *after, uint64_t held,
		struct wr_conntear_trial *t)
{
	/* The closes open before fail at the trial's start: not t's. */
	uint64_t failed0 = before->nb_close_failed + before->nb_closing;

	t->nb_held = held;
	t->nb_attempted = after->nb_close_attempted -
		before->nb_close_attempted;
	t->nb_done = after->nb_close_done - before->nb_close_done;
	t->nb_failed = after->nb_close_failed - failed0;
	t->nb_timeout = after->nb_close_timeout - before->nb_close_timeout;
	t->nb_open = after->nb_closing;
	t->nb_unsent = held > t->nb_attempted ? held - t->nb_attempted : 0;
	return t->nb_attempted == t->nb_done + t->nb_failed + t->nb_open;
}

bool
wr_conntear_limited(const struct wr_conntear_trial *t)
{
	return t->nb_unsent != 0 || t->nb_tx_refused != 0;
}

uint64_t
wr_conntear_loss(const struct wr_conntear_trial *t, uint64_t *sent)
{
	*sent = t->nb_held;
	if (*sent == 0) {
		/* Nothing to close: no evidence of a pass. */
		*sent = 1;
		return 1;
	}
	if (wr_conntear_limited(t))
		return *sent;
	return RTE_MIN(*sent, t->nb_failed + t->nb_open);
}

void
wr_conntear_trial_record(json_t *trials, const struct wr_conntear_trial *t,
		bool pass)
{
	json_t *o = json_pack("{s:s, s:f, s:f, s:f, s:f, s:I, s:I, s:I, s:I, "
		"s:I, s:I, s:I, s:I, s:I, s:b, s:b}",
		"what", "conn-teardown", "cps", t->cps, "fill_s", t->fill_s,
		"close_s", t->close_s,
		"achieved_cps", t->close_s > 0 ?
			(double)t->nb_attempted / t->close_s : 0.0,
		"target", (json_int_t)t->nb_target,
		"held", (json_int_t)t->nb_held,
		"attempted", (json_int_t)t->nb_attempted,
		"completed", (json_int_t)t->nb_done,
		"failed", (json_int_t)t->nb_failed,
		"timed_out", (json_int_t)t->nb_timeout,
		"open", (json_int_t)t->nb_open,
		"unsent", (json_int_t)t->nb_unsent,
		"tx_refused_frames", (json_int_t)t->nb_tx_refused,
		"generator_limited", wr_conntear_limited(t),
		"pass", pass);

	if (o != NULL)
		json_array_append_new(trials, o);
}

/* The verdict of v in one sentence into buf. */
static void
sentence(const struct wr_conntear_verdict *v, char *buf, size_t len)
{
	const struct wr_search_result *r = &v->r;

	if (v->fill_short)
		snprintf(buf, len, "a fill held fewer than %" PRIu64 " connections "
			"(--conn-count): the device's table is smaller; no tear-down "
			"rate for that count", v->nb_conns);
	else if (r->ndr_found && r->ndr_pps >= v->top_cps)
		snprintf(buf, len, "every close completed up to the top rate, "
			"%.0f/s (--conn-rate): the device tears down at least that",
			v->top_cps);
	else if (!r->ndr_found)
		snprintf(buf, len, "closes failed at every rate tried, down to "
			"%.1f/s", r->ndr_upper_pps);
	else
		snprintf(buf, len, "every close of %" PRIu64 " connections completed "
			"at %.1f/s; at %.1f/s some failed%s", v->nb_conns, r->ndr_pps,
			r->ndr_upper_pps, v->nb_limited ? " (some trials were the "
			"generator's limit)" : "");
}

/* A rate, or null when the search found none. */
static json_t *
rate_or_null(bool found, double cps)
{
	return found ? json_real(cps) : json_null();
}

void
wr_conntear_put(json_t *doc, const struct wr_conntear_verdict *v,
		const struct wr_conntear_trial *trials, uint32_t nb)
{
	const struct wr_search_result *r = &v->r;
	uint64_t attempted = 0, done = 0, failed = 0, open = 0;
	uint32_t i;
	char s[512];

	for (i = 0; i < nb; i++) {
		attempted += trials[i].nb_attempted;
		done += trials[i].nb_done;
		failed += trials[i].nb_failed;
		open += trials[i].nb_open;
	}
	sentence(v, s, sizeof(s));
	json_object_set_new(doc, "conn_teardown", json_pack("{s:f, s:I, s:o, "
		"s:o, s:b, s:i, s:i, s:b, s:{s:I, s:I, s:I, s:I}, s:s}",
		"top_cps", v->top_cps, "connections", (json_int_t)v->nb_conns,
		"max_cps", rate_or_null(r->ndr_found && !v->fill_short, r->ndr_pps),
		"upper_cps", rate_or_null(r->ndr_upper_pps > 0, r->ndr_upper_pps),
		"converged", r->converged, "nb_trials", (int)nb,
		"trials_generator_limited", (int)v->nb_limited,
		"fill_short", v->fill_short,
		"closes", "attempted", (json_int_t)attempted,
		"completed", (json_int_t)done, "failed", (json_int_t)failed,
		"open", (json_int_t)open,
		"verdict", s));
}

int
wr_conntear_points(const json_t *doc, struct wr_points *out,
		struct wr_error *err)
{
	const json_t *o = json_object_get(doc, "conn_teardown"), *x;

	if (o == NULL && wr_kind_running(doc))
		return 0;       /* killed during the search: nothing found yet */
	if (!json_is_object(o))
		return wr_err_usage(err, -EINVAL, "field 'conn_teardown' is missing "
			"or not an object: the search did not finish");
	out->p[0].frame_size = 0;
	out->nb = 1;
	x = json_object_get(o, "max_cps");
	if (json_is_null(x))
		return 0;
	if (!json_is_number(x))
		return wr_err_usage(err, -EINVAL, "field 'conn_teardown.max_cps' is "
			"missing or not a number");
	out->p[0].m.have[WR_METRIC_CONN_TEARDOWN_CPS] = true;
	out->p[0].m.v[WR_METRIC_CONN_TEARDOWN_CPS] = json_number_value(x);
	return 0;
}
