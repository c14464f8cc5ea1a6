/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * conn_doc_tool OUT.json client|server SCALE [LABEL]: a whole result
 * document of a connection run, its "connections" object written by the
 * result writer (results/conn_doc.h) from the crafted books of
 * conn_craft.h with SCALE times 10000 connections in 2 s, for the results
 * suite (tests/results/test_conn.py) to feed report, compare and history.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conn_craft.h"


static struct wr_conn_books books;

/* The rest of a result document, as a run writes it. */
static json_t *
frame(const char *label)
{
	json_t *doc = json_pack("{ss s{ss ss ss sI ss ss ss ss ss} s{si ss ss}"
		" s{s[]} s[{si ss ss ss sb si}] ss sf}",
		"schema", "wirerate-result/1",
		"env", "wirerate_version", "0.1.0+gconn", "dpdk_version", "DPDK 22.11",
		"cpu_model", "crafted", "tsc_hz", (json_int_t)2000000000,
		"hostname", "lab1", "cmdline", "wirerate conn", "kernel", "6.1",
		"date_utc", "2026-01-01T00:00:00Z", "profile", "-",
		"config", "frame_size", 64, "l3", "ipv4", "latency", "auto",
		"plan", "workers",
		"ports", "port_id", 0, "driver", "net_ring", "device", "ring0",
		"role", "tx+rx", "link_up", true, "socket", 0,
		"stop_reason", "duration", "duration_s", CRAFT_DURATION_S);

	if (doc != NULL && label != NULL)
		json_object_set_new(doc, "label", json_string(label));
	return doc;
}

int
main(int argc, char **argv)
{
	struct wr_conn_interval iv[2];
	struct wr_conn_result res;
	struct wr_conn_cfg cfg;
	struct wr_error err;
	bool srv;
	double scale;
	json_t *doc;

	if (argc < 4 || argc > 5 || (strcmp(argv[2], "client") != 0 &&
			strcmp(argv[2], "server") != 0)) {
		fprintf(stderr, "usage: conn_doc_tool OUT.json client|server SCALE "
			"[LABEL]\n");
		return 2;
	}
	srv = strcmp(argv[2], "server") == 0;
	scale = strtod(argv[3], NULL);
	if (!(scale >= 0.01 && scale <= 100)) {
		fprintf(stderr, "conn_doc_tool: SCALE %s: expected 0.01 to 100\n", argv[3]);
		return 2;
	}
	craft_cfg(&cfg, srv ? WR_CONN_SERVER : WR_CONN_CLIENT, WR_CONN_APP_HTTP);
	if (srv)
		craft_server_books(&books, (uint64_t)(10000 * scale));
	else
		craft_client_books(&books, (uint64_t)(10000 * scale));
	craft_intervals(iv, &books);
	craft_result(&res, &cfg, &books, iv);
	res.drained = !srv;        /* the crafted server holds 3 open */
	doc = frame(argc == 5 ? argv[4] : NULL);
	if (doc == NULL || wr_results_conn_put(doc, &res, &err) != 0) {
		fprintf(stderr, "conn_doc_tool: %s\n", doc == NULL ? "no memory" : err.msg);
		return 1;
	}
	if (json_dump_file(doc, argv[1], JSON_INDENT(1)) != 0) {
		fprintf(stderr, "conn_doc_tool: cannot write %s\n", argv[1]);
		return 1;
	}
	json_decref(doc);
	return 0;
}
