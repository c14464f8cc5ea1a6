/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests for fileio.c: a result is written through a private temporary
 * in the target directory, never through a name another user could plant.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "wr_test.h"

static char dir[] = "/tmp/wrfileioXXXXXX";

static int
fill_hello(FILE *f, const void *ctx)
{
	return fputs((const char *)ctx, f) == EOF ? -EIO : 0;
}

static int
fill_fail(FILE *f, const void *ctx)
{
	(void)ctx;
	fputs("half", f);
	return -ENOSPC;
}

/* The whole of path into buf (NUL-terminated); "" when it cannot be read. */
static const char *
slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f != NULL) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* Entries of dir, "." and ".." aside. */
static unsigned int
nb_entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned int n = 0;

	while (d != NULL && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	if (d != NULL)
		closedir(d);
	return n;
}

static void
path_of(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", dir, name);
}

static void
test_writes_whole_file(void)
{
	char path[PATH_MAX], buf[64];
	struct stat st;

	path_of(path, sizeof(path), "a.json");
	WR_CHECK(wr_file_write(path, fill_hello, "one\n", NULL) == 0);
	WR_CHECK(wr_file_write(path, fill_hello, "two\n", NULL) == 0);
	WR_CHECK(strcmp(slurp(path, buf, sizeof(buf)), "two\n") == 0);
	/* Readable by others as before (0644 less the umask), no temporary left. */
	WR_CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == (0644 & ~022));
	WR_CHECK_U64(nb_entries(), 1);
	unlink(path);
}

/*
 * The old temporary was PATH.tmp.PID, opened without O_EXCL: a link
 * planted at that name made a root run write through it to any file.
 */
static void
test_planted_link_not_followed(void)
{
	char path[PATH_MAX], victim[PATH_MAX], trap[PATH_MAX + 32], buf[64];

	path_of(path, sizeof(path), "b.json");
	path_of(victim, sizeof(victim), "victim");
	snprintf(trap, sizeof(trap), "%s.tmp.%d", path, (int)getpid());
	WR_CHECK(wr_file_write(victim, fill_hello, "keep\n", NULL) == 0);
	WR_CHECK(symlink(victim, trap) == 0);
	WR_CHECK(wr_file_write(path, fill_hello, "result\n", NULL) == 0);
	WR_CHECK(strcmp(slurp(victim, buf, sizeof(buf)), "keep\n") == 0);
	WR_CHECK(strcmp(slurp(path, buf, sizeof(buf)), "result\n") == 0);
	unlink(trap);
	unlink(victim);
	unlink(path);
}

/*
 * The companion file (results/series.c) was opened O_CREAT|O_TRUNC at its
 * name: a hard link planted there by another user made a root run truncate
 * and overwrite the linked file. A planted file or link is replaced instead.
 */
static void
test_create_replaces_planted(void)
{
	char path[PATH_MAX], victim[PATH_MAX], buf[64];
	struct stat st;
	int fd;

	path_of(path, sizeof(path), "e.samples.jsonl");
	path_of(victim, sizeof(victim), "victim");
	WR_CHECK(wr_file_write(victim, fill_hello, "keep\n", NULL) == 0);
	WR_CHECK(link(victim, path) == 0);
	fd = wr_file_create(path);
	WR_CHECK(fd >= 0 && write(fd, "new\n", 4) == 4 && close(fd) == 0);
	WR_CHECK(strcmp(slurp(victim, buf, sizeof(buf)), "keep\n") == 0);
	WR_CHECK(strcmp(slurp(path, buf, sizeof(buf)), "new\n") == 0);
	WR_CHECK(stat(path, &st) == 0 && st.st_nlink == 1 &&
		(st.st_mode & 0777) == (0644 & ~022));
	unlink(path);
	WR_CHECK(symlink(victim, path) == 0);
	fd = wr_file_create(path);
	WR_CHECK(fd >= 0 && close(fd) == 0);
	WR_CHECK(strcmp(slurp(victim, buf, sizeof(buf)), "keep\n") == 0);
	WR_CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0);
	unlink(path);
	unlink(victim);
}

static void
test_failed_fill_keeps_old(void)
{
	char path[PATH_MAX], buf[64];
	struct wr_error err;

	path_of(path, sizeof(path), "c.json");
	WR_CHECK(wr_file_write(path, fill_hello, "old\n", NULL) == 0);
	WR_CHECK(wr_file_write(path, fill_fail, NULL, &err) == -ENOSPC);
	WR_CHECK_STR(err.msg, path);
	WR_CHECK(strcmp(slurp(path, buf, sizeof(buf)), "old\n") == 0);
	WR_CHECK_U64(nb_entries(), 1);
	unlink(path);
}

static void
test_missing_directory(void)
{
	char path[PATH_MAX];
	struct wr_error err;

	path_of(path, sizeof(path), "no/such/d.json");
	WR_CHECK(wr_file_write(path, fill_hello, "x", &err) == -ENOENT);
	WR_CHECK_STR(err.msg, "no/such");
	WR_CHECK_U64(nb_entries(), 0);
}

int
main(void)
{
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	umask(022);
	WR_TEST_RUN(test_writes_whole_file);
	WR_TEST_RUN(test_planted_link_not_followed);
	WR_TEST_RUN(test_create_replaces_planted);
	WR_TEST_RUN(test_failed_fill_keeps_old);
	WR_TEST_RUN(test_missing_directory);
	rmdir(dir);
	return wr_test_summary();
}
