/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reading this host's clock synchronisation (--clock-sync): runs the
 * daemon's own tool (pmc of linuxptp, chronyc of chrony) and parses its
 * answer (measure/clocksync.h); and the TSC / system-clock anchor a
 * result carries. wr_clockread runs a tool (milliseconds): at set-up,
 * before any worker polls. No printing.
 */
#ifndef WR_CLOCKREAD_H
#define WR_CLOCKREAD_H

#include "config/config.h"
#include "measure/clocksync.h"

/* ptp4l's and chronyd's command sockets when --clock-sync names none. */
#define WR_CLOCKREAD_PTP_SOCK "/var/run/ptp4l"
#define WR_CLOCKREAD_CHRONY_SOCK "/run/chrony/chronyd.sock"

/*
 * Fill cs with the state of cfg->clock_sync's source: none (not read),
 * ptp or chrony (their tool's answer, or why it gave none: tool missing,
 * no daemon at the socket), auto (ptp4l where its socket exists, else
 * chronyd where its socket exists, else none with that reason). This
 * function can't fail: what went wrong is cs->reason.
 */
void wr_clockread(const struct wr_config *cfg, struct wr_clocksync *cs);

/* Read the TSC and the system clock at one instant. This function can't fail. */
void wr_clock_anchor(struct wr_clock_anchor *a);

#endif /* WR_CLOCKREAD_H */
