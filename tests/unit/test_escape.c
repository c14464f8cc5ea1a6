/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Strings from result files through the report writers' escaping
 * (app/report/gnuplot.c, app/report/markup.c): random strings, each
 * decoded back by an independent reader written here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/gnuplot.h"
#include "report/markup.h"
#include "wr_test.h"

#define NB_STRINGS 20000
#define MAX_LEN 40

/* Random bytes, weighted to the ones that matter to gnuplot and HTML. */
static void
random_string(uint64_t *st, char *s)
{
	static const char special[] = "'\"`$(){}^_@&<>\\\n\r\t;#";
	unsigned int n = (unsigned int)(wr_test_prng(st) % MAX_LEN), i;

	for (i = 0; i < n; i++) {
		uint64_t r = wr_test_prng(st);

		s[i] = r % 2 ? special[(r >> 8) % (sizeof(special) - 1)] :
			(char)(1 + (r >> 8) % 255);
	}
	s[n] = '\0';
}

static char *
capture(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, s);
	fclose(f);
	return buf;
}

/* One gnuplot single-quoted string: '' the only escape, no control byte. */
static int
gp_decode(const char *q, char *out)
{
	size_t i = 1, n = strlen(q), o = 0;

	if (n < 2 || q[0] != '\'' || q[n - 1] != '\'')
		return -1;
	for (; i < n - 1; i++) {
		if ((unsigned char)q[i] < 0x20 || q[i] == 0x7f)
			return -1;
		if (q[i] == '\'') {
			if (i + 1 >= n - 1 || q[i + 1] != '\'')
				return -1;
			i++;
		}
		out[o++] = q[i];
	}
	out[o] = '\0';
	return 0;
}

static void
test_gnuplot_string(void)
{
	uint64_t st = 0x5eed;
	char s[MAX_LEN + 1], got[4 * MAX_LEN + 8], want[MAX_LEN + 1];
	unsigned int k, i;

	for (k = 0; k < NB_STRINGS; k++) {
		char *q;

		random_string(&st, s);
		q = capture(rep_gp_string, s);
		for (i = 0; s[i] != '\0'; i++)
			want[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? ' ' : s[i];
		want[i] = '\0';
		WR_CHECK(gp_decode(q, got) == 0);
		WR_CHECK_STR(got, want);
		free(q);
	}
}

/* HTML text: no raw < > & " ', entities decode back to the input. */
static void
test_markup_text(void)
{
	static const char *const ent[][2] = {
		{ "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" },
		{ "&quot;", "\"" }, { "&apos;", "'" },
	};
	uint64_t st = 0xbeef;
	char s[MAX_LEN + 1], got[MAX_LEN + 1], want[MAX_LEN + 1];
	unsigned int k, i, o;

	for (k = 0; k < NB_STRINGS; k++) {
		char *h, *p;

		random_string(&st, s);
		h = capture(app_markup_text, s);
		WR_CHECK(strpbrk(h, "<>\"'") == NULL);
		for (o = 0, p = h; *p != '\0' && o < MAX_LEN;) {
			for (i = 0; i < 5 && *p == '&'; i++)
				if (strncmp(p, ent[i][0], strlen(ent[i][0])) == 0)
					break;
			if (*p == '&') {
				WR_CHECK(i < 5);
				if (i == 5)
					break;
				got[o++] = ent[i][1][0];
				p += strlen(ent[i][0]);
			} else {
				got[o++] = *p++;
			}
		}
		got[o] = '\0';
		for (o = 0, i = 0; s[i] != '\0'; i++)
			if ((unsigned char)s[i] >= 0x20 || s[i] == '\t' || s[i] == '\n')
				want[o++] = s[i];
		want[o] = '\0';
		WR_CHECK_STR(got, want);
		free(h);
	}
}

int
main(void)
{
	WR_TEST_RUN(test_gnuplot_string);
	WR_TEST_RUN(test_markup_text);
	return wr_test_summary();
}
