/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * EAL start-up and clean-up that leave nothing behind: hugepage files are
 * unlinked as soon as they are mapped (--huge-unlink, added when the
 * user's EAL options allow it), and after rte_eal_cleanup() the files of
 * this process's --file-prefix (runtime directory, hugepage files kept by
 * --single-file-segments) are removed.
 */
#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
 * The runtime directory's files, listed once EAL is up, so that a quick
 * exit (second signal) can remove them with async-signal-safe calls only.
 */
#define QUICK_MAX_FILES 64u
static char quick_dir[PATH_MAX];
static char quick_files[QUICK_MAX_FILES][PATH_MAX + 256];
static unsigned int nb_quick_files;

void
app_eal_note_files(void)
{
	struct dirent *e;
	DIR *d;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return;
	snprintf(quick_dir, sizeof(quick_dir), "%s", rte_eal_get_runtime_dir());
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

void
app_eal_quick_cleanup(void)
{
	unsigned int i;

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
