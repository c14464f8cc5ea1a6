/* SPDX-License-Identifier: BSD-3-Clause */
/* Result tables of MLRsearch and of latency under load (view_methods.c),
 * of Y.1564 and of the RFC 2889 address modes. */
#ifndef WR_APP_VIEW_METHODS_H
#define WR_APP_VIEW_METHODS_H

#include <stdio.h>

#include <jansson.h>

/* The --mode mlr table: per size and goal. */
void app_view_mlr(FILE *f, const json_t *results);

/* Latency under load per size, when the results have it. */
void app_view_lat_load(FILE *f, const json_t *results);

/* The --mode y1564 tables of a result's "y1564" (view_y1564.c). */
void app_view_y1564(FILE *f, const json_t *y);

/* The --mode addr-* tables of a result's "rfc2889" (view_rfc2889.c). */
void app_view_rfc2889(FILE *f, const json_t *y);

/* The --mode mesh tables of a result's "rfc2889" (view_mesh.c). */
void app_view_mesh(FILE *f, const json_t *y);

#endif /* WR_APP_VIEW_METHODS_H */
