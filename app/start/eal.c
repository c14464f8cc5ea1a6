/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * EAL start-up and clean-up that leave nothing behind: hugepage files are
 * unlinked as soon as they are mapped (--huge-unlink, added when the
 * user's EAL options allow it), and after rte_eal_cleanup() the files of
 * this process's --file-prefix (runtime directory, hugepage files kept by
 * --single-file-segments) are removed.
 */
#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include "eal.h"


/* EAL options after which --huge-unlink is refused or has no meaning. */
static const char *const no_unlink[] = {
	"--in-memory", "--no-huge", "--huge-unlink", "--single-file-segments",
	"--proc-type",
};

static bool
has_option(int argc, char **argv, const char *name)
{
	size_t n = strlen(name);
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strncmp(argv[i], name, n) == 0 &&
				(argv[i][n] == '\0' || argv[i][n] == '='))
			return true;
	return false;
}

/* The argument vector given to EAL, kept for the life of the process. */
static char **eal_argv;

char **
app_eal_argv(int *argc, char **argv)
{
	static char opt[] = "--huge-unlink";
	char **out;
	unsigned int i;

	for (i = 0; i < RTE_DIM(no_unlink); i++)
		if (has_option(*argc, argv, no_unlink[i]))
			return argv;
	out = calloc((size_t)*argc + 2, sizeof(*out));
	if (out == NULL)
		return argv;
	out[0] = argv[0];
	out[1] = opt;
	memcpy(out + 2, argv + 1, sizeof(*out) * (size_t)(*argc - 1));
	(*argc)++;
	eal_argv = out;
	return out;
}

/*
 * The runtime directory's files and the hugetlbfs mount points, listed
 * once EAL is up, so that a quick exit (second signal) can remove them
 * with async-signal-safe calls only. A hugepage file needs removing too:
 * --huge-unlink unlinks a segment's file just after creating it, and a
 * quick exit can fall between the two (memory taken after start-up).
 */
#define QUICK_MAX_FILES 64u
#define QUICK_MAX_MOUNTS 8u
static char quick_dir[PATH_MAX];
static char quick_files[QUICK_MAX_FILES][PATH_MAX + 256];
static unsigned int nb_quick_files;
static char quick_mounts[QUICK_MAX_MOUNTS][512];
static unsigned int nb_quick_mounts;
static char quick_prefix[256];   /* "PREFIXmap_" */

static void note_mounts(void);

void
app_eal_note_files(void)
{
	struct dirent *e;
	DIR *d;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return;
	snprintf(quick_dir, sizeof(quick_dir), "%s", rte_eal_get_runtime_dir());
	note_mounts();
	d = opendir(quick_dir);
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL && nb_quick_files < QUICK_MAX_FILES) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(quick_files[nb_quick_files++], sizeof(quick_files[0]),
			"%s/%s", quick_dir, e->d_name);
	}
	closedir(d);
}

/* The entry of getdents64(2); glibc has no wrapper before 2.30. */
struct quick_dirent {
	unsigned long long ino;
	long long off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static bool
quick_starts(const char *s, const char *prefix)
{
	while (*prefix != '\0')
		if (*s++ != *prefix++)
			return false;
	return true;
}

/* Unlink mount/PREFIXmap_* with system calls only. */
static void
quick_remove_hugefiles(const char *mount)
{
	_Alignas(8) char buf[4096];
	struct quick_dirent *e;
	long n, off;
	int fd = open(mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (off = 0; off < n; off += e->reclen) {
			e = (struct quick_dirent *)(void *)(buf + off);
			if (quick_starts(e->name, quick_prefix))
				unlinkat(fd, e->name, 0);
		}
	close(fd);
}

void
app_eal_quick_cleanup(void)
{
	unsigned int i;

	for (i = 0; i < nb_quick_mounts && quick_prefix[0] != '\0'; i++)
		quick_remove_hugefiles(quick_mounts[i]);
	for (i = 0; i < nb_quick_files; i++)
		unlink(quick_files[i]);
	if (quick_dir[0] != '\0')
		rmdir(quick_dir);
}

/* Unlink dir/PREFIXmap_* (hugepage files of this prefix). */
static void
remove_hugefiles(const char *dir, const char *prefix)
{
	char path[PATH_MAX];
	size_t n = strlen(prefix);
	struct dirent *e;
	DIR *d = opendir(dir);

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, prefix, n) != 0 ||
				strncmp(e->d_name + n, "map_", 4) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
}

/* Every hugetlbfs mount point, from /proc/mounts. */
static void
remove_prefix_hugefiles(const char *prefix)
{
	char line[1024], mnt[512], type[64];
	FILE *f = fopen("/proc/mounts", "r");

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "%*s %511s %63s", mnt, type) == 2 &&
				strcmp(type, "hugetlbfs") == 0)
			remove_hugefiles(mnt, prefix);
	fclose(f);
}

/* The hugetlbfs mount points and this prefix, for a quick exit. */
static void
note_mounts(void)
{
	char line[1024], mnt[512], type[64], dir[PATH_MAX];
	FILE *f = fopen("/proc/mounts", "r");

	snprintf(dir, sizeof(dir), "%s", quick_dir);
	snprintf(quick_prefix, sizeof(quick_prefix), "%smap_", basename(dir));
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL &&
			nb_quick_mounts < QUICK_MAX_MOUNTS)
		if (sscanf(line, "%*s %511s %63s", mnt, type) == 2 &&
				strcmp(type, "hugetlbfs") == 0)
			snprintf(quick_mounts[nb_quick_mounts++],
				sizeof(quick_mounts[0]), "%s", mnt);
	fclose(f);
}

/* The runtime directory's files (config, fbarrays, sockets), then it. */
static void
remove_dir(const char *dir)
{
	char path[PATH_MAX + 256];
	struct dirent *e;
	DIR *d = opendir(dir);

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

void
app_eal_cleanup(void)
{
	char dir[PATH_MAX], prefix[PATH_MAX];
	bool primary = rte_eal_process_type() == RTE_PROC_PRIMARY;

	snprintf(dir, sizeof(dir), "%s", rte_eal_get_runtime_dir());
	rte_eal_cleanup();
	/* A secondary process would remove what its primary still uses. */
	if (!primary || dir[0] == '\0')
		return;
	snprintf(prefix, sizeof(prefix), "%s", dir);
	remove_prefix_hugefiles(basename(prefix));
	remove_dir(dir);
}
