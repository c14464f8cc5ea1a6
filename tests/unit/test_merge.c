/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for merge.c: pairing a sender's and a receiver's results. */
#include <errno.h>

#include "results/merge.h"
#include "wr_test.h"

static struct wr_error err;
static struct wr_merge m;

#define SND(tx) "{\"schema\": \"wirerate-result/1\", \"tx_streams\": [" tx "]}"
#define RCV(rx) "{\"schema\": \"wirerate-result/1\", \"streams\": [" rx "]}"
#define TX(sid, sent) "{\"stream_id\": " #sid ", \"sent_pkts\": " #sent "}"
/* stream, receiver port, own, rx, gaps, restarts, first, next */
#define RX(sid, port, own, rx, gaps, rs, first, next) "{\"stream_id\": " #sid \
	", \"rx_port\": " #port ", \"sender_in_run\": " #own ", \"rx_pkts\": " #rx \
	", \"gap_pkts\": " #gaps ", \"late_pkts\": 1, \"dup_pkts\": 2, " \
	"\"old_pkts\": 0, \"restarts\": " #rs ", \"first_seq\": " #first \
	", \"next_seq\": " #next ", \"jitter_ns\": 5.0}"

/* Merge two documents given as text; returns wr_merge_compute's code. */
static int
merge(const char *snd, const char *rcv)
{
	json_t *s = json_loads(snd, 0, NULL), *r = json_loads(rcv, 0, NULL);
	int rc;

	WR_CHECK(s != NULL && r != NULL);
	err.msg[0] = '\0';
	rc = wr_merge_compute(s, r, &m, &err);
	json_decref(s);
	json_decref(r);
	return rc;
}

static void
test_lossless(void)
{
	WR_CHECK_U64(merge(SND(TX(0, 1000) "," TX(17, 5)),
		RCV(RX(0, 1, false, 1000, 0, 0, 0, 1000) "," RX(17, 1, false, 5, 0, 0, 0, 5))), 0);
	WR_CHECK(m.balanced);
	WR_CHECK_U64(m.nb_rows, 2);
	WR_CHECK_U64(m.sent_pkts, 1005);
	WR_CHECK_U64(m.rx_pkts, 1005);
	WR_CHECK_U64(m.lost_pkts, 0);
	WR_CHECK_U64(m.late_pkts, 2);
	WR_CHECK_U64(m.dup_pkts, 4);
	WR_CHECK_U64(m.rows[1].rx_port, 1);
}

/* lost = head + gaps + tail, each from its own evidence. */
static void
test_loss_split(void)
{
	WR_CHECK_U64(merge(SND(TX(0, 100) "," TX(1, 50)),
		RCV(RX(0, 0, false, 80, 7, 0, 5, 92))), 0);
	WR_CHECK(m.balanced);
	WR_CHECK_U64(m.rows[0].lost_pkts, 20);
	WR_CHECK_U64(m.rows[0].head_lost_pkts, 5);
	WR_CHECK_U64(m.rows[0].gap_pkts, 7);
	WR_CHECK_U64(m.rows[0].tail_lost_pkts, 8);
	WR_CHECK(!m.rows[1].in_receiver && m.rows[1].balanced);
	WR_CHECK_U64(m.rows[1].tail_lost_pkts, 50);  /* never seen: all tail */
	WR_CHECK_U64(m.lost_pkts, 70);
	WR_CHECK(m.rows[1].rx_port == -1);
}

static void
test_unbalanced(void)
{
	WR_CHECK_U64(merge(SND(TX(0, 100)), RCV(RX(0, 0, false, 100, 0, 0, 0, 101))), 0);
	WR_CHECK(!m.balanced);
	WR_CHECK_STR(m.rows[0].why, "saw sequence 100 but the sender sent only 100");
	WR_CHECK_U64(merge(SND(TX(0, 100)), RCV(RX(0, 0, false, 90, 0, 1, 0, 90))), 0);
	WR_CHECK_STR(m.rows[0].why, "1 restart(s)");
	WR_CHECK_U64(merge(SND(TX(0, 100)), RCV(RX(0, 0, false, 90, 3, 0, 0, 90))), 0);
	WR_CHECK_STR(m.rows[0].why, "head 0 + gaps 3 + tail 10 != lost 10");
	WR_CHECK_U64(merge(SND(TX(0, 100)), RCV(RX(0, 0, false, 100, 0, 0, 0, 100) ","
		RX(9, 0, false, 4, 0, 0, 0, 4))), 0);
	WR_CHECK(!m.balanced && m.rows[0].balanced);
	WR_CHECK_STR(m.rows[1].why, "not in SENDER");
	WR_CHECK_U64(m.nb_unbalanced, 1);
	WR_CHECK_U64(merge(SND(TX(0, 100)), RCV(RX(0, 0, true, 100, 0, 0, 0, 100))), 0);
	WR_CHECK_STR(m.rows[0].why, "stream ids collide");
	WR_CHECK_U64(merge(SND(TX(0, 100)), RCV(RX(0, 0, false, 50, 0, 0, 0, 50) ","
		RX(0, 1, false, 50, 0, 0, 50, 100))), 0);
	WR_CHECK_STR(m.rows[0].why, "seen on receiver ports 0 and 1");
}

#define SND_RUNNING(tx) "{\"schema\": \"wirerate-result/1\", " \
	"\"stop_reason\": \"running\", \"tx_streams\": [" tx "]}"

/*
 * A sender that crashed leaves its last checkpoint: it went on sending
 * after it, so its count is a lower bound, raised by what the receiver's
 * final result proves was sent (its highest sequence). Loss is what is
 * proven (head, gaps, and the checkpoint's frames past the highest
 * received), labelled a lower bound; the rest cannot be known.
 */
static void
test_crashed_sender(void)
{
	/* Received past the checkpoint: no false "sender sent only". */
	WR_CHECK_U64(merge(SND_RUNNING(TX(0, 1000) "," TX(1, 1000) "," TX(2, 300)),
		RCV(RX(0, 0, false, 1100, 50, 0, 0, 1150) ","
		RX(1, 0, false, 880, 20, 0, 0, 900))), 0);
	WR_CHECK(m.incomplete && m.sent_lower_bound);
	WR_CHECK(m.balanced);
	WR_CHECK(m.rows[0].balanced && m.rows[1].balanced && m.rows[2].balanced);
	WR_CHECK_U64(m.rows[0].sent_pkts, 1150);
	WR_CHECK_U64(m.rows[0].lost_pkts, 50);
	WR_CHECK_U64(m.rows[0].tail_lost_pkts, 0);
	WR_CHECK_U64(m.rows[1].sent_pkts, 1000);
	WR_CHECK_U64(m.rows[1].lost_pkts, 120);
	WR_CHECK_U64(m.rows[1].tail_lost_pkts, 100);
	WR_CHECK_U64(m.rows[2].lost_pkts, 300);   /* never seen */
	WR_CHECK_U64(m.sent_pkts, 2450);
	WR_CHECK_U64(m.rx_pkts, 1980);
	WR_CHECK_U64(m.lost_pkts, 470);
	/* What the receiver saw must still add up to its highest sequence. */
	WR_CHECK_U64(merge(SND_RUNNING(TX(0, 1000)),
		RCV(RX(0, 0, false, 1100, 0, 0, 0, 1150))), 0);
	WR_CHECK(!m.balanced);
	WR_CHECK_STR(m.rows[0].why, "head 0 + gaps 0 + tail 0 != lost 50");
}

/* The merge document says the counts are lower bounds, and no ratio. */
static void
test_crashed_sender_json(void)
{
	json_t *s = json_loads(SND_RUNNING(TX(0, 1000)), 0, NULL);
	json_t *r = json_loads(RCV(RX(0, 0, false, 880, 20, 0, 0, 900)), 0, NULL);
	json_t *doc, *tot;

	WR_CHECK(wr_merge_compute(s, r, &m, &err) == 0);
	doc = wr_merge_json(&m, s, "s.json", r, "r.json");
	tot = json_object_get(doc, "totals");
	WR_CHECK(json_is_false(json_object_get(tot, "exact")));
	WR_CHECK(json_object_get(tot, "loss_ratio") == NULL);
	WR_CHECK(json_real_value(json_object_get(tot, "loss_ratio_at_least")) == 0.12);
	WR_CHECK_STR(json_string_value(json_object_get(tot, "unknown")),
		"after its last checkpoint");
	WR_CHECK(json_is_false(json_object_get(doc, "complete")));
	json_decref(doc);
	json_decref(s);
	json_decref(r);
}

static void
test_bad_input(void)
{
	WR_CHECK_U64(merge("{\"schema\": \"x\"}", RCV("")), -EINVAL);
	WR_CHECK_STR(err.msg, "SENDER: schema is x");
	WR_CHECK_U64(merge(SND(TX(0, 1)), "{\"streams\": []}"), -EINVAL);
	WR_CHECK_STR(err.msg, "RECEIVER: schema is missing");
	WR_CHECK_U64(merge("{\"schema\": \"wirerate-result/1\"}", RCV("")), -EINVAL);
	WR_CHECK_STR(err.msg, "SENDER: no tx_streams");
	WR_CHECK_U64(merge(SND(""), RCV("")), -EINVAL);
	WR_CHECK_STR(err.msg, "swapped?");
	WR_CHECK_U64(merge(SND(TX(0, -1)), RCV("")), -EINVAL);
	WR_CHECK_STR(err.msg, "tx_streams[0] needs stream_id");
	WR_CHECK_U64(merge(SND(TX(0, 1) "," TX(0, 2)), RCV("")), -EINVAL);
	WR_CHECK_STR(err.msg, "listed twice");
	WR_CHECK_U64(merge(SND(TX(0, 1)), RCV("{\"stream_id\": 0}")), -EINVAL);
	WR_CHECK_STR(err.msg, "streams[0].rx_port is missing");
	WR_CHECK_U64(merge(SND(TX(0, 1)), RCV(RX(70000, 0, false, 1, 0, 0, 0, 1))), -EINVAL);
	WR_CHECK_STR(err.msg, "above 65535");
}

static void
test_json(void)
{
	json_t *s = json_loads(SND(TX(0, 100)), 0, NULL);
	json_t *r = json_loads(RCV(RX(0, 0, false, 99, 1, 0, 0, 100)), 0, NULL);
	json_t *doc, *row;

	WR_CHECK(wr_merge_compute(s, r, &m, &err) == 0);
	doc = wr_merge_json(&m, s, "s.json", r, "r.json");
	WR_CHECK(doc != NULL);
	WR_CHECK_STR(json_string_value(json_object_get(doc, "schema")), WR_MERGE_SCHEMA);
	WR_CHECK(json_is_true(json_object_get(doc, "balanced")));
	row = json_array_get(json_object_get(doc, "streams"), 0);
	WR_CHECK_U64(json_integer_value(json_object_get(row, "gap_pkts")), 1);
	WR_CHECK_U64(json_integer_value(json_object_get(row, "lost_pkts")), 1);
	WR_CHECK(json_real_value(json_object_get(row, "jitter_ns")) == 5.0);
	WR_CHECK_STR(json_string_value(json_object_get(json_object_get(doc, "sender"),
		"file")), "s.json");
	json_decref(doc);
	json_decref(s);
	json_decref(r);
}

int
main(void)
{
	WR_TEST_RUN(test_lossless);
	WR_TEST_RUN(test_loss_split);
	WR_TEST_RUN(test_unbalanced);
	WR_TEST_RUN(test_crashed_sender);
	WR_TEST_RUN(test_crashed_sender_json);
	WR_TEST_RUN(test_bad_input);
	WR_TEST_RUN(test_json);
	return wr_test_summary();
}
