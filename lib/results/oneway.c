/* SPDX-License-Identifier: BSD-3-Clause */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "base/jsonw.h"
#include "oneway.h"

/* The stamps are the low 32 bits of the TSC (docs/accounting.md). */
#define STAMP_WRAP 4294967296.0
/* TSC rates that differ by more than this are not one clock's. */
#define MAX_HZ_DIFF 1e-4
/* Anchors closer than this (ns) measure no rate. */
#define MIN_RATE_SPAN_NS 1e6

static void __attribute__((format(printf, 2, 3)))
no(struct wr_oneway *ow, const char *fmt, ...)
{
	va_list ap;

	ow->available = false;
	va_start(ap, fmt);
	vsnprintf(ow->reason, sizeof(ow->reason), fmt, ap);
	va_end(ap);
}

static const char *
str_at(const json_t *o, const char *a, const char *b)
{
	const json_t *v = json_object_get(json_object_get(o, a), b);

	return json_is_string(v) ? json_string_value(v) : "";
}

/* env.clock.source, "?" when missing. */
static const char *
source_of(const json_t *clock)
{
	const char *s = json_string_value(json_object_get(clock, "source"));

	return s != NULL ? s : "?";
}

/* One end's TSC rate (env.tsc_hz), 0 when missing. */
static double
hz_of(const json_t *doc)
{
	const json_t *v = json_object_get(json_object_get(doc, "env"), "tsc_hz");

	return json_is_integer(v) && json_integer_value(v) > 0 ?
		(double)json_integer_value(v) : 0;
}

struct anchor {
	int64_t tsc;
	int64_t real_ns;
	double read_ns;
};

/* Anchor i of env.clock.anchors; -1 when missing. */
static int
anchor_at(const json_t *clock, size_t i, struct anchor *a)
{
	const json_t *e = json_array_get(json_object_get(clock, "anchors"), i);
	const json_t *t = json_object_get(e, "tsc"), *r = json_object_get(e, "realtime_ns");

	if (!json_is_integer(t) || !json_is_integer(r))
		return -1;
	a->tsc = (int64_t)json_integer_value(t);
	a->real_ns = (int64_t)json_integer_value(r);
	a->read_ns = json_number_value(json_object_get(e, "read_ns"));
	return 0;
}

/* Is one end's clock synchronised? Else say why, naming the end. */
static bool
end_synced(struct wr_oneway *ow, const json_t *clock, const char *end)
{
	const char *why;

	if (!json_is_object(clock)) {
		no(ow, "the %s's result has no env.clock (a wirerate before "
			"--clock-sync)", end);
		return false;
	}
	if (json_is_true(json_object_get(clock, "synced")) &&
			json_is_number(json_object_get(clock, "bound_ns")))
		return true;
	why = json_string_value(json_object_get(clock, "reason"));
	no(ow, "the %s's clock is not synchronised: %s", end, why ? why : "no reason");
	return false;
}

/*
 * One end's TSC rate against its synchronised clock (cycles per ns), and
 * its relative uncertainty: measured between its anchors when they are
 * MIN_RATE_SPAN_NS apart or more (the reads' uncertainty over the span),
 * else the nominal env.tsc_hz, uncertain by MAX_HZ_DIFF.
 */
static void
end_rate(const struct anchor a[2], unsigned int n, double hz, double *rate, double *u)
{
	double span = n == 2 ? (double)(a[1].real_ns - a[0].real_ns) : 0;

	*rate = hz / 1e9;
	*u = MAX_HZ_DIFF;
	if (span < MIN_RATE_SPAN_NS)
		return;
	*rate = (double)(a[1].tsc - a[0].tsc) / span;
	*u = (a[0].read_ns + a[1].read_ns) / span;
}

/*
 * off (the receiver's TSC minus the sender's at one instant, receiver
 * cycles) from the pair of anchors nearest in time, the receiver's TSC
 * carried to the sender's instant at its own rate; and what it adds to
 * the bound (ns): the pair's reads, the carrying's uncertainty, and how
 * far the two TSCs may drift apart over the sender's anchors' span (the
 * frames lie within it): their rates' difference and uncertainties.
 */
static int
offsets(struct wr_oneway *ow, const json_t *cs, const json_t *cr, double hz_s,
		double *err_ns)
{
	struct anchor s[2], r[2];
	double rate_s, rate_r, u_s, u_r, gap, window;
	unsigned int i, n = 2, k = 0;

	if (anchor_at(cs, 0, &s[0]) != 0 || anchor_at(cr, 0, &r[0]) != 0) {
		no(ow, "an end's env.clock has no anchors");
		return -1;
	}
	if (anchor_at(cs, 1, &s[1]) != 0 || anchor_at(cr, 1, &r[1]) != 0)
		n = 1;
	end_rate(s, n, hz_s, &rate_s, &u_s);
	end_rate(r, n, ow->hz, &rate_r, &u_r);
	for (i = 1; i < n; i++)
		if (llabs(s[i].real_ns - r[i].real_ns) < llabs(s[k].real_ns - r[k].real_ns))
			k = i;
	gap = (double)(s[k].real_ns - r[k].real_ns);
	ow->shift_cycles = (double)(r[k].tsc - s[k].tsc) + gap * rate_r;
	window = n == 2 ? (double)(s[1].real_ns - s[0].real_ns) : 0;
	*err_ns = s[k].read_ns + r[k].read_ns + fabs(gap) * u_r +
		window * (fabs(rate_r - rate_s) / rate_r + u_r + u_s);
	return 0;
}

/*
 * Do the two clocks follow one reference? Each end's bound is its distance
 * from its own reference (0 for a PTP grandmaster: it is the reference),
 * so two ends that follow different grandmasters are not in sync with each
 * other however small their bounds. Only where both name one (ptp's
 * gmIdentity) can it be checked; else taken as one reference.
 */
static bool
same_reference(struct wr_oneway *ow, const json_t *cs, const json_t *cr)
{
	const char *a = json_string_value(json_object_get(cs, "reference"));
	const char *b = json_string_value(json_object_get(cr, "reference"));

	if (a == NULL || b == NULL || strcmp(a, b) == 0)
		return true;
	no(ow, "the ends' clocks follow different references (sender %.40s, "
		"receiver %.40s): each is synchronised, not to the other", a, b);
	return false;
}

/* --latency sync: both clocks synchronised, one TSC rate, anchors. */
static void
judge_sync(const json_t *snd, const json_t *rcv, struct wr_oneway *ow)
{
	const json_t *cs = json_object_get(json_object_get(snd, "env"), "clock");
	const json_t *cr = json_object_get(json_object_get(rcv, "env"), "clock");
	double hz_s = hz_of(snd), err_ns;

	if (!end_synced(ow, cs, "sender") || !end_synced(ow, cr, "receiver") ||
			!same_reference(ow, cs, cr))
		return;
	if (ow->hz == 0 || hz_s == 0 || fabs(hz_s - ow->hz) / ow->hz > MAX_HZ_DIFF) {
		no(ow, "the ends' TSC rates differ (sender %.0f Hz, receiver %.0f Hz): "
			"the frames carry the sender's cycles, the receiver counts its "
			"own", hz_s, ow->hz);
		return;
	}
	if (offsets(ow, cs, cr, hz_s, &err_ns) != 0)
		return;
	snprintf(ow->source, sizeof(ow->source), "%.24s + %.24s", source_of(cs),
		source_of(cr));
	ow->bound_ns = json_number_value(json_object_get(cs, "bound_ns")) +
		json_number_value(json_object_get(cr, "bound_ns")) + err_ns;
	ow->synced_clocks = true;
	ow->available = true;
}

void
wr_oneway_judge(const json_t *snd, const json_t *rcv, struct wr_oneway *ow)
{
	memset(ow, 0, sizeof(*ow));
	snprintf(ow->clock, sizeof(ow->clock), "%s", str_at(rcv, "config", "latency"));
	ow->hz = hz_of(rcv);
	ow->asked = strcmp(ow->clock, "tsc") == 0 || strcmp(ow->clock, "sync") == 0;
	if (!ow->asked) {
		no(ow, "the receiver measured no latency of another process's frames "
			"(--latency %s; across hosts: --latency sync)",
			ow->clock[0] ? ow->clock : "unknown");
		return;
	}
	if (strcmp(ow->clock, "tsc") == 0) {
		/* The user's assertion: both ends on one host, one TSC. */
		snprintf(ow->source, sizeof(ow->source), "tsc");
		ow->available = true;
		return;
	}
	judge_sync(snd, rcv, ow);
}

double
wr_oneway_fix(const struct wr_oneway *ow, double ns)
{
	double cycles;

	if (!ow->synced_clocks)
		return ns;
	cycles = fmod(ns * ow->hz / 1e9 - ow->shift_cycles, STAMP_WRAP);
	if (cycles < 0)
		cycles += STAMP_WRAP;
	return cycles * 1e9 / ow->hz;
}

bool
wr_oneway_span_ok(const struct wr_oneway *ow, double min_ns, double max_ns)
{
	return wr_oneway_fix(ow, min_ns) <= wr_oneway_fix(ow, max_ns);
}

void
wr_oneway_latency_json(const struct wr_oneway *ow, json_t *src, json_t *dst)
{
	static const char *const keys[] = {
		"latency_min_ns", "latency_mean_ns", "latency_max_ns",
	};
	double v[RTE_DIM(keys)];
	bool have[RTE_DIM(keys)], ok = ow->available;
	json_t *jitter = json_object_get(src, "jitter_ns");
	unsigned int i;

	bool any = false;

	if (jitter != NULL && dst != src)
		json_object_set(dst, "jitter_ns", jitter);
	for (i = 0; i < RTE_DIM(keys); i++) {
		have[i] = json_is_number(json_object_get(src, keys[i]));
		v[i] = have[i] ? json_number_value(json_object_get(src, keys[i])) : 0;
		any |= have[i];
	}
	if (!any)
		return;
	if (ok && have[0] && have[2] && !wr_oneway_span_ok(ow, v[0], v[2])) {
		ok = false;
		wr_json_set(dst, "latency_null_reason", json_string("the clocks' offset "
			"carries this stream's latencies across the 32-bit wrap of "
			"the TX stamps"));
	} else if (!ok) {
		wr_json_set(dst, "latency_null_reason", json_string(ow->reason));
	}
	for (i = 0; i < RTE_DIM(keys); i++)
		if (have[i] || !ok)
			wr_json_set(dst, keys[i], ok ? json_real(wr_oneway_fix(ow, v[i])) :
				json_null());
	if (ok && ow->synced_clocks)
		wr_json_set(dst, "latency_bound_ns", json_real(ow->bound_ns));
}

json_t *
wr_oneway_json(const struct wr_oneway *ow)
{
	json_t *o = json_object();

	wr_json_set(o, "clock", json_string(ow->clock));
	wr_json_set(o, "available", json_boolean(ow->available));
	wr_json_set(o, "source", ow->available ? json_string(ow->source) : json_null());
	wr_json_set(o, "bound_ns", ow->synced_clocks ? json_real(ow->bound_ns) :
		json_null());
	wr_json_set(o, "shift_ns", ow->synced_clocks && ow->hz > 0 ?
		json_real(ow->shift_cycles * 1e9 / ow->hz) : json_null());
	wr_json_set(o, "reason", json_string(ow->reason));
	return o;
}
