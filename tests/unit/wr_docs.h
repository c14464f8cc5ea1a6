/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Crafted result documents for the unit tests of metrics, trials, compare
 * and CSV: the shape docs/results.md describes, with chosen figures.
 */
#ifndef WR_DOCS_H
#define WR_DOCS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "results/trials.h"

/* What one crafted port measured. */
struct doc_port {
	const char *role;      /* "tx", "rx", "tx+rx" */
	double tx_mpps;
	double rx_mpps;
	double p99_ns;         /* < 0: no latency object */
};

/* One totals[] entry; Gb/s follow from Mpps and the frame size. */
static inline json_t *
doc_total(unsigned int port, unsigned int size, const struct doc_port *p)
{
	json_t *t = json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:f}",
		"port_id", port, "tx_mpps", p->tx_mpps, "rx_mpps", p->rx_mpps,
		"tx_gbps_l1", p->tx_mpps * (size + 20) * 8 / 1e3,
		"tx_gbps_l2", p->tx_mpps * size * 8 / 1e3,
		"rx_gbps_l1", p->rx_mpps * (size + 20) * 8 / 1e3,
		"rx_gbps_l2", p->rx_mpps * size * 8 / 1e3);

	if (p->p99_ns >= 0)
		json_object_set_new(t, "latency", json_pack("{s:s, s:i, s:f, s:f, "
			"s:f, s:f}", "clock", "tsc", "samples", 1000,
			"p50_ns", p->p99_ns / 2, "p90_ns", p->p99_ns * 0.8,
			"p99_ns", p->p99_ns, "p99_9_ns", p->p99_ns * 1.5));
	return t;
}

/* The traffic keys (totals, accounting) of a document or a trial. */
static inline void
doc_traffic(json_t *o, unsigned int size, const struct doc_port *ports,
		unsigned int nb, double sent, double lost)
{
	json_t *totals = json_array();
	unsigned int i;

	for (i = 0; i < nb; i++)
		json_array_append_new(totals, doc_total(i, size, &ports[i]));
	json_object_set_new(o, "totals", totals);
	json_object_set_new(o, "accounting", json_pack("{s:f, s:f, s:f, s:b}",
		"sent_pkts", sent, "received_pkts", sent - lost, "lost_pkts", lost,
		"balanced", 1));
}

/* A whole single-run document. */
static inline json_t *
doc_make(unsigned int size, const struct doc_port *ports, unsigned int nb,
		double sent, double lost)
{
	json_t *doc = json_pack("{s:s, s:{s:s, s:s, s:s, s:i, s:s, s:s, s:n}, "
		"s:{s:i, s:i, s:i, s:i}}", "schema", "wirerate-result/1",
		"env", "wirerate_version", "0.1.0", "dpdk_version", "DPDK 22.11.11",
		"cpu_model", "Test CPU", "tsc_hz", 2000000000, "kernel", "6.1.0",
		"hostname", "lab1", "profile",
		"config", "frame_size", size, "vlan", 0, "txq", 1, "flows", 1);
	json_t *pa = json_array();
	unsigned int i;

	for (i = 0; i < nb; i++)
		json_array_append_new(pa, json_pack("{s:i, s:s, s:s, s:s, s:i}",
			"port_id", i, "driver", "net_vmxnet3", "role", ports[i].role,
			"pci_id", "15ad:07b0", "mtu", 1500));
	json_object_set_new(doc, "ports", pa);
	doc_traffic(doc, size, ports, nb, sent, lost);
	return doc;
}

/* One-port loopback document: mpps both ways, p99 latency, loss. */
static inline json_t *
doc_simple(unsigned int size, double mpps, double p99_ns, double lost)
{
	struct doc_port p = { "tx+rx", mpps, mpps, p99_ns };

	return doc_make(size, &p, 1, 1e6, lost);
}

/*
 * Add "trials" (one per mpps[i], the same latency) and their real
 * "summary" (wr_trials_summarize) to doc.
 */
static inline void
doc_add_trials(json_t *doc, unsigned int size, const double *mpps,
		unsigned int n, double p99_ns)
{
	json_t *trials = json_array(), *t;
	struct wr_error err;
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct doc_port p = { "tx+rx", mpps[i], mpps[i], p99_ns };

		t = json_pack("{s:i}", "trial", i + 1);
		doc_traffic(t, size, &p, 1, 1e6, 0);
		json_array_append_new(trials, t);
	}
	json_object_set_new(doc, "summary", wr_trials_summarize(trials, 1, &err));
	json_object_set_new(doc, "trials", trials);
}

/* Write doc (or raw text when doc is NULL) to a new temporary file. */
static inline char *
doc_file(const json_t *doc, const char *raw)
{
	char *path = strdup("/tmp/wr_unit_XXXXXX");
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	if (doc != NULL)
		json_dumpf(doc, f, JSON_INDENT(1));
	else
		fputs(raw, f);
	fclose(f);
	return path;
}

#endif /* WR_DOCS_H */
