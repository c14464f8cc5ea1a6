/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wirerate merge SENDER.json RECEIVER.json [--json OUT] [--quiet]: the
 * exact balance of a run whose sender and receiver were different
 * processes or hosts. Runs without EAL.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/badopt.h"
#include "common/exitcode.h"
#include "results/merge.h"
#include "results/result.h"
#include "merge.h"

#define PROG "wirerate merge"

static void
merge_usage(FILE *f)
{
	fprintf(f,
"Usage: wirerate merge SENDER.json RECEIVER.json [--json OUT] [--quiet]\n"
"\n"
"Pair the result of a sender (a run with --rx-ports none, or any run that\n"
"transmitted) with the result of a receiver in another process or host\n"
"(--tx-ports none, usually with --start-on-rx --idle-timeout T) and check,\n"
"per stream, sent = received + lost with lost = head + gaps + tail proven\n"
"by sequence numbers (docs/testbeds.md).\n"
"\n"
"  --json OUT   write the merge as JSON (schema wirerate-merge/1), atomically\n"
"  --quiet      no table, only the verdict line\n"
"  -h, --help\n"
"  --version    wirerate's and DPDK's versions\n"
"\n"
"Exit status: 0 balanced, 1 not balanced, 2 bad usage or input.\n");
}

static void
print_rows(FILE *f, const struct wr_merge *m)
{
	unsigned int i;

	fprintf(f, "%-9s %5s %12s %12s %10s %8s %8s %10s %7s %7s  %s\n", "stream",
		"rx", "sent", "received", "lost", "head", "gaps", "tail", "late",
		"dup", "balanced");
	for (i = 0; i < m->nb_rows; i++) {
		const struct wr_merge_row *r = &m->rows[i];
		char rx[12] = "-";

		if (r->rx_port >= 0)
			snprintf(rx, sizeof(rx), "%d", r->rx_port);
		fprintf(f, "tx%u.%-5u %5s %12" PRIu64 " %12" PRIu64 " %10" PRId64
			" %8" PRIu64 " %8" PRIu64 " %10" PRIu64 " %7" PRIu64 " %7"
			PRIu64 "  %s%s\n", r->stream_id / WR_MAX_QUEUES,
			r->stream_id % WR_MAX_QUEUES, rx, r->sent_pkts, r->rx_pkts,
			r->lost_pkts, r->head_lost_pkts, r->gap_pkts,
			r->tail_lost_pkts, r->late_pkts, r->dup_pkts,
			r->balanced ? "yes" : "NO: ", r->why);
	}
	fprintf(f, "%-9s %5s %12" PRIu64 " %12" PRIu64 " %10" PRId64 " %8" PRIu64
		" %8" PRIu64 " %10" PRIu64 " %7" PRIu64 " %7" PRIu64 "\n", "total",
		"", m->sent_pkts, m->rx_pkts, m->lost_pkts, m->head_lost_pkts,
		m->gap_pkts, m->tail_lost_pkts, m->late_pkts, m->dup_pkts);
}

static void
print_verdict(FILE *f, const struct wr_merge *m)
{
	if (m->incomplete)
		fprintf(f, "INCOMPLETE: a side was written during its run (stop_reason "
			"running): counts up to its last interval, in-flight frames "
			"read as lost\n");
	if (m->sent_lower_bound)
		fprintf(f, "SENDER's result was written during its run (a crashed "
			"sender's last checkpoint): it sent at least %" PRIu64 " (its "
			"count, or the highest sequence received), %" PRIu64 " arrived, "
			"at least %" PRId64 " were lost; what it sent after its last "
			"checkpoint and never arrived cannot be known\n",
			m->sent_pkts, m->rx_pkts, m->lost_pkts);
	if (m->balanced && m->sent_lower_bound)
		fprintf(f, "balanced as far as known: at least %" PRIu64 " = received %"
			PRIu64 " + at least %" PRId64 "\n", m->sent_pkts, m->rx_pkts,
			m->lost_pkts);
	else if (m->balanced)
		fprintf(f, "balanced: sent %" PRIu64 " = received %" PRIu64
			" + lost %" PRId64 " (%.6f%%)\n", m->sent_pkts, m->rx_pkts,
			m->lost_pkts, m->sent_pkts ? 100.0 * (double)m->lost_pkts /
			(double)m->sent_pkts : 0.0);
	else
		fprintf(f, "NOT balanced: %u of %u streams do not add up\n",
			m->nb_unbalanced, m->nb_rows);
	/* One-way latency (results/oneway.h), when the receiver timed them. */
	if (m->oneway.available && m->oneway.synced_clocks)
		fprintf(f, "one-way latency: by %s, within %.0f ns (the clocks' bound)\n",
			m->oneway.source, m->oneway.bound_ns);
	else if (m->oneway.available)
		fprintf(f, "one-way latency: one TSC (--latency tsc on the receiver)\n");
	else if (m->oneway.asked)
		fprintf(f, "one-way latency: none: %s\n", m->oneway.reason);
}

/*
 * Parse argv; returns 1 to go on, 0 after --help, -2 after saying what is
 * wrong with an option, -1 on other bad usage.
 */
static int
merge_args(int argc, char **argv, const char **paths, const char **out,
		bool *quiet)
{
	static const struct option opts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			merge_usage(stdout);
			return 0;
		}
		if (c == 'j')
			*out = optarg;
		else if (c == 'q')
			*quiet = true;
		else {
			app_bad_option(PROG, opts, argv[optind - 1]);
			return -2;
		}
	}
	if (argc - optind != 2)
		return -1;
	paths[0] = argv[optind];
	paths[1] = argv[optind + 1];
	return 1;
}

/* Compute, show and write the merge; returns the exit code. */
static int
merge_docs(json_t *snd, json_t *rcv, const char **paths, const char *out,
		bool quiet)
{
	static struct wr_merge m;
	struct wr_error err;
	json_t *doc;
	int rc;

	if (wr_merge_compute(snd, rcv, &m, &err) != 0)
		return app_error(PROG, &err);
	if (!quiet)
		print_rows(stdout, &m);
	print_verdict(stdout, &m);
	rc = m.balanced ? APP_EXIT_OK : APP_EXIT_FAILED;
	if (out == NULL)
		return rc;
	doc = wr_merge_json(&m, snd, paths[0], rcv, paths[1]);
	if (doc == NULL) {
		wr_err_env(&err, -ENOMEM, "no memory for the JSON document");
		rc = app_error(PROG, &err);
	} else if (wr_result_write_json(doc, out, &err) != 0) {
		rc = app_error(PROG, &err);
	}
	json_decref(doc);
	return rc;
}

int
app_merge_main(int argc, char **argv)
{
	const char *paths[2] = { NULL, NULL }, *out = NULL;
	json_t *snd = NULL, *rcv = NULL;
	bool quiet = false;
	struct wr_error err;
	int rc;

	rc = merge_args(argc, argv, paths, &out, &quiet);
	if (rc == -2)
		return APP_EXIT_USAGE;
	if (rc < 0)
		return app_usage_error(PROG, "expected SENDER.json RECEIVER.json "
			"[--json OUT] [--quiet] (see wirerate merge --help)");
	if (rc == 0)
		return APP_EXIT_OK;
	if (wr_merge_load(paths[0], &snd, &err) != 0 ||
			wr_merge_load(paths[1], &rcv, &err) != 0) {
		json_decref(snd);
		return app_error(PROG, &err);
	}
	rc = merge_docs(snd, rcv, paths, out, quiet);
	json_decref(snd);
	json_decref(rcv);
	return rc;
}
