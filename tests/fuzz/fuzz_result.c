/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The result reader of `wirerate compare` and `wirerate report`: arbitrary
 * bytes as a result file through wr_compare_parse (the checks of
 * wr_compare_load), then every reader of a loaded document: the metrics,
 * the trials' figures, the trial summary, the CSV export and a comparison
 * of the document with itself; then the same file through the programs,
 * `wirerate compare FILE FILE` and `wirerate report --no-plots FILE`.
 * Properties: every refusal has a message; a document compared with itself
 * has no regression and no improvement; the programs exit 0 or 2 (bad
 * input), never 1.
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/exitcode.h"
#include "report/compare.h"
#include "report/report.h"

#include "base/csv.h"
#include "fuzz.h"
#include "measure/metrics.h"
#include "measure/tolerance.h"
#include "analysis/compare.h"
#include "results/kinds.h"
#include "results/trials.h"

#define FUZZ_MAX_INPUT (256 * 1024)

static FILE *devnull;

static void
read_all(const json_t *doc)
{
	struct wr_metric_values m;
	struct wr_trials_figure f;
	struct wr_error err;
	json_t *sum;
	unsigned int id;
	int rc;

	err.msg[0] = '\0';
	if (wr_metrics_extract(doc, &m, &err) != 0)
		FUZZ_CHECK(fuzz_error_ok(&err));
	for (id = 0; id < WR_METRIC_COUNT; id++) {
		err.msg[0] = '\0';
		rc = wr_trials_read_figure(doc, wr_metric_defs[id].name, &f, &err);
		FUZZ_CHECK(rc == 0 || rc == -ENOENT || rc == -EINVAL);
		if (rc == -EINVAL)
			FUZZ_CHECK(fuzz_error_ok(&err));
	}
	err.msg[0] = '\0';
	sum = wr_trials_summarize(json_object_get(doc, "trials"), 0, &err);
	if (sum == NULL)
		FUZZ_CHECK(fuzz_error_ok(&err));
	json_decref(sum);
	(void)wr_csv_intervals(doc, devnull);
}

static void
compare_self(const json_t *doc)
{
	static struct wr_compare out;
	const struct wr_kind *kind;
	struct wr_tolerances tol;
	struct wr_error err;

	wr_tolerances_defaults(&tol);
	err.msg[0] = '\0';
	if (wr_compare_docs(doc, "base", doc, "cur", &tol, 0, &out, &err) != 0) {
		FUZZ_CHECK(fuzz_error_ok(&err));
		return;
	}
	kind = wr_kind_of(doc, &err);
	FUZZ_CHECK(kind != NULL && out.nb_rows >= out.nb_points &&
		out.nb_rows <= out.nb_points * kind->nb_judged);
	FUZZ_CHECK(!out.regression);
	FUZZ_CHECK(out.nb[WR_VERDICT_IMPROVED] == 0);
}

/*
 * The programs on the same bytes, as a file. Their messages go to
 * /dev/null through the stdio streams (sanitizer reports use fd 2
 * directly and still show).
 */
static void
run_programs(const uint8_t *data, size_t size)
{
	char path[64], *cmp[4], *rep[4];
	FILE *out = stdout, *errs = stderr;
	int fd = memfd_create("wr_fuzz_result", 0), rc;

	FUZZ_CHECK(fd >= 0);
	FUZZ_CHECK(write(fd, data, size) == (ssize_t)size);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	cmp[0] = (char *)(uintptr_t)"compare";
	cmp[1] = path;
	cmp[2] = path;
	cmp[3] = NULL;
	rep[0] = (char *)(uintptr_t)"report";
	rep[1] = (char *)(uintptr_t)"--no-plots";
	rep[2] = path;
	rep[3] = NULL;
	stdout = stderr = devnull;
	rc = app_compare_main(3, cmp);
	stdout = out;
	stderr = errs;
	FUZZ_CHECK(rc == APP_EXIT_OK || rc == APP_EXIT_USAGE);
	stdout = stderr = devnull;
	rc = app_report_main(3, rep);
	stdout = out;
	stderr = errs;
	FUZZ_CHECK(rc == APP_EXIT_OK || rc == APP_EXIT_USAGE);
	close(fd);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wr_error err;
	json_t *doc;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (devnull == NULL)
		devnull = fopen("/dev/null", "w");
	FUZZ_CHECK(devnull != NULL);
	err.msg[0] = '\0';
	if (wr_compare_parse((const char *)data, size, "fuzz.json", &doc, &err) != 0) {
		FUZZ_CHECK(doc == NULL && fuzz_error_ok(&err));
		return 0;
	}
	read_all(doc);
	compare_self(doc);
	json_decref(doc);
	run_programs(data, size);
	return 0;
}
