/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The TCP core's timer wheel (wheel.h): buckets by expiry tick, doubly
 * linked by index, visited once per tick as the clock advances.
 */
#include <errno.h>

#include "tcp/wheel.h"

size_t
wr_tcp_wheel_mem_bytes(uint32_t nb_slots, uint32_t nb_timers)
{
	size_t heads = ((size_t)nb_slots * sizeof(uint32_t) + 7) & ~(size_t)7;

	return heads + (size_t)nb_timers * sizeof(struct wr_tcp_timer);
}

int
wr_tcp_wheel_init(struct wr_tcp_wheel *w, void *mem, uint32_t nb_slots,
	uint32_t nb_timers, unsigned int tick_shift, uint64_t now_us,
	struct wr_error *err)
{
	size_t heads = ((size_t)nb_slots * sizeof(uint32_t) + 7) & ~(size_t)7;
	uint32_t i;

	if (nb_slots == 0 || (nb_slots & (nb_slots - 1)) != 0)
		return wr_err_usage(err, -EINVAL,
			"tcp timer wheel: %u slots, want a power of two", nb_slots);
	if (nb_timers == 0 || nb_timers >= WR_TCP_NIL)
		return wr_err_usage(err, -EINVAL,
			"tcp timer wheel: %u timers, want 1 to %u", nb_timers,
			WR_TCP_NIL - 1);
	if (tick_shift > 20)
		return wr_err_usage(err, -EINVAL,
			"tcp timer wheel: tick of 2^%u us, want 2^20 at most",
			tick_shift);
	w->heads = mem;
	w->timers = (struct wr_tcp_timer *)((char *)mem + heads);
	w->nb_slots = nb_slots;
	w->nb_timers = nb_timers;
	w->nb_armed = 0;
	w->tick_shift = tick_shift;
	w->cur_tick = now_us >> tick_shift;
	for (i = 0; i < nb_slots; i++)
		w->heads[i] = WR_TCP_NIL;
	for (i = 0; i < nb_timers; i++)
		w->timers[i] = (struct wr_tcp_timer){ WR_TCP_NIL, WR_TCP_NIL,
			UINT64_MAX };
	return 0;
}

/* Take armed timer idx out of its bucket. */
static void
wheel_unlink(struct wr_tcp_wheel *w, uint32_t idx)
{
	struct wr_tcp_timer *t = &w->timers[idx];

	if (t->prev != WR_TCP_NIL)
		w->timers[t->prev].next = t->next;
	else
		w->heads[t->expiry_tick & (w->nb_slots - 1)] = t->next;
	if (t->next != WR_TCP_NIL)
		w->timers[t->next].prev = t->prev;
	t->next = WR_TCP_NIL;
	t->prev = WR_TCP_NIL;
	t->expiry_tick = UINT64_MAX;
	w->nb_armed--;
}

void
wr_tcp_wheel_cancel(struct wr_tcp_wheel *w, uint32_t idx)
{
	if (wr_tcp_wheel_armed(w, idx))
		wheel_unlink(w, idx);
}

void
wr_tcp_wheel_arm(struct wr_tcp_wheel *w, uint32_t idx, uint64_t expiry_us)
{
	struct wr_tcp_timer *t = &w->timers[idx];
	/* Round up: a timer never fires before its expiry. */
	uint64_t tick = (expiry_us + ((UINT64_C(1) << w->tick_shift) - 1)) >>
		w->tick_shift;
	uint32_t *head;

	wr_tcp_wheel_cancel(w, idx);
	if (tick < w->cur_tick)
		tick = w->cur_tick;
	head = &w->heads[tick & (w->nb_slots - 1)];
	t->expiry_tick = tick;
	t->prev = WR_TCP_NIL;
	t->next = *head;
	if (*head != WR_TCP_NIL)
		w->timers[*head].prev = idx;
	*head = idx;
	w->nb_armed++;
}

/*
 * Fire what is due in the bucket of tick: entries of a later round stay.
 * Returns false when fired filled up before the bucket was done.
 */
static bool
wheel_visit(struct wr_tcp_wheel *w, uint64_t tick, uint32_t *fired,
	uint32_t max_fired, uint32_t *nb_fired)
{
	uint32_t idx = w->heads[tick & (w->nb_slots - 1)];

	while (idx != WR_TCP_NIL) {
		uint32_t next = w->timers[idx].next;

		if (w->timers[idx].expiry_tick <= tick) {
			if (*nb_fired == max_fired)
				return false;
			wheel_unlink(w, idx);
			fired[(*nb_fired)++] = idx;
		}
		idx = next;
	}
	return true;
}

uint32_t
wr_tcp_wheel_advance(struct wr_tcp_wheel *w, uint64_t now_us,
	uint32_t *fired, uint32_t max_fired)
{
	uint64_t now_tick = now_us >> w->tick_shift;
	uint32_t nb_fired = 0;

	if (w->nb_armed == 0) {
		if (now_tick + 1 > w->cur_tick)
			w->cur_tick = now_tick + 1;
		return 0;
	}
	/*
	 * After a long gap, one visit of each bucket is enough: a due entry
	 * of a skipped tick sits in a bucket visited at a later tick.
	 */
	if (now_tick >= w->cur_tick && now_tick - w->cur_tick >= w->nb_slots)
		w->cur_tick = now_tick - w->nb_slots + 1;
	while (w->cur_tick <= now_tick) {
		if (!wheel_visit(w, w->cur_tick, fired, max_fired, &nb_fired))
			break;
		w->cur_tick++;
	}
	return nb_fired;
}
