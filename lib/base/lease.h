/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Port leases of a shared tester (docs/api.md "Leases"): who holds which
 * ports until when, the queue of those waiting, and the leases that
 * ended (so that a late caller is told how). Pure: times are CLOCK_MONOTONIC
 * milliseconds given by the caller, secrets are made by the caller, every
 * change is reported through a callback (the server's audit log). One
 * thread owns a table; nothing here locks.
 *
 * The rule (first come, first served per port): a request is granted when
 * none of its ports is held (by a lease, or busy: a run without one) and
 * no earlier waiter wants one of them. force grants at once and ends
 * every lease holding one of its ports, whole.
 */
#ifndef WR_LEASE_H
#define WR_LEASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Leases held, waiters, and ended leases remembered, each at most. */
#define WR_LEASE_MAX 64
#define WR_LEASE_OWNER_LEN 65   /* 64 characters and the NUL */
#define WR_LEASE_REASON_LEN 201
#define WR_LEASE_SECRET_LEN 33  /* 32 hex digits and the NUL */
/* Port mask of "all": every port, those that appear later included. */
#define WR_LEASE_ALL UINT64_MAX

/* How a lease ended; LIVE while held or waiting. */
enum wr_lease_end {
	WR_LEASE_LIVE = 0,
	WR_LEASE_RELEASED,
	WR_LEASE_EXPIRED,
	WR_LEASE_FORCED,    /* taken by force: by_id, by_owner say by whom */
};

/* One lease, held, waiting or ended. Written only by the table's owner. */
struct wr_lease {
	uint64_t id;                      /* public number, 1, 2, ... */
	char secret[WR_LEASE_SECRET_LEN]; /* what its holder gives back */
	char owner[WR_LEASE_OWNER_LEN];
	char reason[WR_LEASE_REASON_LEN];
	uint64_t ports;                   /* bit per port id; WR_LEASE_ALL */
	uint64_t ttl_ms;
	uint64_t asked_ms;                /* when it was asked for */
	uint64_t since_ms;                /* granted at (held) */
	uint64_t until_ms;                /* ends at (held) */
	uint64_t give_up_ms;              /* waiter: leaves the queue at */
	uint64_t caller;                  /* the connection that asked */
	uint64_t wait_ms;                 /* waiter: wait_s as asked */
	enum wr_lease_end end;
	uint64_t ended_ms;
	uint64_t by_id;                   /* FORCED: the lease that took it */
	char by_owner[WR_LEASE_OWNER_LEN];
	bool told;                        /* FORCED: its holder was told */
};

/* What the table reports to its owner, one call per change. */
enum wr_lease_ev {
	WR_LEASE_EV_ACQUIRE,  /* granted at once */
	WR_LEASE_EV_QUEUE,    /* joined the queue (position: its place) */
	WR_LEASE_EV_GRANT,    /* a waiter granted */
	WR_LEASE_EV_GIVE_UP,  /* a waiter's wait ran out */
	WR_LEASE_EV_LEAVE,    /* a waiter's connection closed */
	WR_LEASE_EV_TAKEN,    /* a lease ended by a forced one (reported
	                       * before the WR_LEASE_EV_FORCE that took it) */
	WR_LEASE_EV_FORCE,    /* granted by force */
	WR_LEASE_EV_RENEW,
	WR_LEASE_EV_RELEASE,
	WR_LEASE_EV_EXPIRE,
	WR_LEASE_EV_TOLD,     /* a forced lease's holder was told */
};

/* The owner's callback: l as it is after the change; now in ms. */
struct wr_lease_cb {
	void (*fn)(void *arg, enum wr_lease_ev ev, const struct wr_lease *l,
			uint64_t now_ms);
	void *arg;
};

/* The table: held leases, the queue in order, the ended ones (a ring). */
struct wr_lease_table {
	uint64_t next_id;
	int64_t wall_offset_ms;  /* CLOCK_REALTIME - CLOCK_MONOTONIC, for
	                          * the times messages show; set by the owner */
	unsigned int nb_held;
	unsigned int nb_queue;
	unsigned int nb_ended;
	unsigned int ended_next; /* ring slot written next */
	struct wr_lease held[WR_LEASE_MAX];
	struct wr_lease queue[WR_LEASE_MAX];
	struct wr_lease ended[WR_LEASE_MAX];
	struct wr_lease_cb cb;
};

/* A request, checked by the caller (lengths, ranges). */
struct wr_lease_req {
	const char *owner;
	const char *reason;
	const char *secret;
	uint64_t ports;
	uint64_t ttl_ms;
	uint64_t wait_ms;     /* 0: refuse when held */
	bool force;
	uint64_t caller;
};

/* An empty table reporting to cb. This function can't fail. */
void wr_lease_init(struct wr_lease_table *t, const struct wr_lease_cb *cb);

/*
 * Ask for a lease at now_ms; busy: the ports a run without a lease uses.
 * Returns 0 granted (*out: the held lease), 1 queued (*out: the waiter;
 * its grant or give-up comes from wr_lease_tick), -EBUSY refused with the
 * holder named in err, -ENOSPC when the table or the queue is full.
 * *out is valid until the table's next change.
 */
int wr_lease_acquire(struct wr_lease_table *t, const struct wr_lease_req *req,
		uint64_t now_ms, uint64_t busy, const struct wr_lease **out,
		struct wr_error *err);

/*
 * The held lease of secret into *out; -ENOENT with err saying how it
 * ended (or that it is unknown). A forced lease's first such answer is
 * reported (WR_LEASE_EV_TOLD).
 */
int wr_lease_find(struct wr_lease_table *t, const char *secret,
		uint64_t now_ms, const struct wr_lease **out, struct wr_error *err);

/*
 * Renew the lease of secret: it ends ttl_ms from now (0: its own ttl).
 * Returns 0 with *out, or wr_lease_find's error.
 */
int wr_lease_renew(struct wr_lease_table *t, const char *secret,
		uint64_t ttl_ms, uint64_t now_ms, const struct wr_lease **out,
		struct wr_error *err);

/*
 * Release the lease of secret; *id its number. 0, or wr_lease_find's
 * error. Waiters are granted at the next wr_lease_tick.
 */
int wr_lease_release(struct wr_lease_table *t, const char *secret,
		uint64_t now_ms, uint64_t *id, struct wr_error *err);

/*
 * Whether a run on ports may start under mine (NULL: without a lease):
 * 0, or -EBUSY with the first other holder named in err.
 */
int wr_lease_check(const struct wr_lease_table *t, uint64_t ports,
		const struct wr_lease *mine, struct wr_error *err);

/*
 * Expire the leases due at now_ms, send away the waiters whose wait ran
 * out, grant the waiters that may go (busy as in wr_lease_acquire).
 * Returns the milliseconds until the next deadline, UINT64_MAX when none.
 * This function can't fail.
 */
uint64_t wr_lease_tick(struct wr_lease_table *t, uint64_t now_ms,
		uint64_t busy);

/* Take the waiters of caller (a closed connection) out of the queue. */
void wr_lease_leave(struct wr_lease_table *t, uint64_t caller,
		uint64_t now_ms);

/* The held lease numbered id, or NULL. */
const struct wr_lease *wr_lease_by_id(const struct wr_lease_table *t,
		uint64_t id);

/*
 * Monotonic ms as UTC ISO 8601 with milliseconds ("2026-12-04T09:00:00.120Z")
 * through t's wall offset, into buf (at least 25 bytes). Returns buf.
 */
char *wr_lease_time(const struct wr_lease_table *t, uint64_t mono_ms,
		char *buf, size_t len);

/* Ports as "0,1" or "all" into buf. Returns buf. */
char *wr_lease_ports_str(uint64_t ports, char *buf, size_t len);

#endif /* WR_LEASE_H */
