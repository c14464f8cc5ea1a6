/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "fileio.h"

/*
 * A path that exists and is not a regular file (/dev/null, /dev/stdout, a
 * FIFO) is written in place: renaming a file over it would replace the
 * device node or pipe with a plain file.
 */
static int
write_in_place(const char *path, wr_file_fill_t fill, const void *ctx,
		struct wr_error *err)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (f == NULL) {
		rc = -errno;
		wr_err_env(err, rc, "%s: cannot open: %s", path, strerror(-rc));
		return rc;
	}
	rc = fill(f, ctx);
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc != 0)
		wr_err_env(err, rc, "%s: cannot write: %s", path, strerror(-rc));
	return rc;
}

int
wr_file_write(const char *path, wr_file_fill_t fill, const void *ctx,
		struct wr_error *err)
{
	char tmp[PATH_MAX + 32];
	struct stat st;
	FILE *f;
	int fd, rc;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return write_in_place(path, fill, ctx, err);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (f == NULL) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		wr_err_env(err, rc, "%s: cannot create: %s", tmp, strerror(-rc));
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
		wr_err_env(err, rc, "%s: cannot write: %s", path, strerror(-rc));
		unlink(tmp);
	}
	return rc;
}
