/* SPDX-License-Identifier: BSD-3-Clause */
/* The RFC 2889 results' tables of `wirerate report` (report_mesh.c). */
#ifndef WR_APP_REPORT_MESH_H
#define WR_APP_REPORT_MESH_H

#include "rep.h"
#include "rep_doc.h"

/*
 * Append, per RFC 2889 result file: of --mode mesh, its trials (with
 * 5.5's verdicts), the ports of its last trial (forwarding rate, MFR,
 * latency) and its pairs; of the address modes, their trials. Files past
 * the room of one report (its 32 tables) are left to the kind's table.
 * Returns 0 or -ENOMEM.
 */
int rep_mesh_tables(const struct rep *r, struct rep_doc *doc);

#endif /* WR_APP_REPORT_MESH_H */
