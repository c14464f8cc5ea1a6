/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode throughput in both directions at once (docs/twoended.md): this
 * run sends to its far end (downstream) while the far end sends to it
 * (upstream), each direction at the rate of its own binary search, in the
 * same trials; each direction's loss is its own (the far end counts
 * downstream, this run upstream), so an asymmetric path gets two NDRs in
 * one run. A direction whose search is over keeps sending at its NDR (or
 * its lowest rate), so the other one is searched under the same load.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "modes_int.h"
#include "results/modejson.h"

/* One direction's search and its trials' summaries. */
struct dir {
	struct wr_search srch;
	struct wr_trial_summary *sums;
	unsigned int limited;
	double pps;          /* this trial's rate */
	bool on;             /* the search wants this trial */
};

static int
dir_init(struct dir *d, const struct wr_config *cfg, double max_pps)
{
	struct wr_search_conf sc;

	memset(d, 0, sizeof(*d));
	d->sums = calloc(WR_SEARCH_MAX_TRIALS, sizeof(*d->sums));
	if (d->sums == NULL)
		return -ENOMEM;
	wr_mode_search_conf(cfg, max_pps, &sc);
	return wr_search_init(&d->srch, &sc);
}

/* The next trial's rate: the search's, or its NDR once it is over. */
static void
dir_next(struct dir *d)
{
	struct wr_search_result r;

	d->on = wr_search_next(&d->srch, &d->pps) == WR_SEARCH_TRIAL;
	if (d->on)
		return;
	wr_search_result(&d->srch, &r);
	d->pps = r.ndr_found ? r.ndr_pps : d->srch.conf.min_pps;
}

/* Report the trial s to the direction's search, when it asked for it. */
static int
dir_report(struct dir *d, const struct wr_trial_summary *s)
{
	if (!d->on)
		return 0;
	d->sums[d->srch.nb_trials] = *s;
	return wr_search_report(&d->srch, d->pps, s->sent_pkts,
		wr_mode_search_loss(s, &d->limited));
}

/* The direction's outcome into res. */
static void
dir_result(struct dir *d, json_t *res, uint32_t size, uint64_t link)
{
	struct wr_trial_summary none;
	struct wr_search_result r;
	int at;

	memset(&none, 0, sizeof(none));
	wr_result_limited(res, d->limited);
	wr_search_result(&d->srch, &r);
	at = wr_search_ndr_trial(&d->srch, &r);
	wr_result_search(res, &r, at >= 0 ? &d->sums[at] : &none, size, link);
}

int
wr_mode_throughput_both(struct mode_ctx *m, uint32_t size, json_t *res)
{
	const struct wr_config *cfg = m->run->setup.cfg;
	struct wr_trial_summary s;
	struct dir down, up;
	struct wr_trial t;
	json_t *ures;
	double max_pps;
	int rc;

	rc = wr_mode_max_rate(m, size, &max_pps, res);
	if (rc != 0)
		return rc;
	if (dir_init(&down, cfg, max_pps) != 0 ||
			dir_init(&up, cfg, m->h->far->up_max_pps(size,
			m->h->far->arg)) != 0) {
		free(down.sums);
		free(up.sums);
		return wr_err_env(m->err, -ENOMEM, "--mode throughput: no memory "
			"for the trials' summaries");
	}
	for (;;) {
		dir_next(&down);
		dir_next(&up);
		if (!down.on && !up.on)
			break;
		m->size_left = wr_mode_search_left(&down.srch) +
			wr_mode_search_left(&up.srch);
		m->up_pps = up.pps;
		wr_mode_trial_at(size, down.pps, cfg->trial_ms, &t);
		rc = wr_mode_trial(m, &t, "search", &s);
		if (rc == 0 && (s.sent_pkts == 0 || m->up.sent_pkts == 0))
			rc = wr_err_fail(m->err, -EIO, "--mode throughput at %u B: a "
				"trial at %.6g pps down, %.6g up sent no frame one way: "
				"no loss ratio to search on", size, down.pps, up.pps);
		if (rc == 0)
			rc = dir_report(&down, &s);
		if (rc == 0)
			rc = dir_report(&up, &m->up);
		if (rc != 0)
			break;
	}
	if (rc == 0) {
		dir_result(&down, res, size, wr_mode_trusted_link_bps(m->run));
		ures = wr_result_point(size);
		dir_result(&up, ures, size, 0);
		wr_result_point_upstream(res, ures);
	}
	free(down.sums);
	free(up.sums);
	return rc;
}
