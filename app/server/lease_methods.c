/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The lease methods of wirerate serve (leases.h, docs/api.md "Leases"):
 * acquire, renew, release and leases, and the checks of a run's start,
 * update and stop. Each method checks its params first, then changes the
 * table under app_ctl.lock; what follows a change (the audit line, a
 * waiter's reply, a run stopped) is lease_audit.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "base/rpc.h"
#include "clock.h"
#include "control_methods.h"
#include "leases.h"

/* acquire's defaults and bounds, in seconds. */
#define TTL_DEFAULT_S 300.0
#define TTL_MIN_S 0.1
#define TIME_MAX_S 86400.0

/* An acquire request, checked. */
struct acquire_req {
	struct wr_lease_req r;
	char secret[WR_LEASE_SECRET_LEN];
};

/* A number member key of params in [lo, hi] seconds into *ms; def when absent. */
static int
param_seconds(json_t *params, const char *key, double lo, double def,
		uint64_t *ms, char *msg, size_t len)
{
	json_t *j = json_object_get(params, key);
	double v = j == NULL ? def : json_number_value(j);

	if (j != NULL && (!json_is_number(j) || !(v >= lo && v <= TIME_MAX_S)))
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"%s\": a number of "
			"seconds, %g to %g, is expected", key, lo, TIME_MAX_S);
	*ms = (uint64_t)llround(v * 1000.0);
	return 0;
}

/* A string member key of params, 1 to max-1 bytes (optional: may be absent). */
static int
param_text(json_t *params, const char *key, size_t max, bool optional,
		const char **out, char *msg, size_t len)
{
	json_t *j = json_object_get(params, key);

	*out = "";
	if (j == NULL && optional)
		return 0;
	if (!json_is_string(j) || json_string_length(j) >= max ||
			(!optional && json_string_length(j) == 0) ||
			strlen(json_string_value(j)) != json_string_length(j))
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"%s\": text of %s"
			"to %zu characters is expected", key, optional ? "" : "1 ",
			max - 1);
	*out = json_string_value(j);
	return 0;
}

/* One port id (a JSON integer) into *mask. */
static int
port_bit(json_t *j, uint64_t *mask)
{
	json_int_t v = json_integer_value(j);

	if (!json_is_integer(j) || v < 0 || v >= (json_int_t)WR_MAX_PORTS)
		return -1;
	*mask |= UINT64_C(1) << v;
	return 0;
}

/* A "0,1" list of port ids into *mask. */
static int
port_list(const char *s, uint64_t *mask)
{
	char buf[256], *tok, *save = NULL, *end;
	long v;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return -1;
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
		errno = 0;
		v = strtol(tok, &end, 10);
		if (errno != 0 || end == tok || *end != '\0' || v < 0 ||
				v >= (long)WR_MAX_PORTS)
			return -1;
		*mask |= UINT64_C(1) << v;
	}
	return 0;
}

/* acquire's "ports": "all", an id, an array of ids, or "0,1". */
static int
param_ports(json_t *params, uint64_t *mask, char *msg, size_t len)
{
	json_t *j = json_object_get(params, "ports"), *v;
	const char *s = json_string_value(j);
	size_t i;
	int rc = -1;

	*mask = 0;
	if (s != NULL && strcmp(s, "all") == 0) {
		*mask = WR_LEASE_ALL;
		return 0;
	}
	if (s != NULL)
		rc = port_list(s, mask);
	else if (json_is_integer(j))
		rc = port_bit(j, mask);
	else if (json_is_array(j))
		json_array_foreach(j, i, v)
			if ((rc = port_bit(v, mask)) != 0)
				break;
	if (rc != 0 || *mask == 0)
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"ports\": \"all\", a "
			"port id (0 to %u), an array of them or a list (\"0,1\") is "
			"expected", WR_MAX_PORTS - 1);
	return 0;
}

/* Params only among the names of keys (NULL-terminated), else -32602. */
static int
only_keys(json_t *params, const char *method, const char *const *keys,
		const char *list, char *msg, size_t len)
{
	const char *key;
	json_t *v;
	unsigned int i;

	json_object_foreach(params, key, v) {
		for (i = 0; keys[i] != NULL && strcmp(keys[i], key) != 0; i++)
			;
		if (keys[i] == NULL)
			return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"%s\": %s "
				"takes %s", key, method, list);
	}
	return 0;
}

/* 16 random bytes as 32 hex digits. 0, or -1 when the kernel has none. */
static int
new_secret(char *out)
{
	unsigned char b[16];
	unsigned int i;

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		return -1;
	for (i = 0; i < sizeof(b); i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	return 0;
}

static int
acquire_parse(struct app_ctl *c, json_t *params, struct acquire_req *q,
		char *msg, size_t len)
{
	static const char *const keys[] = { "ports", "owner", "reason", "ttl_s",
		"wait_s", "force", NULL };
	json_t *f = json_object_get(params, "force");
	int rc;

	memset(q, 0, sizeof(*q));
	rc = only_keys(params, "acquire", keys, "ports, owner, reason, ttl_s, "
		"wait_s and force", msg, len);
	if (rc == 0)
		rc = param_ports(params, &q->r.ports, msg, len);
	if (rc == 0)
		rc = param_text(params, "owner", WR_LEASE_OWNER_LEN, false,
			&q->r.owner, msg, len);
	if (rc == 0)
		rc = param_text(params, "reason", WR_LEASE_REASON_LEN, true,
			&q->r.reason, msg, len);
	if (rc == 0)
		rc = param_seconds(params, "ttl_s", TTL_MIN_S, TTL_DEFAULT_S,
			&q->r.ttl_ms, msg, len);
	if (rc == 0)
		rc = param_seconds(params, "wait_s", 0, 0, &q->r.wait_ms, msg, len);
	if (rc != 0)
		return rc;
	if (f != NULL && !json_is_boolean(f))
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"force\": true or "
			"false");
	q->r.force = json_is_true(f);
	if (q->r.wait_ms > 0 && c->caller_id == NULL)
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"wait_s\": only a "
			"request with an id on the control socket can wait for its reply");
	if (new_secret(q->secret) != 0)
		return app_ctl_fail(msg, len, WR_RPC_INTERNAL, "no random bytes for "
			"the lease's secret");
	q->r.secret = q->secret;
	q->r.caller = c->caller;
	return 0;
}

/* The table's error as a reply code: held (-EBUSY), or not now. */
static int
table_fail(int rc, const struct wr_error *err, char *msg, size_t len)
{
	return app_ctl_fail(msg, len, rc == -EBUSY ? WR_RPC_HELD : rc == -ENOENT ?
		WR_RPC_LEASE_GONE : WR_RPC_BAD_STATE, "%s", err->msg);
}

int
app_lease_acquire(struct app_ctl *c, json_t *params, json_t **out, char *msg,
		size_t len)
{
	struct app_leases *a = c->leases;
	const struct wr_lease *l;
	struct app_lease_wait *w;
	struct acquire_req q;
	struct wr_error err;
	uint64_t now;
	int rc = acquire_parse(c, params, &q, msg, len);

	if (rc != 0)
		return rc;
	wr_err_clear(&err);
	pthread_mutex_lock(&c->lock);
	app_lease_clock(a);
	now = app_ctl_now_ms();
	a->taken = json_array();
	rc = wr_lease_acquire(&a->table, &q.r, now, app_lease_busy(c), &l, &err);
	if (rc == 0 && q.r.force && (app_lease_busy(c) & q.r.ports) != 0)
		app_lease_stop_run(a, 0, "", "force", now);
	if (rc == 0) {
		*out = app_lease_json(a, l, true, now);
		if (*out != NULL && q.r.force)
			json_object_set(*out, "taken_from", a->taken);
	} else if (rc == 1) {
		w = &a->waits[a->nb_waits++];
		w->id = l->id;
		w->serial = c->caller;
		w->req_id = json_incref(c->caller_id);
		rc = APP_CTL_DEFERRED;
	} else {
		rc = table_fail(rc, &err, msg, len);
	}
	json_decref(a->taken);
	a->taken = NULL;
	pthread_mutex_unlock(&c->lock);
	return rc;
}

/* The params' "lease" secret: *secret, NULL when absent (if optional). */
static int
param_secret(json_t *params, bool optional, const char **secret, char *msg,
		size_t len)
{
	json_t *j = json_object_get(params, "lease");

	*secret = json_string_value(j);
	if ((j == NULL && optional) || (*secret != NULL &&
			json_string_length(j) < WR_LEASE_SECRET_LEN))
		return 0;
	return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"lease\": the secret "
		"acquire gave (32 hex digits) is expected");
}

int
app_lease_renew(struct app_ctl *c, json_t *params, json_t **out, char *msg, size_t len)
{
	static const char *const keys[] = { "lease", "ttl_s", NULL };
	struct app_leases *a = c->leases;
	const struct wr_lease *l;
	const char *secret;
	struct wr_error err;
	uint64_t ttl_ms = 0, now;
	int rc = only_keys(params, "renew", keys, "lease and ttl_s", msg, len);

	if (rc == 0)
		rc = param_secret(params, false, &secret, msg, len);
	if (rc == 0 && json_object_get(params, "ttl_s") != NULL)
		rc = param_seconds(params, "ttl_s", TTL_MIN_S, 0, &ttl_ms, msg, len);
	if (rc != 0)
		return rc;
	pthread_mutex_lock(&c->lock);
	app_lease_clock(a);
	now = app_ctl_now_ms();
	rc = wr_lease_renew(&a->table, secret, ttl_ms, now, &l, &err);
	if (rc == 0)
		*out = app_lease_json(a, l, true, now);
	else
		rc = table_fail(rc, &err, msg, len);
	pthread_mutex_unlock(&c->lock);
	return rc;
}

int
app_lease_release(struct app_ctl *c, json_t *params, json_t **out, char *msg,
		size_t len)
{
	static const char *const keys[] = { "lease", NULL };
	struct app_leases *a = c->leases;
	const char *secret;
	struct wr_error err;
	uint64_t id;
	int rc = only_keys(params, "release", keys, "lease", msg, len);

	if (rc == 0)
		rc = param_secret(params, false, &secret, msg, len);
	if (rc != 0)
		return rc;
	pthread_mutex_lock(&c->lock);
	app_lease_clock(a);
	rc = wr_lease_release(&a->table, secret, app_ctl_now_ms(), &id, &err);
	if (rc == 0)
		*out = json_pack("{s:I, s:b}", "id", (json_int_t)id, "released", true);
	else
		rc = table_fail(rc, &err, msg, len);
	pthread_mutex_unlock(&c->lock);
	/* The next waiter goes at the loop's next turn, right after this reply. */
	return rc;
}

/* The queue as leases shows it. */
static json_t *
queue_json(const struct app_leases *a)
{
	const struct wr_lease *w;
	json_t *arr = json_array();
	char since[40], until[40];
	unsigned int i;

	for (i = 0; i < a->table.nb_queue && arr != NULL; i++) {
		w = &a->table.queue[i];
		json_array_append_new(arr, json_pack("{s:I, s:s, s:s, s:o, s:s, s:s}",
			"id", (json_int_t)w->id, "owner", w->owner, "reason", w->reason,
			"ports", app_lease_ports_json(w->ports),
			"since", wr_lease_time(&a->table, w->asked_ms, since, sizeof(since)),
			"gives_up_at", wr_lease_time(&a->table, w->give_up_ms, until,
				sizeof(until))));
	}
	return arr;
}

int
app_lease_list(struct app_ctl *c, json_t *params, json_t **out, char *msg,
		size_t len)
{
	struct app_leases *a = c->leases;
	const struct wr_lease *l;
	json_t *held = json_array(), *o;
	char now_s[40], since[40];
	unsigned int i;
	uint64_t now;

	(void)params;
	pthread_mutex_lock(&c->lock);
	app_lease_clock(a);
	now = app_ctl_now_ms();
	for (i = 0; i < a->table.nb_held && held != NULL; i++) {
		l = &a->table.held[i];
		o = app_lease_json(a, l, false, now);
		if (o == NULL)
			continue;
		json_object_set_new(o, "since", json_string(wr_lease_time(&a->table,
			l->since_ms, since, sizeof(since))));
		if (c->run_lease_id == l->id && (c->state == APP_CTL_QUEUED ||
				c->state == APP_CTL_RUNNING))
			json_object_set_new(o, "run", json_integer((json_int_t)c->run_id));
		json_array_append_new(held, o);
	}
	*out = json_pack("{s:s, s:o, s:o}", "now", wr_lease_time(&a->table, now,
		now_s, sizeof(now_s)), "leases", held, "queue", queue_json(a));
	pthread_mutex_unlock(&c->lock);
	return *out != NULL ? 0 : app_ctl_fail(msg, len, WR_RPC_INTERNAL,
		"no memory");
}

/* The ports a run of cfg uses: WR_LEASE_ALL when it does not name them. */
static uint64_t
run_ports(const struct wr_config *cfg)
{
	if (!cfg->tx_ports_set || !cfg->rx_ports_set)
		return WR_LEASE_ALL;
	return cfg->tx_port_mask | cfg->rx_port_mask;
}

int
app_lease_admit(struct app_ctl *c, json_t *params, const struct wr_config *cfg,
		char *msg, size_t len)
{
	struct app_leases *a = c->leases;
	const struct wr_lease *l = NULL;
	const char *secret;
	struct wr_error err;
	uint64_t ports = run_ports(cfg);
	int rc = param_secret(params, true, &secret, msg, len);

	if (rc != 0 || a == NULL)
		return rc;
	wr_err_clear(&err);
	app_lease_clock(a);
	if (secret != NULL)
		rc = wr_lease_find(&a->table, secret, app_ctl_now_ms(), &l, &err);
	if (rc == 0)
		rc = wr_lease_check(&a->table, ports, l, &err);
	if (rc != 0)
		return table_fail(rc, &err, msg, len);
	c->run_lease_id = l != NULL ? l->id : 0;
	c->run_ports = ports;
	return 0;
}

int
app_lease_may_drive(struct app_ctl *c, json_t *params, char *msg, size_t len)
{
	struct app_leases *a = c->leases;
	const struct wr_lease *run, *l = NULL;
	const char *secret;
	struct wr_error err;
	int rc = param_secret(params, true, &secret, msg, len);

	if (rc != 0 || a == NULL || c->run_lease_id == 0)
		return rc;
	run = wr_lease_by_id(&a->table, c->run_lease_id);
	if (run == NULL)
		return 0;
	app_lease_clock(a);
	if (secret != NULL && wr_lease_find(&a->table, secret, app_ctl_now_ms(),
			&l, &err) != 0)
		return table_fail(-ENOENT, &err, msg, len);
	if (l == run)
		return 0;
	return app_ctl_fail(msg, len, WR_RPC_HELD, "run %" PRIu64 " runs under "
		"lease %" PRIu64 " of %s: give that lease (\"lease\")", c->run_id,
		run->id, run->owner);
}
