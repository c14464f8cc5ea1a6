/* SPDX-License-Identifier: BSD-3-Clause */
/* RFC 6298 retransmission timer arithmetic (rto.h). */
#include "tcp/rto.h"

/* RTO = SRTT + max(G, 4 * RTTVAR), bounded (RFC 6298 2.2-2.5). */
static void
rto_set(struct wr_tcp_conn *c)
{
	uint64_t var4 = (uint64_t)c->rttvar_us * 4;
	uint64_t rto = c->srtt_us + (var4 > WR_TCP_RTO_G_US ? var4 :
		WR_TCP_RTO_G_US);

	if (rto < WR_TCP_RTO_MIN_US)
		rto = WR_TCP_RTO_MIN_US;
	if (rto > WR_TCP_RTO_MAX_US)
		rto = WR_TCP_RTO_MAX_US;
	c->rto_us = (uint32_t)rto;
}

void
wr_tcp_rto_init(struct wr_tcp_conn *c)
{
	c->srtt_us = 0;
	c->rttvar_us = 0;
	c->rto_us = WR_TCP_RTO_INIT_US;
	c->nb_retries = 0;
}

void
wr_tcp_rto_sample(struct wr_tcp_conn *c, uint32_t rtt_us)
{
	/* srtt_us == 0 means "no sample yet": a sample is at least 1 us */
	if (rtt_us == 0)
		rtt_us = 1;
	if (c->srtt_us == 0) {
		/* RFC 6298 2.2: SRTT <- R, RTTVAR <- R/2 */
		c->srtt_us = rtt_us;
		c->rttvar_us = rtt_us / 2;
	} else {
		/* RFC 6298 2.3, alpha = 1/8, beta = 1/4; RTTVAR first */
		uint32_t err = c->srtt_us > rtt_us ? c->srtt_us - rtt_us :
			rtt_us - c->srtt_us;

		c->rttvar_us = (uint32_t)(((uint64_t)c->rttvar_us * 3 + err) / 4);
		c->srtt_us = (uint32_t)(((uint64_t)c->srtt_us * 7 + rtt_us) / 8);
		if (c->srtt_us == 0)
			c->srtt_us = 1;
	}
	c->nb_retries = 0;
	rto_set(c);
}

bool
wr_tcp_rto_backoff(struct wr_tcp_conn *c)
{
	uint64_t rto = (uint64_t)c->rto_us * 2;

	c->rto_us = (uint32_t)(rto > WR_TCP_RTO_MAX_US ? WR_TCP_RTO_MAX_US : rto);
	if (c->nb_retries <= WR_TCP_RTO_MAX_RETRIES)   /* a 4-bit field */
		c->nb_retries++;
	return c->nb_retries <= WR_TCP_RTO_MAX_RETRIES;
}
