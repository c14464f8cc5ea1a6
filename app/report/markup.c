/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>

#include "markup.h"

/*
 * Text for XML (JUnit) and HTML (reports), attribute or element: the five
 * predefined entities; control characters XML 1.0 forbids are dropped.
 */
void
app_markup_text(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			/* XML 1.0 forbids most control characters. */
			if ((unsigned char)*s >= 0x20 || *s == '\t' || *s == '\n')
				fputc(*s, f);
			break;
		}
	}
}
