/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Run a fuzz target on files without libFuzzer: each argument is a file or
 * a directory of files (not recursive). Used by the 'unit' suite to replay
 * the committed corpus and the crash inputs kept as regression cases, with
 * any compiler. Prints "N inputs" and returns 0; a failed property aborts.
 */
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#include "fuzz.h"

static int
replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;
	size_t got;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
			fseek(f, 0, SEEK_SET) != 0) {
		fprintf(stderr, "%s: cannot read: %s\n", path, strerror(errno));
		if (f != NULL)
			fclose(f);
		return -1;
	}
	/* An exact-size copy: reads past the input are caught by ASan. */
	buf = malloc(len > 0 ? (size_t)len : 1);
	got = buf == NULL ? 0 : fread(buf, 1, (size_t)len, f);
	fclose(f);
	if (buf == NULL || got != (size_t)len) {
		fprintf(stderr, "%s: short read\n", path);
		free(buf);
		return -1;
	}
	LLVMFuzzerTestOneInput(buf, got);
	free(buf);
	return 0;
}

static int
replay_dir(const char *dir, unsigned int *nb)
{
	char path[4096];
	struct dirent *e;
	DIR *d = opendir(dir);

	if (d == NULL)
		return errno == ENOENT ? 0 : -1;  /* no regression cases yet */
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (replay_file(path) != 0) {
			closedir(d);
			return -1;
		}
		(*nb)++;
	}
	closedir(d);
	return 0;
}

int
main(int argc, char **argv)
{
	unsigned int nb = 0;
	struct stat st;
	int i;

	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st) == 0 && S_ISREG(st.st_mode)) {
			if (replay_file(argv[i]) != 0)
				return 1;
			nb++;
		} else if (replay_dir(argv[i], &nb) != 0) {
			fprintf(stderr, "%s: cannot read: %s\n", argv[i], strerror(errno));
			return 1;
		}
	}
	printf("%u inputs\n", nb);
	return 0;
}
