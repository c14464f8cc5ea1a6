/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Port leases in wirerate serve (docs/api.md "Leases"): the table
 * (base/lease.h) with what the server adds to it: the methods acquire,
 * renew, release and leases (lease_methods.c), the checks a run's start,
 * update and stop pass, the waiters whose reply comes later, and the
 * audit log of --lease-log (lease_audit.c). Everything here is read and
 * written under app_ctl.lock; the control thread calls app_lease_tick
 * once per turn of its loop and sends what app_lease_outbox_pop gives.
 */
#ifndef WR_APP_LEASES_H
#define WR_APP_LEASES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "base/lease.h"
#include "state.h"

/* A method's return when its reply comes later (a queued acquire). */
#define APP_CTL_DEFERRED 1

/* A queued acquire: where its reply goes once granted or given up. */
struct app_lease_wait {
	uint64_t id;       /* the lease's number */
	uint64_t serial;   /* the connection (ctl_client.serial) */
	json_t *req_id;    /* the request's id (a reference) */
};

/* A reply line waiting for the control thread to send it. */
struct app_lease_out {
	uint64_t serial;
	uint64_t lease_id; /* a grant: released if it cannot be sent */
	char *line;
};

struct app_leases {
	struct app_ctl *c;
	struct wr_lease_table table;
	FILE *audit;                   /* --lease-log, or NULL */
	json_t *taken;                 /* force: the leases it ended */
	unsigned int nb_waits;
	unsigned int nb_out;
	struct app_lease_wait waits[WR_LEASE_MAX];
	struct app_lease_out out[WR_LEASE_MAX];
};

/*
 * The leases of a server (c->leases), the audit log opened (path: "" for
 * none; mode 0600, appended to) and its server_start line written.
 * Returns 0, or the exit code with a message on stderr.
 */
int app_lease_open(struct app_ctl *c, const char *path);

/* server_stop written, the log closed, everything freed. Safe on NULL. */
void app_lease_close(struct app_ctl *c);

/*
 * The lease methods, serve only (control_methods.h's contract; lock not
 * held). A queued acquire returns APP_CTL_DEFERRED: its reply (to
 * c->caller, for c->caller_id) comes through app_lease_outbox_pop.
 */
int app_lease_acquire(struct app_ctl *c, json_t *params, json_t **out,
		char *msg, size_t len);
int app_lease_renew(struct app_ctl *c, json_t *params, json_t **out,
		char *msg, size_t len);
int app_lease_release(struct app_ctl *c, json_t *params, json_t **out,
		char *msg, size_t len);
int app_lease_list(struct app_ctl *c, json_t *params, json_t **out,
		char *msg, size_t len);

/*
 * start's check, lock held: the run of cfg may go on its ports under the
 * params' "lease" (or none). Sets c->run_lease_id and c->run_ports.
 * Returns 0 or an enum wr_rpc_code with a message in msg.
 */
int app_lease_admit(struct app_ctl *c, json_t *params,
		const struct wr_config *cfg, char *msg, size_t len);

/*
 * update's and stop's check, lock held: a run started under a lease that
 * still lasts is driven only with that lease. 0 or an enum wr_rpc_code.
 */
int app_lease_may_drive(struct app_ctl *c, json_t *params, char *msg,
		size_t len);

/*
 * Expire, give up and grant as due at now_ms (lock not held). Returns the
 * milliseconds until the loop should call again, -1 when nothing is due.
 */
int app_lease_tick(struct app_ctl *c, uint64_t now_ms);

/* A reply to send to connection *serial, or NULL (lock not held). */
char *app_lease_outbox_pop(struct app_ctl *c, uint64_t *serial,
		uint64_t *lease_id);

/*
 * The connection serial closed: its waiters leave the queue; a grant
 * that could not be sent to it (lease_id, 0: none) is released.
 */
void app_lease_gone(struct app_ctl *c, uint64_t serial, uint64_t lease_id);

/* The audit log's side (lease_audit.c), lock held. */
void app_lease_event(void *arg, enum wr_lease_ev ev, const struct wr_lease *l,
		uint64_t now_ms);
void app_lease_audit(struct app_leases *a, json_t *line);
/* l as acquire's result (secret: with the lease's secret). */
json_t *app_lease_json(const struct app_leases *a, const struct wr_lease *l,
		bool secret, uint64_t now_ms);
/*
 * The run started under lease id (0: without one) is stopped, as stop
 * does, and run_stopped logged (owner, why); nothing when no such run.
 */
void app_lease_stop_run(struct app_leases *a, uint64_t id, const char *owner,
		const char *why, uint64_t now_ms);
/* A reply for a waiter queued (stolen line). */
void app_lease_outbox_push(struct app_leases *a, uint64_t serial,
		uint64_t lease_id, char *line);
/* Ports as the API shows them: an array of ids, or "all". */
json_t *app_lease_ports_json(uint64_t ports);
/* The ports a run started without a lease uses now (lock held). */
uint64_t app_lease_busy(const struct app_ctl *c);
/* CLOCK_REALTIME - CLOCK_MONOTONIC into the table, now. */
void app_lease_clock(struct app_leases *a);

#endif /* WR_APP_LEASES_H */
