/* SPDX-License-Identifier: BSD-3-Clause */
/* Repeated trials on screen, and the result files (--json, --csv). */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/exitcode.h"
#include "base/csv.h"
#include "base/fileio.h"
#include "datapath/capture.h"
#include "measure/metrics.h"
#include "results/result.h"
#include "peer.h"
#include "results.h"

int
app_trial_done(FILE *f, const struct wr_run *run, unsigned int t, json_t *trials,
		json_t *far)
{
	const struct wr_config *cfg = wr_run_cfg(run);
	unsigned int k = t - cfg->nb_warmup + 1;
	struct wr_metric_values m;
	struct wr_error err;
	json_t *trial;

	if (t < cfg->nb_warmup) {
		fprintf(f, "warm-up trial %u of %u done (stopped by %s), not "
			"counted\n", t + 1, cfg->nb_warmup,
			wr_run_stop_name(wr_run_res(run)->stop_reason));
		return 0;
	}
	if (wr_run_res(run)->stop_reason == WR_STOP_SIGNAL) {
		fprintf(f, "trial %u of %u stopped by a signal: not counted\n", k,
			cfg->nb_repeat);
		return 0;
	}
	trial = wr_result_trial(run, k);
	if (trial == NULL || json_array_append_new(trials, trial) != 0) {
		fprintf(stderr, "wirerate: error: no memory for trial %u\n", k);
		return -1;
	}
	/* The same object as in far.trials: late frames amend both. */
	if (far != NULL)
		json_object_set(trial, "far", far);
	if (wr_metrics_extract(trial, &m, &err) != 0)
		return 0;
	fprintf(f, "trial %u of %u: TX %.3f Mpps %.3f Gb/s L1, ", k, cfg->nb_repeat,
		m.v[WR_METRIC_TX_MPPS], m.v[WR_METRIC_TX_GBPS_L1]);
	if (m.have[WR_METRIC_LOSS_PCT])
		fprintf(f, "%sRX %.3f Mpps %.3f Gb/s L1, loss %.4g%%\n",
			wr_metrics_from_far(trial) ? "far end: " : "",
			m.v[WR_METRIC_RX_MPPS], m.v[WR_METRIC_RX_GBPS_L1],
			m.v[WR_METRIC_LOSS_PCT]);
	else
		fprintf(f, "no receiver here (loss n/a)\n");
	fflush(f);
	return 0;
}

/* Median, min, max and 95% CI of each figure over the trials. */
static void
view_summary(FILE *f, const json_t *summary, bool far)
{
	const json_t *figs = json_object_get(summary, "figures"), *o;
	unsigned int id;

	fprintf(f, "\n%" JSON_INTEGER_FORMAT " trials counted (%" JSON_INTEGER_FORMAT
		" warm-up not counted)%s\n%-18s %12s %12s %12s   %s\n",
		json_integer_value(json_object_get(summary, "trials")),
		json_integer_value(json_object_get(summary, "warmup")),
		far ? "; rx_* and loss_pct are the far end's counts" : "",
		"figure", "median", "min", "max", "95% CI of the mean");
	for (id = 0; id < WR_METRIC_COUNT; id++) {
		o = json_object_get(figs, wr_metric_defs[id].name);
		if (o == NULL)
			continue;
		fprintf(f, "%-18s %12.6g %12.6g %12.6g   %.6g .. %.6g\n",
			wr_metric_defs[id].name,
			json_number_value(json_object_get(o, "median")),
			json_number_value(json_object_get(o, "min")),
			json_number_value(json_object_get(o, "max")),
			json_number_value(json_object_get(o, "ci95_low")),
			json_number_value(json_object_get(o, "ci95_high")));
	}
	fflush(f);
}

/* Whether path can be written at the end of the run; a message if not. */
static int
output_ok(const char *opt, const char *path)
{
	char dir[PATH_MAX];
	struct stat st;

	if (path[0] == '\0')
		return 0;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode) || access(path, W_OK) != 0) {
			fprintf(stderr, "wirerate: error: %s %s: %s\n", opt, path,
				S_ISDIR(st.st_mode) ? "is a directory" :
				"exists and is not writable");
			return -1;
		}
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	if (access(dirname(dir), W_OK | X_OK) != 0) {
		fprintf(stderr, "wirerate: error: %s %s: cannot create a file in "
			"%s: %s\n", opt, path, dir, strerror(errno));
		return -1;
	}
	return 0;
}

int
app_outputs_check(const struct wr_config *cfg)
{
	if (output_ok("--json", cfg->json_path) != 0 ||
			output_ok("--csv", cfg->csv_path) != 0 ||
			output_ok("--csv-streams", cfg->csv_streams_path) != 0 ||
			output_ok("--capture", cfg->capture.path) != 0)
		return -1;
	return 0;
}

/* Hold (or release) SIGINT and SIGTERM: a file being written is finished. */
static void
hold_signals(bool hold, sigset_t *old)
{
	sigset_t set;

	if (!hold) {
		sigprocmask(SIG_SETMASK, old, NULL);
		return;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, old);
}

int
app_write_json(json_t *doc, const char *path, struct wr_error *err)
{
	sigset_t old;
	int rc;

	hold_signals(true, &old);
	rc = wr_result_write_json(doc, path, err);
	hold_signals(false, &old);
	return rc;
}

static int
write_csv(const json_t *doc, const char *path, bool streams, struct wr_error *err)
{
	sigset_t old;
	int rc;

	hold_signals(true, &old);
	rc = wr_csv_write(doc, path, streams, err);
	hold_signals(false, &old);
	return rc;
}

int
app_results_write(const struct wr_run *run, json_t *trials, json_t *far,
		FILE *f, json_t **keep)
{
	const struct wr_config *cfg = wr_run_cfg(run);
	struct wr_error err;
	json_t *doc;
	int rc = 0;

	if (trials == NULL && cfg->json_path[0] == '\0' && cfg->csv_path[0] == '\0' &&
			cfg->csv_streams_path[0] == '\0' && keep == NULL)
		return 0;
	doc = wr_result_build_trials(run, trials, &err);
	if (doc == NULL) {
		app_error("wirerate", &err);
		return -1;
	}
	if (far != NULL) {
		json_object_set(doc, "far", far);
		app_peer_mark(doc, far);
	}
	if (trials != NULL)
		view_summary(f, json_object_get(doc, "summary"),
			wr_metrics_from_far(json_array_get(trials, 0)));
	if (cfg->json_path[0] != '\0' &&
			app_write_json(doc, cfg->json_path, &err) != 0) {
		app_error("wirerate", &err);
		rc = -1;
	}
	if (cfg->csv_path[0] != '\0' &&
			write_csv(doc, cfg->csv_path, false, &err) != 0) {
		app_error("wirerate", &err);
		rc = -1;
	}
	if (cfg->csv_streams_path[0] != '\0' &&
			write_csv(doc, cfg->csv_streams_path, true, &err) != 0) {
		app_error("wirerate", &err);
		rc = -1;
	}
	if (keep != NULL)
		*keep = doc;
	else
		json_decref(doc);
	return rc;
}

int
app_capture_write(const struct wr_run *run, FILE *f)
{
	const struct wr_capture_conf *cc = &wr_run_cfg(run)->capture;
	struct wr_capture_figures fig;
	struct wr_error err;
	sigset_t old;
	int rc;

	if (wr_run_capture(run) == NULL)
		return 0;
	hold_signals(true, &old);
	rc = wr_file_write(cc->path, wr_capture_write, wr_run_capture(run), &err);
	hold_signals(false, &old);
	if (rc != 0) {
		wr_err_prefix(&err, "--capture ");
		app_error("wirerate", &err);
		return -1;
	}
	wr_capture_figures(wr_run_capture(run), &fig);
	fprintf(f, "capture: %" PRIu64 " frames written to %s (%" PRIu64
		" anomalies seen, %" PRIu64 " copies dropped, %" PRIu64
		" past --capture-max)\n", fig.frames, cc->path, fig.anomalies,
		fig.dropped_pkts, fig.over_budget_pkts);
	return 0;
}
