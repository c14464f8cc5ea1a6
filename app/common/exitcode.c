/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "exitcode.h"

int
app_exit_code(const struct wr_error *e)
{
	if (e == NULL)
		return APP_EXIT_FAILED;
	switch (e->cls) {
	case WR_ERR_USAGE:
		return APP_EXIT_USAGE;
	case WR_ERR_ENV:
	case WR_ERR_FAIL:
	case WR_ERR_NONE:
		break;
	}
	return APP_EXIT_FAILED;
}

int
app_error(const char *prog, const struct wr_error *e)
{
	fprintf(stderr, "%s: error: %s\n", prog,
		e != NULL && e->msg[0] != '\0' ? e->msg : "failed (no message)");
	return app_exit_code(e);
}

int
app_usage_error(const char *prog, const char *fmt, ...)
{
	struct wr_error e;
	va_list ap;

	va_start(ap, fmt);
	wr_err_vset(&e, WR_ERR_USAGE, -EINVAL, fmt, ap);
	va_end(ap);
	return app_error(prog, &e);
}
