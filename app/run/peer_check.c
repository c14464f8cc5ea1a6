/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The far end's peer_end answer checked against what the sender knows
 * before any of its counts is taken (docs/twoended.md): a far end on
 * another host is not trusted to count honestly, nor to count at all.
 */
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>

#include "measure/seq.h"
#include "setup/port.h"
#include "stats/collect.h"
#include "peer_check.h"

static uint64_t
u64_of(const json_t *o, const char *key)
{
	return (uint64_t)json_integer_value(json_object_get(o, key));
}

/* A far-end count: a JSON integer >= 0 (what every count must be). */
static bool
is_count(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0;
}

/* prev_pkts (late frames of the trials before): absent, or counts. */
static bool
bad_prev(const json_t *prev)
{
	size_t i;
	json_t *v;

	if (prev == NULL)
		return false;
	if (!json_is_array(prev) || json_array_size(prev) > WR_SEQ_TAG_PREV)
		return true;
	json_array_foreach(prev, i, v)
		if (!is_count(v))
			return true;
	return false;
}

/* One stream of peer_end's answer: its id one of ours, its counts sane. */
static const char *
bad_stream(const struct wr_run *run, const json_t *o, const char **why)
{
	static const char *const counts[] = { "rx_pkts", "dup_pkts",
		"reordered_pkts" };
	const struct wr_txq *tq;
	uint64_t sent = 0;
	unsigned int i;
	bool ours = false;

	if (!is_count(json_object_get(o, "stream_id")))
		return *why = "not a stream id", "stream_id";
	WR_RUN_FOREACH_TXQ(run, i, tq)
		if (wr_port_stream_id(tq->port, tq->queue) == u64_of(o, "stream_id")) {
			ours = true;
			sent = wr_collect_txq_sent(run, tq);
		}
	if (!ours)
		return *why = "no stream of this run", "stream_id";
	for (i = 0; i < RTE_DIM(counts); i++)
		if (!is_count(json_object_get(o, counts[i])))
			return *why = "not a count (an integer >= 0)", counts[i];
	if (json_object_get(o, "stray_pkts") != NULL &&
			!is_count(json_object_get(o, "stray_pkts")))
		return *why = "not a count (an integer >= 0)", "stray_pkts";
	if (bad_prev(json_object_get(o, "prev_pkts")))
		return *why = "not an array of counts, one per earlier trial",
			"prev_pkts";
	/* Each frame sent is counted once in rx_pkts; copies in dup_pkts. */
	if (u64_of(o, "rx_pkts") > sent)
		return *why = "more than this run sent of the stream", "rx_pkts";
	return NULL;
}

const char *
app_peer_check_end(const struct wr_run *run, uint16_t tag, const json_t *res,
		const char **why, const json_t **value)
{
	const json_t *streams = json_object_get(res, "streams");
	const char *field = NULL;
	json_t *o;
	size_t i;

	if (!json_is_integer(json_object_get(res, "trial")) ||
			json_integer_value(json_object_get(res, "trial")) != tag) {
		*why = "not the trial asked";
		*value = json_object_get(res, "trial");
		return "trial";
	}
	if (!json_is_array(streams)) {
		*why = "not an array";
		*value = streams;
		return "streams";
	}
	json_array_foreach(streams, i, o) {
		if (!json_is_object(o)) {
			*why = "an entry that is not an object";
			*value = o;
			return "streams";
		}
		field = bad_stream(run, o, why);
		if (field != NULL) {
			*value = json_object_get(o, field);
			return field;
		}
	}
	return NULL;
}
