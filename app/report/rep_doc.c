/* SPDX-License-Identifier: BSD-3-Clause */
/* The tables of a report's document: appended one by one, freed together. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "rep_doc.h"

struct rep_table *
rep_table_new(struct rep_doc *doc, unsigned int rows, const char *fmt, ...)
{
	struct rep_table *t;
	va_list ap;

	if (doc->nb_tables == RTE_DIM(doc->tables))
		return NULL;
	t = &doc->tables[doc->nb_tables];
	memset(t, 0, sizeof(*t));
	t->cell = calloc(rows ? rows : 1, sizeof(*t->cell));
	if (t->cell == NULL)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(t->title, sizeof(t->title), fmt, ap);
	va_end(ap);
	t->nb_rows = rows;
	doc->nb_tables++;
	return t;
}

void
rep_doc_free(struct rep_doc *doc)
{
	unsigned int i;

	for (i = 0; i < doc->nb_tables; i++)
		free(doc->tables[i].cell);
	doc->nb_tables = 0;
}
