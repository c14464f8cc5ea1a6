/* SPDX-License-Identifier: BSD-3-Clause */
/* What every gnuplot script of `wirerate report` writes: strings, the x axis. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gnuplot.h"

extern char **environ;

/*
 * A gnuplot single-quoted string: gnuplot runs `...` in double-quoted
 * strings as a shell command, never in single-quoted ones, where only ''
 * is special. Control characters (a newline would end the command) become
 * spaces, so text from a result stays inert.
 */
void
rep_gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
	}
	fputc('\'', f);
}

/* gnuplot commands for an x axis of the frame sizes: log 2, one tic each. */
void
rep_gp_size_axis(FILE *f, const struct rep *r)
{
	unsigned int k, lo = UINT_MAX, hi = 0, prev = 0;

	fprintf(f, "set grid\nset key top right\nset logscale x 2\n"
		"set offsets 0, 0, graph 0.08, 0\nset yrange [0:*]\n"
		"set xlabel \"frame size, bytes (FCS included)\"\nset xtics (");
	for (k = 0; k < r->nb_runs; k++) {
		unsigned int sz = r->run[k].frame_size;

		lo = sz < lo ? sz : lo;
		hi = sz > hi ? sz : hi;
	}
	/* Each distinct size once, ascending. */
	for (;;) {
		unsigned int next = UINT_MAX;

		for (k = 0; k < r->nb_runs; k++)
			if (r->run[k].frame_size > prev && r->run[k].frame_size < next)
				next = r->run[k].frame_size;
		if (next == UINT_MAX)
			break;
		fprintf(f, "%s%u", prev ? ", " : "", next);
		prev = next;
	}
	fprintf(f, ")\nset xrange [%g:%g]\n", lo / 1.25, hi * 1.25);
}

int
rep_gp_run(const char *dir, const char *gnuplot, const char *script_name,
		struct wr_error *err)
{
	char prog[PATH_MAX], script[PATH_MAX];
	char *argv[] = { prog, script, NULL };
	posix_spawn_file_actions_t fa;
	int rc, status;
	pid_t pid;

	snprintf(prog, sizeof(prog), "%s", gnuplot);
	snprintf(script, sizeof(script), "%s", script_name);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addchdir_np(&fa, dir);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "gnuplot.log",
		O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	rc = posix_spawnp(&pid, prog, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return wr_err_env(err, -rc, "cannot run %s: %s%s", gnuplot, strerror(rc),
			rc == ENOENT ? " (install gnuplot-nox, as scripts/lib/"
			"setup.sh does, or give --no-plots)" : "");
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
			WEXITSTATUS(status) != 0)
		return wr_err_env(err, -EIO, "%s failed on %s/%s: see %s/gnuplot.log",
			gnuplot, dir, script_name, dir);
	return 0;
}
