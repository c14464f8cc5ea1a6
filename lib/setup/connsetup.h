/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A connection run's workers (--conn, docs/tcp.md): after the plan paired
 * each port's TX and RX queue n on one lcore (plan.h wr_plan_pair), each
 * worker gets a connection engine (conn/engine.h) of its own in memory on its
 * port's NUMA socket, the pool for the segments of the workers on that
 * socket (one, so that an mbuf received from another worker is reused
 * from this one's cache), and the MACs its frames carry
 * (datapath/connworker.h).
 */
#ifndef WR_CONNSETUP_H
#define WR_CONNSETUP_H

#include "base/error.h"

struct wr_run;

/* Mbufs in the segments' pool for each connection worker sharing it
 * (its TX ring, bursts, cache). */
#define WR_CONNSETUP_POOL_MBUFS 16383u

/*
 * Make every worker of a connection run a connection worker: one port's
 * TX and RX queue n each, its engine configured from the options for its
 * port (config/opts_conn.h), the client's next hop resolved before
 * (resolve.h). A port of more than one queue pair only for a server on
 * net_tap, in --mode run (docs/tcp.md "On the wire"). Nothing when the
 * run is not a connection run. After the workers and the service rings
 * exist, before launch. Returns 0; -EINVAL (usage) for a worker with
 * other queues than one pair, or a port of several pairs that cannot
 * steer each connection to its worker, naming the PMD; -ENOMEM
 * (environment) naming the port; the engine's -EINVAL.
 */
int wr_connsetup(struct wr_run *run, struct wr_error *err);

/* Free the engines, pools and worker states; safe on partial state. */
void wr_connsetup_teardown(struct wr_run *run);

#endif /* WR_CONNSETUP_H */
