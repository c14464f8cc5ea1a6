/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "plan.h"

static const char *
dir_name(enum wr_dir d)
{
	return d == WR_DIR_TX ? "tx" : "rx";
}

/* Add q to worker w; -ENOSPC when w already holds WR_MAX_QPW that way. */
static int
worker_add(struct wr_plan_worker *w, const struct wr_qref *q)
{
	if (q->dir == WR_DIR_TX) {
		if (w->nb_tx == WR_MAX_QPW)
			return -ENOSPC;
		w->tx[w->nb_tx++] = *q;
	} else {
		if (w->nb_rx == WR_MAX_QPW)
			return -ENOSPC;
		w->rx[w->nb_rx++] = *q;
	}
	return 0;
}

/* Least-loaded worker on socket (any socket when socket < 0 or none). */
static struct wr_plan_worker *
pick_worker(struct wr_plan_worker *ws, unsigned int nb, int socket, bool *local)
{
	struct wr_plan_worker *best = NULL;
	unsigned int i, pass;

	for (pass = 0; pass < 2 && best == NULL; pass++) {
		for (i = 0; i < nb; i++) {
			if (pass == 0 && socket >= 0 && ws[i].socket != socket)
				continue;
			if (best == NULL || wr_plan_worker_load(&ws[i]) <
					wr_plan_worker_load(best))
				best = &ws[i];
		}
		*local = (pass == 0);
	}
	return best;
}

/* Drop workers that own nothing, keeping the order. */
static void
compact(struct wr_plan *plan, unsigned int nb)
{
	unsigned int i, n = 0;

	for (i = 0; i < nb; i++) {
		if (wr_plan_worker_load(&plan->w[i]) == 0)
			continue;
		if (n != i)
			plan->w[n] = plan->w[i];
		n++;
	}
	plan->nb_workers = n;
}

static int
init_workers(struct wr_plan *plan, const struct wr_plan_lcore *lcores,
		unsigned int nb_lcores, struct wr_error *err)
{
	unsigned int i;

	memset(plan, 0, sizeof(*plan));
	if (nb_lcores == 0)
		return wr_err_usage(err, -EINVAL, "no worker lcore: give EAL at least two "
			"lcores, e.g. -l 0,1 (the main lcore is the stats core)");
	if (nb_lcores > WR_PLAN_MAX_WORKERS)
		return wr_err_usage(err, -EINVAL, "%u worker lcores: at most %u", nb_lcores,
			WR_PLAN_MAX_WORKERS);
	for (i = 0; i < nb_lcores; i++) {
		plan->w[i].lcore = lcores[i].id;
		plan->w[i].socket = lcores[i].socket;
	}
	return 0;
}

/* Place every queue of one direction. */
static int
place_dir(struct wr_plan *plan, unsigned int nb_lcores, enum wr_dir dir,
		const struct wr_plan_port *ports, unsigned int nb_ports,
		struct wr_error *err)
{
	unsigned int p, q, nb_q;
	struct wr_plan_worker *w;
	struct wr_qref ref;
	bool local;

	for (p = 0; p < nb_ports; p++) {
		nb_q = dir == WR_DIR_TX ? ports[p].nb_txq : ports[p].nb_rxq;
		for (q = 0; q < nb_q; q++) {
			ref.port = ports[p].port_id;
			ref.queue = (uint16_t)q;
			ref.dir = dir;
			w = pick_worker(plan->w, nb_lcores, ports[p].socket, &local);
			if (worker_add(w, &ref) != 0)
				return wr_err_usage(err, -EINVAL, "more than %u %s queues per "
					"lcore: give more lcores", WR_MAX_QPW,
					dir_name(dir));
			if (!local)
				plan->nb_remote++;
		}
	}
	return 0;
}

int
wr_plan_auto(const struct wr_plan_port *ports, unsigned int nb_ports,
		const struct wr_plan_lcore *lcores, unsigned int nb_lcores,
		struct wr_plan *plan, struct wr_error *err)
{
	int rc = init_workers(plan, lcores, nb_lcores, err);

	if (rc != 0)
		return rc;
	plan->automatic = 1;
	rc = place_dir(plan, nb_lcores, WR_DIR_TX, ports, nb_ports, err);
	if (rc == 0)
		rc = place_dir(plan, nb_lcores, WR_DIR_RX, ports, nb_ports, err);
	if (rc == 0)
		compact(plan, nb_lcores);
	return rc;
}

/* The worker of plan that sends on (port, queue), or NULL. */
static struct wr_plan_worker *
tx_owner(struct wr_plan *plan, const struct wr_qref *r)
{
	unsigned int i, j;

	for (i = 0; i < plan->nb_workers; i++)
		for (j = 0; j < plan->w[i].nb_tx; j++)
			if (plan->w[i].tx[j].port == r->port &&
					plan->w[i].tx[j].queue == r->queue)
				return &plan->w[i];
	return NULL;
}

/* Move RX queue j of worker from to worker to. */
static int
move_rx(struct wr_plan_worker *from, unsigned int j, struct wr_plan_worker *to,
		struct wr_error *err)
{
	if (to->nb_rx == WR_MAX_QPW)
		return wr_err_usage(err, -EINVAL, "lcore %u would receive on more "
			"than %u queues: give more lcores", to->lcore, WR_MAX_QPW);
	to->rx[to->nb_rx++] = from->rx[j];
	from->nb_rx--;
	memmove(&from->rx[j], &from->rx[j + 1],
		(from->nb_rx - j) * sizeof(from->rx[0]));
	return 0;
}

int
wr_plan_pair(struct wr_plan *plan, struct wr_error *err)
{
	struct wr_plan_worker *to;
	unsigned int i, j;
	int rc;

	for (i = 0; i < plan->nb_workers; i++) {
		for (j = 0; j < plan->w[i].nb_rx; ) {
			to = tx_owner(plan, &plan->w[i].rx[j]);
			if (to == NULL)
				return wr_err_usage(err, -EINVAL, "port %u rx queue %u "
					"has no tx queue of the same number: a "
					"connection run sends and receives on each "
					"port", plan->w[i].rx[j].port,
					plan->w[i].rx[j].queue);
			if (to == &plan->w[i]) {
				j++;
				continue;
			}
			rc = move_rx(&plan->w[i], j, to, err);
			if (rc != 0)
				return rc;
		}
	}
	compact(plan, plan->nb_workers);
	return 0;
}

static const struct wr_plan_port *
find_port(const struct wr_plan_port *ports, unsigned int nb_ports, uint16_t id)
{
	unsigned int i;

	for (i = 0; i < nb_ports; i++)
		if (ports[i].port_id == id)
			return &ports[i];
	return NULL;
}

static int
find_lcore(const struct wr_plan_lcore *lcores, unsigned int nb, unsigned int id)
{
	unsigned int i;

	for (i = 0; i < nb; i++)
		if (lcores[i].id == id)
			return (int)i;
	return -1;
}

/* Index of q among all queues of the ports, or -1 when it is not one. */
static int
queue_index(const struct wr_plan_port *ports, unsigned int nb_ports,
		const struct wr_qref *q)
{
	unsigned int i, base = 0;

	for (i = 0; i < nb_ports; i++) {
		if (ports[i].port_id == q->port) {
			uint16_t n = q->dir == WR_DIR_TX ? ports[i].nb_txq : ports[i].nb_rxq;

			if (q->queue >= n)
				return -1;
			return (int)(base + (q->dir == WR_DIR_TX ? 0 : WR_MAX_QUEUES) +
				q->queue);
		}
		base += 2 * WR_MAX_QUEUES;
	}
	return -1;
}

/* Apply one map; seen[] marks queues already placed. */
static int
apply_map(struct wr_plan *plan, const struct wr_map *m, int li,
		const struct wr_plan_port *ports, unsigned int nb_ports,
		bool *seen, struct wr_error *err)
{
	unsigned int j;
	int qi;

	for (j = 0; j < m->nb_q; j++) {
		const struct wr_qref *q = &m->q[j];
		const struct wr_plan_port *pp = find_port(ports, nb_ports, q->port);

		qi = queue_index(ports, nb_ports, q);
		if (qi < 0)
			return wr_err_usage(err, -EINVAL, "--map %u: %s%u.%u is not a queue of "
				"this run (port %s, %u %s queues)", m->lcore,
				dir_name(q->dir), q->port, q->queue,
				pp == NULL ? "not used" : "used",
				pp == NULL ? 0 : (q->dir == WR_DIR_TX ? pp->nb_txq : pp->nb_rxq),
				dir_name(q->dir));
		if (seen[qi])
			return wr_err_usage(err, -EINVAL, "--map %u: %s%u.%u is mapped twice",
				m->lcore, dir_name(q->dir), q->port, q->queue);
		seen[qi] = true;
		if (worker_add(&plan->w[li], q) != 0)
			return wr_err_usage(err, -EINVAL, "--map %u: more than %u %s queues",
				m->lcore, WR_MAX_QPW, dir_name(q->dir));
		if (pp->socket >= 0 && plan->w[li].socket >= 0 &&
				pp->socket != plan->w[li].socket)
			plan->nb_remote++;
	}
	return 0;
}

/* Every queue of every port was mapped. */
static int
check_all_mapped(const struct wr_plan_port *ports, unsigned int nb_ports,
		const bool *seen, struct wr_error *err)
{
	unsigned int i, q;

	for (i = 0; i < nb_ports; i++) {
		for (q = 0; q < ports[i].nb_txq; q++)
			if (!seen[i * 2 * WR_MAX_QUEUES + q])
				return wr_err_usage(err, -EINVAL, "--map: tx%u.%u is not mapped "
					"to any lcore", ports[i].port_id, q);
		for (q = 0; q < ports[i].nb_rxq; q++)
			if (!seen[i * 2 * WR_MAX_QUEUES + WR_MAX_QUEUES + q])
				return wr_err_usage(err, -EINVAL, "--map: rx%u.%u is not mapped "
					"to any lcore", ports[i].port_id, q);
	}
	return 0;
}

int
wr_plan_from_maps(const struct wr_map *maps, unsigned int nb_maps,
		const struct wr_plan_port *ports, unsigned int nb_ports,
		const struct wr_plan_lcore *lcores, unsigned int nb_lcores,
		struct wr_plan *plan, struct wr_error *err)
{
	bool seen[WR_MAX_PORTS * 2 * WR_MAX_QUEUES] = { false };
	unsigned int i;
	int rc, li;

	rc = init_workers(plan, lcores, nb_lcores, err);
	if (rc != 0)
		return rc;
	if (nb_ports > WR_MAX_PORTS)
		return wr_err_usage(err, -EINVAL, "%u ports: at most %u", nb_ports, WR_MAX_PORTS);
	for (i = 0; i < nb_maps; i++) {
		li = find_lcore(lcores, nb_lcores, maps[i].lcore);
		if (li < 0)
			return wr_err_usage(err, -EINVAL, "--map %u: lcore %u is not a worker "
				"lcore of this run (check EAL -l/--lcores; the main "
				"lcore is the stats core)", maps[i].lcore, maps[i].lcore);
		rc = apply_map(plan, &maps[i], li, ports, nb_ports, seen, err);
		if (rc != 0)
			return rc;
	}
	rc = check_all_mapped(ports, nb_ports, seen, err);
	if (rc == 0)
		compact(plan, nb_lcores);
	return rc;
}
