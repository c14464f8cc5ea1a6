/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clocksync.h"

/* chronyc -c tracking: the fields of its one CSV line (chronyc(1)). */
enum {
	CH_REF_ID, CH_REF_NAME, CH_STRATUM, CH_REF_TIME, CH_SYSTEM_TIME,
	CH_LAST_OFFSET, CH_RMS_OFFSET, CH_FREQ, CH_RESID_FREQ, CH_SKEW,
	CH_ROOT_DELAY, CH_ROOT_DISP, CH_UPDATE, CH_LEAP, CH_NB_FIELDS
};

const char *
wr_clocksync_source_name(enum wr_clocksync_source s)
{
	switch (s) {
	case WR_CLOCKSYNC_PTP: return "ptp";
	case WR_CLOCKSYNC_CHRONY: return "chrony";
	default: return "none";
	}
}

void
wr_clocksync_unsynced(struct wr_clocksync *cs, enum wr_clocksync_source s,
		const char *fmt, ...)
{
	va_list ap;

	cs->source = s;
	cs->synced = false;
	cs->bound_ns = 0;
	va_start(ap, fmt);
	vsnprintf(cs->reason, sizeof(cs->reason), fmt, ap);
	va_end(ap);
}

/* A number of seconds (chrony) as ns; -EINVAL when not a number. */
static int
seconds_ns(const char *s, double *ns)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end != '\0' || !isfinite(v))
		return -EINVAL;
	*ns = v * 1e9;
	return 0;
}

/* Split the line at commas into f[]; returns the number of fields. */
static unsigned int
split_csv(char *line, char **f, unsigned int max)
{
	unsigned int n = 0;
	char *p = line;

	for (;;) {
		if (n == max)
			return max + 1;
		f[n++] = p;
		p = strchr(p, ',');
		if (p == NULL)
			return n;
		*p++ = '\0';
	}
}

int
wr_clocksync_parse_chrony(const char *text, struct wr_clocksync *cs)
{
	char line[512], *f[CH_NB_FIELDS + 1];
	double root_delay, root_disp;
	size_t len;

	memset(cs, 0, sizeof(*cs));
	snprintf(line, sizeof(line), "%s", text);
	len = strcspn(line, "\r\n");
	line[len] = '\0';
	if (split_csv(line, f, CH_NB_FIELDS) != CH_NB_FIELDS ||
			seconds_ns(f[CH_SYSTEM_TIME], &cs->offset_ns) != 0 ||
			seconds_ns(f[CH_ROOT_DELAY], &root_delay) != 0 ||
			seconds_ns(f[CH_ROOT_DISP], &root_disp) != 0) {
		wr_clocksync_unsynced(cs, WR_CLOCKSYNC_CHRONY, "chronyc tracking: not "
			"the %u fields of -c output: \"%.60s\"", CH_NB_FIELDS, text);
		return -EINVAL;
	}
	cs->delay_ns = root_delay;
	snprintf(cs->detail, sizeof(cs->detail), "leap status %.24s, reference %.8s%s"
		"%.48s, stratum %.4s", f[CH_LEAP], f[CH_REF_ID], f[CH_REF_NAME][0] ? " " : "",
		f[CH_REF_NAME], f[CH_STRATUM]);
	if (strcmp(f[CH_LEAP], "Not synchronised") == 0) {
		wr_clocksync_unsynced(cs, WR_CLOCKSYNC_CHRONY, "chrony: leap status Not "
			"synchronised (no selected source)");
		return 0;
	}
	cs->source = WR_CLOCKSYNC_CHRONY;
	cs->synced = true;
	/* chronyc(1): |system time| + root delay / 2 + root dispersion. */
	cs->bound_ns = fabs(cs->offset_ns) + root_delay / 2 + root_disp;
	return 0;
}

/*
 * The value after "key" on a line of pmc's answer (blank-separated), in
 * buf; -ENOENT when no line has it.
 */
static int
pmc_field(const char *text, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *p = text;

	while ((p = strstr(p, key)) != NULL) {
		const char *q = p + klen;
		bool at_start = p == text || p[-1] == '\t' || p[-1] == ' ' || p[-1] == '\n';

		p = q;
		if (!at_start || (*q != ' ' && *q != '\t'))
			continue;
		q += strspn(q, " \t");
		snprintf(buf, len, "%.*s", (int)strcspn(q, " \t\r\n"), q);
		return 0;
	}
	return -ENOENT;
}

static int
pmc_number(const char *text, const char *key, double *v)
{
	char buf[64], *end;

	if (pmc_field(text, key, buf, sizeof(buf)) != 0)
		return -ENOENT;
	*v = strtod(buf, &end);
	return end == buf || !isfinite(*v) ? -EINVAL : 0;
}

/* A port MASTER with no other grandmaster: this host is the reference. */
static int
pmc_master(const char *text, struct wr_clocksync *cs)
{
	char gm[64] = "";

	pmc_field(text, "gmPresent", gm, sizeof(gm));
	if (strcmp(gm, "false") != 0) {
		wr_clocksync_unsynced(cs, WR_CLOCKSYNC_PTP, "ptp: port MASTER but a "
			"grandmaster is present (gmPresent %.16s)", gm[0] ? gm : "unknown");
		return 0;
	}
	pmc_field(text, "gmIdentity", gm, sizeof(gm));
	snprintf(cs->detail, sizeof(cs->detail), "port MASTER, this host is the "
		"grandmaster %.40s", gm);
	snprintf(cs->reference, sizeof(cs->reference), "%.40s", gm);
	cs->source = WR_CLOCKSYNC_PTP;
	cs->synced = true;
	cs->bound_ns = 0;
	return 0;
}

int
wr_clocksync_parse_pmc(const char *text, struct wr_clocksync *cs)
{
	char state[32], ts[32] = "", gm[64] = "";

	memset(cs, 0, sizeof(*cs));
	if (pmc_field(text, "portState", state, sizeof(state)) != 0) {
		wr_clocksync_unsynced(cs, WR_CLOCKSYNC_PTP, "ptp: no answer from ptp4l "
			"(pmc printed no PORT_DATA_SET)");
		return -EINVAL;
	}
	pmc_field(text, "timestamping", ts, sizeof(ts));
	if (strcmp(ts, "HARDWARE") == 0 || strcmp(ts, "ONESTEP") == 0) {
		wr_clocksync_unsynced(cs, WR_CLOCKSYNC_PTP, "ptp: ptp4l timestamps in "
			"hardware: it disciplines the NIC's clock (PHC), and phc2sys's "
			"hold of the system clock on it is not read here");
		return 0;
	}
	if (strcmp(state, "MASTER") == 0 || strcmp(state, "GRAND_MASTER") == 0)
		return pmc_master(text, cs);
	if (strcmp(state, "SLAVE") != 0) {
		wr_clocksync_unsynced(cs, WR_CLOCKSYNC_PTP, "ptp: port state %.24s (not "
			"SLAVE: its servo is not locked to a grandmaster)", state);
		return 0;
	}
	pmc_field(text, "gmPresent", gm, sizeof(gm));
	if (strcmp(gm, "true") != 0 || pmc_number(text, "offsetFromMaster",
			&cs->offset_ns) != 0 || pmc_number(text, "meanPathDelay",
			&cs->delay_ns) != 0) {
		wr_clocksync_unsynced(cs, WR_CLOCKSYNC_PTP, "ptp: port SLAVE but %s",
			strcmp(gm, "true") != 0 ? "no grandmaster present" :
			"no CURRENT_DATA_SET (offsetFromMaster, meanPathDelay)");
		return 0;
	}
	pmc_field(text, "gmIdentity", gm, sizeof(gm));
	snprintf(cs->reference, sizeof(cs->reference), "%.40s", gm);
	snprintf(cs->detail, sizeof(cs->detail), "port SLAVE of grandmaster %.40s, "
		"offset %.0f ns, mean path delay %.0f ns", gm, cs->offset_ns,
		cs->delay_ns);
	cs->source = WR_CLOCKSYNC_PTP;
	cs->synced = true;
	cs->bound_ns = fabs(cs->offset_ns) + fabs(cs->delay_ns);
	return 0;
}
