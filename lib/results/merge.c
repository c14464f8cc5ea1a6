/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/jsonw.h"
#include "config/config.h"
#include "kinds.h"
#include "merge.h"

/* The schema of lib/results/result.c (WR_RESULT_SCHEMA); merge reads no other. */
#define RESULT_SCHEMA "wirerate-result/1"

/* Say why a row does not balance; the first reason wins. */
static void __attribute__((format(printf, 2, 3)))
why(struct wr_merge_row *r, const char *fmt, ...)
{
	va_list ap;

	r->balanced = false;
	if (r->why[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
}

/* A whole, non-negative number field of o. */
static int
get_u64(const json_t *o, const char *key, uint64_t *out)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return -EINVAL;
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

int
wr_merge_load(const char *path, json_t **doc, struct wr_error *err)
{
	json_error_t je;
	FILE *f = fopen(path, "r");
	int rc;

	*doc = NULL;
	if (f == NULL) {
		rc = -errno;
		return wr_err_usage(err, rc, "%s: cannot open: %s", path, strerror(errno));
	}
	*doc = json_loadf(f, 0, &je);
	fclose(f);
	if (*doc == NULL)
		return wr_err_usage(err, -EINVAL, "%s:%d:%d: not valid JSON: %s", path,
			je.line, je.column, je.text);
	if (!json_is_object(*doc)) {
		json_decref(*doc);
		*doc = NULL;
		return wr_err_usage(err, -EINVAL, "%s: not a JSON object", path);
	}
	return 0;
}

static int
check_schema(const json_t *doc, const char *who, struct wr_error *err)
{
	const char *s = json_string_value(json_object_get(doc, "schema"));

	if (s == NULL || strcmp(s, RESULT_SCHEMA) != 0)
		return wr_err_usage(err, -EINVAL, "%s: schema is %s, expected \"%s\" (a file "
			"written by wirerate --json)", who, s ? s : "missing",
			RESULT_SCHEMA);
	return 0;
}

static struct wr_merge_row *
find_row(struct wr_merge *m, uint64_t sid)
{
	unsigned int i;

	for (i = 0; i < m->nb_rows; i++)
		if (m->rows[i].stream_id == sid)
			return &m->rows[i];
	return NULL;
}

static struct wr_merge_row *
new_row(struct wr_merge *m, uint64_t sid)
{
	struct wr_merge_row *r;

	if (m->nb_rows == WR_MERGE_MAX_ROWS)
		return NULL;
	r = &m->rows[m->nb_rows++];
	memset(r, 0, sizeof(*r));
	r->stream_id = (uint16_t)sid;
	r->rx_port = -1;
	return r;
}

/* The sender's tx_streams become one row each. */
static int
read_sender(const json_t *snd, struct wr_merge *m, struct wr_error *err)
{
	const json_t *a = json_object_get(snd, "tx_streams");
	struct wr_merge_row *r;
	uint64_t sid, sent;
	size_t i;

	if (!json_is_array(a))
		return wr_err_usage(err, -EINVAL, "SENDER: no tx_streams array (not the result "
			"of a run that transmitted, or an older wirerate)");
	if (json_array_size(a) == 0)
		return wr_err_usage(err, -EINVAL, "SENDER: tx_streams is empty, that run sent "
			"nothing (SENDER and RECEIVER swapped?)");
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *e = json_array_get(a, i);

		if (get_u64(e, "stream_id", &sid) != 0 || sid > UINT16_MAX ||
				get_u64(e, "sent_pkts", &sent) != 0)
			return wr_err_usage(err, -EINVAL, "SENDER: tx_streams[%zu] needs stream_id "
				"(0..65535) and sent_pkts (whole numbers)", i);
		if (find_row(m, sid) != NULL)
			return wr_err_usage(err, -EINVAL, "SENDER: stream %" PRIu64 " is listed "
				"twice in tx_streams", sid);
		r = new_row(m, sid);
		if (r == NULL)
			return wr_err_usage(err, -EINVAL, "SENDER: more than %u streams",
				WR_MERGE_MAX_ROWS);
		r->in_sender = true;
		r->sent_pkts = sent;
	}
	return 0;
}

/* One receiver stream entry, as read. */
struct rx_view {
	uint64_t v[10];
	bool own;
	json_t *entry;
};

static const char *const rx_keys[] = {
	"stream_id", "rx_port", "rx_pkts", "gap_pkts", "late_pkts", "dup_pkts",
	"old_pkts", "restarts", "first_seq", "next_seq",
};
enum { K_SID, K_PORT, K_RX, K_GAP, K_LATE, K_DUP, K_OLD, K_RESTART, K_FIRST, K_NEXT };

static int
read_rx_entry(json_t *e, size_t i, struct rx_view *v, struct wr_error *err)
{
	unsigned int k;

	memset(v, 0, sizeof(*v));
	for (k = 0; k < RTE_DIM(rx_keys); k++)
		if (get_u64(e, rx_keys[k], &v->v[k]) != 0)
			return wr_err_usage(err, -EINVAL, "RECEIVER: streams[%zu].%s is missing or "
				"not a whole number%s", i, rx_keys[k], k >= K_FIRST ?
				" (written by an older wirerate?)" : "");
	if (v->v[K_SID] > UINT16_MAX)
		return wr_err_usage(err, -EINVAL, "RECEIVER: streams[%zu].stream_id %" PRIu64
			" is above 65535", i, v->v[K_SID]);
	v->own = json_is_true(json_object_get(e, "sender_in_run"));
	v->entry = e;
	return 0;
}

/* Fill row r with what the receiver saw of its stream. */
static void
apply_rx(struct wr_merge_row *r, const struct rx_view *v)
{
	if (r->in_receiver) {
		why(r, "seen on receiver ports %d and %" PRIu64 " (counted once)",
			r->rx_port, v->v[K_PORT]);
		return;
	}
	r->in_receiver = true;
	r->rx_port = (int)v->v[K_PORT];
	r->rx_pkts = v->v[K_RX];
	r->gap_pkts = v->v[K_GAP];
	r->late_pkts = v->v[K_LATE];
	r->dup_pkts = v->v[K_DUP];
	r->old_pkts = v->v[K_OLD];
	r->restarts = v->v[K_RESTART];
	r->first_seq = v->v[K_FIRST];
	r->next_seq = v->v[K_NEXT];
	r->latency = v->entry;
}

/* The receiver's streams join the rows of the sender's. */
static int
read_receiver(const json_t *rcv, struct wr_merge *m, struct wr_error *err)
{
	const json_t *a = json_object_get(rcv, "streams");
	struct wr_merge_row *r;
	struct rx_view v;
	size_t i;
	int rc;

	if (!json_is_array(a))
		return wr_err_usage(err, -EINVAL, "RECEIVER: no streams array");
	for (i = 0; i < json_array_size(a); i++) {
		rc = read_rx_entry(json_array_get(a, i), i, &v, err);
		if (rc != 0)
			return rc;
		r = find_row(m, v.v[K_SID]);
		/* The receiver's own loopback streams are not the sender's. */
		if (v.own) {
			if (r != NULL)
				why(r, "the receiver sends stream %" PRIu64 " itself: "
					"stream ids collide", v.v[K_SID]);
			continue;
		}
		if (r == NULL)
			r = new_row(m, v.v[K_SID]);
		if (r == NULL)
			return wr_err_usage(err, -EINVAL, "RECEIVER: more than %u streams",
				WR_MERGE_MAX_ROWS);
		apply_rx(r, &v);
	}
	return 0;
}

/*
 * Does sent = received + head + gaps + tail hold, every term proven?
 * sent_lower_bound (m): the sender's count is of its last checkpoint; the
 * receiver's highest sequence proves it sent at least that many.
 */
static void
balance_row(struct wr_merge_row *r, bool sent_lower_bound)
{
	r->balanced = r->why[0] == '\0';
	if (!r->in_sender) {
		why(r, "not in SENDER: frames of another sender");
		return;
	}
	if (sent_lower_bound && r->in_receiver && r->restarts == 0 &&
			r->next_seq > r->sent_pkts)
		r->sent_pkts = r->next_seq;
	r->lost_pkts = (int64_t)(r->sent_pkts - r->rx_pkts);
	if (!r->in_receiver) {
		r->tail_lost_pkts = r->sent_pkts;
		return;
	}
	if (r->restarts != 0)
		why(r, "the receiver saw %" PRIu64 " restart(s): frames of several "
			"sender runs", r->restarts);
	else if (r->next_seq > r->sent_pkts)
		why(r, "the receiver saw sequence %" PRIu64 " but the sender sent "
			"only %" PRIu64 " frames", r->next_seq - 1, r->sent_pkts);
	else if (r->rx_pkts > r->sent_pkts)
		why(r, "received %" PRIu64 " unique frames of %" PRIu64 " sent",
			r->rx_pkts, r->sent_pkts);
	if (!r->balanced)
		return;
	r->head_lost_pkts = r->first_seq;
	r->tail_lost_pkts = r->sent_pkts - r->next_seq;
	if (r->head_lost_pkts + r->gap_pkts + r->tail_lost_pkts != (uint64_t)r->lost_pkts)
		why(r, "head %" PRIu64 " + gaps %" PRIu64 " + tail %" PRIu64
			" != lost %" PRId64 " (old frames: %" PRIu64 ")",
			r->head_lost_pkts, r->gap_pkts, r->tail_lost_pkts,
			r->lost_pkts, r->old_pkts);
}

static void
add_totals(struct wr_merge *m, const struct wr_merge_row *r)
{
	if (!r->balanced)
		m->nb_unbalanced++;
	if (!r->in_sender)
		return;
	m->sent_pkts += r->sent_pkts;
	m->rx_pkts += r->rx_pkts;
	m->lost_pkts += r->lost_pkts;
	m->head_lost_pkts += r->head_lost_pkts;
	m->gap_pkts += r->gap_pkts;
	m->tail_lost_pkts += r->tail_lost_pkts;
	m->late_pkts += r->late_pkts;
	m->dup_pkts += r->dup_pkts;
}

int
wr_merge_compute(const json_t *snd, const json_t *rcv, struct wr_merge *m,
		struct wr_error *err)
{
	unsigned int i;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = check_schema(snd, "SENDER", err);
	if (rc == 0)
		rc = check_schema(rcv, "RECEIVER", err);
	if (rc == 0)
		rc = read_sender(snd, m, err);
	if (rc == 0)
		rc = read_receiver(rcv, m, err);
	if (rc != 0)
		return rc;
	m->sent_lower_bound = wr_kind_running(snd);
	m->incomplete = wr_kind_running(snd) || wr_kind_running(rcv);
	for (i = 0; i < m->nb_rows; i++) {
		balance_row(&m->rows[i], m->sent_lower_bound);
		add_totals(m, &m->rows[i]);
	}
	m->balanced = m->nb_rows > 0 && m->nb_unbalanced == 0;
	wr_oneway_judge(snd, rcv, &m->oneway);
	return 0;
}


/* Where one input came from: its path and the run's own description. */
static json_t *
source_json(const json_t *doc, const char *path)
{
	static const char *const env_keys[] = { "hostname", "cmdline", "tsc_hz" };
	static const char *const top_keys[] = { "stop_reason", "duration_s" };
	const json_t *env = json_object_get(doc, "env");
	json_t *o = json_object(), *v;
	unsigned int i;

	wr_json_set(o, "file", json_string(path));
	for (i = 0; i < RTE_DIM(env_keys); i++) {
		v = json_object_get(env, env_keys[i]);
		if (v != NULL)
			json_object_set(o, env_keys[i], v);
	}
	for (i = 0; i < RTE_DIM(top_keys); i++) {
		v = json_object_get(doc, top_keys[i]);
		if (v != NULL)
			json_object_set(o, top_keys[i], v);
	}
	return o;
}

static json_t *
row_json(const struct wr_merge_row *r, const struct wr_oneway *ow)
{
	json_t *o = json_object();

	wr_json_set(o, "stream_id", wr_json_u64(r->stream_id));
	wr_json_set(o, "tx_port", wr_json_u64(r->stream_id / WR_MAX_QUEUES));
	wr_json_set(o, "tx_queue", wr_json_u64(r->stream_id % WR_MAX_QUEUES));
	wr_json_set(o, "rx_port", r->rx_port < 0 ? json_null() : json_integer(r->rx_port));
	wr_json_set(o, "in_sender", json_boolean(r->in_sender));
	wr_json_set(o, "in_receiver", json_boolean(r->in_receiver));
	wr_json_set(o, "sent_pkts", wr_json_u64(r->sent_pkts));
	wr_json_set(o, "rx_pkts", wr_json_u64(r->rx_pkts));
	wr_json_set(o, "lost_pkts", json_integer(r->lost_pkts));
	wr_json_set(o, "head_lost_pkts", wr_json_u64(r->head_lost_pkts));
	wr_json_set(o, "gap_pkts", wr_json_u64(r->gap_pkts));
	wr_json_set(o, "tail_lost_pkts", wr_json_u64(r->tail_lost_pkts));
	wr_json_set(o, "first_seq", wr_json_u64(r->first_seq));
	wr_json_set(o, "next_seq", wr_json_u64(r->next_seq));
	wr_json_set(o, "late_pkts", wr_json_u64(r->late_pkts));
	wr_json_set(o, "dup_pkts", wr_json_u64(r->dup_pkts));
	wr_json_set(o, "old_pkts", wr_json_u64(r->old_pkts));
	wr_json_set(o, "restarts", wr_json_u64(r->restarts));
	if (r->latency != NULL)
		wr_oneway_latency_json(ow, r->latency, o);
	wr_json_set(o, "balanced", json_boolean(r->balanced));
	wr_json_set(o, "why", json_string(r->why));
	return o;
}

static json_t *
totals_json(const struct wr_merge *m)
{
	json_t *o = json_object();

	wr_json_set(o, "sent_pkts", wr_json_u64(m->sent_pkts));
	wr_json_set(o, "rx_pkts", wr_json_u64(m->rx_pkts));
	wr_json_set(o, "lost_pkts", json_integer(m->lost_pkts));
	wr_json_set(o, "head_lost_pkts", wr_json_u64(m->head_lost_pkts));
	wr_json_set(o, "gap_pkts", wr_json_u64(m->gap_pkts));
	wr_json_set(o, "tail_lost_pkts", wr_json_u64(m->tail_lost_pkts));
	wr_json_set(o, "late_pkts", wr_json_u64(m->late_pkts));
	wr_json_set(o, "dup_pkts", wr_json_u64(m->dup_pkts));
	/* A crashed sender's frames after its checkpoint are unknown: the
	 * counts are lower bounds and the ratio is not known (said, not
	 * guessed); lost / sent of what is known bounds it from below. */
	wr_json_set(o, "exact", json_boolean(!m->sent_lower_bound));
	wr_json_set(o, m->sent_lower_bound ? "loss_ratio_at_least" : "loss_ratio",
		json_real(m->sent_pkts == 0 ? 0.0 : (double)m->lost_pkts /
		(double)m->sent_pkts));
	if (m->sent_lower_bound)
		wr_json_set(o, "unknown", json_string("frames the sender sent after "
			"its last checkpoint that never arrived: sent_pkts and "
			"lost_pkts are lower bounds"));
	wr_json_set(o, "unbalanced_streams", wr_json_u64(m->nb_unbalanced));
	return o;
}

json_t *
wr_merge_json(const struct wr_merge *m, const json_t *snd,
		const char *snd_path, const json_t *rcv, const char *rcv_path)
{
	json_t *doc = json_object(), *rows = json_array();
	unsigned int i;

	if (doc == NULL || rows == NULL) {
		json_decref(doc);
		json_decref(rows);
		return NULL;
	}
	wr_json_set(doc, "schema", json_string(WR_MERGE_SCHEMA));
	wr_json_set(doc, "sender", source_json(snd, snd_path));
	wr_json_set(doc, "receiver", source_json(rcv, rcv_path));
	for (i = 0; i < m->nb_rows; i++)
		json_array_append_new(rows, row_json(&m->rows[i], &m->oneway));
	wr_json_set(doc, "streams", rows);
	wr_json_set(doc, "totals", totals_json(m));
	wr_json_set(doc, "one_way", wr_oneway_json(&m->oneway));
	wr_json_set(doc, "balanced", json_boolean(m->balanced));
	wr_json_set(doc, "complete", json_boolean(!m->incomplete));
	return doc;
}
