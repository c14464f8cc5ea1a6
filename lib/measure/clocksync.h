/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A host's clock synchronisation as its daemon reports it, and the bound
 * it gives on the error of the host's system clock: what a result needs
 * before it may compare a sender's clock with a receiver's on another
 * host (one-way latency, docs/testbeds.md). Pure: the parsers read the
 * text the daemons' own tools print, captured by the caller
 * (setup/clockread.c); no EAL, no printing.
 *
 * chrony (`chronyc -c tracking`): synchronised when the leap status is
 * not "Not synchronised"; the bound is chrony's own
 *     |system time offset| + root delay / 2 + root dispersion
 * (chronyc(1), "tracking": an absolute bound on the clock's error,
 * assuming the stratum-1 source is correct).
 *
 * linuxptp (`pmc -u -b 0 'GET TIME_STATUS_NP' 'GET PORT_DATA_SET'
 * 'GET CURRENT_DATA_SET'`): synchronised when a port is SLAVE (its servo
 * locked to a grandmaster that is present), bound |offsetFromMaster| +
 * meanPathDelay (a path whose delay is all one way shifts the offset by
 * at most the mean path delay: IEEE 1588's delay asymmetry); or when this
 * host is the grandmaster (a port MASTER, no other grandmaster present):
 * the reference itself, bound 0. A PHC-timestamping ptp4l disciplines the
 * NIC's clock, not the system clock: then phc2sys must hold the system
 * clock to it, and the caller adds what phc2sys reports.
 */
#ifndef WR_CLOCKSYNC_H
#define WR_CLOCKSYNC_H

#include <stdbool.h>
#include <stdint.h>

#define WR_CLOCKSYNC_TEXT 160u

enum wr_clocksync_source {
	WR_CLOCKSYNC_NONE = 0,  /* not read, or no daemon found */
	WR_CLOCKSYNC_PTP,
	WR_CLOCKSYNC_CHRONY,
};

/* What one host's daemon said. */
struct wr_clocksync {
	enum wr_clocksync_source source;
	bool synced;
	double bound_ns;        /* error bound of the system clock; synced only */
	double offset_ns;       /* last offset from the reference, signed */
	double delay_ns;        /* path delay (ptp) or root delay (chrony) */
	char detail[WR_CLOCKSYNC_TEXT];  /* state as read, for people */
	char reference[64];     /* ptp: the grandmaster's identity the clock
	                         * follows (its own when it is the grandmaster);
	                         * "" where the source names none */
	char reason[WR_CLOCKSYNC_TEXT];  /* why not synchronised; "" when synced */
};

/*
 * The TSC and the system clock (CLOCK_REALTIME) read at one instant: how
 * a result ties its TSC stamps to the synchronised clock. The TSC is read
 * before and after the system clock; tsc is their midpoint and read_ns
 * half their distance, the pair's own uncertainty.
 */
struct wr_clock_anchor {
	uint64_t tsc;
	int64_t realtime_ns;
	double read_ns;
};

/* "ptp", "chrony" or "none". This function can't fail. */
const char *wr_clocksync_source_name(enum wr_clocksync_source s);

/*
 * Parse the one line of `chronyc -c tracking` into cs (source chrony).
 * Returns 0 (cs->synced says whether chrony is synchronised, cs->reason
 * why not), or -EINVAL when the text is not that line (cs->reason says
 * what was wrong with it, cs->synced false).
 */
int wr_clocksync_parse_chrony(const char *text, struct wr_clocksync *cs);

/*
 * Parse pmc's answers to GET TIME_STATUS_NP, PORT_DATA_SET and
 * CURRENT_DATA_SET into cs (source ptp), as the header describes.
 * Returns 0, or -EINVAL when no answer is in the text (ptp4l not
 * running there, or not answering), with cs->reason.
 */
int wr_clocksync_parse_pmc(const char *text, struct wr_clocksync *cs);

/*
 * Mark cs not synchronised, from source s, with the reason given
 * (printf-style). This function can't fail.
 */
void wr_clocksync_unsynced(struct wr_clocksync *cs, enum wr_clocksync_source s,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif /* WR_CLOCKSYNC_H */
