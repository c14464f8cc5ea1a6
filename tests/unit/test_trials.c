/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for trials.c (median, spread, 95% CI, the summary object),
 * csv.c (per-interval table) and devinfo.c (PCI ids from a sysfs fixture,
 * vmxnet3 version from PMD limits).
 */
#include <errno.h>
#include <math.h>
#include <sys/stat.h>

#include "base/csv.h"
#include "measure/metrics.h"
#include "results/trials.h"
#include "setup/devinfo.h"
#include "wr_docs.h"
#include "wr_test.h"

static struct wr_error err;

static void
test_figure(void)
{
	static const double v[] = { 9, 2, 4, 5, 4, 7, 4, 5 };
	static const double one[] = { 3.5 };
	static const double lat[] = { 10.0, 1000.0 };
	static const double neg[] = { -10.0, 1000.0 };
	struct wr_trials_figure f;

	WR_CHECK(wr_trials_figure(v, 8, &f) == 0);
	WR_CHECK_U64(f.n, 8);
	WR_CHECK_NEAR(f.median, 4.5, 1e-12);        /* (4 + 5) / 2 */
	WR_CHECK_NEAR(f.min, 2.0, 0);
	WR_CHECK_NEAR(f.max, 9.0, 0);
	WR_CHECK_NEAR(f.mean, 5.0, 1e-12);
	WR_CHECK_NEAR(f.stddev, sqrt(32.0 / 7.0), 1e-12);
	/* mean +- t(0.975, 7) s / sqrt(8) = 5 +- 2.365 * 2.13809 / 2.82843 */
	WR_CHECK_NEAR(f.ci95_low, 5.0 - 1.78778, 1e-4);
	WR_CHECK_NEAR(f.ci95_high, 5.0 + 1.78778, 1e-4);
	WR_CHECK_NEAR(v[0], 9.0, 0);                /* input untouched */
	WR_CHECK(wr_trials_figure(v, 3, &f) == 0);
	WR_CHECK_NEAR(f.median, 4.0, 0);            /* odd count: middle */
	WR_CHECK(wr_trials_figure(one, 1, &f) == 0);
	WR_CHECK_NEAR(f.median, 3.5, 0);
	WR_CHECK_NEAR(f.stddev, 0.0, 0);
	WR_CHECK_NEAR(f.ci95_low, 3.5, 0);
	WR_CHECK_NEAR(f.ci95_high, 3.5, 0);
	WR_CHECK(wr_trials_figure(v, 0, &f) == -EINVAL);
	/* Two spread-out latencies: 505 - 12.706 * 990 / 2 < 0. */
	WR_CHECK(wr_trials_figure(lat, 2, &f) == 0);
	WR_CHECK_NEAR(f.ci95_low, 0.0, 0);
	WR_CHECK_NEAR(f.ci95_high, 505.0 + 12.706 * 990.0 / 2.0, 1e-6);
	/* A figure that may be negative keeps its symmetric interval. */
	WR_CHECK(wr_trials_figure(neg, 2, &f) == 0);
	WR_CHECK(f.ci95_low < -1000.0);
}

static void
test_t95(void)
{
	WR_CHECK_NEAR(wr_trials_t95(1), 12.706, 1e-9);
	WR_CHECK_NEAR(wr_trials_t95(4), 2.776, 1e-9);
	WR_CHECK_NEAR(wr_trials_t95(30), 2.042, 1e-9);
	WR_CHECK_NEAR(wr_trials_t95(60), 2.000, 0.003);   /* tables: 2.000 */
	WR_CHECK_NEAR(wr_trials_t95(120), 1.980, 0.003);  /* tables: 1.980 */
	WR_CHECK(wr_trials_t95(1000000) > 1.959 && wr_trials_t95(1000000) < 1.961);
}

static void
test_summary(void)
{
	static const double mpps[] = { 3.0, 1.0, 2.0, 5.0 };
	json_t *doc = doc_simple(64, 2.0, 700, 0);
	struct wr_trials_figure f;
	const json_t *sum;

	doc_add_trials(doc, 64, mpps, 4, 700);
	sum = json_object_get(doc, "summary");
	WR_CHECK(sum != NULL);
	WR_CHECK_U64(json_integer_value(json_object_get(sum, "trials")), 4);
	WR_CHECK_U64(json_integer_value(json_object_get(sum, "warmup")), 1);
	WR_CHECK(wr_trials_read_figure(doc, "rx_mpps", &f, &err) == 0);
	WR_CHECK_U64(f.n, 4);
	WR_CHECK_NEAR(f.median, 2.5, 1e-12);
	WR_CHECK_NEAR(f.min, 1.0, 0);
	WR_CHECK_NEAR(f.max, 5.0, 0);
	WR_CHECK_NEAR(f.mean, 2.75, 1e-12);
	WR_CHECK(wr_trials_read_figure(doc, "latency_p99_ns", &f, &err) == 0);
	WR_CHECK_NEAR(f.median, 700.0, 1e-9);
	WR_CHECK_NEAR(f.ci95_high - f.ci95_low, 0.0, 1e-9);
	/* Not every trial has cycles per packet: not summarised. */
	WR_CHECK(wr_trials_read_figure(doc, "cycles_per_pkt", &f, &err) == -ENOENT);
	json_object_del(json_object_get(json_object_get(json_object_get(doc,
		"summary"), "figures"), "tx_mpps"), "max");
	WR_CHECK(wr_trials_read_figure(doc, "tx_mpps", &f, &err) == -EINVAL);
	WR_CHECK_STR(err.msg, "'summary.figures.tx_mpps.max' is missing");
	json_decref(doc);
}

static void
test_summary_bad_trial(void)
{
	json_t *trials = json_array(), *t = json_object();

	json_array_append_new(trials, t);
	json_object_set_new(t, "totals", json_array());
	WR_CHECK(wr_trials_summarize(trials, 0, &err) == NULL);
	WR_CHECK_STR(err.msg, "trials[0]: field 'totals' is not a non-empty array");
	json_decref(trials);
}

/* doc's per-interval CSV as a string (caller frees). */
static char *
csv_of(const json_t *doc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	WR_CHECK(wr_csv_intervals(doc, f) == 0);
	fclose(f);
	return buf;
}

static json_t *
samples(double t, json_int_t pkts)
{
	return json_pack("[{s:f, s:f, s:[{s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:I, "
		"s:I}]}]", "t_s", t, "dt_s", 0.5, "ports", "port_id", 1,
		"tx_mpps", 1.5, "rx_mpps", 1.25, "tx_gbps_l1", 1.008,
		"tx_gbps_l2", 0.768, "rx_gbps_l1", 0.84, "rx_gbps_l2", 0.64,
		"tx_pkts", pkts, "rx_pkts", pkts - 1);
}

static void
test_csv(void)
{
	json_t *doc = json_object(), *trials = json_array(), *t;
	char *s;

	json_object_set_new(doc, "samples", samples(0.5, 750000));
	s = csv_of(doc);
	WR_CHECK(strcmp(s, WR_CSV_INTERVAL_HEADER "\n1,0.500000,0.500000,1,1.5,"
		"1.25,1.008,0.768,0.84,0.64,750000,749999,,,,,,,,\n") == 0);
	free(s);
	/* A sample with latency: its figures; without: empty cells, never 0. */
	json_object_set_new(json_array_get(json_object_get(json_array_get(
		json_object_get(doc, "samples"), 0), "ports"), 0), "latency",
		json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "samples",
		(json_int_t)749999, "min_ns", 120.0, "mean_ns", 300.5, "p50_ns", 233.0,
		"p90_ns", 247.0, "p99_ns", 261.0, "p99_9_ns", 296.0, "max_ns", 9000.0));
	s = csv_of(doc);
	WR_CHECK(strstr(s, ",750000,749999,749999,120,300.5,233,247,261,296,9000\n") != NULL);
	free(s);
	t = json_object();
	json_object_set_new(t, "samples", samples(0.5, 10));
	json_array_append_new(trials, t);
	t = json_object();
	json_object_set_new(t, "samples", samples(0.5, 20));
	json_array_append_new(trials, t);
	json_object_set_new(doc, "trials", trials);
	s = csv_of(doc);
	WR_CHECK_STR(s, "\n1,0.500000,0.500000,1,1.5,1.25,1.008,0.768,0.84,0.64,10,9,,,,,,,,\n"
		"2,0.500000,0.500000,1,1.5,1.25,1.008,0.768,0.84,0.64,20,19,,,,,,,,\n");
	WR_CHECK(strstr(s, "750000") == NULL);      /* trials replace samples */
	free(s);
	json_decref(doc);
}

static void
test_csv_field(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	wr_csv_field(f, "plain");
	fputc(' ', f);
	wr_csv_field(f, "a,b \"c\"");
	fclose(f);
	WR_CHECK(strcmp(buf, "plain \"a,b \"\"c\"\"\"") == 0);
	free(buf);
}

static void
put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static void
test_devinfo_pci(void)
{
	char root[] = "/tmp/wr_sysfs_XXXXXX", dev[600], cmd[700];
	struct wr_devinfo d;

	WR_CHECK(mkdtemp(root) != NULL);
	snprintf(dev, sizeof(dev), "%s/bus/pci/devices/0000:0b:00.0", root);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dev);
	WR_CHECK(system(cmd) == 0);
	put(dev, "vendor", "0x15ad\n");
	put(dev, "device", "0x07b0\n");
	put(dev, "subsystem_vendor", "0x15ad\n");
	put(dev, "subsystem_device", "0x07b0\n");
	put(dev, "revision", "0x01\n");
	memset(&d, 0, sizeof(d));
	d.pci_revision = -1;
	WR_CHECK(wr_devinfo_pci(root, "0000:0b:00.0", &d) == 0);
	WR_CHECK(strcmp(d.pci_id, "15ad:07b0") == 0);
	WR_CHECK(strcmp(d.pci_subsys, "15ad:07b0") == 0);
	WR_CHECK(d.pci_revision == 1);
	WR_CHECK(wr_devinfo_pci(root, "0000:0c:00.0", &d) == -ENOENT);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	WR_CHECK(system(cmd) == 0);
}

static void
test_devinfo_vmxnet3(void)
{
	/* DPDK's vmxnet3 PMD: v6 offers MTU 9190 and 32 queues each way. */
	WR_CHECK(strcmp(wr_devinfo_vmxnet3_version(9190, 32, 32), ">=6") == 0);
	WR_CHECK(strcmp(wr_devinfo_vmxnet3_version(9000, 16, 8), "<6") == 0);
	WR_CHECK(strcmp(wr_devinfo_vmxnet3_version(9000, 32, 32), ">=6") == 0);
}

/*
 * A two-ended trial record (--peer): without a receive port here its RX
 * figures and loss are the far end's (its own port totals, its books);
 * with one (--peer-rate, both ways) they stay this end's.
 */
static void
test_far_figures(void)
{
	static const char far[] = "\"far\": {\"trial\": 3, \"sent_pkts\": 1000, "
		"\"rx_pkts\": 750, \"lost_pkts\": 250, \"peer\": {\"totals\": ["
		"{\"rx_mpps\": 0.5, \"rx_gbps_l1\": 0.25, \"rx_gbps_l2\": 0.2}, "
		"{\"rx_mpps\": 0.25, \"rx_gbps_l1\": 0.5, \"rx_gbps_l2\": 0.1}]}}";
	char text[1024];
	struct wr_metric_values m;
	json_t *rec;

	snprintf(text, sizeof(text), "{\"totals\": [{\"tx_mpps\": 1.0, "
		"\"rx_mpps\": 0, \"tx_gbps_l1\": 0.6, \"tx_gbps_l2\": 0.5, "
		"\"rx_gbps_l1\": 0, \"rx_gbps_l2\": 0}], \"accounting\": "
		"{\"sent_pkts\": 1000, \"balanced\": null}, %s}", far);
	rec = json_loads(text, 0, NULL);
	WR_CHECK(rec != NULL);
	WR_CHECK(wr_metrics_from_far(rec));
	WR_CHECK(wr_metrics_extract(rec, &m, &err) == 0);
	WR_CHECK_NEAR(m.v[WR_METRIC_TX_MPPS], 1.0, 0);
	WR_CHECK_NEAR(m.v[WR_METRIC_RX_MPPS], 0.75, 1e-12);
	WR_CHECK_NEAR(m.v[WR_METRIC_RX_GBPS_L1], 0.75, 1e-12);
	WR_CHECK_NEAR(m.v[WR_METRIC_RX_GBPS_L2], 0.3, 1e-12);
	WR_CHECK(m.have[WR_METRIC_LOSS_PCT]);
	WR_CHECK_NEAR(m.v[WR_METRIC_LOSS_PCT], 25.0, 1e-12);
	json_decref(rec);
	/* Both ways: this end receives and counts its own loss. */
	snprintf(text, sizeof(text), "{\"totals\": [{\"tx_mpps\": 1.0, "
		"\"rx_mpps\": 0.125, \"tx_gbps_l1\": 0.6, \"tx_gbps_l2\": 0.5, "
		"\"rx_gbps_l1\": 0.1, \"rx_gbps_l2\": 0.05}], \"accounting\": "
		"{\"sent_pkts\": 200, \"lost_pkts\": 2, \"balanced\": true}, %s}", far);
	rec = json_loads(text, 0, NULL);
	WR_CHECK(rec != NULL);
	WR_CHECK(!wr_metrics_from_far(rec));
	WR_CHECK(wr_metrics_extract(rec, &m, &err) == 0);
	WR_CHECK_NEAR(m.v[WR_METRIC_RX_MPPS], 0.125, 0);
	WR_CHECK_NEAR(m.v[WR_METRIC_LOSS_PCT], 1.0, 1e-12);
	json_decref(rec);
}

int
main(void)
{
	WR_TEST_RUN(test_figure);
	WR_TEST_RUN(test_t95);
	WR_TEST_RUN(test_summary);
	WR_TEST_RUN(test_summary_bad_trial);
	WR_TEST_RUN(test_csv);
	WR_TEST_RUN(test_csv_field);
	WR_TEST_RUN(test_devinfo_pci);
	WR_TEST_RUN(test_devinfo_vmxnet3);
	WR_TEST_RUN(test_far_figures);
	return wr_test_summary();
}
