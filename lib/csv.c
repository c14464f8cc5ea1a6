/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>

#include "csv.h"

/* Rate columns of samples[].ports[], in header order. */
static const char *const rate_cols[] = {
	"tx_mpps", "rx_mpps", "tx_gbps_l1", "tx_gbps_l2", "rx_gbps_l1", "rx_gbps_l2",
};

static double
num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static json_int_t
integer(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

/* Rows of one trial's samples. */
static void
trial_rows(FILE *f, unsigned int trial, const json_t *samples)
{
	const json_t *s, *p;
	size_t i, j, k;

	json_array_foreach(samples, i, s) {
		json_array_foreach(json_object_get(s, "ports"), j, p) {
			fprintf(f, "%u,%.6f,%.6f,%" JSON_INTEGER_FORMAT, trial,
				num(s, "t_s"), num(s, "dt_s"), integer(p, "port_id"));
			for (k = 0; k < RTE_DIM(rate_cols); k++)
				fprintf(f, ",%.9g", num(p, rate_cols[k]));
			fprintf(f, ",%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT "\n",
				integer(p, "tx_pkts"), integer(p, "rx_pkts"));
		}
	}
}

int
wr_csv_intervals(const json_t *doc, FILE *f)
{
	const json_t *trials = json_object_get(doc, "trials"), *t;
	size_t i;

	fprintf(f, "%s\n", WR_CSV_INTERVAL_HEADER);
	if (json_is_array(trials) && json_array_size(trials) > 0) {
		json_array_foreach(trials, i, t)
			trial_rows(f, (unsigned int)i + 1, json_object_get(t, "samples"));
	} else {
		trial_rows(f, 1, json_object_get(doc, "samples"));
	}
	return ferror(f) ? -EIO : 0;
}

int
wr_csv_field(FILE *f, const char *s)
{
	const char *c;

	if (strpbrk(s, ",\"\n\r") == NULL) {
		fputs(s, f);
	} else {
		fputc('"', f);
		for (c = s; *c != '\0'; c++) {
			if (*c == '"')
				fputc('"', f);
			fputc(*c, f);
		}
		fputc('"', f);
	}
	return ferror(f) ? -EIO : 0;
}

/*
 * A path that exists and is not a regular file (/dev/null, /dev/stdout, a
 * FIFO) is written in place: renaming a file over it would replace the
 * device node or pipe with a plain file.
 */
static int
write_in_place(const char *path, wr_csv_fill_t fill, const void *ctx,
		char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (f == NULL) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(-rc));
		return rc;
	}
	rc = fill(f, ctx);
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc != 0)
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(-rc));
	return rc;
}

int
wr_csv_write_atomic(const char *path, wr_csv_fill_t fill, const void *ctx,
		char *err, size_t errlen)
{
	char tmp[PATH_MAX + 32];
	struct stat st;
	FILE *f;
	int fd, rc;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return write_in_place(path, fill, ctx, err, errlen);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (f == NULL) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		snprintf(err, errlen, "%s: cannot create: %s", tmp, strerror(-rc));
		return rc;
	}
	rc = fill(f, ctx);
	if (rc == 0 && (fflush(f) != 0 || fsync(fileno(f)) != 0))
		rc = -errno;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	if (rc != 0) {
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(-rc));
		unlink(tmp);
	}
	return rc;
}

static int
fill_intervals(FILE *f, const void *doc)
{
	return wr_csv_intervals(doc, f);
}

int
wr_csv_write_intervals(const json_t *doc, const char *path,
		char *err, size_t errlen)
{
	return wr_csv_write_atomic(path, fill_intervals, doc, err, errlen);
}
