/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A tiny front end to lib/tcp/wire.c for tests/unit/test_tcp_wire_scapy.py:
 * scapy checks what the C builder writes and writes what the C parser
 * reads.
 *   tcp_wire_tool build SRC SPORT DST DPORT SEQ ACK FLAGS WND MSS WSCALE
 *                       LEN OFF SEED sw|offload|offload-tcp [SACK]
 *                                                  -> the packet in hex
 *   tcp_wire_tool parse HEX                        -> key=value lines
 *   tcp_wire_tool listen ISS MSS WSCALE HEX...     -> a line per packet
 * Addresses are IPv4 or IPv6 text; WSCALE -1 for none. SACK is a comma
 * list of "ok" (SACK-permitted) and LEFT-RIGHT blocks; parse prints them
 * as sack_ok=0|1 and sack=LEFT-RIGHT,... ("-" for none).
 *
 * listen: a passive connection (wr_tcp_listen's configuration: iss, our
 * MSS and shift, a 64 KB window) takes the packets in order, the first
 * through wr_tcp_accept; for each, a line "STATE HEX,HEX..." (or "STATE
 * -"): the state after it and the frames wire.c builds of its answers.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcp/tcp.h"
#include "tcp/wire.h"

/* build's SACK argument into seg: "ok" and LEFT-RIGHT items. */
static int
take_sack_arg(struct wr_tcp_seg *seg, const char *arg)
{
	char item[64];
	const char *p = arg;
	size_t len;
	unsigned long l, r;

	while (*p != '\0') {
		len = strcspn(p, ",");
		if (len == 0 || len >= sizeof(item))
			return -EINVAL;
		memcpy(item, p, len);
		item[len] = '\0';
		p += len + (p[len] == ',' ? 1 : 0);
		if (strcmp(item, "ok") == 0) {
			seg->sack_ok = 1;
			continue;
		}
		if (sscanf(item, "%lu-%lu", &l, &r) != 2 ||
			seg->nb_sack >= WR_TCP_SACK_MAX)
			return -EINVAL;
		seg->sack[seg->nb_sack].left = (uint32_t)l;
		seg->sack[seg->nb_sack].right = (uint32_t)r;
		seg->nb_sack++;
	}
	return 0;
}

static int
tool_build(char **a)
{
	struct wr_tcp_tuple t;
	struct wr_tcp_seg seg;
	struct wr_tcp_tx tx;
	static uint8_t buf[70000];
	int af, n, i;

	memset(&t, 0, sizeof(t));
	memset(&seg, 0, sizeof(seg));
	af = strchr(a[0], ':') != NULL ? AF_INET6 : AF_INET;
	t.family = af == AF_INET ? WR_TCP_IPV4 : WR_TCP_IPV6;
	if (inet_pton(af, a[0], t.laddr) != 1 ||
		inet_pton(af, a[2], t.raddr) != 1)
		return 2;
	t.lport = (uint16_t)strtoul(a[1], NULL, 0);
	t.rport = (uint16_t)strtoul(a[3], NULL, 0);
	seg.seq = (uint32_t)strtoul(a[4], NULL, 0);
	seg.ack = (uint32_t)strtoul(a[5], NULL, 0);
	seg.flags = (uint8_t)strtoul(a[6], NULL, 0);
	seg.wnd_raw = (uint16_t)strtoul(a[7], NULL, 0);
	seg.mss_bytes = (uint16_t)strtoul(a[8], NULL, 0);
	seg.wscale = atoi(a[9]) < 0 ? WR_TCP_WSCALE_NONE : (uint8_t)atoi(a[9]);
	seg.len_bytes = (uint32_t)strtoul(a[10], NULL, 0);
	seg.stream_off = strtoull(a[11], NULL, 0);
	memset(&tx, 0, sizeof(tx));
	tx.tuple = &t;
	tx.seg = &seg;
	tx.pattern_seed = (uint32_t)strtoul(a[12], NULL, 0);
	tx.ttl = 64;
	tx.csum_mode = strcmp(a[13], "offload") == 0 ? WR_TCP_CSUM_OFFLOAD :
		strcmp(a[13], "offload-tcp") == 0 ? WR_TCP_CSUM_OFFLOAD_TCP :
		WR_TCP_CSUM_SW;
	if (a[14] != NULL && take_sack_arg(&seg, a[14]) != 0)
		return 2;
	n = wr_tcp_wire_build(&tx, buf, sizeof(buf));
	if (n < 0)
		return 1;
	for (i = 0; i < n; i++)
		printf("%02x", buf[i]);
	printf("\n");
	return 0;
}

static int
tool_parse(const char *hex)
{
	static uint8_t buf[70000];
	char src[64], dst[64];
	struct wr_tcp_rx rx;
	size_t n = strlen(hex) / 2, i;
	int rc, af;

	for (i = 0; i < n && i < sizeof(buf); i++)
		sscanf(hex + 2 * i, "%2hhx", &buf[i]);
	rc = wr_tcp_wire_parse(buf, n, &rx);
	printf("rc=%d\n", rc);
	if (rc != 0)
		return 0;
	af = rx.tuple.family == WR_TCP_IPV4 ? AF_INET : AF_INET6;
	inet_ntop(af, rx.tuple.raddr, src, sizeof(src));
	inet_ntop(af, rx.tuple.laddr, dst, sizeof(dst));
	printf("src=%s\nsport=%u\ndst=%s\ndport=%u\n", src, rx.tuple.rport,
		dst, rx.tuple.lport);
	printf("seq=%" PRIu32 "\nack=%" PRIu32 "\nflags=%u\nwnd=%u\n",
		rx.seg.seq, rx.seg.ack, rx.seg.flags, rx.seg.wnd_raw);
	printf("mss=%u\nwscale=%d\nlen=%" PRIu32 "\npayload_off=%" PRIu32 "\n",
		rx.seg.mss_bytes, rx.seg.wscale == WR_TCP_WSCALE_NONE ? -1 :
		rx.seg.wscale, rx.seg.len_bytes, rx.payload_off);
	/* the engine's check: the parsed header not read again */
	printf("opts=%u\ncsum_ok=%d\n", rx.opt_seen,
		wr_tcp_wire_csum_ok_rx(buf, &rx));
	printf("sack_ok=%u\nsack=", rx.seg.sack_ok);
	for (i = 0; i < rx.seg.nb_sack; i++)
		printf("%s%" PRIu32 "-%" PRIu32, i > 0 ? "," : "",
			rx.seg.sack[i].left, rx.seg.sack[i].right);
	printf("%s\n", rx.seg.nb_sack == 0 ? "-" : "");
	return 0;
}

/* The frames of out's segments on tuple t, hex, comma-separated. */
static void
print_out(const struct wr_tcp_tuple *t, const struct wr_tcp_out *out)
{
	static uint8_t buf[70000];
	struct wr_tcp_tx tx;
	uint32_t i;
	int n, k;

	if (out->nb_segs == 0)
		printf("-");
	for (i = 0; i < out->nb_segs; i++) {
		memset(&tx, 0, sizeof(tx));
		tx.tuple = t;
		tx.seg = &out->segs[i];
		tx.pattern_seed = 1;
		tx.ttl = 64;
		tx.csum_mode = WR_TCP_CSUM_SW;
		n = wr_tcp_wire_build(&tx, buf, sizeof(buf));
		printf("%s", i > 0 ? "," : "");
		for (k = 0; k < n; k++)
			printf("%02x", buf[k]);
	}
	printf("\n");
}

static int
tool_listen(int argc, char **argv)
{
	static uint8_t buf[70000];
	struct wr_tcp_cfg cfg;
	struct wr_tcp_conn c;
	struct wr_tcp_out out;
	struct wr_tcp_rx rx;
	int i, ws = atoi(argv[4]);
	size_t n, k;

	memset(&cfg, 0, sizeof(cfg));
	cfg.iss = (uint32_t)strtoul(argv[2], NULL, 0);
	cfg.mss_bytes = (uint16_t)strtoul(argv[3], NULL, 0);
	cfg.wscale = (uint8_t)(ws < 0 ? 0 : ws);
	cfg.rcv_wnd_bytes = 65535;
	for (i = 5; i < argc; i++) {
		n = strlen(argv[i]) / 2;
		for (k = 0; k < n && k < sizeof(buf); k++)
			sscanf(argv[i] + 2 * k, "%2hhx", &buf[k]);
		if (wr_tcp_wire_parse(buf, n, &rx) != 0 ||
			!wr_tcp_wire_csum_ok(buf, n))
			return 1;
		if (i == 5)
			wr_tcp_accept(&c, &cfg, &rx.seg, (uint64_t)i * 1000,
				&out);
		else
			wr_tcp_input(&c, &rx.seg, (uint64_t)i * 1000, &out);
		printf("%u ", c.state);
		print_out(&rx.tuple, &out);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	if ((argc == 16 || argc == 17) && strcmp(argv[1], "build") == 0)
		return tool_build(argv + 2);
	if (argc == 3 && strcmp(argv[1], "parse") == 0)
		return tool_parse(argv[2]);
	if (argc >= 6 && strcmp(argv[1], "listen") == 0)
		return tool_listen(argc, argv);
	fprintf(stderr, "usage: tcp_wire_tool build ... | parse HEX | "
		"listen ISS MSS WSCALE HEX...\n");
	return 2;
}
