/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "impair_spec.h"
#include "rate.h"

static int
parse_rule(const char *key, const char *val, struct wr_impair_rule *r,
		struct wr_error *err)
{
	char *end;
	unsigned long every, at;

	every = strtoul(val, &end, 10);
	if (end == val || every == 0 || every > UINT32_MAX)
		goto bad;
	at = every - 1;
	if (*end == '@') {
		const char *p = end + 1;

		at = strtoul(p, &end, 10);
		if (end == p || at >= every)
			goto bad;
	}
	if (*end != '\0')
		goto bad;
	r->every = (uint32_t)every;
	r->at = (uint32_t)at;
	return 0;
bad:
	return wr_err_usage(err, -EINVAL, "--impair %s=%s: expected N or N@K with N >= 1 and "
		"K < N (the frame with sequence %% N == K)", key, val);
}

static int
parse_delay(const char *val, uint32_t *us, struct wr_error *err)
{
	char *end;
	double v = strtod(val, &end);

	if (end != val && strcmp(end, "us") == 0 && v >= 0 && v <= 1e6) {
		*us = (uint32_t)v;
		return 0;
	}
	if (end != val && strcmp(end, "ms") == 0 && v >= 0 && v <= 1e3) {
		*us = (uint32_t)(v * 1000);
		return 0;
	}
	return wr_err_usage(err, -EINVAL, "--impair delay=%s: expected microseconds or "
		"milliseconds up to 1 s, e.g. 50us or 2ms", val);
}

static int
parse_police(const char *val, double *pps, struct wr_error *err)
{
	struct wr_rate r;
	if (wr_rate_parse(val, &r, NULL) != 0 || r.unit != WR_RATE_PPS)
		return wr_err_usage(err, -EINVAL, "--impair police=%s: expected frames per second, "
			"e.g. 1Mpps or 250kpps", val);
	*pps = r.value;
	return 0;
}

static int
parse_item(char *item, struct wr_impair_spec *spec, struct wr_error *err)
{
	char *eq = strchr(item, '=');

	if (eq == NULL)
		goto bad;
	*eq = '\0';
	if (strcmp(item, "drop") == 0)
		return parse_rule(item, eq + 1, &spec->drop, err);
	if (strcmp(item, "dup") == 0)
		return parse_rule(item, eq + 1, &spec->dup, err);
	if (strcmp(item, "reorder") == 0)
		return parse_rule(item, eq + 1, &spec->reorder, err);
	if (strcmp(item, "delay") == 0)
		return parse_delay(eq + 1, &spec->delay_us, err);
	if (strcmp(item, "police") == 0)
		return parse_police(eq + 1, &spec->police_pps, err);
	*eq = '=';
bad:
	return wr_err_usage(err, -EINVAL, "--impair: '%s' is not a rule; expected "
		"drop=N[@K], dup=N[@K], reorder=N[@K], delay=T or police=R, "
		"comma-separated", item);
}

int
wr_impair_parse(const char *s, struct wr_impair_spec *spec, struct wr_error *err)
{
	char buf[256], *save = NULL, *item;
	int rc;

	memset(spec, 0, sizeof(*spec));
	if (strlen(s) >= sizeof(buf) || s[0] == '\0')
		return wr_err_usage(err, -EINVAL, "--impair: empty or longer than %zu characters",
			sizeof(buf) - 1);
	strcpy(buf, s);
	for (item = strtok_r(buf, ",", &save); item != NULL;
			item = strtok_r(NULL, ",", &save)) {
		rc = parse_item(item, spec, err);
		if (rc != 0)
			return rc;
	}
	return 0;
}
