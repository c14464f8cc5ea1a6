/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_ether.h>

#include "base/dpdk_compat.h"
#include "pcapng_compat.h"

/* Fields of an Enhanced Packet Block (pcapng 4.3): timestamp (high then
 * low 32 bits, in the interface's resolution: ns as rte_pcapng declares
 * it) and original length. */
#define EPB_TS_HI_OFF 12
#define EPB_TS_LO_OFF 16
#define EPB_ORIG_LEN_OFF 24
/* LINKTYPE_ETHERNET (DLT_EN10MB) of the interface blocks. */
#define PCAPNG_LINKTYPE_ETHERNET 1

static void
epb_set(struct rte_mbuf *b, unsigned int off, uint32_t v)
{
	memcpy(rte_pktmbuf_mtod_offset(b, uint8_t *, off), &v, sizeof(v));
}

void
wr_pcapng_set_time(struct rte_mbuf *b, uint64_t tsc, uint64_t ns,
		uint32_t orig_len)
{
	uint64_t t = WR_DPDK_PCAPNG_TSC_AT_WRITE ? tsc : ns;

	epb_set(b, EPB_TS_HI_OFF, (uint32_t)(t >> 32));
	epb_set(b, EPB_TS_LO_OFF, (uint32_t)t);
	epb_set(b, EPB_ORIG_LEN_OFF, orig_len);
}

#if WR_DPDK_PCAPNG_ADD_INTERFACE
rte_pcapng_t *
wr_pcapng_open(int fd)
{
	rte_pcapng_t *pc = rte_pcapng_fdopen(fd, NULL, NULL, "wirerate", NULL);
	uint16_t port;
	int rc = 0;

	if (pc == NULL) {
		close(fd);
		return NULL;
	}
	RTE_ETH_FOREACH_DEV(port) {
#if WR_DPDK_PCAPNG_LINK_TYPE
		rc = rte_pcapng_add_interface(pc, port, PCAPNG_LINKTYPE_ETHERNET,
			NULL, NULL, NULL);
#else
		rc = rte_pcapng_add_interface(pc, port, NULL, NULL, NULL);
#endif
		if (rc < 0)
			break;
	}
	if (rc < 0) {
		rte_pcapng_close(pc);
		rte_errno = EIO;
		return NULL;
	}
	return pc;
}

struct rte_mbuf *
wr_pcapng_copy(uint16_t port, uint16_t queue, const struct rte_mbuf *m,
		struct rte_mempool *mp, uint32_t len)
{
	return rte_pcapng_copy(port, queue, m, mp, len,
		RTE_PCAPNG_DIRECTION_IN, NULL);
}

int
wr_pcapng_clock_start(struct rte_mempool *mp)
{
	RTE_SET_USED(mp);
	return 0;
}
#else
rte_pcapng_t *
wr_pcapng_open(int fd)
{
	rte_pcapng_t *pc = rte_pcapng_fdopen(fd, NULL, NULL, "wirerate", NULL);

	if (pc == NULL)
		close(fd);
	return pc;
}

struct rte_mbuf *
wr_pcapng_copy(uint16_t port, uint16_t queue, const struct rte_mbuf *m,
		struct rte_mempool *mp, uint32_t len)
{
	return rte_pcapng_copy(port, queue, m, mp, len, rte_get_tsc_cycles(),
		RTE_PCAPNG_DIRECTION_IN);
}

int
wr_pcapng_clock_start(struct rte_mempool *mp)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp), *b;

	if (m == NULL || rte_pktmbuf_append(m, RTE_ETHER_MIN_LEN) == NULL) {
		rte_pktmbuf_free(m);
		return -ENOMEM;
	}
	b = wr_pcapng_copy(0, 0, m, mp, RTE_ETHER_MIN_LEN);
	rte_pktmbuf_free(m);
	if (b == NULL)
		return -ENOMEM;
	rte_pktmbuf_free(b);
	return 0;
}
#endif
