/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode conn-rate's parts without EAL: an engine reopened trial after
 * trial (wr_conn_engine_reopen) with two engines back to back in memory
 * (conn_pair.h), each trial's figures as differences of the books
 * (results/connrate.h) against what crossed the links; and the search
 * (methods/search.h) fed with those figures by a device whose limit is
 * known, and by a generator that runs out first.
 */
#include <stdio.h>

#include "conn_pair.h"
#include "methods/search.h"
#include "results/connrate.h"
#include "wr_test.h"

static struct pair P;

/* Open at cps for us, drain, settle for grace_us; the trial's figures. */
static void
trial(uint64_t cps, uint64_t us, uint64_t grace_us,
		struct wr_connrate_trial *t)
{
	static struct wr_conn_books before;

	before = *wr_conn_engine_books(P.cli);
	wr_conn_engine_reopen(P.cli, cps, P.now_us);
	wr_conn_engine_reopen(P.srv, 0, P.now_us);
	pair_settle(&P, us);
	wr_conn_engine_drain(P.cli);
	pair_settle(&P, grace_us);
	wr_connrate_trial_of(&before, wr_conn_engine_books(P.cli), (double)cps,
		(double)us / 1e6, t);
}

/* attempted = completed + failed + open on the client. */
static void
check_books(const struct wr_conn_books *b)
{
	WR_CHECK_U64(b->nb_attempted, b->nb_completed + pair_failed(b) +
		b->nb_open);
}

/*
 * Three trials: clean at 1000/s; then the server's answers lost (half a
 * second, a grace shorter than the SYN's RTO): every attempt failed;
 * then the link back: the leftovers were reset at the reopen, and the
 * third trial's books hold its own connections only.
 */
static void
test_reopen(void)
{
	struct wr_conn_cfg cc, sc;
	struct wr_connrate_trial t;
	uint64_t syns;

	pair_cfg(&cc, WR_CONN_CLIENT, WR_CONN_APP_HTTP);
	pair_cfg(&sc, WR_CONN_SERVER, WR_CONN_APP_HTTP);
	cc.cps = 1000;
	cc.time_wait_us = 100000;
	sc.time_wait_us = 100000;
	WR_CHECK(pair_init(&P, &cc, &sc));
	if (P.cli == NULL || P.srv == NULL)
		return;
	syns = P.c2s.seen.nb_syn;
	trial(1000, 1000000, 300000, &t);
	WR_CHECK(t.nb_attempted >= 1000 && t.nb_attempted <= 1001);
	WR_CHECK_U64(t.nb_attempted, P.c2s.seen.nb_syn - syns);
	WR_CHECK_U64(t.nb_completed, t.nb_attempted);
	WR_CHECK_U64(t.nb_failed, 0);
	WR_CHECK_U64(t.nb_unsent, 0);
	WR_CHECK(wr_conn_engine_idle(P.cli));

	P.s2c.cut = true;
	trial(500, 500000, 100000, &t);
	WR_CHECK(t.nb_attempted >= 250 && t.nb_attempted <= 251);
	WR_CHECK_U64(t.nb_completed, 0);
	WR_CHECK_U64(t.nb_failed, t.nb_attempted);
	WR_CHECK_U64(wr_conn_engine_books(P.cli)->nb_open, t.nb_attempted);

	P.s2c.cut = false;
	trial(200, 1000000, 300000, &t);
	WR_CHECK(t.nb_attempted >= 200 && t.nb_attempted <= 201);
	WR_CHECK_U64(t.nb_completed, t.nb_attempted);
	WR_CHECK_U64(t.nb_failed, 0);
	WR_CHECK_U64(wr_conn_engine_books(P.cli)->nb_open, 0);
	check_books(wr_conn_engine_books(P.cli));
	pair_free(&P);
}

/*
 * A client held up 3 s (its lcore, say) catches up 1 s of starts and
 * skips the other 2 s: those are counted as unstarted (late), so a trial
 * that ran them short is the generator's limit.
 */
static void
test_late(void)
{
	static struct wr_conn_books before;
	struct wr_conn_cfg cc, sc;
	struct wr_connrate_trial t;

	pair_cfg(&cc, WR_CONN_CLIENT, WR_CONN_APP_HTTP);
	pair_cfg(&sc, WR_CONN_SERVER, WR_CONN_APP_HTTP);
	cc.cps = 1000;
	WR_CHECK(pair_init(&P, &cc, &sc));
	if (P.cli == NULL || P.srv == NULL)
		return;
	pair_settle(&P, 100000);
	before = *wr_conn_engine_books(P.cli);
	P.now_us += 3000000;
	pair_settle(&P, 100000);
	wr_connrate_trial_of(&before, wr_conn_engine_books(P.cli), 1000, 3.1, &t);
	WR_CHECK(t.nb_unsent_late >= 1999 && t.nb_unsent_late <= 2001);
	WR_CHECK_U64(t.nb_unsent, t.nb_unsent_late);
	WR_CHECK(t.nb_attempted >= 1099 && t.nb_attempted <= 1101);
	WR_CHECK(wr_connrate_limited(&t));
	pair_free(&P);
}

/* A trial at cps of a device that takes dev_cps and a generator that
 * starts gen_cps at most, for 1 s. */
static void
model(double cps, double dev_cps, double gen_cps, struct wr_connrate_trial *t)
{
	double started = cps < gen_cps ? cps : gen_cps;

	memset(t, 0, sizeof(*t));
	t->cps = cps;
	t->duration_s = 1.0;
	t->nb_attempted = (uint64_t)started;
	t->nb_unsent = (uint64_t)(cps - started);
	t->nb_unsent_pool = t->nb_unsent;
	t->nb_completed = started <= dev_cps ? t->nb_attempted : (uint64_t)dev_cps;
	t->nb_failed = t->nb_attempted - t->nb_completed;
}

/* The search of --mode throughput over the model; the verdict. */
static void
search(double dev_cps, double gen_cps, double pdr,
		struct wr_connrate_verdict *v)
{
	static struct wr_search s;
	static struct wr_connrate_trial t[WR_SEARCH_MAX_TRIALS];
	struct wr_search_conf sc = { .min_pps = 1, .max_pps = 2000,
		.res_rel = 0.01, .pdr_loss_ratio = pdr, .max_trials = 40 };
	uint64_t sent, lost;
	double rate;

	WR_CHECK(wr_search_init(&s, &sc) == 0);
	while (wr_search_next(&s, &rate) == WR_SEARCH_TRIAL) {
		rate = (double)(uint64_t)(rate + 0.5);
		model(rate, dev_cps, gen_cps, &t[s.nb_trials]);
		lost = wr_connrate_loss(&t[s.nb_trials], &sent);
		WR_CHECK(wr_search_report(&s, rate, sent, lost) == 0);
	}
	memset(v, 0, sizeof(*v));
	v->top_cps = 2000;
	v->pdr_ratio = pdr;
	wr_search_result(&s, &v->r);
	wr_connrate_judge(v, t, s.nb_trials);
}

static void
test_search(void)
{
	struct wr_connrate_verdict v;
	char buf[512];

	/* The device's limit, within the resolution. */
	search(1000, 1e9, 0, &v);
	WR_CHECK(v.r.ndr_found && v.r.ndr_pps <= 1000 && v.r.ndr_pps >= 990);
	WR_CHECK(v.limit == WR_CONNRATE_DEVICE);
	WR_CHECK(v.upper != NULL && v.upper->nb_failed > 0);
	WR_CHECK_U64(v.nb_limited, 0);
	wr_connrate_sentence(&v, buf, sizeof(buf));
	WR_CHECK(strstr(buf, "the device's limit") != NULL);
	/* A tolerated failure ratio of 10 %: up to 1000 / 0.9. */
	search(1000, 1e9, 0.1, &v);
	WR_CHECK(v.r.pdr_found && v.r.pdr_pps <= 1111.2 && v.r.pdr_pps >= 1095);
	/* The generator runs out at 700/s: never a pass above it, named. */
	search(1000, 700, 0, &v);
	WR_CHECK(v.r.ndr_pps <= 700 && v.r.ndr_pps >= 690);
	WR_CHECK(v.limit == WR_CONNRATE_GENERATOR);
	WR_CHECK(v.nb_limited > 0);
	wr_connrate_sentence(&v, buf, sizeof(buf));
	WR_CHECK(strstr(buf, "the generator's limit") != NULL &&
		strstr(buf, "pool full") != NULL);
	/* Nothing fails up to the top. */
	search(5000, 1e9, 0, &v);
	WR_CHECK(v.limit == WR_CONNRATE_TOP && v.r.ndr_pps == 2000);
}

/* What the search is told: unsent starts make a trial lossy in full. */
static void
test_loss(void)
{
	struct wr_connrate_trial t;
	uint64_t sent;

	memset(&t, 0, sizeof(t));
	t.nb_attempted = 100;
	t.nb_failed = 3;
	WR_CHECK_U64(wr_connrate_loss(&t, &sent), 3);
	WR_CHECK_U64(sent, 100);
	t.nb_unsent = 1;
	WR_CHECK_U64(wr_connrate_loss(&t, &sent), 101);
	WR_CHECK_U64(sent, 101);
	memset(&t, 0, sizeof(t));
	WR_CHECK_U64(wr_connrate_loss(&t, &sent), 1);
	WR_CHECK_U64(sent, 1);
}

int
main(void)
{
	WR_TEST_RUN(test_reopen);
	WR_TEST_RUN(test_late);
	WR_TEST_RUN(test_search);
	WR_TEST_RUN(test_loss);
	return wr_test_summary();
}
