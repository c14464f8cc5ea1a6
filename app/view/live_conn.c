/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The live view of a connection run: a row per role each interval
 * (rates over the interval, counts since the start), in place on a
 * terminal as the frame view's frame, every row when piped (--plain);
 * a row over the whole run after the drain, and the books. A line never
 * passes 80 columns (wider numbers than the columns' widths excepted: a
 * count above 99,999,999 connections failed, say).
 */
#include <inttypes.h>
#include <string.h>

#include "live_conn.h"
#include "view.h"

/* Piped: the header again after this many rows. */
#define CONN_HEADER_EVERY 20u

/* Rows on screen to move up over (terminal), rows since the header
 * (piped). Stats core only. */
static unsigned int shown_rows;
static unsigned int rows_since_header;

static void
header(FILE *f, const char *what)
{
	fprintf(f, "conn: %s; Mb/s: goodput, L7 both ways\n", what);
	fprintf(f, "%6s %-6s %8s %8s %11s %8s %8s %9s %7s\n", "t s", "role",
		"CPS", "open", "completed", "failed", "req/s", "Mb/s", "rtx");
}

/* (a - b) / dt, 0 when dt is not positive or the count went back. */
static double
rate(uint64_t a, uint64_t b, double dt)
{
	return dt > 0.0 && a >= b ? (double)(a - b) / dt : 0.0;
}

/* One row, 79 columns: CPS counts completed connections (a server's:
 * closed), req/s answers (a server's: requests served). */
static void
row(FILE *f, const struct app_view_conn_side *s)
{
	const struct wr_conn_interval *r = s->now, *p = s->prev;
	double dt = r->t_s - p->t_s;

	fprintf(f, "%6.1f %-6s %8.0f %8" PRIu64 " %11" PRIu64 " %8" PRIu64
		" %8.0f %9.2f %7" PRIu64 "\n", r->t_s, s->role,
		rate(r->nb_completed, p->nb_completed, dt), r->nb_open,
		r->nb_completed, r->nb_failed, rate(r->nb_resps, p->nb_resps, dt),
		8e-6 * (rate(r->nb_l7_rx_bytes, p->nb_l7_rx_bytes, dt) +
		rate(r->nb_l7_tx_bytes, p->nb_l7_tx_bytes, dt)), r->nb_rtx);
}

/* Screen rows of one line of len columns on a screen of width. */
static unsigned int
line_rows(size_t len, unsigned int width)
{
	return len == 0 || width == 0 ? 1 :
		(unsigned int)((len + width - 1) / width);
}

void
app_view_conn_interval(FILE *f, const struct app_view_conn_side *s,
		unsigned int n, bool in_place)
{
	unsigned int k, width = view_width(f);
	char buf[160];
	FILE *mem;

	if (n == 0)
		return;
	if (s[0].prev->t_s == 0.0) {
		/* the first interval of a run: nothing of ours above */
		shown_rows = 0;
		rows_since_header = 0;
	}
	if (!in_place) {
		if (rows_since_header == 0)
			header(f, "rates over the interval, counts since start");
		for (k = 0; k < n; k++)
			row(f, &s[k]);
		rows_since_header = (rows_since_header + 1) % CONN_HEADER_EVERY;
		fflush(f);
		return;
	}
	if (shown_rows == 0)
		header(f, "rates over the interval, counts since start");
	else
		fprintf(f, "\033[%uA\r\033[J", shown_rows);
	shown_rows = 0;
	for (k = 0; k < n; k++) {
		mem = fmemopen(buf, sizeof(buf), "w");
		if (mem == NULL)
			continue;
		row(mem, &s[k]);
		fclose(mem);
		buf[sizeof(buf) - 1] = '\0';
		fputs(buf, f);
		shown_rows += line_rows(strlen(buf) - 1, width);
	}
	fflush(f);
}

void
app_view_conn_total(FILE *f, const struct app_view_conn_side *s,
		unsigned int n, double dur_s)
{
	struct wr_conn_interval now;
	unsigned int k;
	static const struct wr_conn_interval zero;
	struct app_view_conn_side t;

	shown_rows = 0;
	header(f, "the whole run, after the drain");
	for (k = 0; k < n; k++) {
		now = *s[k].now;
		now.t_s = dur_s;
		t.role = s[k].role;
		t.now = &now;
		t.prev = &zero;
		row(f, &t);
	}
}

static uint64_t
failed_of(const struct wr_conn_books *b)
{
	return b->nb_failed_syn_timeout + b->nb_failed_refused +
		b->nb_failed_reset + b->nb_failed_rtx_timeout +
		b->nb_failed_resp_timeout + b->nb_failed_http;
}

/* A client's connections: its books, the failures by class, the check. */
static void
client_books(FILE *f, const struct wr_conn_books *b, const char *who)
{
	uint64_t failed = failed_of(b);
	bool closes = b->nb_attempted == b->nb_completed + failed + b->nb_open;

	fprintf(f, "%sconnections: attempted %" PRIu64 ", completed %" PRIu64
		", failed %" PRIu64 ", open %" PRIu64 "\n", who, b->nb_attempted,
		b->nb_completed, failed, b->nb_open);
	fprintf(f, "  failed by class: SYN timeout %" PRIu64 ", refused %" PRIu64
		", reset %" PRIu64 ",\n    retransmission timeout %" PRIu64
		", response timeout %" PRIu64 ", HTTP %" PRIu64 "\n",
		b->nb_failed_syn_timeout, b->nb_failed_refused, b->nb_failed_reset,
		b->nb_failed_rtx_timeout, b->nb_failed_resp_timeout,
		b->nb_failed_http);
	fprintf(f, "  attempted = completed + failed + open: %s; not started %"
		PRIu64 "\n", closes ? "yes" : "NO", b->nb_unstarted_pool +
		b->nb_unstarted_tuples + b->nb_unstarted_tx +
		b->nb_unstarted_late);
}

void
app_view_conn_books(FILE *f, const struct wr_conn_books *b, bool server,
		const char *who, double dur_s, bool drained)
{
	if (server)
		fprintf(f, "%sconnections: accepted %" PRIu64 ", closed %" PRIu64
			", open %" PRIu64 ", requests served %" PRIu64 "\n", who,
			b->nb_accepted, b->nb_closed, b->nb_open,
			b->nb_reqs_served);
	else
		client_books(f, b, who);
	fprintf(f, "%srequests: sent %" PRIu64 ", answered %" PRIu64 ", failed %"
		PRIu64 "\n", who, b->nb_reqs_sent, b->nb_resps,
		b->nb_reqs_failed);
	fprintf(f, "%sretransmits: RTO %" PRIu64 ", fast %" PRIu64 ", tail "
		"probe %" PRIu64 "\n", who, b->nb_rtx_rto, b->nb_rtx_fast,
		b->nb_rtx_probe);
	fprintf(f, "%s%.0f connections/s, %.0f requests/s over %.3f s%s\n", who,
		dur_s > 0 ? (double)(server ? b->nb_accepted : b->nb_attempted) /
		dur_s : 0.0, dur_s > 0 ? (double)(server ? b->nb_reqs_served :
		b->nb_resps) / dur_s : 0.0, dur_s,
		drained ? "" : " (not drained: some still open)");
}
