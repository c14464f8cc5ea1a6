/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/units.h"
#include "setup/resolve.h"
#include "stats/cputrack.h"
#include "stats/streamrx.h"
#include "view.h"

/* The next hops --port-ip resolved for p's TX queues. */
static void
plan_next_hops(FILE *f, const struct wr_port *p)
{
	const struct wr_port_nh *nh;
	struct wr_resolve_text t;
	uint16_t q;

	for (q = 0; (nh = wr_resolve_next(p, &q, &t)) != NULL; q++)
		fprintf(f, "  tx%u.%u next hop %s is %s (%u %s, %" PRIu64 " ms)\n",
			p->port_id, q, t.ip, t.mac, nh->nb_requests, nh->ipv6 ?
			"neighbour solicitation(s)" : "ARP request(s)", nh->wait_ms);
}

void
app_view_plan(FILE *f, const struct wr_run *run)
{
	unsigned int i, j;

	for (i = 0; i < wr_run_nb_ports(run); i++) {
		const struct wr_port *p = wr_run_port(run, i);

		/* Two lines that fit 80 columns (unless names are very long). */
		fprintf(f, "port %u %s (%s) %s: link %s, %u Mb/s (reported)\n"
			"  %u TX / %u RX queues, %u / %u descriptors, MTU %u\n",
			p->port_id, p->name, p->driver,
			p->tx && p->rx ? "tx+rx" : p->tx ? "tx" : "rx",
			p->link_up ? "up" : "DOWN", p->link_speed_mbps,
			p->tx ? p->nb_txq : 0, p->rx ? p->nb_rxq : 0, p->nb_txd,
			p->nb_rxd, p->mtu ? p->mtu : 1500);
		for (j = 0; j < p->nb_notes; j++)
			fprintf(f, "  adapted: %s\n", p->notes[j]);
		plan_next_hops(f, p);
	}
	fprintf(f, "plan (%s%s): main lcore %u = stats\n",
		wr_run_plan(run)->automatic ? "automatic" : "--map",
		wr_run_plan(run)->nb_remote ? ", some queues off their port's NUMA socket" : "",
		rte_get_main_lcore());
	for (i = 0; i < wr_run_plan(run)->nb_workers; i++) {
		const struct wr_plan_worker *w = &wr_run_plan(run)->w[i];

		fprintf(f, "  lcore %u:", w->lcore);
		for (j = 0; j < w->nb_tx; j++)
			fprintf(f, " tx%u.%u", w->tx[j].port, w->tx[j].queue);
		for (j = 0; j < w->nb_rx; j++)
			fprintf(f, " rx%u.%u", w->rx[j].port, w->rx[j].queue);
		fprintf(f, "\n");
	}
	if (wr_run_cfg(run)->reflect)
		fprintf(f, "reflect: each RX queue sends its frames back on the TX "
			"queue of the same number, addresses swapped\n");
	fflush(f);
}

/* A figure in exactly width characters: columns stay aligned. */
static const char *
fig(double v, unsigned int width, unsigned int decimals, char *buf)
{
	return wr_units_fit(v, width, decimals, buf, VIEW_FIG_LEN);
}

void
view_port_line(FILE *f, bool wide, uint16_t port_id, const struct wr_port_rates *r,
		const struct wr_port_counters *c)
{
	char b[6][VIEW_FIG_LEN];
	uint64_t errors = c->nic_ierrors + c->nic_oerrors + c->nic_rx_nombuf;

	if (wide)
		fprintf(f, "%4u  %s %s %s  %s %s %s  %10" PRIu64 " %8" PRIu64
			" %8" PRIu64 "\n", port_id, fig(r->tx_pps / 1e6, 9, 3, b[0]),
			fig(r->tx_l1_bps / 1e9, 8, 3, b[1]),
			fig(r->tx_l2_bps / 1e9, 8, 3, b[2]),
			fig(r->rx_pps / 1e6, 9, 3, b[3]),
			fig(r->rx_l1_bps / 1e9, 8, 3, b[4]),
			fig(r->rx_l2_bps / 1e9, 8, 3, b[5]), c->tx_full_pkts,
			c->nic_imissed, errors);
	else
		fprintf(f, "%4u %s %s %s %s  %10" PRIu64 " %8" PRIu64 " %8" PRIu64
			"\n", port_id, fig(r->tx_pps / 1e6, 9, 3, b[0]),
			fig(r->tx_l1_bps / 1e9, 9, 3, b[1]),
			fig(r->rx_pps / 1e6, 9, 3, b[3]),
			fig(r->rx_l1_bps / 1e9, 9, 3, b[4]), c->tx_full_pkts,
			c->nic_imissed, errors);
}

void
view_port_header(FILE *f, bool wide)
{
	if (wide)
		fprintf(f, "port  %9s %8s %8s  %9s %8s %8s  %10s %8s %8s\n",
			"TX Mpps", "Gb/s L1", "Gb/s L2", "RX Mpps", "Gb/s L1",
			"Gb/s L2", "TX refused", "missed", "errors");
	else
		fprintf(f, "port %9s %9s %9s %9s  %10s %8s %8s\n", "TX Mpps",
			"TX Gb/s", "RX Mpps", "RX Gb/s", "TX refused", "missed",
			"errors");
}

void
view_cpu_header(FILE *f)
{
	fprintf(f, "lcore %6s %10s %9s %9s %9s\n", "busy %", "cyc/frame",
		"cyc/byte", "TX f/bst", "RX f/bst");
}

void
view_cpu_line(FILE *f, unsigned int lcore, const struct wr_cpu_cost *c)
{
	fprintf(f, "%5u %6.1f %10.1f %9.3f %9.1f %9.1f\n", lcore,
		100.0 * c->busy_ratio, c->tsc_per_pkt, c->tsc_per_byte,
		c->tx_pkts_per_burst, c->rx_pkts_per_burst);
}

void
view_port_cpu_header(FILE *f)
{
	fprintf(f, "port %10s %9s %14s\n", "cyc/frame", "cyc/byte", "frames moved");
}

void
view_port_cpu_line(FILE *f, uint16_t port_id, const struct wr_cpu_port *p)
{
	double per_pkt, per_byte;

	wr_cpu_port_cost(p, &per_pkt, &per_byte);
	fprintf(f, "%4u %10.1f %9.3f %14" PRIu64 "\n", port_id, per_pkt,
		per_byte, p->pkts);
}

unsigned int
view_width(FILE *f)
{
	struct winsize ws;
	const char *cols = getenv("COLUMNS");
	long n;

	if (isatty(fileno(f)) && ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 &&
			ws.ws_col > 0)
		return ws.ws_col;
	n = cols != NULL ? strtol(cols, NULL, 10) : 0;
	return n > 0 && n < 10000 ? (unsigned int)n : 80;
}

/* Whether any port of run saw or sent service frames (ARP, ND, echo). */
static bool
any_service(const struct wr_run *run)
{
	unsigned int p;

	for (p = 0; p < wr_run_nb_ports(run); p++) {
		const struct wr_port_counters *c = &wr_run_res(run)->total[p];

		if (c->rx_service_pkts | c->tx_service_pkts | c->service_drop_pkts)
			return true;
	}
	return false;
}

/*
 * Frames per port by class; the service column (docs/l3.md) only when a
 * port had any, with narrower columns: 80 columns either way.
 */
static void
summary_counts(FILE *f, const struct wr_run *run)
{
	bool svc = any_service(run);
	unsigned int p;

	if (svc)
		fprintf(f, "%4s  %13s %13s %12s %9s %9s %13s\n", "port", "TX frames",
			"RX frames", "own", "foreign", "malformed", "service rx/tx");
	else
		fprintf(f, "%4s  %14s %14s %12s %10s %10s\n", "port", "TX frames",
			"RX frames", "own", "foreign", "malformed");
	for (p = 0; p < wr_run_nb_ports(run); p++) {
		const struct wr_port_counters *c = &wr_run_res(run)->total[p];

		fprintf(f, svc ? "%4u  %13" PRIu64 " %13" PRIu64 " %12" PRIu64 " %9" PRIu64
			" %9" PRIu64 : "%4u  %14" PRIu64 " %14" PRIu64 " %12" PRIu64 " %10"
			PRIu64 " %10" PRIu64, wr_run_port(run, p)->port_id, c->tx_pkts,
			c->rx_pkts, c->rx_own_pkts, c->rx_foreign_pkts, c->rx_malformed_pkts);
		if (svc)
			fprintf(f, " %6" PRIu64 "/%-6" PRIu64, c->rx_service_pkts,
				c->tx_service_pkts);
		fputc('\n', f);
	}
}

void
view_no_wire_note(FILE *f, const struct wr_run *run)
{
	const struct wr_port *pt;
	unsigned int p;

	for (p = 0; p < wr_run_nb_ports(run); p++) {
		pt = wr_run_port(run, p);
		if (wr_run_port_no_wire(pt))
			fprintf(f, "port %u (%s): no wire, Gb/s is bytes passed in "
				"memory, not a NIC's\n", pt->port_id,
				pt->driver);
	}
}

static void
summary_ports(FILE *f, const struct wr_run *run)
{
	bool wide = view_width(f) >= VIEW_WIDE_COLS;
	struct wr_port_counters zero;
	struct wr_port_rates r;
	unsigned int p;

	memset(&zero, 0, sizeof(zero));
	fprintf(f, "\n%ssummary over %.3f s (stopped by %s)\n", wr_run_cfg(run)->nb_repeat +
		wr_run_cfg(run)->nb_warmup > 1 ? "last trial's " : "",
		wr_run_seconds(run, 0, wr_run_tx_tsc(run)),
		wr_run_stop_name(wr_run_res(run)->stop_reason));
	view_port_header(f, wide);
	for (p = 0; p < wr_run_nb_ports(run); p++) {
		wr_stats_rates(&zero, &wr_run_res(run)->total[p], wr_run_tx_tsc(run),
			wr_run_tsc_hz(run), &r);
		view_port_line(f, wide, wr_run_port(run, p)->port_id, &r, &wr_run_res(run)->total[p]);
	}
	view_no_wire_note(f, run);
	summary_counts(f, run);
}

/*
 * The port(s) that received s: "1", "0,1", "several" when the list has no
 * room in the column, "-" when none did.
 */
static void
rx_ports_cell(const struct wr_stream_result *s, char *b, size_t n)
{
	size_t k = 0;
	unsigned int i;
	int w;

	snprintf(b, n, "-");
	for (i = 0; i < s->nb_rx_ports; i++) {
		w = snprintf(b + k, n - k, i ? ",%u" : "%u", s->rx_split[i].port_id);
		if (w < 0 || (size_t)w >= n - k) {
			snprintf(b, n, "several");
			return;
		}
		k += (size_t)w;
	}
}

/* One row per stream; 79 columns. */
static void
summary_streams(FILE *f, const struct wr_run *run)
{
	unsigned int i;

	if (wr_run_res(run)->nb_streams == 0)
		return;
	fprintf(f, "%-10s %7s %11s %11s %9s %7s %7s %10s\n", "stream", "rx port",
		"sent", "received", "lost", "late", "dup", "lat us avg");
	for (i = 0; i < wr_run_res(run)->nb_streams; i++) {
		const struct wr_stream_result *s = &wr_run_res(run)->streams[i];
		const struct wr_stream_view *v = &s->view;
		char sent[24] = "?", lat[24] = "-", rx[8];

		if (s->sender_known)
			snprintf(sent, sizeof(sent), "%" PRIu64, s->sent_pkts);
		if (s->lat_valid)
			snprintf(lat, sizeof(lat), "%.2f", wr_stats_tsc_to_ns(
				wr_stats_view_lat_mean_tsc(v), wr_run_tsc_hz(run)) / 1e3);
		rx_ports_cell(s, rx, sizeof(rx));
		fprintf(f, "tx%u.%-6u %7s %11s %11" PRIu64 " %9" PRId64 " %7" PRIu64
			" %7" PRIu64 " %10s\n", s->tx_port, s->tx_queue, rx,
			sent, v->seq.nb_rx_pkts, s->lost_pkts, v->seq.nb_late_pkts,
			v->seq.nb_dup_pkts, lat);
	}
}

/*
 * RSS made visible: each stream that more than one RX queue received, the
 * busiest and least busy queue's share of its frames.
 */
static void
summary_spread(FILE *f, const struct wr_run *run)
{
	struct wr_streamrx_spread sp;
	unsigned int i;

	for (i = 0; i < wr_run_res(run)->nb_streams; i++) {
		const struct wr_stream_result *s = &wr_run_res(run)->streams[i];

		wr_streamrx_spread(run, s->stream_id, false, &sp);
		if (sp.nb_queues > 1)
			fprintf(f, "tx%u.%u spread over %u RX queues: busiest %.1f %%, "
				"least %.1f %% of its frames\n", s->tx_port, s->tx_queue,
				sp.nb_queues, 100.0 * sp.max_pkts / sp.nb_pkts,
				100.0 * sp.min_pkts / sp.nb_pkts);
	}
}

static void
summary_rates(FILE *f, const struct wr_run *run)
{
	struct wr_rate_check rc;
	unsigned int p;

	for (p = 0; p < wr_run_nb_ports(run); p++) {
		if (!wr_run_rate_check(run, p, &rc))
			continue;
		/* The reason on a line of its own: 80 columns. */
		fprintf(f, "port %u rate: requested %.6f Mpps, achieved %.6f Mpps: %s%s\n",
			wr_run_port(run, p)->port_id, rc.requested_pps / 1e6,
			rc.achieved_pps / 1e6, rc.reached ? "reached" : "NOT reached\n  ",
			rc.reached ? "" : rc.reason);
	}
}

/* Frames-per-burst histogram of one direction, non-empty bins only. */
static void
burst_hist(FILE *f, const char *dir, const uint64_t *bins)
{
	unsigned int b, lo, hi;

	fprintf(f, "      %s bursts by frames:", dir);
	for (b = 0; b < WR_CPU_BURST_BINS; b++) {
		if (bins[b] == 0)
			continue;
		wr_cpu_bin_range(b, &lo, &hi);
		if (lo == hi)
			fprintf(f, " %u:%" PRIu64, lo, bins[b]);
		else
			fprintf(f, " %u-%u:%" PRIu64, lo, hi, bins[b]);
	}
	fprintf(f, "\n");
}

/* CPU cost over the whole run: per lcore, then each port's share. */
static void
summary_cpu(FILE *f, const struct wr_run *run)
{
	const struct wr_cpu_track *t = wr_run_cpu(run);
	struct wr_cpu_cost c;
	unsigned int i;

	if (t == NULL || t->nb_workers == 0)
		return;
	fprintf(f, "CPU cost (TSC cycles of busy polling, %.3f GHz TSC)\n",
		(double)wr_run_tsc_hz(run) / 1e9);
	view_cpu_header(f);
	for (i = 0; i < t->nb_workers; i++) {
		wr_cpu_cost(&t->lcore[i], &c);
		view_cpu_line(f, wr_run_plan(run)->w[i].lcore, &c);
		burst_hist(f, "TX", t->lcore[i].tx_bursts);
		burst_hist(f, "RX", t->lcore[i].rx_bursts);
	}
	view_port_cpu_header(f);
	for (i = 0; i < wr_run_nb_ports(run); i++)
		view_port_cpu_line(f, wr_run_port(run, i)->port_id, &t->port[i]);
}

/* --reflect: what came in, what went back, what could not. */
static void
summary_reflect(FILE *f, const struct wr_run *run)
{
	unsigned int p;

	if (!wr_run_cfg(run)->reflect)
		return;
	fprintf(f, "%4s  %14s %14s %14s\n", "port", "received", "reflected",
		"not reflected");
	for (p = 0; p < wr_run_nb_ports(run); p++)
		fprintf(f, "%4u  %14" PRIu64 " %14" PRIu64 " %14" PRIu64 "\n",
			wr_run_port(run, p)->port_id, wr_run_res(run)->total[p].rx_pkts,
			wr_run_res(run)->total[p].rx_reflected_pkts,
			wr_run_res(run)->total[p].rx_unreflected_pkts);
}

/* Ports whose link went down during the trial, or is down at its end. */
static void
links_summary(FILE *f, const struct wr_run *run)
{
	unsigned int p;

	for (p = 0; p < wr_run_nb_ports(run); p++) {
		const struct wr_link_watch *w = wr_run_link(run, p);

		if (w->nb_down == 0 && w->up)
			continue;
		fprintf(f, "port %u: link went down %u time(s), %.1f s down in "
			"all%s\n", wr_run_port(run, p)->port_id, w->nb_down,
			wr_run_seconds(run, 0, w->down_tsc),
			w->up ? "" : "; DOWN at the end");
	}
}

/* Cross-checks that disagreed (lib/measure/xcheck.h), one named line each. */
static void
summary_warnings(FILE *f, const struct wr_run *run)
{
	unsigned int i;

	for (i = 0; i < wr_run_res(run)->xcheck.nb; i++)
		fprintf(f, "WARNING %s: %s\n", wr_run_res(run)->xcheck.w[i].check,
			wr_run_res(run)->xcheck.w[i].what);
	if (wr_run_res(run)->xcheck.nb_dropped != 0)
		fprintf(f, "WARNING: %u further cross-check warnings (see the JSON)\n",
			wr_run_res(run)->xcheck.nb_dropped);
}

void
app_view_summary(FILE *f, const struct wr_run *run)
{
	summary_ports(f, run);
	summary_rates(f, run);
	summary_reflect(f, run);
	summary_streams(f, run);
	summary_spread(f, run);
	summary_cpu(f, run);
	links_summary(f, run);
	if (wr_run_res(run)->nb_stranded_pkts != 0)
		fprintf(f, "%" PRIu64 " frames sent into a ring pair were never "
			"received (no port read them); freed at the end\n",
			wr_run_res(run)->nb_stranded_pkts);
	if (wr_run_res(run)->mbufs_missing != 0)
		fprintf(f, "mbufs NOT returned to their pools: %" PRIu64 "\n",
			wr_run_res(run)->mbufs_missing);
	summary_warnings(f, run);
	fflush(f);
}
