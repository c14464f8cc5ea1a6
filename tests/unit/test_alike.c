/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for alike.c: whether two results' set-up keys differ is
 * decided on the values, not on their text, which the message cuts to
 * WR_ALIKE_TEXT_LEN (many streams or queues overflow it).
 */
#include <errno.h>

#include <rte_common.h>

#include "analysis/alike.h"
#include "wr_test.h"

static struct wr_error err;

/* A result of nb streams; stream i's pattern is "burst:8/1ms" from burst_from. */
static json_t *
doc_streams(unsigned int nb, unsigned int burst_from)
{
	json_t *doc = json_pack("{s:{}, s:[{s:s}, {s:s}], s:[]}", "config",
		"ports", "role", "tx", "role", "rx", "tx_streams");
	unsigned int i;

	for (i = 0; i < nb; i++)
		json_array_append_new(json_object_get(doc, "tx_streams"),
			json_pack("{s:i, s:s}", "stream_id", i, "pattern",
			i >= burst_from ? "burst:8/1ms" : "constant"));
	return doc;
}

/* The keys in which base and cur differ, as a mask of wr_alike_keys bits. */
static unsigned int
diff_mask(const json_t *base, const json_t *cur)
{
	struct wr_alike_diff d[16];
	unsigned int mask = 0;
	int i, n;

	n = wr_alike_diffs(base, "base.json", cur, "cur.json", d, RTE_DIM(d), &err);
	WR_CHECK(n >= 0);
	for (i = 0; i < n; i++)
		mask |= 1u << d[i].key;
	return mask;
}

/* Bit of key name. */
static unsigned int
bit(const char *name)
{
	unsigned int m = 0;

	WR_CHECK(wr_alike_allow(name, &m, &err) == 0);
	return m;
}

/* 32 streams against 40: the texts agree in their first 95 characters. */
static void
test_many_streams(void)
{
	json_t *base = doc_streams(32, 32), *cur = doc_streams(40, 40);
	json_t *same = doc_streams(40, 40);

	WR_CHECK(diff_mask(base, cur) == (bit("streams") | bit("pattern")));
	WR_CHECK(diff_mask(cur, same) == 0);
	json_decref(base);
	json_decref(cur);
	json_decref(same);
}

/* [constant x11, burst] against [constant x12]: only the last differs. */
static void
test_long_pattern(void)
{
	json_t *base = doc_streams(12, 11), *cur = doc_streams(12, 12);
	struct wr_alike_diff d[4];

	WR_CHECK(diff_mask(base, cur) == bit("pattern"));
	/* The message still reads "[constant, constant, ..." within its size. */
	WR_CHECK(wr_alike_diffs(base, "base.json", cur, "cur.json", d, RTE_DIM(d),
		&err) == 1);
	WR_CHECK_STR(d[0].base, "[constant, constant, ");
	WR_CHECK(strlen(d[0].base) == WR_ALIKE_TEXT_LEN - 1);
	WR_CHECK_STR(d[0].base + WR_ALIKE_TEXT_LEN - 5, "...]");
	json_decref(base);
	json_decref(cur);
}

/* An absent key equals its default; a VLAN ID is not a difference, a tag is. */
static void
test_defaults_and_vlan(void)
{
	json_t *base = doc_streams(1, 1), *cur = doc_streams(1, 1);
	json_t *cfg = json_object_get(cur, "config");

	json_object_set_new(cfg, "l3", json_string("ipv4"));
	json_object_set_new(cfg, "flows", json_integer(1));
	json_object_set_new(cfg, "vlan", json_integer(0));
	WR_CHECK(diff_mask(base, cur) == 0);
	json_object_set_new(json_object_get(base, "config"), "vlan", json_integer(10));
	json_object_set_new(cfg, "vlan", json_integer(20));
	WR_CHECK(diff_mask(base, cur) == 0);
	json_object_set_new(cfg, "vlan", json_integer(0));
	WR_CHECK(diff_mask(base, cur) == bit("vlan"));
	json_object_set_new(cfg, "flows", json_integer(2));
	WR_CHECK(diff_mask(base, cur) == (bit("vlan") | bit("flows")));
	json_decref(base);
	json_decref(cur);
}

int
main(void)
{
	WR_TEST_RUN(test_many_streams);
	WR_TEST_RUN(test_long_pattern);
	WR_TEST_RUN(test_defaults_and_vlan);
	return wr_test_summary();
}
