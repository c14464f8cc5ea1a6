/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

double
wr_units_line_rate_pps(uint64_t link_bps, uint32_t size_bytes)
{
	if (size_bytes == 0)
		return 0.0;
	return (double)link_bps / (double)wr_units_wire_bits(size_bytes);
}

double
wr_units_l1_bps(double pps, uint32_t size_bytes)
{
	return pps * (double)wr_units_wire_bits(size_bytes);
}

double
wr_units_l2_bps(double pps, uint32_t size_bytes)
{
	return pps * (double)size_bytes * 8.0;
}

double
wr_units_rate(uint64_t delta, uint64_t delta_tsc, uint64_t tsc_hz)
{
	if (delta_tsc == 0)
		return 0.0;
	return (double)delta * (double)tsc_hz / (double)delta_tsc;
}

/* Multiplier for a k/M/G suffix, 1 for none, 0 for anything else. */
static uint64_t
suffix_mult(const char *end)
{
	if (*end == '\0')
		return 1;
	if (end[1] != '\0')
		return 0;
	switch (*end) {
	case 'k': case 'K': return 1000ULL;
	case 'm': case 'M': return 1000000ULL;
	case 'g': case 'G': return 1000000000ULL;
	default: return 0;
	}
}

int
wr_units_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t mult;

	if (s == NULL || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	mult = suffix_mult(end);
	if (mult == 0)
		return -EINVAL;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	v *= mult;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* Milliseconds in one unit named by suffix, 0 when unknown. */
static double
duration_unit_ms(const char *unit)
{
	if (*unit == '\0' || strcmp(unit, "s") == 0)
		return 1000.0;
	if (strcmp(unit, "ms") == 0)
		return 1.0;
	if (strcmp(unit, "m") == 0 || strcmp(unit, "min") == 0)
		return 60000.0;
	if (strcmp(unit, "h") == 0)
		return 3600000.0;
	return 0.0;
}

int
wr_units_parse_duration_ms(const char *s, uint64_t *out_ms)
{
	char *end;
	double v, unit, ms;

	if (s == NULL || ((*s < '0' || *s > '9') && *s != '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE || end == s)
		return -EINVAL;
	unit = duration_unit_ms(end);
	if (unit == 0.0)
		return -EINVAL;
	ms = v * unit;
	if (!isfinite(ms) || ms > 1e15)
		return -ERANGE;
	if (fabs(ms - nearbyint(ms)) > 1e-6)
		return -EINVAL;
	*out_ms = (uint64_t)nearbyint(ms);
	return 0;
}

const char *
wr_units_si(double value, char *buf, size_t len)
{
	static const char prefix[] = { ' ', 'k', 'M', 'G', 'T' };
	unsigned int i = 0;

	while (fabs(value) >= 1000.0 && i < sizeof(prefix) - 1) {
		value /= 1000.0;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%.0f", value);
	else
		snprintf(buf, len, "%.2f%c", value, prefix[i]);
	return buf;
}

const char *
wr_units_fit(double value, unsigned int width, unsigned int decimals, char *buf,
		size_t len)
{
	int d, n = 0, w = (int)width;

	for (d = (int)decimals; d >= 0; d--) {
		n = snprintf(buf, len, "%*.*f", w, d, value);
		if (n <= w)
			return buf;
	}
	for (d = w > 6 ? w - 6 : 0; d >= 0; d--) {
		n = snprintf(buf, len, "%*.*e", w, d, value);
		if (n <= w)
			return buf;
	}
	return buf;
}
