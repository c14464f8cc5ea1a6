/* SPDX-License-Identifier: BSD-3-Clause */
/* The companion file of every interval (series.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/jsonw.h"
#include "result_int.h"
#include "series.h"

#define SERIES_EXT ".samples.jsonl"

int
wr_series_path(const char *json_path, char *out, size_t len)
{
	size_t n = strlen(json_path);
	struct stat st;

	if (n == 0 || (stat(json_path, &st) == 0 && !S_ISREG(st.st_mode)))
		return -ENOENT;
	if (n > 5 && strcmp(json_path + n - 5, ".json") == 0)
		n -= 5;
	if (n + sizeof(SERIES_EXT) > len)
		return -ENAMETOOLONG;
	memcpy(out, json_path, n);
	memcpy(out + n, SERIES_EXT, sizeof(SERIES_EXT));
	return 0;
}

/* The file, opened at the run's first interval; NULL when none. */
static FILE *
series_file(struct wr_run *run)
{
	char path[PATH_MAX];
	int fd;

	if (run->live.series != NULL || run->live.series_failed ||
			run->live.nb_series_lines != 0)
		return run->live.series;
	if (wr_series_path(run->setup.cfg->json_path, path, sizeof(path)) != 0)
		return NULL;
	/* Never through a link planted at the name (base/fileio.h). */
	fd = wr_file_create(path);
	run->live.series = fd < 0 ? NULL : fdopen(fd, "w");
	if (run->live.series == NULL && fd >= 0)
		close(fd);
	run->live.series_failed = run->live.series == NULL;
	return run->live.series;
}

void
wr_series_append(struct wr_run *run, const struct wr_interval *iv)
{
	FILE *f = series_file(run);
	json_t *o, *sample;
	int rc;

	if (f == NULL)
		return;
	o = json_object();
	wr_json_set(o, "trial", wr_json_u64(run->live.nb_trials));
	wr_json_set(o, "interval", wr_json_u64(run->live.nb_intervals - 1));
	wr_json_set(o, "frame_size", wr_json_u64(run->live.trial.frame_size));
	sample = wr_result_sample_json(run, iv);
	json_object_update(o, sample);
	json_decref(sample);
	/* Flushed a line at a time: a crash loses no finished interval. */
	rc = json_dumpf(o, f, JSON_COMPACT | JSON_REAL_PRECISION(10));
	json_decref(o);
	if (rc == 0 && fputc('\n', f) != EOF && fflush(f) == 0) {
		run->live.nb_series_lines++;
		return;
	}
	run->live.series_failed = true;
	wr_series_close(run);
}

void
wr_series_close(struct wr_run *run)
{
	if (run->live.series != NULL && fclose(run->live.series) != 0)
		run->live.series_failed = true;
	run->live.series = NULL;
}

json_t *
wr_series_json(const struct wr_run *run)
{
	char path[PATH_MAX];
	unsigned int first = wr_run_first_interval(run);
	json_t *o = json_object();
	bool file = wr_series_path(run->setup.cfg->json_path, path, sizeof(path)) == 0;

	wr_json_set(o, "intervals", wr_json_u64(run->live.nb_intervals));
	wr_json_set(o, "kept", wr_json_u64(run->live.nb_intervals - first));
	wr_json_set(o, "first_kept", wr_json_u64(first));
	wr_json_set(o, "kept_max", wr_json_u64(WR_RUN_KEEP_INTERVALS));
	wr_json_set(o, "file", file ? json_string(path) : json_null());
	if (file) {
		wr_json_set(o, "file_lines", wr_json_u64(run->live.nb_series_lines));
		wr_json_set(o, "file_complete", json_boolean(!run->live.series_failed));
	}
	return o;
}
