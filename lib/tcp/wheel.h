/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A per-lcore timer wheel for the TCP core: one timer per connection
 * index (RTO, persist, delayed ACK, TIME_WAIT: the connection arms the
 * earliest), buckets by expiry tick, O(1) arm, cancel and re-arm through
 * intrusive links that are indices, not pointers. Advanced once per loop
 * with the current time. No allocation: the caller passes the memory
 * (wr_tcp_wheel_mem_bytes), so the DPDK side can take it from its NUMA
 * socket. Pure: no EAL. Written only by the owning lcore.
 *
 * A tick is 2^tick_shift microseconds; expiries further than nb_slots
 * ticks ahead wait in their bucket for the right round (checked when the
 * bucket is visited), so any expiry is accepted.
 */
#ifndef WR_TCP_WHEEL_H
#define WR_TCP_WHEEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* "No index": the end of a bucket's list. */
#define WR_TCP_NIL UINT32_MAX

/* The links of one timer: 16 bytes per connection. */
struct wr_tcp_timer {
	uint32_t next;
	uint32_t prev;
	uint64_t expiry_tick;   /* UINT64_MAX while not armed */
};

struct wr_tcp_wheel {
	uint32_t *heads;        /* nb_slots bucket heads */
	struct wr_tcp_timer *timers; /* nb_timers links, by connection index */
	uint32_t nb_slots;      /* a power of two */
	uint32_t nb_timers;
	uint32_t nb_armed;
	unsigned int tick_shift; /* a tick is 2^tick_shift us */
	uint64_t cur_tick;      /* the next tick to visit */
};

/* Bytes of memory wr_tcp_wheel_init needs for these sizes. Can't fail. */
size_t wr_tcp_wheel_mem_bytes(uint32_t nb_slots, uint32_t nb_timers);

/*
 * Set the wheel up in mem (wr_tcp_wheel_mem_bytes bytes, 8-byte aligned),
 * every timer unarmed, the clock at now_us. Returns 0, or -EINVAL with err
 * filled when nb_slots is not a power of two, a size is 0, nb_timers
 * reaches WR_TCP_NIL or tick_shift is over 20.
 */
int wr_tcp_wheel_init(struct wr_tcp_wheel *w, void *mem, uint32_t nb_slots,
	uint32_t nb_timers, unsigned int tick_shift, uint64_t now_us,
	struct wr_error *err);

/*
 * Arm (or re-arm) timer idx to expire at expiry_us; an expiry already past
 * fires at the next wr_tcp_wheel_advance. idx < nb_timers. Can't fail.
 */
void wr_tcp_wheel_arm(struct wr_tcp_wheel *w, uint32_t idx,
	uint64_t expiry_us);

/* Cancel timer idx; nothing if it is not armed. Can't fail. */
void wr_tcp_wheel_cancel(struct wr_tcp_wheel *w, uint32_t idx);

/* Whether timer idx is armed. */
static inline bool
wr_tcp_wheel_armed(const struct wr_tcp_wheel *w, uint32_t idx)
{
	return w->timers[idx].expiry_tick != UINT64_MAX;
}

/*
 * Advance the wheel to now_us: every timer whose tick is due is unarmed
 * and its index written to fired, at most max_fired of them; the ones left
 * over come out at the next call. Returns how many were written.
 */
uint32_t wr_tcp_wheel_advance(struct wr_tcp_wheel *w, uint64_t now_us,
	uint32_t *fired, uint32_t max_fired);

#endif /* WR_TCP_WHEEL_H */
