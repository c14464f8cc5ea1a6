/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The live view: one frame per interval. On a terminal each frame
 * replaces the previous one in place, below the port, "adapted:" and plan
 * lines, which stay on screen: the cursor goes up over the previous
 * frame's lines only, so every line must fit the terminal's width (a
 * wrapped line would count twice); the port table is narrow below
 * VIEW_WIDE_COLS columns. Piped (or --plain), every frame is printed in
 * full with its headers. Rates are per interval, counts since the start,
 * and the frame says so.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "stats/snapshot.h"
#include "live.h"
#include "view.h"

/* Lines of the frame on screen, to move up over at the next refresh. */
static unsigned int shown_lines;

/* Elapsed, and what is left: time with --duration, frames with --count. */
static void
progress(FILE *f, const struct wr_run *run, const struct wr_interval *iv)
{
	const struct wr_trial *t = wr_run_trial_spec(run);
	uint64_t least = UINT64_MAX;
	char a[24], b[24];
	unsigned int p;

	fprintf(f, "t=%.1fs", iv->t_s);
	if (t->duration_ms != 0)
		fprintf(f, " of %.1fs, %.1fs left", t->duration_ms / 1e3,
			RTE_MAX(0.0, t->duration_ms / 1e3 - iv->t_s));
	for (p = 0; p < wr_run_nb_ports(run) && t->count_pkts != 0; p++)
		if (wr_run_port(run, p)->tx && iv->port[p].cnt.tx_pkts < least)
			least = iv->port[p].cnt.tx_pkts;
	if (t->count_pkts != 0 && least != UINT64_MAX)
		fprintf(f, "; %s of %s frames sent per TX port, %s left",
			wr_units_si((double)least, a, sizeof(a)),
			wr_units_si((double)t->count_pkts, b, sizeof(b)),
			wr_units_si((double)(t->count_pkts - RTE_MIN(least,
			t->count_pkts)), a, sizeof(a)));
	fprintf(f, "\n");
}

/* CPU cost of the interval, per lcore then per port. */
static void
interval_cpu(FILE *f, const struct wr_run *run, const struct wr_interval *iv)
{
	unsigned int i;

	if (iv->lcore == NULL)
		return;
	view_cpu_header(f);
	for (i = 0; i < wr_run_plan(run)->nb_workers; i++)
		view_cpu_line(f, wr_run_plan(run)->w[i].lcore, &iv->lcore[i]);
	view_port_cpu_header(f);
	for (i = 0; i < wr_run_nb_ports(run); i++)
		view_port_cpu_line(f, wr_run_port(run, i)->port_id, &iv->port[i].cpu);
}

/* A latency figure in us, or "-" when not known (never a 0). */
static void
lat_cell(FILE *f, const struct wr_lat_figs *l, double ns)
{
	if (l->samples > 0)
		fprintf(f, " %9.2f", ns / 1e3);
	else
		fprintf(f, " %9s", "-");
}

/*
 * Own frames, loss by sequence, reorder, duplicates (since start);
 * latency of the interval's own frames, defined as in the JSON. 75
 * columns.
 */
static void
seq_lines(FILE *f, const struct wr_run *run, const struct wr_interval *iv)
{
	unsigned int p;

	fprintf(f, "port %13s %9s %9s %9s %9s %9s %9s\n", "own frames",
		"gaps", "late", "dup", "avg us", "p99 us", "max us");
	for (p = 0; p < wr_run_nb_ports(run); p++) {
		const struct wr_interval_port *ip = &iv->port[p];

		if (!wr_run_port(run, p)->rx)
			continue;
		fprintf(f, "%4u %13" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64,
			wr_run_port(run, p)->port_id, ip->cnt.rx_own_pkts,
			ip->seq.gap_pkts, ip->seq.late_pkts, ip->seq.dup_pkts);
		lat_cell(f, &ip->seq.lat, ip->seq.lat.mean_ns);
		lat_cell(f, &ip->seq.lat, ip->seq.lat.p99_ns);
		lat_cell(f, &ip->seq.lat, ip->seq.lat.max_ns);
		fputc('\n', f);
	}
}

/*
 * The streams when the run defines them (--stream, [streams]), counts
 * since start: sent read after received, so in flight shows as sent and
 * not received, never the reverse. 79 columns.
 */
static void
stream_lines(FILE *f, const struct wr_run *run)
{
	static struct wr_snap_stream s[WR_MAX_STREAMS];   /* stats core only */
	unsigned int n, i;
	char txq[16], rx[8], sent[24], lat[24];

	if (wr_run_cfg(run)->nb_stream_defs == 0)
		return;
	n = wr_snap_streams(run, s, RTE_DIM(s));
	fprintf(f, "%-9s %-6s %3s %12s %12s %8s %6s %6s %9s\n", "stream", "tx.q",
		"rx", "sent", "received", "gaps", "late", "dup", "avg us");
	for (i = 0; i < n; i++) {
		snprintf(txq, sizeof(txq), "tx%u.%u", s[i].tx_port, s[i].tx_queue);
		snprintf(rx, sizeof(rx), s[i].rx_known ? "%u" : "-", s[i].rx_port);
		snprintf(sent, sizeof(sent), s[i].sent_known ? "%" PRIu64 : "-",
			s[i].sent_pkts);
		snprintf(lat, sizeof(lat), s[i].lat_valid ? "%.2f" : "-",
			s[i].lat_mean_ns / 1e3);
		fprintf(f, "%-9.9s %-6s %3s %12s %12" PRIu64 " %8" PRIu64 " %6" PRIu64
			" %6" PRIu64 " %9s\n", s[i].name[0] != '\0' ? s[i].name : "-",
			txq, rx, sent, s[i].rx_pkts, s[i].gap_pkts, s[i].late_pkts,
			s[i].dup_pkts, lat);
	}
}

/* One frame of the live view. */
static void
frame(FILE *f, const struct wr_run *run, const struct wr_interval *iv, bool wide)
{
	unsigned int p;

	progress(f, run, iv);
	fprintf(f, "%u B frames; rates: last %.3f s, Gb/s %s; counts: since "
		"start\n", wr_run_trial_spec(run)->frame_size, iv->dt_s, wide ? "L1 and L2" : "L1");
	view_port_header(f, wide);
	for (p = 0; p < wr_run_nb_ports(run); p++)
		view_port_line(f, wide, wr_run_port(run, p)->port_id, &iv->port[p].rates,
			&iv->port[p].cnt);
	view_no_wire_note(f, run);
	interval_cpu(f, run, iv);
	for (p = 0; p < wr_run_nb_ports(run); p++)
		if (!wr_run_link(run, p)->up)
			fprintf(f, "port %u: LINK DOWN\n", wr_run_port(run, p)->port_id);
	fprintf(f, "received frames by sequence number since start; latency of "
		"this interval:\n");
	seq_lines(f, run, iv);
	stream_lines(f, run);
}

/*
 * Rows that len bytes of lines take on a screen of width columns: a line
 * wider than the screen wraps (a narrow terminal), and the next refresh
 * must go up over every row.
 */
static unsigned int
screen_rows(const char *buf, size_t len, unsigned int width)
{
	unsigned int rows = 0;
	size_t i, col = 0;

	for (i = 0; i < len; i++) {
		if (buf[i] != '\n') {
			col++;
			continue;
		}
		rows += col == 0 ? 1 : (unsigned int)((col + width - 1) / width);
		col = 0;
	}
	return rows;
}

void
app_view_interval(FILE *f, const struct wr_run *run,
		const struct wr_interval *iv, bool in_place, const char *extra)
{
	bool wide = view_width(f) >= VIEW_WIDE_COLS;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	if (wr_run_nb_intervals(run) == 1)
		shown_lines = 0;      /* a new trial: nothing of ours above */
	if (!in_place) {
		fputc('\n', f);
		frame(f, run, iv, wide);
		fputs(extra != NULL ? extra : "", f);
		fflush(f);
		return;
	}
	mem = open_memstream(&buf, &len);
	if (mem == NULL)
		return;
	frame(mem, run, iv, wide);
	fputs(extra != NULL ? extra : "", mem);
	fclose(mem);
	/* Up over the previous frame, to its first column, and clear below. */
	if (shown_lines > 0)
		fprintf(f, "\033[%uA", shown_lines);
	fprintf(f, "\r\033[J%s", buf);
	fflush(f);
	shown_lines = screen_rows(buf, len, view_width(f));
	free(buf);
}
