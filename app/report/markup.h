/* SPDX-License-Identifier: BSD-3-Clause */
/* Text for XML (JUnit) and HTML (reports) (markup.c). */
#ifndef WR_APP_MARKUP_H
#define WR_APP_MARKUP_H

#include <stdio.h>

/* Write s escaped for XML or HTML text and attributes. */
void app_markup_text(FILE *f, const char *s);

#endif /* WR_APP_MARKUP_H */
