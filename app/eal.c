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

#include <rte_eal.h>

#include "app.h"

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
