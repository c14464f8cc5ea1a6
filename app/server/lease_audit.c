/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What follows a change of the lease table (leases.h): the audit log's
 * line (--lease-log, docs/api.md), the reply a waiter was promised, a run
 * stopped when the lease it ran under ends. Also the table's clock and
 * the control thread's turn (tick, outbox). Leases live in memory only: a
 * server started again restores none and says so (server_start).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/rpc.h"
#include "common/exitcode.h"
#include "clock.h"
#include "leases.h"

/* How long the loop may sleep while a waiter waits on a run without a
 * lease (its end is not an event of the table): ms. */
#define BUSY_POLL_MS 100

static const char *const ev_names[] = {
	[WR_LEASE_EV_ACQUIRE] = "acquire", [WR_LEASE_EV_QUEUE] = "queue",
	[WR_LEASE_EV_GRANT] = "grant", [WR_LEASE_EV_GIVE_UP] = "give_up",
	[WR_LEASE_EV_LEAVE] = "give_up", [WR_LEASE_EV_TAKEN] = "taken",
	[WR_LEASE_EV_FORCE] = "force", [WR_LEASE_EV_RENEW] = "renew",
	[WR_LEASE_EV_RELEASE] = "release", [WR_LEASE_EV_EXPIRE] = "expire",
	[WR_LEASE_EV_TOLD] = "told",
};

/*
 * The wall clock's offset from the monotonic one, read again at each call
 * but kept while it moved by less than a second: two reads of two clocks
 * in whole ms differ by one now and then, and the same lease must show
 * the same end in every answer; a stepped wall clock (NTP, by hand) is
 * followed.
 */
void
app_lease_clock(struct app_leases *a)
{
	struct timespec rt;
	int64_t off, d;

	clock_gettime(CLOCK_REALTIME, &rt);
	off = (int64_t)rt.tv_sec * 1000 + rt.tv_nsec / 1000000 -
		(int64_t)app_ctl_now_ms();
	d = off - a->table.wall_offset_ms;
	if (a->table.wall_offset_ms == 0 || d >= 1000 || d <= -1000)
		a->table.wall_offset_ms = off;
}

/* A time of the table as JSON text. */
static json_t *
when(const struct app_leases *a, uint64_t mono_ms)
{
	char buf[40];

	return json_string(wr_lease_time(&a->table, mono_ms, buf, sizeof(buf)));
}

json_t *
app_lease_ports_json(uint64_t ports)
{
	json_t *arr;
	unsigned int i;

	if (ports == WR_LEASE_ALL)
		return json_string("all");
	arr = json_array();
	for (i = 0; i < 64 && arr != NULL; i++)
		if (ports & (UINT64_C(1) << i))
			json_array_append_new(arr, json_integer(i));
	return arr;
}

json_t *
app_lease_json(const struct app_leases *a, const struct wr_lease *l,
		bool secret, uint64_t now_ms)
{
	json_t *o = json_object();

	if (o == NULL)
		return NULL;
	if (secret)
		json_object_set_new(o, "lease", json_string(l->secret));
	json_object_set_new(o, "id", json_integer((json_int_t)l->id));
	json_object_set_new(o, "owner", json_string(l->owner));
	json_object_set_new(o, "reason", json_string(l->reason));
	json_object_set_new(o, "ports", app_lease_ports_json(l->ports));
	json_object_set_new(o, "ttl_s", json_real((double)l->ttl_ms / 1000.0));
	json_object_set_new(o, "until", when(a, l->until_ms));
	json_object_set_new(o, "expires_in_ms", json_integer(l->until_ms > now_ms ?
		(json_int_t)(l->until_ms - now_ms) : 0));
	return o;
}

void
app_lease_audit(struct app_leases *a, json_t *line)
{
	char *s;

	if (a->audit != NULL && line != NULL) {
		s = json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER);
		if (s != NULL) {
			fprintf(a->audit, "%s\n", s);
			fflush(a->audit);
		}
		free(s);
	}
	json_decref(line);
}

/* An audit line's start: time and event. */
static json_t *
line_of(const struct app_leases *a, const char *event, uint64_t now_ms)
{
	return json_pack("{s:o, s:s}", "time", when(a, now_ms), "event", event);
}

/* id, owner, and what the event shows of l, onto line o. */
static void
line_lease(const struct app_leases *a, json_t *o, enum wr_lease_ev ev,
		const struct wr_lease *l, uint64_t now_ms)
{
	bool granted = ev == WR_LEASE_EV_ACQUIRE || ev == WR_LEASE_EV_GRANT ||
		ev == WR_LEASE_EV_FORCE;

	json_object_set_new(o, "id", json_integer((json_int_t)l->id));
	json_object_set_new(o, "owner", json_string(l->owner));
	if (granted || ev == WR_LEASE_EV_QUEUE) {
		json_object_set_new(o, "reason", json_string(l->reason));
		json_object_set_new(o, "ports", app_lease_ports_json(l->ports));
	}
	if (granted)
		json_object_set_new(o, "ttl_s", json_real((double)l->ttl_ms / 1000.0));
	if (granted || ev == WR_LEASE_EV_RENEW || ev == WR_LEASE_EV_EXPIRE)
		json_object_set_new(o, "until", when(a, l->until_ms));
	if (ev == WR_LEASE_EV_GRANT)
		json_object_set_new(o, "waited_ms", json_integer((json_int_t)(now_ms -
			l->asked_ms)));
	if (ev == WR_LEASE_EV_EXPIRE)
		json_object_set_new(o, "late_ms", json_integer((json_int_t)(now_ms -
			l->until_ms)));
	if (ev == WR_LEASE_EV_QUEUE) {
		json_object_set_new(o, "wait_s", json_real((double)l->wait_ms / 1000.0));
		json_object_set_new(o, "position", json_integer(a->table.nb_queue));
	}
	if (ev == WR_LEASE_EV_GIVE_UP || ev == WR_LEASE_EV_LEAVE)
		json_object_set_new(o, "why", json_string(ev == WR_LEASE_EV_LEAVE ?
			"client gone" : "wait_s ran out"));
	if (ev == WR_LEASE_EV_TOLD)
		json_object_set_new(o, "by", json_string(l->by_owner));
}

void
app_lease_stop_run(struct app_leases *a, uint64_t id, const char *owner,
		const char *why, uint64_t now_ms)
{
	struct app_ctl *c = a->c;
	json_t *o;

	if (c->run_lease_id != id || !(c->state == APP_CTL_QUEUED ||
			c->state == APP_CTL_RUNNING))
		return;
	*c->stop = 1;
	o = line_of(a, "run_stopped", now_ms);
	if (o == NULL)
		return;
	json_object_set_new(o, "id", json_integer((json_int_t)id));
	json_object_set_new(o, "owner", json_string(owner));
	json_object_set_new(o, "run", json_integer((json_int_t)c->run_id));
	json_object_set_new(o, "why", json_string(why));
	app_lease_audit(a, o);
}

/* The wait of lease id, taken out of the list; false when none. */
static bool
take_wait(struct app_leases *a, uint64_t id, struct app_lease_wait *w)
{
	unsigned int i;

	for (i = 0; i < a->nb_waits; i++) {
		if (a->waits[i].id != id)
			continue;
		*w = a->waits[i];
		a->waits[i] = a->waits[--a->nb_waits];
		return true;
	}
	return false;
}

/* A waiter's reply: the grant, or why it gave up; none when it left. */
static void
answer_wait(struct app_leases *a, enum wr_lease_ev ev, const struct wr_lease *l,
		uint64_t now_ms)
{
	struct app_lease_wait w;
	struct wr_error err;
	json_t *r;

	if (!take_wait(a, l->id, &w))
		return;
	if (ev == WR_LEASE_EV_GRANT) {
		r = app_lease_json(a, l, true, now_ms);
		if (r != NULL)
			json_object_set_new(r, "waited_ms", json_integer((json_int_t)
				(now_ms - l->asked_ms)));
		app_lease_outbox_push(a, w.serial, l->id, wr_rpc_result(w.req_id, r));
	} else if (ev == WR_LEASE_EV_GIVE_UP) {
		wr_err_clear(&err);
		if (wr_lease_check(&a->table, l->ports, NULL, &err) == 0)
			wr_err_usage(&err, -EBUSY, "the ports stayed busy");
		wr_err_prefix(&err, "waited %.3g s (wait_s) in the queue: ",
			(double)l->wait_ms / 1000.0);
		app_lease_outbox_push(a, w.serial, 0, wr_rpc_error(w.req_id,
			WR_RPC_HELD, err.msg));
	}
	json_decref(w.req_id);
}

void
app_lease_event(void *arg, enum wr_lease_ev ev, const struct wr_lease *l,
		uint64_t now_ms)
{
	struct app_leases *a = arg;
	json_t *o;

	if (ev == WR_LEASE_EV_GRANT || ev == WR_LEASE_EV_GIVE_UP ||
			ev == WR_LEASE_EV_LEAVE)
		answer_wait(a, ev, l, now_ms);
	if (ev == WR_LEASE_EV_EXPIRE || ev == WR_LEASE_EV_RELEASE ||
			ev == WR_LEASE_EV_TAKEN)
		app_lease_stop_run(a, l->id, l->owner, ev == WR_LEASE_EV_TAKEN ?
			"force" : ev_names[ev], now_ms);
	if (ev == WR_LEASE_EV_TAKEN) {
		/* Written with the force line that took it. */
		if (a->taken != NULL)
			json_array_append_new(a->taken, json_pack("{s:I, s:s, s:s, s:o}",
				"id", (json_int_t)l->id, "owner", l->owner,
				"reason", l->reason, "until", when(a, l->until_ms)));
		return;
	}
	o = line_of(a, ev_names[ev], now_ms);
	if (o == NULL)
		return;
	line_lease(a, o, ev, l, now_ms);
	if (ev == WR_LEASE_EV_FORCE && a->taken != NULL)
		json_object_set(o, "taken_from", a->taken);
	app_lease_audit(a, o);
}

void
app_lease_outbox_push(struct app_leases *a, uint64_t serial, uint64_t lease_id,
		char *line)
{
	/* One reply per waiter and at most WR_LEASE_MAX waiters: room. */
	if (line == NULL || a->nb_out == WR_LEASE_MAX) {
		free(line);
		return;
	}
	a->out[a->nb_out++] = (struct app_lease_out){ serial, lease_id, line };
}

int
app_lease_open(struct app_ctl *c, const char *path)
{
	struct app_leases *a = calloc(1, sizeof(*a));
	struct wr_lease_cb cb = { .fn = app_lease_event, .arg = a };
	int fd;

	if (a == NULL)
		return APP_EXIT_FAILED;
	a->c = c;
	wr_lease_init(&a->table, &cb);
	c->leases = a;
	if (path[0] == '\0')
		return 0;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	a->audit = fd >= 0 ? fdopen(fd, "a") : NULL;
	if (a->audit == NULL) {
		fprintf(stderr, "wirerate: error: --lease-log %s: %s\n", path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return APP_EXIT_FAILED;
	}
	app_lease_clock(a);
	app_lease_audit(a, json_pack("{s:o, s:s, s:i, s:i}", "time",
		when(a, app_ctl_now_ms()), "event", "server_start",
		"pid", (int)getpid(), "leases", 0));
	return 0;
}

void
app_lease_close(struct app_ctl *c)
{
	struct app_leases *a = c->leases;
	unsigned int i;

	if (a == NULL)
		return;
	if (a->audit != NULL) {
		app_lease_clock(a);
		app_lease_audit(a, json_pack("{s:o, s:s, s:i}", "time",
			when(a, app_ctl_now_ms()), "event", "server_stop",
			"leases", (int)a->table.nb_held));
		fclose(a->audit);
	}
	for (i = 0; i < a->nb_waits; i++)
		json_decref(a->waits[i].req_id);
	for (i = 0; i < a->nb_out; i++)
		free(a->out[i].line);
	free(a);
	c->leases = NULL;
}

uint64_t
app_lease_busy(const struct app_ctl *c)
{
	if (c->run_lease_id != 0 || !(c->state == APP_CTL_QUEUED ||
			c->state == APP_CTL_RUNNING))
		return 0;
	return c->run_ports;
}

int
app_lease_tick(struct app_ctl *c, uint64_t now_ms)
{
	struct app_leases *a = c->leases;
	uint64_t busy, ms = UINT64_MAX;

	if (a == NULL)
		return -1;
	pthread_mutex_lock(&c->lock);
	app_lease_clock(a);
	busy = app_lease_busy(c);
	ms = wr_lease_tick(&a->table, now_ms, busy);
	if (busy != 0 && a->table.nb_queue > 0 && ms > BUSY_POLL_MS)
		ms = BUSY_POLL_MS;
	pthread_mutex_unlock(&c->lock);
	/* The loop's clock is in ms: wake at the deadline, not before it. */
	return ms == UINT64_MAX ? -1 : (int)RTE_MIN(ms + 1, (uint64_t)INT32_MAX);
}

char *
app_lease_outbox_pop(struct app_ctl *c, uint64_t *serial, uint64_t *lease_id)
{
	struct app_leases *a = c->leases;
	char *line = NULL;

	if (a == NULL)
		return NULL;
	pthread_mutex_lock(&c->lock);
	if (a->nb_out > 0) {
		line = a->out[0].line;
		*serial = a->out[0].serial;
		*lease_id = a->out[0].lease_id;
		memmove(&a->out[0], &a->out[1], --a->nb_out * sizeof(a->out[0]));
	}
	pthread_mutex_unlock(&c->lock);
	return line;
}

void
app_lease_gone(struct app_ctl *c, uint64_t serial, uint64_t lease_id)
{
	struct app_leases *a = c->leases;
	const struct wr_lease *l;
	uint64_t id;

	if (a == NULL)
		return;
	pthread_mutex_lock(&c->lock);
	app_lease_clock(a);
	wr_lease_leave(&a->table, serial, app_ctl_now_ms());
	l = lease_id != 0 ? wr_lease_by_id(&a->table, lease_id) : NULL;
	if (l != NULL) {
		char secret[WR_LEASE_SECRET_LEN];

		memcpy(secret, l->secret, sizeof(secret));
		wr_lease_release(&a->table, secret, app_ctl_now_ms(), &id, NULL);
	}
	pthread_mutex_unlock(&c->lock);
}
