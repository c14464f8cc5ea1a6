/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/units.h"
#include "rate.h"

#define RATE_ACCEPTED "expected e.g. 250kpps, 1.5Mpps, 9.5Gbps (layer 1), " \
	"l2:9.5Gbps, 50% or max"
/* Significant digits a double holds exactly, so parsing rounds only once. */
#define RATE_MAX_DIGITS 15

/* Powers of ten that a double holds exactly. */
static const double rate_p10[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* A decimal number as read: mant * 10^-nb_frac. */
struct rate_dec {
	uint64_t mant;
	int nb_frac;
};

/* Fill err with "bad rate 's': <why>; <accepted forms>". Never fails. */
static void __attribute__((format(printf, 3, 4)))
rate_err(struct wr_error *err, const char *s, const char *fmt, ...)
{
	char why[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	wr_err_usage(err, -EINVAL, "bad rate '%s': %s; %s",
		s != NULL ? s : "(none)", why, RATE_ACCEPTED);
}

/*
 * Read digits with at most one '.' at *pp and advance *pp past them.
 * Returns 0, -EINVAL when there is no digit, -ERANGE when there are more
 * than RATE_MAX_DIGITS significant digits.
 */
static int
rate_scan_decimal(const char **pp, struct rate_dec *d)
{
	const char *p = *pp;
	bool dot = false, any = false;
	int nb_digits = 0;

	d->mant = 0;
	d->nb_frac = 0;
	for (;; p++) {
		if (*p == '.' && !dot) {
			dot = true;
			continue;
		}
		if (*p < '0' || *p > '9')
			break;
		any = true;
		if (dot)
			d->nb_frac++;
		if (d->mant == 0 && *p == '0')
			continue; /* a leading zero is not significant */
		if (++nb_digits > RATE_MAX_DIGITS)
			return -ERANGE;
		d->mant = d->mant * 10 + (uint64_t)(*p - '0');
	}
	if (!any)
		return -EINVAL;
	*pp = p;
	return 0;
}

/* d * 10^exp10, rounded once when both factors are exact doubles. */
static double
rate_dec_value(const struct rate_dec *d, int exp10)
{
	int e = exp10 - d->nb_frac;

	if (e >= 0 && e <= 22)
		return (double)d->mant * rate_p10[e];
	if (e < 0 && e >= -22)
		return (double)d->mant / rate_p10[-e];
	return (double)d->mant * pow(10.0, e);
}

/*
 * Unit of the text u after the number, and the power of ten of its prefix.
 * Returns 0, -EDOM for bytes ("Bps"), -EINVAL for anything else unknown.
 */
static int
rate_parse_unit(const char *u, enum wr_rate_unit *unit, int *exp10)
{
	static const char prefixes[] = "kmgt";
	const char *pos;

	*exp10 = 0;
	if (strcmp(u, "%") == 0) {
		*unit = WR_RATE_PCT;
		return 0;
	}
	pos = *u != '\0' ? strchr(prefixes, *u | 0x20) : NULL;
	if (pos != NULL) {
		*exp10 = 3 * (int)(pos - prefixes + 1);
		u++;
	}
	if (strcasecmp(u, "pps") == 0) {
		*unit = WR_RATE_PPS;
		return 0;
	}
	if (strcasecmp(u, "bps") != 0)
		return -EINVAL;
	if (u[0] == 'B')
		return -EDOM;
	*unit = WR_RATE_BPS_L1;
	return 0;
}

/* Check r against the limits of its unit. Returns 0 or -EINVAL with err. */
static int
rate_check_range(const struct wr_rate *r, const char *s, struct wr_error *err)
{
	bool pps = r->unit == WR_RATE_PPS;
	double max = pps ? WR_RATE_MAX_PPS : WR_RATE_MAX_BPS;

	if (r->value == 0.0) {
		rate_err(err, s, "a rate must be above zero");
		return -EINVAL;
	}
	if (r->unit == WR_RATE_PCT && r->value > 100.0) {
		rate_err(err, s, "above 100%% of line rate");
		return -EINVAL;
	}
	if (r->value < WR_RATE_MIN) {
		rate_err(err, s, "below the minimum of %g",
			WR_RATE_MIN);
		return -EINVAL;
	}
	if (r->unit != WR_RATE_PCT && r->value > max) {
		rate_err(err, s, "above the maximum of %g %s", max,
			pps ? "pps" : "bps");
		return -EINVAL;
	}
	return 0;
}

/*
 * Read the number at *pp into d and advance *pp to the unit (s is the
 * whole string, for messages). Returns 0 or -EINVAL with err.
 */
static int
rate_parse_number(const char **pp, struct rate_dec *d, const char *s,
		struct wr_error *err)
{
	const char *p = *pp;
	int rc;

	if (*p == '-') {
		rate_err(err, s, "a rate cannot be negative");
		return -EINVAL;
	}
	rc = rate_scan_decimal(&p, d);
	if (rc == -ERANGE) {
		rate_err(err, s, "more than %d significant digits",
			RATE_MAX_DIGITS);
		return -EINVAL;
	}
	if (rc < 0) {
		rate_err(err, s, "no number where one was expected");
		return -EINVAL;
	}
	if ((*p == 'e' || *p == 'E') && p[1] != '\0' &&
			strchr("0123456789+-", p[1]) != NULL) {
		rate_err(err, s, "exponents are not accepted, use a "
			"k/M/G prefix");
		return -EINVAL;
	}
	*pp = p;
	return 0;
}

/* Parse the number and unit at p (s is the whole string, for messages). */
static int
rate_parse_body(const char *p, char layer, struct wr_rate *r, const char *s,
		struct wr_error *err)
{
	struct rate_dec d;
	int exp10, rc;

	rc = rate_parse_number(&p, &d, s, err);
	if (rc < 0)
		return rc;
	if (*p == '\0') {
		rate_err(err, s, "no unit (pps, bps or %%)");
		return -EINVAL;
	}
	rc = rate_parse_unit(p, &r->unit, &exp10);
	if (rc == -EDOM) {
		rate_err(err, s, "'%s' counts bytes (capital B); rates "
			"are in bits, e.g. Gbps", p);
		return -EINVAL;
	}
	if (rc < 0) {
		rate_err(err, s, "unknown unit '%s'", p);
		return -EINVAL;
	}
	if (layer != 0 && r->unit != WR_RATE_BPS_L1) {
		rate_err(err, s, "the layer prefix 'l%c:' applies to "
			"bit rates (bps) only", layer);
		return -EINVAL;
	}
	if (layer == '2')
		r->unit = WR_RATE_BPS_L2;
	r->value = rate_dec_value(&d, exp10);
	return rate_check_range(r, s, err);
}

int
wr_rate_parse(const char *s, struct wr_rate *out, struct wr_error *err)
{
	struct wr_rate r;
	const char *p = s;
	char layer = 0;
	int rc;

	if (s == NULL || *s == '\0') {
		rate_err(err, s, "empty");
		return -EINVAL;
	}
	if (out == NULL) {
		rate_err(err, s, "nowhere to store the result");
		return -EINVAL;
	}
	if (strcasecmp(s, "max") == 0 || strcasecmp(s, "unlimited") == 0) {
		out->unit = WR_RATE_NONE;
		out->value = 0.0;
		return 0;
	}
	if ((p[0] == 'l' || p[0] == 'L') && (p[1] == '1' || p[1] == '2') &&
			p[2] == ':') {
		layer = p[1];
		p += 3;
	}
	rc = rate_parse_body(p, layer, &r, s, err);
	if (rc == 0)
		*out = r;
	return rc;
}

int
wr_rate_to_pps(const struct wr_rate *r, uint32_t frame_size,
		uint64_t link_bps, double *pps)
{
	double v;

	if (r == NULL || pps == NULL)
		return -EINVAL;
	if (r->unit == WR_RATE_NONE) {
		*pps = INFINITY;
		return 0;
	}
	if (!isfinite(r->value) || !(r->value > 0.0))
		return -EINVAL;
	if (r->unit != WR_RATE_PPS && frame_size == 0)
		return -EINVAL;
	switch (r->unit) {
	case WR_RATE_PPS:
		v = r->value;
		break;
	case WR_RATE_BPS_L1:
		v = r->value / wr_units_l1_bps(1.0, frame_size);
		break;
	case WR_RATE_BPS_L2:
		v = r->value / wr_units_l2_bps(1.0, frame_size);
		break;
	case WR_RATE_PCT:
		if (link_bps == 0)
			return -EINVAL;
		v = r->value / 100.0 *
			wr_units_line_rate_pps(link_bps, frame_size);
		break;
	default:
		return -EINVAL;
	}
	*pps = v;
	return 0;
}

int
wr_rate_format(const struct wr_rate *r, char *buf, size_t len)
{
	static const char *const prefix[] = { "", "k", "M", "G", "T" };
	const char *layer = "", *unit = "bps";
	double v;
	unsigned int i = 0;
	int n;

	if (r == NULL || buf == NULL)
		return -EINVAL;
	v = r->value;
	switch (r->unit) {
	case WR_RATE_NONE:
		n = snprintf(buf, len, "max");
		return (size_t)n < len ? n : -ENOSPC;
	case WR_RATE_PCT:
		n = snprintf(buf, len, "%.15g%%", v);
		return (size_t)n < len ? n : -ENOSPC;
	case WR_RATE_PPS:
		unit = "pps";
		break;
	case WR_RATE_BPS_L2:
		layer = "l2:";
		break;
	case WR_RATE_BPS_L1:
		break;
	default:
		return -EINVAL;
	}
	while (i + 1 < sizeof(prefix) / sizeof(prefix[0]) &&
			v >= rate_p10[3 * (i + 1)])
		i++;
	/* One division, so the printed digits carry one rounding only. */
	n = snprintf(buf, len, "%s%.15g%s%s", layer, v / rate_p10[3 * i],
		prefix[i], unit);
	return (size_t)n < len ? n : -ENOSPC;
}
