/* SPDX-License-Identifier: BSD-3-Clause */
#include <inttypes.h>

#include "measure/metrics.h"
#include "view_far.h"

static uint64_t
count(const json_t *o, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(o, key));

	return v > 0 ? (uint64_t)v : 0;
}

/* "received R of S frames sent, lost L (X%)" of trial t. */
static void
books(FILE *f, const json_t *t)
{
	uint64_t sent = count(t, "sent_pkts"), lost = count(t, "lost_pkts");

	fprintf(f, "received %" PRIu64 " of %" PRIu64 " frames sent, lost %"
		PRIu64 " (%.4g%%)", count(t, "rx_pkts"), sent, lost,
		sent != 0 ? 100.0 * (double)lost / (double)sent : 0.0);
}

void
app_view_far_trial(FILE *f, const json_t *t)
{
	struct wr_metric_values m = { { false }, { 0 } };

	if (t == NULL)
		return;
	fputs("  far end: ", f);
	if (wr_metrics_far(t, &m) == 0 && m.have[WR_METRIC_RX_MPPS])
		fprintf(f, "RX %.3f Mpps %.3f Gb/s L1, ", m.v[WR_METRIC_RX_MPPS],
			m.v[WR_METRIC_RX_GBPS_L1]);
	books(f, t);
	fputc('\n', f);
	fflush(f);
}

/* The far end's ports in trial t, by their own totals. */
static void
far_ports(FILE *f, const json_t *t)
{
	const json_t *totals = json_object_get(json_object_get(t, "peer"), "totals");
	const json_t *p;
	size_t i;

	fprintf(f, "far port   RX Mpps   RX Gb/s      RX frames\n");
	json_array_foreach(totals, i, p)
		fprintf(f, "%8" JSON_INTEGER_FORMAT " %9.3f %9.3f %14" PRIu64 "\n",
			json_integer_value(json_object_get(p, "port_id")),
			json_number_value(json_object_get(p, "rx_mpps")),
			json_number_value(json_object_get(p, "rx_gbps_l1")),
			count(p, "rx_pkts"));
}

void
app_view_far_summary(FILE *f, const json_t *far)
{
	const json_t *trials = json_object_get(far, "trials");
	const json_t *t = json_array_get(trials, json_array_size(trials) - 1);
	const json_t *bal = json_object_get(far, "balanced");

	if (t == NULL)
		return;
	fprintf(f, "far end (%s), trial %" JSON_INTEGER_FORMAT " by its own "
		"counts:\n", json_string_value(json_object_get(far, "peer")) != NULL ?
		json_string_value(json_object_get(far, "peer")) : "--peer",
		json_integer_value(json_object_get(t, "trial")));
	far_ports(f, t);
	fputs("far end's books: ", f);
	books(f, t);
	fprintf(f, "; books %s\n", json_is_true(bal) ? "balance (sent = received "
		"+ lost in every trial)" : json_is_false(bal) ? "do NOT balance" :
		"not closed");
	fflush(f);
}
