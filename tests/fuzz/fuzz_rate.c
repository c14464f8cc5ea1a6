/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The number and rate parsers (--rate, --count, --duration and every
 * integer option): arbitrary strings through wr_rate_parse,
 * wr_units_parse_u64 and wr_units_parse_duration_ms.
 * Properties: a refusal has a message and leaves the output untouched; an
 * accepted rate is finite, positive and in range, converts to a finite
 * frame rate, and wr_rate_format writes it in a form that parses back to
 * the same rate.
 */
#include <errno.h>
#include <math.h>

#include "base/units.h"
#include "config/rate.h"
#include "fuzz.h"

#define FUZZ_MAX_INPUT 512

static void
check_rate(const struct wr_rate *r)
{
	static const uint32_t sizes[] = { 64, 1518, 9018 };
	struct wr_rate back;
	char buf[64];
	struct wr_error err;
	double pps;
	unsigned int i;

	FUZZ_CHECK(r->unit >= WR_RATE_NONE && r->unit <= WR_RATE_PCT);
	if (r->unit != WR_RATE_NONE)
		FUZZ_CHECK(isfinite(r->value) && r->value >= WR_RATE_MIN);
	if (r->unit == WR_RATE_PCT)
		FUZZ_CHECK(r->value <= 100.0);
	if (r->unit == WR_RATE_PPS)
		FUZZ_CHECK(r->value <= WR_RATE_MAX_PPS);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		FUZZ_CHECK(wr_rate_to_pps(r, sizes[i], 10000000000ULL, &pps) == 0);
		FUZZ_CHECK(r->unit == WR_RATE_NONE ? isinf(pps) :
			isfinite(pps) && pps > 0);
	}
	FUZZ_CHECK(wr_rate_format(r, buf, sizeof(buf)) > 0);
	err.msg[0] = '\0';
	if (wr_rate_parse(buf, &back, &err) != 0) {
		fprintf(stderr, "formatted '%s' does not parse: %s\n", buf, err.msg);
		abort();
	}
	FUZZ_CHECK(back.unit == r->unit);
	if (r->unit != WR_RATE_NONE)
		FUZZ_CHECK(fabs(back.value - r->value) <= 1e-12 * r->value);
}

static void
check_units(const char *s)
{
	uint64_t v = 12345, ms = 6789;
	int rc;

	rc = wr_units_parse_u64(s, 1, 1000000, &v);
	FUZZ_CHECK(rc == 0 || rc == -EINVAL || rc == -ERANGE);
	FUZZ_CHECK(rc == 0 ? v >= 1 && v <= 1000000 : v == 12345);
	rc = wr_units_parse_u64(s, 0, UINT64_MAX, &v);
	FUZZ_CHECK(rc == 0 || rc == -EINVAL || rc == -ERANGE);
	rc = wr_units_parse_duration_ms(s, &ms);
	FUZZ_CHECK(rc == 0 || rc == -EINVAL || rc == -ERANGE);
	if (rc != 0)
		FUZZ_CHECK(ms == 6789);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wr_rate r = { WR_RATE_PPS, 42.0 };
	char *s;
	struct wr_error err;

	if (size > FUZZ_MAX_INPUT || (s = fuzz_strdup(data, size)) == NULL)
		return 0;
	err.msg[0] = '\0';
	if (wr_rate_parse(s, &r, &err) == 0) {
		check_rate(&r);
	} else {
		FUZZ_CHECK(fuzz_error_ok(&err));
		FUZZ_CHECK(r.unit == WR_RATE_PPS && r.value == 42.0);
	}
	check_units(s);
	free(s);
	return 0;
}
