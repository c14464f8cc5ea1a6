/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A NIC's receive side scaling for a connection port on several queue
 * pairs (docs/tcp.md "On the wire"): hashing over TCP's addresses and
 * ports asked at configure, then the key and the redirection table read
 * back, so that a client takes only source ports whose replies the NIC
 * sends to its worker's queue. A server needs only the hash: every
 * segment of one connection hashes alike and reaches the worker that
 * took its SYN.
 */
#ifndef WR_CONNRSS_H
#define WR_CONNRSS_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"

#define WR_CONNRSS_KEY_MAX 64u
#define WR_CONNRSS_RETA_MAX 2048u

struct wr_port;
struct rte_eth_conf;

struct wr_connrss {
	uint64_t hf;                 /* the hash's flow types asked (0: none) */
	bool read;                   /* key and table read (wr_connrss_read) */
	int rc;                      /* ... or why not: negative errno, */
	char why[128];               /* in words */
	uint8_t key_len;
	uint16_t reta_size;
	uint8_t key[WR_CONNRSS_KEY_MAX];
	uint16_t reta[WR_CONNRSS_RETA_MAX];
};

/*
 * At probe: whether connection port p (role set, nb_rxq > 1) hashes TCP
 * over addresses and ports: p->rss.hf set from what the PMD offers, 0 on
 * a port whose queues something else steers (a ring pair, memif, net_tap)
 * or whose PMD offers no TCP hash. Can't fail.
 */
void wr_connrss_probe(struct wr_port *p, const struct wr_config *cfg);

/* The rss_conf of p's configure when p->rss.hf is set. Can't fail. */
void wr_connrss_conf(const struct wr_port *p, struct rte_eth_conf *conf);

/*
 * Read the key and the redirection table of started port p (once; again
 * after wr_connrss_probe). Returns 0, or a negative errno with
 * p->rss.why saying what the PMD did not give.
 */
int wr_connrss_read(struct wr_port *p);

/* Whether p's hash covers TCP of IPv6 (else IPv4) segments. */
bool wr_connrss_covers(const struct wr_port *p, bool ipv6);

#endif /* WR_CONNRSS_H */
