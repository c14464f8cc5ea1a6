/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The plan before a run and the summary after it (view.c), and the table
 * lines they share with the live view (live.c).
 */
#ifndef WR_APP_VIEW_H
#define WR_APP_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/cpu.h"
#include "measure/stats.h"
#include "setup/run.h"
#include "stats/cputrack.h"

/* At this width and above, the port table shows L1 and L2 Gb/s (92 columns). */
#define VIEW_WIDE_COLS 100u
#define VIEW_FIG_LEN 32u

/* Columns of the terminal f is (TIOCGWINSZ), else $COLUMNS, else 80. */
unsigned int view_width(FILE *f);

/*
 * The port table: narrow (75 columns: Mpps and L1 Gb/s each way) or wide
 * (92: L1 and L2). Rates come from r, the refused/missed/errors counts
 * from c.
 */
void view_port_header(FILE *f, bool wide);
/* Under a port table: each port with no wire (ring, null, memif...) named,
 * its Gb/s said to be bytes passed in memory, not a NIC's line rate. */
void view_no_wire_note(FILE *f, const struct wr_run *run);
void view_port_line(FILE *f, bool wide, uint16_t port_id,
		const struct wr_port_rates *r, const struct wr_port_counters *c);

/* CPU cost per worker lcore, then per port (53 and 39 columns). */
void view_cpu_header(FILE *f);
void view_cpu_line(FILE *f, unsigned int lcore, const struct wr_cpu_cost *c);
void view_port_cpu_header(FILE *f);
void view_port_cpu_line(FILE *f, uint16_t port_id, const struct wr_cpu_port *p);

/* Describe ports, adaptations and the lcore plan before the run. */
void app_view_plan(FILE *f, const struct wr_run *run);

/* The final summary: per-port totals, streams, accounting. */
void app_view_summary(FILE *f, const struct wr_run *run);

#endif /* WR_APP_VIEW_H */
