/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket's methods (docs/api.md), one function each, listed
 * once in a table. They run on the control thread; what they read or
 * change of the runs is under app_ctl.lock, and a live run is only
 * reached through lib/trial/live.h while that lock is held (the main
 * lcore destroys a run only after taking the lock: watch.live, control.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_malloc.h>

#include "base/jsonw.h"
#include "base/rpc.h"
#include "config/optjson.h"
#include "config/rate.h"
#include "run/results.h"
#include "clock.h"
#include "control_methods.h"
#include "leases.h"
#include "peer.h"
#include "state.h"
#include "stats/telemetry.h"
#include "trial/live.h"

typedef int (*method_fn)(struct app_ctl *c, json_t *params, json_t **out,
		char *msg, size_t len);

static const char *const state_names[] = {
	[APP_CTL_IDLE] = "idle", [APP_CTL_QUEUED] = "starting",
	[APP_CTL_RUNNING] = "running", [APP_CTL_DONE] = "done",
	[APP_CTL_FAILED] = "failed",
};

static const char *const snap_names[] = {
	[WR_SNAP_IDLE] = "idle", [WR_SNAP_RUNNING] = "running",
	[WR_SNAP_STOPPING] = "stopping", [WR_SNAP_DONE] = "done",
};

int
app_ctl_fail(char *msg, size_t len, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, len, fmt, ap);
	va_end(ap);
	wr_err_utf8_trim(msg);
	return code;
}

/* Append v (stolen) to array a; a NULL v (no memory) is left out. */
static void
append(json_t *a, json_t *v)
{
	if (v != NULL)
		json_array_append_new(a, v);
}

static bool
busy(const struct app_ctl *c)
{
	return c->state == APP_CTL_QUEUED || c->state == APP_CTL_RUNNING;
}

/* One ethdev port as the ports method lists it. */
static json_t *
port_json(const struct app_ctl *c, uint16_t id)
{
	uint64_t nb_setups, nb_reuses;
	json_t *o;
	struct rte_eth_dev_info info;
	struct rte_ether_addr mac;
	struct rte_eth_link link;
	char name[RTE_ETH_NAME_MAX_LEN], smac[RTE_ETHER_ADDR_FMT_SIZE];

	if (rte_eth_dev_info_get(id, &info) != 0 ||
			rte_eth_dev_get_name_by_port(id, name) != 0)
		return NULL;
	/* A port whose link cannot be read says down. */
	memset(&link, 0, sizeof(link));
	if (rte_eth_link_get_nowait(id, &link) != 0)
		memset(&link, 0, sizeof(link));
	smac[0] = '\0';
	if (rte_eth_macaddr_get(id, &mac) == 0)
		rte_ether_format_addr(smac, sizeof(smac), &mac);
	wr_portkeep_count(c->watch.keep, id, &nb_setups, &nb_reuses);
	o = json_pack("{s:i, s:s, s:s, s:s, s:b, s:I, s:i, s:i, s:i, s:i}",
		"port_id", id, "name", name, "driver", info.driver_name,
		"mac", smac, "link_up", link.link_status == RTE_ETH_LINK_UP,
		"link_speed_mbps", (json_int_t)link.link_speed,
		"max_rx_queues", info.max_rx_queues, "max_tx_queues", info.max_tx_queues,
		"rx_queues", info.nb_rx_queues, "tx_queues", info.nb_tx_queues);
	/* Server: how often runs set the port up, and took it as it was. */
	if (o != NULL && c->watch.keep != NULL)
		json_object_set_new(o, "kept", json_pack("{s:I, s:I}",
			"setups", (json_int_t)nb_setups,
			"reuses", (json_int_t)nb_reuses));
	return o;
}

/*
 * Every ethdev port, read here (the control thread) only while the main
 * lcore sets up or closes none: ethdev's control functions are not safe
 * beside a configure or close of the same port.
 */
static int
m_ports(struct app_ctl *c, json_t *params, json_t **out, char *msg, size_t len)
{
	json_t *a;
	uint16_t id;

	(void)params;
	if (pthread_mutex_trylock(&c->ports_lock) != 0)
		return app_ctl_fail(msg, len, WR_RPC_BAD_STATE, "a run is setting its ports "
			"up or closing them; ask again in a moment");
	a = json_array();
	RTE_ETH_FOREACH_DEV(id)
		if (a != NULL)
			append(a, port_json(c, id));
	pthread_mutex_unlock(&c->ports_lock);
	if (a == NULL)
		return app_ctl_fail(msg, len, WR_RPC_INTERNAL, "no memory");
	*out = json_pack("{s:o}", "ports", a);
	return 0;
}

int
app_ctl_run_config(struct app_ctl *c, json_t *params, struct wr_config **out,
		char *msg, size_t len)
{
	struct wr_config *cfg = malloc(sizeof(*cfg));
	json_t *opts = json_copy(params);
	struct wr_error err;
	int rc;

	if (cfg == NULL || opts == NULL) {
		free(cfg);
		json_decref(opts);
		return app_ctl_fail(msg, len, WR_RPC_INTERNAL, "no memory");
	}
	*cfg = *c->base;
	wr_err_clear(&err);
	if (json_object_get(params, "control") != NULL ||
			json_object_get(params, "lease-log") != NULL) {
		free(cfg);
		json_decref(opts);
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "--control, --lease-log: "
			"the server's, given when it starts, not per run");
	}
	/* The lease a run goes under is not one of its options. */
	json_object_del(opts, "lease");
	rc = wr_opts_from_json(opts, cfg, &err);
	json_decref(opts);
	if (rc != 0) {
		free(cfg);
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "%s", err.msg);
	}
	if (app_outputs_check(cfg) != 0) {
		free(cfg);
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "an output file of the run "
			"cannot be written (the server's stderr says which)");
	}
	*out = cfg;
	return 0;
}

/* The command line a run's result records: its start request (no secret). */
static void
record_start(struct app_ctl *c, json_t *params)
{
	json_t *shown = json_copy(params);
	char *opts;

	json_object_del(shown, "lease");
	opts = json_dumps(shown, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(shown);

	snprintf(c->next_cmdline, sizeof(c->next_cmdline), "wirerate serve: "
		"start %s", opts != NULL ? opts : "{}");
	free(opts);
}

static int
m_start(struct app_ctl *c, json_t *params, json_t **out, char *msg, size_t len)
{
	struct wr_config *cfg;
	uint64_t id;
	int rc = app_ctl_run_config(c, params, &cfg, msg, len);

	if (rc != 0)
		return rc;
	pthread_mutex_lock(&c->lock);
	if (busy(c) || c->shutdown)
		rc = app_ctl_fail(msg, len, WR_RPC_BAD_STATE, c->shutdown ? "the server "
			"is shutting down" : "run %" PRIu64 " is %s: stop it or "
			"wait until it is done", c->run_id, state_names[c->state]);
	else
		rc = app_lease_admit(c, params, cfg, msg, len);
	if (rc != 0) {
		pthread_mutex_unlock(&c->lock);
		free(cfg);
		return rc;
	}
	id = ++c->run_id;
	c->next = cfg;
	record_start(c, params);
	c->state = APP_CTL_QUEUED;
	*c->stop = 0;
	pthread_cond_signal(&c->cond);
	pthread_mutex_unlock(&c->lock);
	*out = json_pack("{s:I}", "run", (json_int_t)id);
	return 0;
}

/* A latency figure in ns, or null when nothing is known. */
static json_t *
lat_or_null(bool known, double ns)
{
	return known ? json_real(ns) : json_null();
}

/*
 * One port of the published snapshot: counters, the last rates and the
 * latency of its own frames (last interval while running, the whole run
 * once done; null when none is known), as the live view shows them.
 */
static json_t *
snap_port_json(const struct wr_snap_port *p)
{
	bool lat = p->lat.samples > 0;

	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:f, s:f, s:f, s:f, "
		"s:o, s:o, s:o}",
		"port_id", p->port_id, "tx_pkts", wr_json_u64(p->cnt.tx_pkts),
		"rx_pkts", wr_json_u64(p->cnt.rx_pkts),
		"rx_own_pkts", wr_json_u64(p->cnt.rx_own_pkts),
		"missing_pkts", wr_json_u64(p->missing_pkts),
		"lost_pkts", wr_json_u64(p->lost_pkts),
		"gap_pkts", wr_json_u64(p->gap_pkts),
		"tx_pps", p->rates.tx_pps, "rx_pps", p->rates.rx_pps,
		"tx_l1_bps", p->rates.tx_l1_bps, "rx_l1_bps", p->rates.rx_l1_bps,
		"lat_p50_ns", lat_or_null(lat, p->lat.p50_ns),
		"lat_p99_ns", lat_or_null(lat, p->lat.p99_ns),
		"lat_max_ns", lat_or_null(lat, p->lat.max_ns));
}

/*
 * One stream of the snapshot, as the live view's stream lines: counts
 * since the start (sent read after received: in flight shows as sent and
 * not received), null where its sender or receiver is not in the run.
 */
static json_t *
snap_stream_json(const struct wr_snap_stream *s)
{
	return json_pack("{s:i, s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"stream_id", s->stream_id, "name", s->name, "tx_port", s->tx_port,
		"tx_queue", s->tx_queue,
		"rx_port", s->rx_known ? json_integer(s->rx_port) : json_null(),
		"sent_pkts", s->sent_known ? wr_json_u64(s->sent_pkts) : json_null(),
		"rx_pkts", wr_json_u64(s->rx_pkts),
		"gap_pkts", wr_json_u64(s->gap_pkts),
		"late_pkts", wr_json_u64(s->late_pkts),
		"dup_pkts", wr_json_u64(s->dup_pkts),
		"lat_mean_ns", lat_or_null(s->lat_valid, s->lat_mean_ns));
}

/* A connection run's books and rates (null in a frame run). */
static json_t *
snap_conn_json(const struct wr_snap_conn *c)
{
	if (!c->known)
		return json_null();
	return json_pack("{s:s, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
		"s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:f, s:f, s:f}",
		"role", wr_snap_conn_role(c->role), "whole", c->whole,
		"attempted", wr_json_u64(c->attempted),
		"established", wr_json_u64(c->established),
		"completed", wr_json_u64(c->completed),
		"failed", wr_json_u64(c->failed), "open", wr_json_u64(c->open),
		"peak_open", wr_json_u64(c->peak_open),
		"unstarted", wr_json_u64(c->unstarted),
		"accepted", wr_json_u64(c->accepted),
		"closed", wr_json_u64(c->closed),
		"reqs_sent", wr_json_u64(c->reqs_sent),
		"resps", wr_json_u64(c->resps),
		"reqs_failed", wr_json_u64(c->reqs_failed),
		"reqs_served", wr_json_u64(c->reqs_served),
		"l7_tx_bytes", wr_json_u64(c->l7_tx_bytes),
		"l7_rx_bytes", wr_json_u64(c->l7_rx_bytes),
		"rtx_segs", wr_json_u64(c->rtx_segs),
		"cps", c->cps, "requests_per_s", c->requests_per_s,
		"goodput_bps", c->goodput_bps);
}

/* The live figures, as telemetry publishes them (stats/telemetry.h). */
static json_t *
live_json(void)
{
	struct wr_snap *s = malloc(sizeof(*s));
	json_t *o, *ports, *streams;
	unsigned int i;

	if (s == NULL)
		return NULL;
	wr_telemetry_read(s);
	ports = json_array();
	for (i = 0; i < s->nb_ports && ports != NULL; i++)
		append(ports, snap_port_json(&s->port[i]));
	streams = json_array();
	for (i = 0; i < s->nb_streams && streams != NULL; i++)
		append(streams, snap_stream_json(&s->stream[i]));
	o = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o}",
		"state", snap_names[s->state], "trial", (json_int_t)s->trial,
		"elapsed_ms", (json_int_t)s->elapsed_ms,
		"duration_ms", (json_int_t)s->duration_ms,
		"intervals", (json_int_t)s->nb_intervals,
		"frame_size", (json_int_t)s->frame_size, "ports", ports,
		"streams", streams, "conn", snap_conn_json(&s->conn));
	free(s);
	return o;
}

/* Bytes allocated from DPDK's heaps (pools, rings, queues) now. */
static json_int_t
heap_bytes(void)
{
	struct rte_malloc_socket_stats st;
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &st) == 0)
			n += st.heap_allocsz_bytes;
	return (json_int_t)n;
}

static int
m_status(struct app_ctl *c, json_t *params, json_t **out, char *msg, size_t len)
{
	enum app_ctl_state st;
	uint64_t id, since;
	int code;

	(void)params;
	pthread_mutex_lock(&c->lock);
	st = c->state;
	id = c->run_id;
	since = c->start_ms;
	code = c->exit_code;
	pthread_mutex_unlock(&c->lock);
	*out = json_pack("{s:s, s:I, s:I}", "state", state_names[st],
		"run", (json_int_t)id, "heap_bytes", heap_bytes());
	if (*out == NULL)
		return app_ctl_fail(msg, len, WR_RPC_INTERNAL, "no memory");
	if (st == APP_CTL_RUNNING)
		wr_json_set(*out, "run_elapsed_ms", json_integer((json_int_t)(app_ctl_now_ms() - since)));
	if (st == APP_CTL_DONE || st == APP_CTL_FAILED)
		wr_json_set(*out, "exit_code", json_integer(code));
	if (st != APP_CTL_IDLE && st != APP_CTL_QUEUED)
		wr_json_set(*out, "live", live_json());
	return 0;
}

static int
m_stop(struct app_ctl *c, json_t *params, json_t **out, char *msg, size_t len)
{
	int rc = 0;

	pthread_mutex_lock(&c->lock);
	if (!busy(c))
		rc = app_ctl_fail(msg, len, WR_RPC_BAD_STATE, "no run is running (state %s)",
			state_names[c->state]);
	else
		rc = app_lease_may_drive(c, params, msg, len);
	if (rc == 0)
		*c->stop = 1;
	if (rc == 0)
		*out = json_pack("{s:I, s:s}", "run", (json_int_t)c->run_id,
			"state", "stopping");
	pthread_mutex_unlock(&c->lock);
	return rc;
}

/* The params' run id, when given: *id, else the last run's. */
static int
param_run(const struct app_ctl *c, json_t *params, uint64_t *id, char *msg,
		size_t len)
{
	json_t *r = json_object_get(params, "run");

	*id = c->run_id;
	if (r == NULL)
		return 0;
	if (!json_is_integer(r) || json_integer_value(r) < 1)
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"run\": a run id (a "
			"positive integer) is expected");
	*id = (uint64_t)json_integer_value(r);
	return 0;
}

static int
m_result(struct app_ctl *c, json_t *params, json_t **out, char *msg, size_t len)
{
	uint64_t id;
	int rc;

	pthread_mutex_lock(&c->lock);
	rc = param_run(c, params, &id, msg, len);
	if (rc != 0)
		;
	else if (c->run_id == 0)
		rc = app_ctl_fail(msg, len, WR_RPC_BAD_STATE, "no run yet");
	else if (id != c->run_id)
		rc = app_ctl_fail(msg, len, WR_RPC_BAD_STATE, "run %" PRIu64 ": only the "
			"last run's result is kept (run %" PRIu64 ")", id, c->run_id);
	else if (busy(c))
		rc = app_ctl_fail(msg, len, WR_RPC_BAD_STATE, "run %" PRIu64 " is still %s",
			id, state_names[c->state]);
	else if (c->result == NULL)
		rc = app_ctl_fail(msg, len, WR_RPC_RUN_FAILED, "run %" PRIu64 " failed (exit "
			"code %d) before it had a result; the server's stderr says why",
			id, c->exit_code);
	else
		*out = json_pack("{s:I, s:i, s:o}", "run", (json_int_t)id,
			"exit_code", c->exit_code, "result", json_deep_copy(c->result));
	pthread_mutex_unlock(&c->lock);
	return rc;
}

static int
m_shutdown(struct app_ctl *c, json_t *params, json_t **out, char *msg,
		size_t len)
{
	(void)params;
	pthread_mutex_lock(&c->lock);
	c->shutdown = true;
	*c->stop = 1;
	pthread_cond_signal(&c->cond);
	*out = json_pack("{s:s, s:b}", "state", "shutting down", "run_stopped",
		busy(c));
	pthread_mutex_unlock(&c->lock);
	return *out != NULL ? 0 : app_ctl_fail(msg, len, WR_RPC_INTERNAL, "no memory");
}

/* An integer member of params in [-1, max]: -1 when absent. */
static int
param_index(json_t *params, const char *key, long max, long *v, char *msg,
		size_t len)
{
	json_t *j = json_object_get(params, key);

	*v = -1;
	if (j == NULL)
		return 0;
	if (!json_is_integer(j) || json_integer_value(j) < 0 ||
			json_integer_value(j) > max)
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"%s\": an integer "
			"0..%ld is expected", key, max);
	*v = (long)json_integer_value(j);
	return 0;
}

/* update's "rate": parsed as --rate is (a string or a number of pps). */
static int
param_rate(json_t *params, struct wr_rate *rate, bool *given, char *msg,
		size_t len)
{
	json_t *j = json_object_get(params, "rate");
	struct wr_error err;
	char num[64];
	const char *s = num;

	*given = j != NULL;
	if (j == NULL)
		return 0;
	if (json_is_string(j))
		s = json_string_value(j);
	else if (json_is_number(j))
		snprintf(num, sizeof(num), "%.17g", json_number_value(j));
	else
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"rate\": a rate as --rate "
			"takes it (\"2Mpps\", \"10%%\", \"5G\") is expected");
	if (wr_rate_parse(s, rate, &err) != 0)
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "--rate %s: %s", s, err.msg);
	return 0;
}

/* What an update asks for, checked before the run is touched. */
struct update_req {
	long port;       /* run port index, -1: every TX port */
	long stream;     /* stream id, -1: by port */
	bool has_rate;
	struct wr_rate rate;
	int pause;       /* 1 pause, 0 resume, -1 unchanged */
};

static int
update_parse(json_t *params, struct update_req *u, char *msg, size_t len)
{
	json_t *p = json_object_get(params, "pause");
	const char *key;
	json_t *v;
	int rc;

	json_object_foreach(params, key, v)
		if (strcmp(key, "port") != 0 && strcmp(key, "stream") != 0 &&
				strcmp(key, "rate") != 0 && strcmp(key, "pause") != 0 &&
				strcmp(key, "lease") != 0)
			return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"%s\": update takes "
				"rate, pause, port, stream and lease", key);
	rc = param_index(params, "port", WR_MAX_PORTS - 1, &u->port, msg, len);
	if (rc == 0)
		rc = param_index(params, "stream", WR_MAX_STREAMS - 1, &u->stream, msg, len);
	if (rc == 0)
		rc = param_rate(params, &u->rate, &u->has_rate, msg, len);
	if (rc != 0)
		return rc;
	if (p != NULL && !json_is_boolean(p))
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"pause\": true or false");
	u->pause = p == NULL ? -1 : json_is_true(p);
	if (!u->has_rate && u->pause < 0)
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "update needs \"rate\" or "
			"\"pause\"");
	if (u->port >= 0 && u->stream >= 0)
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "give \"port\" or "
			"\"stream\", not both");
	if (u->pause >= 0 && u->stream >= 0)
		return app_ctl_fail(msg, len, WR_RPC_BAD_PARAMS, "\"pause\" is per port "
			"(\"port\") or for all");
	return 0;
}

static int
m_update(struct app_ctl *c, json_t *params, json_t **out, char *msg, size_t len)
{
	struct update_req u;
	struct wr_error err;
	int rc = update_parse(params, &u, msg, len);

	if (rc != 0)
		return rc;
	wr_err_clear(&err);
	pthread_mutex_lock(&c->lock);
	if (c->run == NULL || c->state != APP_CTL_RUNNING) {
		rc = app_ctl_fail(msg, len, WR_RPC_BAD_STATE, "no run is running (state %s)",
			state_names[c->state]);
	} else if ((rc = app_lease_may_drive(c, params, msg, len)) == 0) {
		if (u.has_rate)
			rc = wr_live_rate(c->run, (int)u.port, (int)u.stream, &u.rate, &err);
		if (rc == 0 && u.pause >= 0)
			rc = wr_live_hold(c->run, (int)u.port, u.pause == 1, &err);
		if (rc != 0)
			rc = app_ctl_fail(msg, len, err.cls == WR_ERR_USAGE ? WR_RPC_BAD_PARAMS :
				WR_RPC_BAD_STATE, "%s", err.msg);
		else
			*out = json_pack("{s:I, s:o}", "run", (json_int_t)c->run_id,
				"tx_pps", wr_live_rates_json(c->run));
	}
	pthread_mutex_unlock(&c->lock);
	return rc;
}

static const struct {
	const char *name;
	method_fn fn;
	bool serve_only;  /* not on a plain run's --control socket */
} methods[] = {
	{ "ports", m_ports, false },
	{ "start", m_start, true },
	{ "status", m_status, false },
	{ "update", m_update, false },
	{ "stop", m_stop, false },
	{ "result", m_result, true },
	{ "shutdown", m_shutdown, true },
	{ "acquire", app_lease_acquire, true },
	{ "renew", app_lease_renew, true },
	{ "release", app_lease_release, true },
	{ "leases", app_lease_list, true },
};

int
app_ctl_call(struct app_ctl *c, const char *method, json_t *params,
		json_t **result, char *msg, size_t len)
{
	unsigned int i;
	int rc;

	if (strncmp(method, "peer_", 5) == 0 && c->serve)
		return app_peer_call(c, method, params, result, msg, len);
	for (i = 0; i < RTE_DIM(methods); i++) {
		if (strcmp(method, methods[i].name) != 0)
			continue;
		if (methods[i].serve_only && !c->serve)
			return app_ctl_fail(msg, len, WR_RPC_NO_METHOD, "%s: only wirerate "
				"serve has it (this is a plain run's socket)", method);
		*result = NULL;
		rc = methods[i].fn(c, params, result, msg, len);
		if (rc == 0 && *result == NULL)
			return app_ctl_fail(msg, len, WR_RPC_INTERNAL, "no memory for the reply");
		return rc;
	}
	return app_ctl_fail(msg, len, WR_RPC_NO_METHOD, "%s: no such method (ports, start, "
		"status, update, stop, result, shutdown; serve: acquire, renew, "
		"release, leases, peer_open, peer_trial, peer_end, peer_close)", method);
}
