/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
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

/*
 * Split path into its directory (dir, "." when none) and base name.
 * Returns 0, or -ENAMETOOLONG.
 */
static int
split_path(const char *path, char *dir, size_t len, const char **base)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (slash == NULL) {
		*base = path;
		snprintf(dir, len, ".");
		return 0;
	}
	*base = slash + 1;
	n = slash == path ? 1 : (size_t)(slash - path);
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(dir, path, n);
	dir[n] = '\0';
	return 0;
}

/*
 * Create a private temporary for path in dir: DIR/.BASE.XXXXXXXX with a
 * random suffix, O_EXCL and O_NOFOLLOW, so nothing planted at a guessed
 * name (a link to another file) is ever opened. Mode 0644 less the umask,
 * as the result itself. Returns the descriptor or a negative errno.
 */
static int
create_temp(const char *dir, const char *base, char *tmp, size_t len)
{
	unsigned int tries;
	uint32_t r;

	for (tries = 0; tries < 100; tries++) {
		int fd;

		if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return errno ? -errno : -EIO;
		if ((size_t)snprintf(tmp, len, "%s/.%s.%08" PRIx32, dir, base, r) >= len)
			return -ENAMETOOLONG;
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

/*
 * Make a rename in dir durable: fsync the directory. A file system that
 * cannot sync a directory (EINVAL) has nothing more to do.
 */
static int
sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) != 0 && errno != EINVAL)
		rc = -errno;
	close(fd);
	return rc;
}

/* Fill the open temporary fd, flush it (to disk if durable), close it. */
static int
fill_temp(int fd, wr_file_fill_t fill, const void *ctx, bool durable)
{
	FILE *f = fdopen(fd, "w");
	int rc;

	if (f == NULL) {
		rc = -errno;
		close(fd);
		return rc;
	}
	rc = fill(f, ctx);
	if (rc == 0 && (fflush(f) != 0 || (durable && fsync(fileno(f)) != 0)))
		rc = -errno;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

/* Replace path through a private temporary; fsync both if durable. */
static int
replace(const char *path, wr_file_fill_t fill, const void *ctx, bool durable,
		struct wr_error *err)
{
	char dir[PATH_MAX], tmp[PATH_MAX + NAME_MAX + 16];
	const char *base;
	struct stat st;
	int fd, rc;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return write_in_place(path, fill, ctx, err);
	rc = split_path(path, dir, sizeof(dir), &base);
	fd = rc != 0 ? rc : create_temp(dir, base, tmp, sizeof(tmp));
	if (fd < 0)
		return wr_err_env(err, fd, "%s: cannot create a temporary in %s: %s",
			path, dir, strerror(-fd));
	rc = fill_temp(fd, fill, ctx, durable);
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	if (rc != 0) {
		unlink(tmp);
		return wr_err_env(err, rc, "%s: cannot write: %s", path, strerror(-rc));
	}
	rc = durable ? sync_dir(dir) : 0;
	if (rc != 0)
		wr_err_env(err, rc, "%s: written, but its directory %s cannot be synced: %s",
			path, dir, strerror(-rc));
	return rc;
}

int
wr_file_write(const char *path, wr_file_fill_t fill, const void *ctx,
		struct wr_error *err)
{
	return replace(path, fill, ctx, true, err);
}

int
wr_file_write_nosync(const char *path, wr_file_fill_t fill, const void *ctx,
		struct wr_error *err)
{
	return replace(path, fill, ctx, false, err);
}

int
wr_file_create(const char *path)
{
	int fd;

	if (unlink(path) != 0 && errno != ENOENT)
		return -errno;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	return fd >= 0 ? fd : -errno;
}
