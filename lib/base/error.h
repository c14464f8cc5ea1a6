/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/ never prints: a failing function fills the caller's struct wr_error
 * and returns a negative errno. The error carries its class apart from the
 * errno, chosen where the failure is understood; app/ turns the class
 * into the exit code in one place (app_exit_code), so no layer in between
 * remaps an errno to steer the exit code.
 */
#ifndef WR_ERROR_H
#define WR_ERROR_H

#include <stdarg.h>

#include <rte_common.h>

/* What kind of failure, for the exit code and the reader. */
enum wr_err_class {
	WR_ERR_NONE = 0,  /* nothing recorded */
	WR_ERR_USAGE,     /* the request is wrong: an option, profile, value or
			   * input file; fixing the command line fixes it */
	WR_ERR_ENV,       /* the machine cannot do what was asked: memory,
			   * a device that will not configure, an lcore busy,
			   * a file that cannot be written */
	WR_ERR_FAIL,      /* the run itself failed (a port stopped, frames
			   * not accounted for, a trial that did not end) */
};

/* Room for a message with its context (file:line, option, port). */
#define WR_ERROR_MSG_LEN 1024

/* One error: the class, the errno (positive, 0 if none) and the message. */
struct wr_error {
	enum wr_err_class cls;
	int errnum;
	char msg[WR_ERROR_MSG_LEN];
};

/* Empty e (class WR_ERR_NONE, no message). e may be NULL. */
void wr_err_clear(struct wr_error *e);

/*
 * Record an error of class cls with errno -rc and the formatted message.
 * Returns rc (a negative errno), so a site writes
 * "return wr_err_usage(err, -EINVAL, ...)". e may be NULL (nothing kept).
 */
int wr_err_vset(struct wr_error *e, enum wr_err_class cls, int rc,
		const char *fmt, va_list ap) __rte_format_printf(4, 0);
int wr_err_set(struct wr_error *e, enum wr_err_class cls, int rc,
		const char *fmt, ...) __rte_format_printf(4, 5);

/*
 * wr_err_set with the class in the name, as sites write them:
 * "return wr_err_usage(err, -EINVAL, "--size %s: ...", v)". Usage: the
 * request is wrong; env: the machine cannot do it; fail: the run failed.
 */
#define wr_err_usage(e, rc, ...) wr_err_set((e), WR_ERR_USAGE, (rc), __VA_ARGS__)
#define wr_err_env(e, rc, ...) wr_err_set((e), WR_ERR_ENV, (rc), __VA_ARGS__)
#define wr_err_fail(e, rc, ...) wr_err_set((e), WR_ERR_FAIL, (rc), __VA_ARGS__)

/*
 * Put context before e's message ("file:12: " + message), keeping its
 * class and errno. Returns -e->errnum (-EINVAL if e had none recorded).
 */
int wr_err_prefix(struct wr_error *e, const char *fmt, ...)
	__rte_format_printf(2, 3);

/*
 * Cut msg back to the end of its last whole UTF-8 character when it ends
 * inside one (a message cut at WR_ERROR_MSG_LEN through vsnprintf), so
 * that JSON can carry it. wr_err_vset and wr_err_prefix do it; a site
 * that formats into its own buffer calls it. This function can't fail.
 */
void wr_err_utf8_trim(char *msg);

/* "usage", "environment", "failure" or "none". Never NULL. */
const char *wr_err_class_name(enum wr_err_class cls);

#endif /* WR_ERROR_H */
