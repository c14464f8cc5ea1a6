/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode addr-capacity (RFC 2889 5.7) and addr-learning (5.8): the
 * searches (rfc2889.h, search.h) over address trials on the wire
 * (rfc2889_io.h), each after the switch's table is reset by the
 * --fdb-reset command; each trial recorded in the result's "rfc2889"
 * object (results/rfc2889json.h) and kept by the checkpoint.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_mbuf.h>

#include "modes_int.h"
#include "rfc2889.h"
#include "rfc2889_addr.h"
#include "rfc2889_frame.h"
#include "rfc2889_io.h"
#include "results/result.h"
#include "results/rfc2889json.h"

extern char **environ;

/* Frames in the trials' pool: two phases' bursts in flight, with room. */
#define R2889_POOL_MBUFS 8191u

/* What the trials of one run share. */
struct r2889_ctx {
	struct mode_ctx *m;
	const struct wr_rfc2889_conf *rc;
	struct wr_r2889_io io;
	struct wr_addr_plan plan;
	json_t *obj;			/* the doc's "rfc2889" */
};

int
wr_mode_fdb_reset(const char *cmd, struct wr_error *err)
{
	char sh[] = "/bin/sh", dash_c[] = "-c", *argv[4];
	posix_spawn_file_actions_t fa;
	char *copy = strdup(cmd);
	int status = 0, rc;
	pid_t pid;

	if (copy == NULL)
		return wr_err_env(err, -ENOMEM, "--fdb-reset: no memory");
	argv[0] = sh;
	argv[1] = dash_c;
	argv[2] = copy;
	argv[3] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	rc = posix_spawn(&pid, sh, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	free(copy);
	if (rc != 0)
		return wr_err_env(err, -rc, "--fdb-reset: cannot start /bin/sh: %s",
			strerror(rc));
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return wr_err_env(err, -errno, "--fdb-reset: waitpid: %s",
				strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return wr_err_fail(err, -EIO, "--fdb-reset '%s' %s %d: the switch's "
			"address table was not reset, no trial run on it", cmd,
			WIFEXITED(status) ? "exited with" : "killed by signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return 0;
}

/* The run's port of index idx, or NULL with err set (usage). */
static const struct wr_port *
role_port(const struct wr_run *run, uint16_t idx, const char *role, bool tx,
		struct wr_error *err)
{
	const struct wr_port *p;

	if (idx >= run->setup.nb_ports) {
		wr_err_usage(err, -EINVAL, "--addr-ports: the %s port is index %u, "
			"but the run has %u ports (an address mode needs three: "
			"learning, test, monitoring)", role, idx, run->setup.nb_ports);
		return NULL;
	}
	p = &run->setup.ports[idx];
	if ((tx && !p->tx) || !p->rx) {
		wr_err_usage(err, -EINVAL, "--addr-ports: the %s port (index %u) must "
			"%s (see --tx-ports, --rx-ports)", role, idx,
			tx ? "send and receive" : "receive");
		return NULL;
	}
	return p;
}

/* Fill x->io from the run's ports. Returns 0 or -EINVAL (usage). */
static int
io_ports(struct r2889_ctx *x, struct wr_error *err)
{
	static const char *const roles[] = { "learning", "test", "monitoring" };
	const uint16_t idx[] = { x->rc->learn_port, x->rc->test_port, x->rc->mon_port };
	const struct wr_port *p;
	unsigned int r;

	for (r = 0; r < WR_R2889_NB_PORTS; r++) {
		p = role_port(x->m->run, idx[r], roles[r], r != WR_R2889_PMON, err);
		if (p == NULL)
			return -EINVAL;
		x->io.port_id[r] = p->port_id;
		x->io.nb_rxq[r] = p->nb_rxq;
		memcpy(x->io.mac[r], p->mac.addr_bytes, WR_ADDR_MAC_LEN);
	}
	return 0;
}

/* The plan and the ageing bound, checked before any frame. */
static int
check_conf(struct r2889_ctx *x, struct wr_error *err)
{
	const struct wr_rfc2889_conf *rc = x->rc;
	bool cap = x->m->run->setup.cfg->mode == WR_MODE_ADDR_CAPACITY;
	struct wr_rfc2889_timing t = {
		.nb = rc->max_nb, .test_pps = rc->addr_pps,
		.learn_pps = cap ? rc->addr_pps : rc->learn_min_pps,
		.settle_s = (double)rc->settle_ms / 1e3,
	};
	int r;

	x->plan.kind = rc->plan_random ? WR_ADDR_PLAN_RANDOM : WR_ADDR_PLAN_RANGE;
	memcpy(x->plan.base, rc->plan_base, WR_ADDR_MAC_LEN);
	x->plan.seed = rc->plan_seed;
	x->plan.nb = rc->max_nb;
	r = wr_addr_plan_check(&x->plan, "--addr-plan", err);
	return r != 0 ? r : wr_rfc2889_check_aging(&t, (double)rc->aging_ms / 1e3, err);
}

/*
 * One trial of nb addresses learned at learn_pps: reset, send, count,
 * record. *pass is its verdict. Returns 0, -EINTR or a negative errno.
 */
static int
trial(struct r2889_ctx *x, uint32_t nb, double learn_pps, bool *pass,
		struct wr_rfc2889_counts *c)
{
	struct wr_r2889_send s = { .plan = &x->plan, .nb = nb,
		.learn_pps = learn_pps, .test_pps = x->rc->addr_pps,
		.settle_ms = x->rc->settle_ms };
	struct wr_rfc2889_trial_rec rec = { .nb = nb, .learn_pps = learn_pps,
		.test_pps = s.test_pps };
	struct wr_rfc2889_timing tm = { .nb = nb, .learn_pps = learn_pps,
		.test_pps = s.test_pps, .settle_s = 2.0 * (double)s.settle_ms / 1e3 };
	struct mode_ctx *m = x->m;
	uint64_t t0 = rte_rdtsc(), t1;
	struct wr_trial t;
	int rc;

	wr_mode_trial_at(WR_R2889_FRAME_LEN + 4, learn_pps,
		(uint64_t)(wr_rfc2889_trial_s(&tm) * 1e3), &t);
	wr_mode_progress_trial(m, "address", &t);
	rc = wr_mode_fdb_reset(x->rc->reset_cmd, m->err);
	if (rc != 0)
		return rc;
	t1 = rte_rdtsc();
	wr_r2889_io_drain(&x->io);
	x->io.trial++;
	rc = wr_r2889_io_trial(&x->io, &s, c, &rec.learn_flooded_pkts, m->err);
	if (rc == -EINTR)
		return wr_err_fail(m->err, -EINTR, "stopped by a signal");
	if (rc != 0)
		return rc;
	*pass = wr_rfc2889_pass(c);
	rec.learn_sent_pkts = c->learn_sent_pkts;
	rec.test_sent_pkts = c->test_sent_pkts;
	rec.test_rx_pkts = c->test_rx_pkts;
	rec.flooded_pkts = c->flooded_pkts;
	rec.pass = *pass;
	rec.reset_s = (double)(t1 - t0) / (double)m->run->setup.tsc_hz;
	rec.duration_s = (double)(rte_rdtsc() - t1) / (double)m->run->setup.tsc_hz;
	wr_rfc2889_trial_json(x->obj, &rec);
	/* A crash from now on loses no finished trial (docs/results.md). */
	wr_result_checkpoint_keep(m->run, m->doc);
	return 0;
}

/* 5.7: binary search on the number of addresses. */
static int
capacity(struct r2889_ctx *x)
{
	const struct wr_rfc2889_conf *rc = x->rc;
	struct wr_count_search_conf sc = { .min_nb = rc->min_nb,
		.max_nb = rc->max_nb, .res_nb = 1,
		.max_trials = RTE_MIN(x->m->run->setup.cfg->max_trials,
			WR_COUNT_SEARCH_MAX_TRIALS) };
	struct wr_rfc2889_found f = { 0 };
	struct wr_count_search s;
	struct wr_count_result r;
	struct wr_rfc2889_counts c;
	uint32_t nb;
	bool pass;
	int ret = wr_count_search_init(&s, &sc, x->m->err);

	while (ret == 0 && wr_count_search_next(&s, &nb) == WR_SEARCH_TRIAL) {
		x->m->size_left = s.has_hi ? wr_progress_halvings(
			(double)(s.hi - (s.has_lo ? s.lo : rc->min_nb)), 1.0) + 1 : 1;
		snprintf(x->m->prog.phase, sizeof(x->m->prog.phase), "%u addresses", nb);
		ret = trial(x, nb, rc->addr_pps, &pass, &c);
		if (ret == 0)
			ret = wr_count_search_report(&s, pass);
	}
	wr_count_search_result(&s, &r);
	f.found = r.found;
	f.converged = r.converged;
	f.at_max = r.at_max;
	f.capacity_nb = r.capacity_nb;
	f.fail_nb = r.fail_nb;
	wr_rfc2889_found_json(x->obj, WR_MODE_ADDR_CAPACITY, &f);
	return ret;
}

/* 5.8: the RFC 2544 search on the learning frames' rate, N fixed. */
static int
learning(struct r2889_ctx *x)
{
	const struct wr_rfc2889_conf *rc = x->rc;
	const struct wr_config *cfg = x->m->run->setup.cfg;
	struct wr_search_conf sc = { .max_pps = rc->learn_max_pps,
		.min_pps = rc->learn_min_pps, .res_rel = cfg->resolution_pct / 100.0,
		.max_trials = cfg->max_trials };
	struct wr_rfc2889_found f = { .nb = rc->max_nb };
	struct wr_rfc2889_counts c;
	struct wr_search_result r;
	struct wr_search s;
	double pps;
	bool pass;
	int ret = wr_search_init(&s, &sc);

	while (ret == 0 && wr_search_next(&s, &pps) == WR_SEARCH_TRIAL) {
		x->m->size_left = wr_mode_search_left(&s);
		snprintf(x->m->prog.phase, sizeof(x->m->prog.phase), "%.0f pps", pps);
		ret = trial(x, rc->max_nb, pps, &pass, &c);
		/* A trial that failed counts as lossy: at least one frame. */
		if (ret == 0)
			ret = wr_search_report(&s, pps, c.test_sent_pkts ? c.test_sent_pkts : 1,
				pass ? 0 : RTE_MAX(1, c.test_sent_pkts - RTE_MIN(c.test_rx_pkts,
				c.test_sent_pkts)));
	}
	if (wr_search_result(&s, &r) == 0) {
		f.found = r.ndr_found;
		f.converged = r.converged;
		f.at_max = r.ndr_found && r.ndr_pps >= rc->learn_max_pps;
		f.rate_pps = r.ndr_pps;
		f.fail_pps = f.at_max ? 0 : r.ndr_upper_pps;
	}
	wr_rfc2889_found_json(x->obj, WR_MODE_ADDR_LEARNING, &f);
	return ret;
}

int
wr_mode_rfc2889(struct mode_ctx *m)
{
	struct r2889_ctx x = { .m = m, .rc = &m->run->setup.cfg->rfc2889 };
	struct rte_ether_addr macs[WR_R2889_NB_PORTS];
	char name[RTE_MEMPOOL_NAMESIZE];
	unsigned int r;
	int rc;

	rc = io_ports(&x, m->err);
	if (rc == 0)
		rc = check_conf(&x, m->err);
	if (rc != 0)
		return rc;
	snprintf(name, sizeof(name), "wr2889_%d", (int)getpid());
	x.io.pool = rte_pktmbuf_pool_create(name, R2889_POOL_MBUFS, 256, 0,
		RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	if (x.io.pool == NULL)
		return wr_err_env(m->err, -ENOMEM, "--mode %s: no pool of %u mbufs "
			"for the address frames", wr_mode_name(m->run->setup.cfg->mode),
			R2889_POOL_MBUFS);
	x.io.tsc_hz = m->run->setup.tsc_hz;
	x.io.signals = m->h->signals;
	for (r = 0; r < WR_R2889_NB_PORTS; r++)
		memcpy(macs[r].addr_bytes, x.io.mac[r], WR_ADDR_MAC_LEN);
	x.obj = wr_rfc2889_doc(m->doc, m->run->setup.cfg, macs);
	rc = x.obj == NULL ? wr_err_env(m->err, -ENOMEM, "no memory") :
		m->run->setup.cfg->mode == WR_MODE_ADDR_CAPACITY ? capacity(&x) :
		learning(&x);
	wr_r2889_io_drain(&x.io);
	rte_mempool_free(x.io.pool);
	return rc;
}
