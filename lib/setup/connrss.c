/* SPDX-License-Identifier: BSD-3-Clause */
/* A NIC's RSS for a connection port (connrss.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_version.h>

#include "config/opts_conn.h"
#include "connrss.h"
#include "port.h"
#include "ringpair.h"
#include "vport.h"

#define WR_CONNRSS_TCP (RTE_ETH_RSS_NONFRAG_IPV4_TCP | RTE_ETH_RSS_NONFRAG_IPV6_TCP)

void
wr_connrss_probe(struct wr_port *p, const struct wr_config *cfg)
{
	uint64_t offered = p->info.flow_type_rss_offloads;

	memset(&p->rss, 0, sizeof(p->rss));
	if (wr_opts_conn_port_role(cfg, p->port_id) == 0 || p->nb_rxq < 2 ||
			(offered & WR_CONNRSS_TCP) == 0)
		return;
	/* Their queues are steered otherwise: by the peer's queue (ring
	 * pairs, memif), by the kernel's tun (net_tap). */
	if (wr_port_is_ring_pair(p->port_id) || wr_vport_memif(p) ||
			strcmp(p->driver, "net_tap") == 0)
		return;
	p->rss.hf = offered & (RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP);
}

void
wr_connrss_conf(const struct wr_port *p, struct rte_eth_conf *conf)
{
	conf->rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf->rx_adv_conf.rss_conf.rss_hf = p->rss.hf;
	conf->rx_adv_conf.rss_conf.rss_key = NULL;    /* the PMD's: read back */
#if RTE_VERSION >= RTE_VERSION_NUM(23, 11, 0, 0)
	if (p->info.rss_algo_capa & RTE_ETH_HASH_ALGO_CAPA_MASK(TOEPLITZ))
		conf->rx_adv_conf.rss_conf.algorithm = RTE_ETH_HASH_FUNCTION_TOEPLITZ;
#endif
}

bool
wr_connrss_covers(const struct wr_port *p, bool ipv6)
{
	return (p->rss.hf & (ipv6 ? RTE_ETH_RSS_NONFRAG_IPV6_TCP :
		RTE_ETH_RSS_NONFRAG_IPV4_TCP)) != 0;
}

static int
rss_fail(struct wr_port *p, int rc, const char *what)
{
	p->rss.rc = rc;
	snprintf(p->rss.why, sizeof(p->rss.why), "%s", what);
	return rc;
}

/* The key the NIC hashes with, and that the hash is Toeplitz's. */
static int
rss_read_key(struct wr_port *p, const struct rte_eth_dev_info *info)
{
	struct rte_eth_rss_conf rc;
	uint8_t ksize = info->hash_key_size;
	int r;

	if (ksize == 0 || ksize > WR_CONNRSS_KEY_MAX)
		return rss_fail(p, -ENOTSUP, ksize == 0 ? "the PMD states no RSS "
			"key size" : "the PMD's RSS key is longer than 64 bytes");
	memset(&rc, 0, sizeof(rc));
	rc.rss_key = p->rss.key;
	rc.rss_key_len = ksize;
	r = rte_eth_dev_rss_hash_conf_get(p->port_id, &rc);
	if (r != 0)
		return rss_fail(p, r, "the PMD does not give its RSS key back");
#if RTE_VERSION >= RTE_VERSION_NUM(23, 11, 0, 0)
	if (rc.algorithm != RTE_ETH_HASH_FUNCTION_DEFAULT &&
			rc.algorithm != RTE_ETH_HASH_FUNCTION_TOEPLITZ)
		return rss_fail(p, -ENOTSUP, "the PMD's RSS hash is not Toeplitz's");
#endif
	p->rss.key_len = ksize;
	return 0;
}

/* The redirection table: the queue of each hash's low bits. */
static int
rss_read_reta(struct wr_port *p, const struct rte_eth_dev_info *info)
{
	struct rte_eth_rss_reta_entry64 conf[WR_CONNRSS_RETA_MAX / RTE_ETH_RETA_GROUP_SIZE];
	uint16_t n = info->reta_size, i;
	int r;

	if (n == 0 || n > WR_CONNRSS_RETA_MAX || (n & (n - 1)) != 0)
		return rss_fail(p, -ENOTSUP, n == 0 ? "the PMD states no RSS "
			"redirection table" : "the PMD's RSS redirection table is "
			"not a power of two of 2048 entries at most");
	memset(conf, 0, sizeof(conf));
	for (i = 0; i < n / RTE_ETH_RETA_GROUP_SIZE + (n % RTE_ETH_RETA_GROUP_SIZE != 0); i++)
		conf[i].mask = UINT64_MAX;
	r = rte_eth_dev_rss_reta_query(p->port_id, conf, n);
	if (r != 0)
		return rss_fail(p, r, "the PMD does not give its RSS redirection "
			"table back");
	for (i = 0; i < n; i++) {
		p->rss.reta[i] = conf[i / RTE_ETH_RETA_GROUP_SIZE].reta[i % RTE_ETH_RETA_GROUP_SIZE];
		if (p->rss.reta[i] >= p->nb_rxq)
			return rss_fail(p, -EINVAL, "the PMD's RSS redirection table "
				"names a queue the port does not have");
	}
	p->rss.reta_size = n;
	return 0;
}

int
wr_connrss_read(struct wr_port *p)
{
	struct rte_eth_dev_info info;
	int rc;

	if (p->rss.read)
		return 0;
	if (p->rss.rc != 0)
		return p->rss.rc;
	/* Read again: a PMD may size its table only once configured. */
	rc = rte_eth_dev_info_get(p->port_id, &info);
	if (rc != 0)
		return rss_fail(p, rc, "the PMD's device information cannot be "
			"read again");
	rc = rss_read_key(p, &info);
	if (rc == 0)
		rc = rss_read_reta(p, &info);
	if (rc != 0)
		return rc;
	p->rss.read = true;
	wr_port_note(p, "RSS over TCP: the PMD's %u-byte key and %u-entry "
		"table read back; client workers take the source ports whose "
		"replies reach their queue", p->rss.key_len, p->rss.reta_size);
	return 0;
}
