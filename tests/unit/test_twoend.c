/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for two-ended runs: the reflector's address swap (reflect.h),
 * the options and their rules (opts.c), and the receiver clock (rxclock.c)
 * on hand-made queue counters.
 */
#include <errno.h>
#include <stdlib.h>

#include "base/frame.h"
#include "config/opts.h"
#include "datapath/reflect.h"
#include "stats/rxclock.h"
#include "wr_test.h"
#include "wr_test_opts.h"


static uint32_t
build(uint8_t *buf, uint32_t size, uint16_t vlan)
{
	struct wr_frame_spec s = {
		.size = size, .vlan_id = vlan, .src_ip = 0x0a000001,
		.dst_ip = 0x0a000002, .src_udp = 1111, .dst_udp = 2222,
		.stream_id = 3,
	};
	struct wr_frame_layout lay;

	rte_ether_unformat_addr("02:00:00:00:00:aa", &s.src_mac);
	rte_ether_unformat_addr("02:00:00:00:00:bb", &s.dst_mac);
	WR_CHECK(wr_frame_build(&s, buf, WR_FRAME_MAX_SIZE, &lay) == 0);
	return lay.data_len;
}

static uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* Addresses and ports trade places; checksum, test header, rest unchanged. */
static void
check_swapped(const uint8_t *orig, const uint8_t *buf, uint32_t len, uint32_t l2)
{
	struct wr_frame_rx fr = { 0, 0, 0 };

	WR_CHECK(memcmp(buf, orig + 6, 6) == 0 && memcmp(buf + 6, orig, 6) == 0);
	WR_CHECK(memcmp(buf + l2 + 12, orig + l2 + 16, 4) == 0);
	WR_CHECK(memcmp(buf + l2 + 16, orig + l2 + 12, 4) == 0);
	WR_CHECK_U64(rd16(buf + l2 + 20), 2222);
	WR_CHECK_U64(rd16(buf + l2 + 22), 1111);
	WR_CHECK_U64(rte_ipv4_cksum((const struct rte_ipv4_hdr *)(buf + l2)), 0);
	WR_CHECK(memcmp(buf + 12, orig + 12, l2 - 12) == 0);
	WR_CHECK(memcmp(buf + l2 + 24, orig + l2 + 24, len - l2 - 24) == 0);
	WR_CHECK(memcmp(buf + l2, orig + l2, 12) == 0);
	WR_CHECK_U64(wr_frame_classify(buf, len, &fr), WR_FRAME_OWN);
	WR_CHECK_U64(fr.stream_id, 3);
}

static void
test_swap(void)
{
	static uint8_t orig[WR_FRAME_MAX_SIZE], buf[WR_FRAME_MAX_SIZE];
	static const uint32_t sizes[] = { 64, 1518, 9018 };
	uint32_t i, len;

	for (i = 0; i < RTE_DIM(sizes); i++) {
		len = build(orig, sizes[i], 0);
		memcpy(buf, orig, len);
		wr_reflect_swap(buf, len);
		check_swapped(orig, buf, len, 14);
		wr_reflect_swap(buf, len);
		WR_CHECK(memcmp(buf, orig, len) == 0);
	}
	len = build(orig, 128, 77);
	memcpy(buf, orig, len);
	wr_reflect_swap(buf, len);
	check_swapped(orig, buf, len, 18);
}

/* Non-IP frames, fragments and truncated frames: only what is there. */
static void
test_swap_partial(void)
{
	static uint8_t orig[WR_FRAME_MAX_SIZE], buf[WR_FRAME_MAX_SIZE];
	uint32_t len = build(orig, 64, 0);

	memcpy(buf, orig, len);
	buf[12] = 0x86;
	buf[13] = 0xdd;                     /* IPv6: MACs only */
	wr_reflect_swap(buf, len);
	WR_CHECK(memcmp(buf, orig + 6, 6) == 0);
	WR_CHECK(memcmp(buf + 14, orig + 14, len - 14) == 0);
	memcpy(buf, orig, len);
	buf[14 + 6] |= 0x01;                /* fragment offset 256: no ports */
	wr_reflect_swap(buf, len);
	WR_CHECK(memcmp(buf + 26, orig + 30, 4) == 0);
	WR_CHECK(memcmp(buf + 34, orig + 34, 4) == 0);
	memcpy(buf, orig, len);
	wr_reflect_swap(buf, 36);           /* IP header, half the UDP one */
	WR_CHECK(memcmp(buf + 26, orig + 30, 4) == 0);
	WR_CHECK(memcmp(buf + 34, orig + 34, len - 34) == 0);
	memcpy(buf, orig, len);
	wr_reflect_swap(buf, 13);           /* shorter than an Ethernet header */
	WR_CHECK(memcmp(buf, orig, len) == 0);
}

static void
test_opts(void)
{
	struct wr_config c;

	WR_CHECK_U64(PARSE(&c, "--tx-ports", "none", "--start-on-rx",
		"--idle-timeout", "1.5s"), 0);
	WR_CHECK(c.start_on_rx && !c.reflect);
	WR_CHECK_U64(c.idle_timeout_ms, 1500);
	WR_CHECK_U64(c.duration_ms, 0);     /* the timeout ends the run */
	WR_CHECK_U64(c.rx_clock, WR_RX_CLOCK_OWN);  /* own frames by default */
	WR_CHECK_U64(PARSE(&c, "--tx-ports", "none", "--start-on-rx",
		"--rx-clock", "any"), 0);
	WR_CHECK_U64(c.rx_clock, WR_RX_CLOCK_ANY);
	WR_CHECK_U64(PARSE(&c, "--tx-ports", "none", "--idle-timeout", "1s",
		"--rx-clock", "own"), 0);
	WR_CHECK_U64(c.rx_clock, WR_RX_CLOCK_OWN);
	WR_CHECK_U64(PARSE(&c, "--tx-ports", "none", "--idle-timeout", "1s",
		"--duration", "5"), 0);
	WR_CHECK_U64(c.duration_ms, 5000);
	WR_CHECK_U64(PARSE(&c, "--reflect", "--rxq", "4", "--start-on-rx"), 0);
	WR_CHECK(c.reflect && c.start_on_rx);
	WR_CHECK_U64(c.nb_txq, 4);          /* one TX queue per RX queue */
	WR_CHECK_U64(c.duration_ms, 10000);
	WR_CHECK_U64(c.rx_clock, WR_RX_CLOCK_ANY);  /* it classifies nothing */
	WR_CHECK_U64(PARSE(&c, "--reflect", "--idle-timeout", "1s", "--rx-clock",
		"any"), 0);
	WR_CHECK_U64(c.rx_clock, WR_RX_CLOCK_ANY);
}

static void
test_opts_errors(void)
{
	struct wr_config c;

	WR_CHECK_U64(PARSE(&c, "--start-on-rx"), -EINVAL);
	WR_CHECK_STR(err.msg, "--start-on-rx: a run that generates frames");
	WR_CHECK_U64(PARSE(&c, "--reflect", "--tx-ports", "0"), -EINVAL);
	WR_CHECK_STR(err.msg, "--reflect with --tx-ports");
	WR_CHECK_U64(PARSE(&c, "--reflect", "--count", "5"), -EINVAL);
	WR_CHECK_STR(err.msg, "--reflect with --count");
	WR_CHECK_U64(PARSE(&c, "--reflect", "--rx-ports", "none"), -EINVAL);
	WR_CHECK_STR(err.msg, "--rx-ports none with --reflect");
	WR_CHECK_U64(PARSE(&c, "--rx-ports", "none", "--idle-timeout", "1s"), -EINVAL);
	WR_CHECK_STR(err.msg, "--rx-ports none with --idle-timeout");
	WR_CHECK_U64(PARSE(&c, "--tx-ports", "none", "--idle-timeout", "5ms"), -EINVAL);
	WR_CHECK_STR(err.msg, "--idle-timeout 5ms: too short, at least 10 ms");
	WR_CHECK_U64(PARSE(&c, "--tx-ports", "none", "--idle-timeout", "x"), -EINVAL);
	WR_CHECK_STR(err.msg, "--idle-timeout x: not a duration");
	WR_CHECK_U64(PARSE(&c, "--tx-ports", "none", "--start-on-rx", "--rx-clock",
		"all"), -EINVAL);
	WR_CHECK_STR(err.msg, "--rx-clock all: expected own (test frames of a "
		"stream start the clock and keep --idle-timeout off) or any");
	WR_CHECK_U64(PARSE(&c, "--tx-ports", "none", "--rx-clock", "any"), -EINVAL);
	WR_CHECK_STR(err.msg, "--rx-clock without --start-on-rx or --idle-timeout");
	WR_CHECK_U64(PARSE(&c, "--reflect", "--start-on-rx", "--rx-clock", "own"),
		-EINVAL);
	WR_CHECK_STR(err.msg, "--rx-clock own with --reflect: a reflector sends back");
}

/* A run with two RX queues whose counters the test sets by hand. */
struct fake {
	struct wr_config cfg;
	struct wr_run run;
};

static struct fake *
fake_run(void)
{
	struct fake *f = calloc(1, sizeof(*f));

	wr_config_defaults(&f->cfg);
	f->run.setup.cfg = &f->cfg;
	f->run.setup.tsc_hz = 1000000;            /* 1000 cycles per ms */
	f->run.setup.nb_ports = 2;
	/* The registry (setup/run.h): port 0 queue 0, port 1 queue 3. */
	f->run.setup.q.rx[0] = calloc(1, sizeof(struct wr_rxq));
	f->run.setup.q.rx[1] = calloc(1, sizeof(struct wr_rxq));
	f->run.setup.q.rx[1]->pidx = 1;
	f->run.setup.q.rx[1]->queue = 3;
	f->run.setup.q.nb_rx = 2;
	f->run.live.start_tsc = 100;
	return f;
}

static void
fake_free(struct fake *f)
{
	free(f->run.setup.q.rx[0]);
	free(f->run.setup.q.rx[1]);
	free(f);
}

static void
test_rxclock(void)
{
	struct fake *f = fake_run();
	struct wr_run *r = &f->run;

	WR_CHECK(wr_rxclock_started(r));    /* no --start-on-rx: always */
	f->cfg.start_on_rx = true;
	WR_CHECK(!wr_rxclock_started(r));
	WR_CHECK_U64(r->live.start_tsc, 100);
	wr_rxq_stamp(&r->setup.q.rx[1]->st, 5000);
	wr_rxq_stamp(&r->setup.q.rx[0]->st, 7000);
	wr_rxq_stamp(&r->setup.q.rx[0]->st, 9000);
	WR_CHECK_U64(r->setup.q.rx[0]->st.first_tsc, 7000);
	WR_CHECK_U64(wr_rxclock_first_tsc(r), 5000);
	WR_CHECK_U64(wr_rxclock_last_tsc(r), 9000);
	WR_CHECK(wr_rxclock_started(r));
	WR_CHECK_U64(r->live.start_tsc, 5000);   /* the first frame's arrival */
	WR_CHECK_U64(r->live.last_tsc, 5000);
	wr_rxq_stamp(&r->setup.q.rx[1]->st, 2000000);
	WR_CHECK(wr_rxclock_started(r));
	WR_CHECK_U64(r->live.start_tsc, 5000);   /* set once */
	fake_free(f);
}

static void
test_idle(void)
{
	struct fake *f = fake_run();
	struct wr_run *r = &f->run;

	WR_CHECK(!wr_rxclock_idle(r, 1000000000));  /* no timeout set */
	f->cfg.idle_timeout_ms = 100;               /* 100000 cycles */
	WR_CHECK(!wr_rxclock_idle(r, 1000000000));  /* nothing received yet */
	wr_rxq_stamp(&r->setup.q.rx[0]->st, 50000);
	WR_CHECK(!wr_rxclock_idle(r, 149999));
	WR_CHECK(wr_rxclock_idle(r, 150000));
	WR_CHECK(!wr_rxclock_idle(r, 40000));       /* stamped after "now" */
	wr_rxq_stamp(&r->setup.q.rx[1]->st, 120000);
	WR_CHECK(!wr_rxclock_idle(r, 150000));
	WR_CHECK(wr_rxclock_idle(r, 220000));
	fake_free(f);
}

int
main(void)
{
	WR_TEST_RUN(test_swap);
	WR_TEST_RUN(test_swap_partial);
	WR_TEST_RUN(test_opts);
	WR_TEST_RUN(test_opts_errors);
	WR_TEST_RUN(test_rxclock);
	WR_TEST_RUN(test_idle);
	return wr_test_summary();
}
