/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "base/error.h"
#include "base/units.h"
#include "goals.h"

void
wr_mlr_default_goals(struct wr_mlr_goal *g, unsigned int *n)
{
	g[0] = (struct wr_mlr_goal){ 0.0, 0.5, 21.0, 0.005 };
	g[1] = (struct wr_mlr_goal){ 0.005, 0.5, 21.0, 0.005 };
	*n = 2;
}

/* A ratio field of a goal: a number in [0, 1). */
static int
ratio_field(const char *f, size_t n, const char *what, const char *goal,
		double *out, struct wr_error *err)
{
	char buf[64], *end;

	if (n == 0 || n >= sizeof(buf))
		return wr_err_usage(err, -EINVAL, "--goals %s: %s missing or too long",
			goal, what);
	memcpy(buf, f, n);
	buf[n] = '\0';
	*out = strtod(buf, &end);
	if (end == buf || *end != '\0' || !(*out >= 0 && *out < 1))
		return wr_err_usage(err, -EINVAL, "--goals %s: %s '%s': expected a "
			"number from 0 to below 1", goal, what, buf);
	return 0;
}

/* The duration sum field: a duration above 0 (21, 21s, 500ms). */
static int
sum_field(const char *f, size_t n, const char *goal, double *out, struct wr_error *err)
{
	char buf[64];
	uint64_t ms;

	if (n == 0 || n >= sizeof(buf))
		return wr_err_usage(err, -EINVAL, "--goals %s: duration sum missing or "
			"too long", goal);
	memcpy(buf, f, n);
	buf[n] = '\0';
	if (wr_units_parse_duration_ms(buf, &ms) != 0 || ms == 0)
		return wr_err_usage(err, -EINVAL, "--goals %s: duration sum '%s': "
			"expected a duration above 0 (21s, 500ms)", goal, buf);
	*out = (double)ms / 1e3;
	return 0;
}

int
wr_mlr_goal_parse(const char *s, struct wr_mlr_goal *g, struct wr_error *err)
{
	const char *f[4], *p = s;
	size_t n[4];
	unsigned int i;
	int rc;

	for (i = 0; i < 4; i++) {
		const char *c = strchr(p, ':');

		f[i] = p;
		n[i] = c != NULL ? (size_t)(c - p) : strlen(p);
		if ((c == NULL) != (i == 3))
			return wr_err_usage(err, -EINVAL, "--goals %s: "
				"expected LOSS:EXCEED:SUM:WIDTH (4 fields)", s);
		p = c != NULL ? c + 1 : p;
	}
	rc = ratio_field(f[0], n[0], "loss ratio", s, &g->loss_ratio, err);
	if (rc == 0)
		rc = ratio_field(f[1], n[1], "exceed ratio", s, &g->exceed_ratio,
			err);
	if (rc == 0)
		rc = sum_field(f[2], n[2], s, &g->duration_sum_s, err);
	if (rc == 0)
		rc = ratio_field(f[3], n[3], "width", s, &g->width, err);
	if (rc == 0 && g->width <= 0)
		return wr_err_usage(err, -EINVAL, "--goals %s: width must be above 0",
			s);
	return rc;
}

int
wr_mlr_goals_parse(const char *s, struct wr_mlr_goal *g, unsigned int *n,
		struct wr_error *err)
{
	char buf[256], *tok, *save = NULL;
	int rc;

	if (strlen(s) == 0 || strlen(s) >= sizeof(buf))
		return wr_err_usage(err, -EINVAL, "--goals: list empty or too long");
	strcpy(buf, s);
	*n = 0;
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
		if (*n == WR_MLR_MAX_GOALS)
			return wr_err_usage(err, -EINVAL, "--goals %s: at most %u goals",
				s, WR_MLR_MAX_GOALS);
		rc = wr_mlr_goal_parse(tok, &g[*n], err);
		if (rc != 0)
			return rc;
		(*n)++;
	}
	return *n > 0 ? 0 : wr_err_usage(err, -EINVAL, "--goals %s: no goal", s);
}
