/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

void
wr_err_clear(struct wr_error *e)
{
	if (e == NULL)
		return;
	e->cls = WR_ERR_NONE;
	e->errnum = 0;
	e->msg[0] = '\0';
}

/* Bytes of the UTF-8 sequence lead byte b starts; 0: not a lead byte. */
static unsigned int
utf8_seq_len(unsigned char b)
{
	if (b < 0x80)
		return 1;
	if ((b & 0xe0) == 0xc0)
		return 2;
	if ((b & 0xf0) == 0xe0)
		return 3;
	if ((b & 0xf8) == 0xf0)
		return 4;
	return 0;
}

void
wr_err_utf8_trim(char *msg)
{
	size_t n = strlen(msg), i = n;

	/* Back over at most 3 continuation bytes (10xxxxxx) to a lead byte. */
	while (i > 0 && n - i < 3 && ((unsigned char)msg[i - 1] & 0xc0) == 0x80)
		i--;
	if (i == 0)
		return;
	if (utf8_seq_len((unsigned char)msg[i - 1]) > n - i + 1)
		msg[i - 1] = '\0';
}

int
wr_err_vset(struct wr_error *e, enum wr_err_class cls, int rc,
		const char *fmt, va_list ap)
{
	if (e == NULL)
		return rc;
	e->cls = cls;
	e->errnum = rc < 0 ? -rc : rc;
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	wr_err_utf8_trim(e->msg);
	return rc;
}

int
wr_err_set(struct wr_error *e, enum wr_err_class cls, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rc = wr_err_vset(e, cls, rc, fmt, ap);
	va_end(ap);
	return rc;
}

int
wr_err_prefix(struct wr_error *e, const char *fmt, ...)
{
	char head[WR_ERROR_MSG_LEN];
	size_t h, body;
	va_list ap;

	if (e == NULL)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	h = strlen(head);
	if (h >= sizeof(e->msg) - 1)
		h = sizeof(e->msg) - 1;
	/* The message moves right by h; what no longer fits is cut. */
	body = strnlen(e->msg, sizeof(e->msg) - 1);
	if (body > sizeof(e->msg) - 1 - h)
		body = sizeof(e->msg) - 1 - h;
	memmove(e->msg + h, e->msg, body);
	memcpy(e->msg, head, h);
	e->msg[h + body] = '\0';
	wr_err_utf8_trim(e->msg);
	return e->errnum != 0 ? -e->errnum : -EINVAL;
}

const char *
wr_err_class_name(enum wr_err_class cls)
{
	switch (cls) {
	case WR_ERR_USAGE: return "usage";
	case WR_ERR_ENV: return "environment";
	case WR_ERR_FAIL: return "failure";
	case WR_ERR_NONE: break;
	}
	return "none";
}
