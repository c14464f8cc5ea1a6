/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Port leases (lease.h): three small arrays, scanned whole. A tester has
 * a few ports and a few users: 64 entries each is far more than a lab
 * holds, and a scan of them costs nothing beside a socket's round trip.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lease.h"

static void
report(struct wr_lease_table *t, enum wr_lease_ev ev, const struct wr_lease *l,
		uint64_t now_ms)
{
	if (t->cb.fn != NULL)
		t->cb.fn(t->cb.arg, ev, l, now_ms);
}

void
wr_lease_init(struct wr_lease_table *t, const struct wr_lease_cb *cb)
{
	memset(t, 0, sizeof(*t));
	t->next_id = 1;
	if (cb != NULL)
		t->cb = *cb;
}

char *
wr_lease_time(const struct wr_lease_table *t, uint64_t mono_ms, char *buf,
		size_t len)
{
	int64_t wall = (int64_t)mono_ms + t->wall_offset_ms;
	time_t s = (time_t)(wall / 1000);
	struct tm tm;
	char day[32];

	if (gmtime_r(&s, &tm) == NULL ||
			strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		day[0] = '\0';
	snprintf(buf, len, "%s.%03dZ", day, (int)(wall % 1000));
	return buf;
}

char *
wr_lease_ports_str(uint64_t ports, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	if (ports == WR_LEASE_ALL) {
		snprintf(buf, len, "all");
		return buf;
	}
	for (i = 0; i < 64 && n < len; i++)
		if (ports & (UINT64_C(1) << i))
			n += (size_t)snprintf(buf + n, len - n, "%s%u", n > 0 ? "," : "", i);
	return buf;
}

/* The lowest port in mask (mask not 0). */
static unsigned int
first_port(uint64_t mask)
{
	return (unsigned int)__builtin_ctzll(mask);
}

/* Remember l as ended (how: end) in the ring. */
static void
remember(struct wr_lease_table *t, const struct wr_lease *l,
		enum wr_lease_end end, uint64_t now_ms)
{
	struct wr_lease *e = &t->ended[t->ended_next];

	*e = *l;
	e->end = end;
	e->ended_ms = now_ms;
	t->ended_next = (t->ended_next + 1) % WR_LEASE_MAX;
	if (t->nb_ended < WR_LEASE_MAX)
		t->nb_ended++;
}

/* The lease remember() stored last. */
static const struct wr_lease *
last_ended(const struct wr_lease_table *t)
{
	return &t->ended[(t->ended_next + WR_LEASE_MAX - 1) % WR_LEASE_MAX];
}

/* Take entry i out of arr (*nb entries), keeping the order. */
static void
take_out(struct wr_lease *arr, unsigned int *nb, unsigned int i)
{
	memmove(&arr[i], &arr[i + 1], (*nb - i - 1) * sizeof(arr[0]));
	(*nb)--;
}

/* The holder of the lowest port of mask that a held lease has, in err. */
static int
held_by(const struct wr_lease_table *t, uint64_t mask, const struct wr_lease *skip,
		struct wr_error *err)
{
	unsigned int i;
	char until[40];

	for (i = 0; i < t->nb_held; i++) {
		const struct wr_lease *l = &t->held[i];

		if (l == skip || (l->ports & mask) == 0)
			continue;
		return wr_err_usage(err, -EBUSY, "port %u is held by %s (lease %"
			PRIu64 ": \"%s\") until %s", first_port(l->ports & mask),
			l->owner, l->id, l->reason,
			wr_lease_time(t, l->until_ms, until, sizeof(until)));
	}
	return 0;
}

/* Why a request on mask may not go now: 0 when it may, else -EBUSY. */
static int
blocked(const struct wr_lease_table *t, uint64_t mask, uint64_t busy,
		unsigned int ahead, struct wr_error *err)
{
	const struct wr_lease *w;
	unsigned int i;

	if (held_by(t, mask, NULL, err) != 0)
		return -EBUSY;
	if ((mask & busy) != 0)
		return wr_err_usage(err, -EBUSY, "port %u is used by a run started "
			"without a lease, until it ends", first_port(mask & busy));
	for (i = 0; i < ahead && i < t->nb_queue; i++) {
		w = &t->queue[i];
		if ((w->ports & mask) != 0)
			return wr_err_usage(err, -EBUSY, "port %u is wanted first by %s "
				"(lease %" PRIu64 ", waiting in the queue)",
				first_port(w->ports & mask), w->owner, w->id);
	}
	return 0;
}

/* A new entry from req into *l (no id yet). */
static void
fill(struct wr_lease *l, const struct wr_lease_req *req, uint64_t now_ms)
{
	memset(l, 0, sizeof(*l));
	snprintf(l->owner, sizeof(l->owner), "%s", req->owner);
	snprintf(l->reason, sizeof(l->reason), "%s",
		req->reason != NULL ? req->reason : "");
	snprintf(l->secret, sizeof(l->secret), "%s", req->secret);
	l->ports = req->ports;
	l->ttl_ms = req->ttl_ms;
	l->asked_ms = now_ms;
	l->caller = req->caller;
	l->wait_ms = req->wait_ms;
	l->give_up_ms = now_ms + req->wait_ms;
}

/* Hold l from now on (a copy in the held array). The held entry. */
static struct wr_lease *
hold(struct wr_lease_table *t, const struct wr_lease *l, uint64_t now_ms)
{
	struct wr_lease *h = &t->held[t->nb_held++];

	*h = *l;
	h->since_ms = now_ms;
	h->until_ms = now_ms + h->ttl_ms;
	return h;
}

/* End every held lease on mask, taken by l (force). */
static void
take_from(struct wr_lease_table *t, const struct wr_lease *l, uint64_t now_ms)
{
	struct wr_lease *h;
	unsigned int i = 0;

	while (i < t->nb_held) {
		h = &t->held[i];
		if ((h->ports & l->ports) == 0) {
			i++;
			continue;
		}
		h->by_id = l->id;
		snprintf(h->by_owner, sizeof(h->by_owner), "%s", l->owner);
		remember(t, h, WR_LEASE_FORCED, now_ms);
		report(t, WR_LEASE_EV_TAKEN, last_ended(t), now_ms);
		take_out(t->held, &t->nb_held, i);
	}
}

int
wr_lease_acquire(struct wr_lease_table *t, const struct wr_lease_req *req,
		uint64_t now_ms, uint64_t busy, const struct wr_lease **out,
		struct wr_error *err)
{
	struct wr_lease l;
	int rc = 0;

	fill(&l, req, now_ms);
	if (!req->force)
		rc = blocked(t, l.ports, busy, t->nb_queue, err);
	if (rc != 0 && req->wait_ms == 0)
		return rc;
	if ((rc != 0 && t->nb_queue == WR_LEASE_MAX) ||
			(rc == 0 && t->nb_held == WR_LEASE_MAX))
		return wr_err_env(err, -ENOSPC, "%u leases %s already: try again "
			"later", WR_LEASE_MAX, rc != 0 ? "wait" : "are held");
	l.id = t->next_id++;
	if (rc != 0) {
		t->queue[t->nb_queue++] = l;
		*out = &t->queue[t->nb_queue - 1];
		report(t, WR_LEASE_EV_QUEUE, *out, now_ms);
		return 1;
	}
	if (req->force)
		take_from(t, &l, now_ms);
	*out = hold(t, &l, now_ms);
	report(t, req->force ? WR_LEASE_EV_FORCE : WR_LEASE_EV_ACQUIRE, *out,
		now_ms);
	return 0;
}

/* The index of the held lease of secret, or -1. */
static int
held_index(const struct wr_lease_table *t, const char *secret)
{
	unsigned int i;

	for (i = 0; i < t->nb_held; i++)
		if (strcmp(t->held[i].secret, secret) == 0)
			return (int)i;
	return -1;
}

/* Why secret holds nothing, in err: -ENOENT. */
static int
gone(struct wr_lease_table *t, const char *secret, uint64_t now_ms,
		struct wr_error *err)
{
	static const char *const how[] = {
		[WR_LEASE_RELEASED] = "was released",
		[WR_LEASE_EXPIRED] = "expired (not renewed)",
	};
	struct wr_lease *e;
	unsigned int i;
	char at[40];

	for (i = 0; i < t->nb_ended; i++) {
		e = &t->ended[i];
		if (strcmp(e->secret, secret) != 0)
			continue;
		wr_lease_time(t, e->ended_ms, at, sizeof(at));
		if (e->end != WR_LEASE_FORCED)
			return wr_err_usage(err, -ENOENT, "lease %" PRIu64 " %s at %s",
				e->id, how[e->end], at);
		if (!e->told) {
			e->told = true;
			report(t, WR_LEASE_EV_TOLD, e, now_ms);
		}
		return wr_err_usage(err, -ENOENT, "lease %" PRIu64 " was taken by "
			"force by %s (lease %" PRIu64 ") at %s", e->id, e->by_owner,
			e->by_id, at);
	}
	return wr_err_usage(err, -ENOENT, "unknown lease (never given by this "
		"server, or ended long ago): acquire one");
}

int
wr_lease_find(struct wr_lease_table *t, const char *secret, uint64_t now_ms,
		const struct wr_lease **out, struct wr_error *err)
{
	int i = held_index(t, secret);

	if (i < 0)
		return gone(t, secret, now_ms, err);
	*out = &t->held[i];
	return 0;
}

int
wr_lease_renew(struct wr_lease_table *t, const char *secret, uint64_t ttl_ms,
		uint64_t now_ms, const struct wr_lease **out, struct wr_error *err)
{
	int i = held_index(t, secret);
	struct wr_lease *h;

	if (i < 0)
		return gone(t, secret, now_ms, err);
	h = &t->held[i];
	if (ttl_ms != 0)
		h->ttl_ms = ttl_ms;
	h->until_ms = now_ms + h->ttl_ms;
	*out = h;
	report(t, WR_LEASE_EV_RENEW, h, now_ms);
	return 0;
}

int
wr_lease_release(struct wr_lease_table *t, const char *secret,
		uint64_t now_ms, uint64_t *id, struct wr_error *err)
{
	int i = held_index(t, secret);

	if (i < 0)
		return gone(t, secret, now_ms, err);
	*id = t->held[i].id;
	remember(t, &t->held[i], WR_LEASE_RELEASED, now_ms);
	take_out(t->held, &t->nb_held, (unsigned int)i);
	report(t, WR_LEASE_EV_RELEASE, last_ended(t), now_ms);
	return 0;
}

int
wr_lease_check(const struct wr_lease_table *t, uint64_t ports,
		const struct wr_lease *mine, struct wr_error *err)
{
	char have[200], want[200];

	if (mine != NULL && (ports & ~mine->ports) != 0 && held_by(t, ports &
			~mine->ports, mine, err) == 0)
		return wr_err_usage(err, -EBUSY, "lease %" PRIu64 " holds ports %s; "
			"the run uses %s: acquire the others too", mine->id,
			wr_lease_ports_str(mine->ports, have, sizeof(have)),
			wr_lease_ports_str(ports, want, sizeof(want)));
	return held_by(t, ports, mine, err) != 0 ? -EBUSY : 0;
}

/* End the held leases due at now_ms. The next end, or UINT64_MAX. */
static uint64_t
expire(struct wr_lease_table *t, uint64_t now_ms)
{
	uint64_t next = UINT64_MAX;
	unsigned int i = 0;
	while (i < t->nb_held) {
		if (t->held[i].until_ms > now_ms) {
			next = RTE_MIN(next, t->held[i].until_ms);
			i++;
			continue;
		}
		remember(t, &t->held[i], WR_LEASE_EXPIRED, now_ms);
		take_out(t->held, &t->nb_held, i);
		report(t, WR_LEASE_EV_EXPIRE, last_ended(t), now_ms);
	}
	return next;
}

/*
 * The queue in order: a waiter whose wait ran out leaves (GIVE_UP), one
 * that may go is granted. The next give-up, or UINT64_MAX.
 */
static uint64_t
serve_queue(struct wr_lease_table *t, uint64_t now_ms, uint64_t busy)
{
	uint64_t next = UINT64_MAX;
	struct wr_lease w;
	unsigned int i = 0;

	while (i < t->nb_queue) {
		w = t->queue[i];
		if (blocked(t, w.ports, busy, i, NULL) == 0 &&
				t->nb_held < WR_LEASE_MAX) {
			take_out(t->queue, &t->nb_queue, i);
			report(t, WR_LEASE_EV_GRANT, hold(t, &w, now_ms), now_ms);
		} else if (w.give_up_ms <= now_ms) {
			take_out(t->queue, &t->nb_queue, i);
			report(t, WR_LEASE_EV_GIVE_UP, &w, now_ms);
		} else {
			next = RTE_MIN(next, w.give_up_ms);
			i++;
		}
	}
	return next;
}

uint64_t
wr_lease_tick(struct wr_lease_table *t, uint64_t now_ms, uint64_t busy)
{
	uint64_t a, b;

	expire(t, now_ms);
	b = serve_queue(t, now_ms, busy);
	/* A grant above starts a lease: its end counts too. */
	a = expire(t, now_ms);
	a = RTE_MIN(a, b);
	return a == UINT64_MAX ? UINT64_MAX : a - now_ms;
}

void
wr_lease_leave(struct wr_lease_table *t, uint64_t caller, uint64_t now_ms)
{
	struct wr_lease w;
	unsigned int i = 0;

	while (i < t->nb_queue) {
		if (t->queue[i].caller != caller) {
			i++;
			continue;
		}
		w = t->queue[i];
		take_out(t->queue, &t->nb_queue, i);
		report(t, WR_LEASE_EV_LEAVE, &w, now_ms);
	}
}

const struct wr_lease *
wr_lease_by_id(const struct wr_lease_table *t, uint64_t id)
{
	unsigned int i;

	for (i = 0; i < t->nb_held; i++)
		if (t->held[i].id == id)
			return &t->held[i];
	return NULL;
}
