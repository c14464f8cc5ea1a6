/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The lcore plan: which worker lcore owns which (port, queue) pairs. Pure:
 * callers describe ports and lcores, the plan comes back with the reasons.
 * The main lcore is never in the plan: it is the stats core.
 */
#ifndef WR_PLAN_H
#define WR_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"

#define WR_PLAN_MAX_WORKERS 128u

/* A port as the planner sees it: queues to place in each direction. */
struct wr_plan_port {
	uint16_t port_id;
	int socket;         /* NUMA socket, < 0 when unknown */
	uint16_t nb_txq;    /* 0: the port does not transmit */
	uint16_t nb_rxq;    /* 0: the port does not receive */
};

/* A worker lcore available to the plan. */
struct wr_plan_lcore {
	unsigned int id;
	int socket;
};

struct wr_plan_worker {
	unsigned int lcore;
	int socket;
	uint16_t nb_tx;
	uint16_t nb_rx;
	struct wr_qref tx[WR_MAX_QPW];
	struct wr_qref rx[WR_MAX_QPW];
};

struct wr_plan {
	unsigned int nb_workers;     /* workers that own at least one queue */
	unsigned int nb_remote;      /* queues placed off their port's socket */
	int automatic;               /* 1: computed, 0: from --map */
	struct wr_plan_worker w[WR_PLAN_MAX_WORKERS];
};

/*
 * Spread every queue of ports over lcores: each queue goes to the
 * least-loaded lcore on its port's socket, or to the least-loaded lcore
 * anywhere when that socket has none (counted in nb_remote). TX queues are
 * placed before RX queues so that, with enough lcores, a port's TX and RX
 * land on different lcores. Returns 0, or -EINVAL with a message (no lcore,
 * too many queues for one lcore).
 */
int wr_plan_auto(const struct wr_plan_port *ports, unsigned int nb_ports,
		const struct wr_plan_lcore *lcores, unsigned int nb_lcores,
		struct wr_plan *plan, struct wr_error *err);

/*
 * Build the plan from explicit maps. Every queue of ports must be mapped
 * exactly once, to an lcore of lcores; nothing else may be mapped.
 * Returns 0, or -EINVAL with a message naming the offending map or queue.
 */
int wr_plan_from_maps(const struct wr_map *maps, unsigned int nb_maps,
		const struct wr_plan_port *ports, unsigned int nb_ports,
		const struct wr_plan_lcore *lcores, unsigned int nb_lcores,
		struct wr_plan *plan, struct wr_error *err);

/*
 * Move each RX queue of plan to the worker that owns the TX queue of the
 * same port and number, so that one lcore sends and receives both
 * directions of it (a connection run: docs/tcp.md); workers left with
 * nothing are dropped. Returns 0, or -EINVAL with a message naming an
 * RX queue with no such TX queue, or a worker that would hold more than
 * WR_MAX_QPW RX queues.
 */
int wr_plan_pair(struct wr_plan *plan, struct wr_error *err);

/* Queues a worker owns in both directions. This function can't fail. */
static inline unsigned int
wr_plan_worker_load(const struct wr_plan_worker *w)
{
	return (unsigned int)w->nb_tx + w->nb_rx;
}

#endif /* WR_PLAN_H */
