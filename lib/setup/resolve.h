/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Next hops of --port-ip before traffic (docs/l3.md): on the main lcore,
 * with the ports started and no worker running, each port with an
 * address announces it (gratuitous ARP, unsolicited NA) and resolves the
 * next hop of each TX queue's destination by ARP or neighbour
 * solicitation, polling its RX queues directly and answering the
 * requests it sees meanwhile. The MAC found goes to p->nh[q], which the
 * frame templates take as their destination.
 */
#ifndef WR_RESOLVE_H
#define WR_RESOLVE_H

#include "base/error.h"

/* Requests sent per next hop, and how long each waits for its answer. */
#define WR_RESOLVE_TRIES 12u
#define WR_RESOLVE_TRY_MS 250u

struct wr_run;
struct wr_port;
struct wr_port_nh;

/* Text of a next hop's address and MAC, for the plan and the result. */
struct wr_resolve_text {
	char ip[46];                 /* INET6_ADDRSTRLEN */
	char mac[18];                /* RTE_ETHER_ADDR_FMT_SIZE */
};

/* Fill t from nh. This function can't fail. */
void wr_resolve_text(const struct wr_port_nh *nh, struct wr_resolve_text *t);

/*
 * The resolved next hop of p's first TX queue at or after *q, with *q set
 * to that queue and t filled; NULL when none is left. Walk them with
 *	for (q = 0; (nh = wr_resolve_next(p, &q, &t)) != NULL; q++)
 * This function can't fail.
 */
const struct wr_port_nh *wr_resolve_next(const struct wr_port *p, uint16_t *q,
		struct wr_resolve_text *t);

/*
 * Announce and resolve for every port of run with a --port-ip address
 * (none with --dst-mac: it overrides). Returns 0; -EINVAL (usage) when
 * a destination is off the port's link and it has no gateway;
 * -EHOSTUNREACH (environment) naming the port, the address and how long
 * it tried when a next hop never answers; or a send error.
 */
int wr_resolve_run(struct wr_run *run, struct wr_error *err);

#endif /* WR_RESOLVE_H */
