/* SPDX-License-Identifier: BSD-3-Clause */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tolerance.h"

void
wr_tolerances_defaults(struct wr_tolerances *t)
{
	unsigned int i;

	for (i = 0; i < WR_METRIC_COUNT; i++) {
		t->t[i].value = wr_metric_defs[i].tol;
		t->t[i].relative = wr_metric_defs[i].tol_relative;
		t->t[i].ignore = false;
	}
}

/* Strip leading and trailing blanks in place. */
static char *
trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* "5%", "0.01" or "ignore" into tol. */
static int
parse_value(const char *s, struct wr_tolerance *tol)
{
	char *end;
	double v;

	memset(tol, 0, sizeof(*tol));
	if (strcmp(s, "ignore") == 0) {
		tol->ignore = true;
		return 0;
	}
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0)
		return -EINVAL;
	if (*end == '%') {
		tol->relative = true;
		end++;
	}
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0')
		return -EINVAL;
	tol->value = v;
	return 0;
}

/* Metric names the setting's key covers: one metric or a group. */
static unsigned int
match_key(const char *key, bool *hit)
{
	unsigned int i, n = 0;

	for (i = 0; i < WR_METRIC_COUNT; i++) {
		hit[i] = strcmp(key, wr_metric_defs[i].name) == 0 ||
			strcmp(key, wr_metric_defs[i].group) == 0;
		n += hit[i];
	}
	return n;
}

int
wr_tolerances_set(struct wr_tolerances *t, const char *setting,
		struct wr_error *err)
{
	char buf[256], *eq, *key, *val;
	bool hit[WR_METRIC_COUNT];
	struct wr_tolerance tol;
	unsigned int i;

	if (strlen(setting) >= sizeof(buf) || strchr(setting, '=') == NULL)
		return wr_err_usage(err, -EINVAL, "'%.60s': expected METRIC = VALUE, e.g. "
			"rx_mpps = 3%%", setting);
	strcpy(buf, setting);
	eq = strchr(buf, '=');
	*eq = '\0';
	key = trim(buf);
	val = trim(eq + 1);
	if (match_key(key, hit) == 0) {
		return wr_err_usage(err, -EINVAL, "'%s' is not a metric; accepted: "
			"a metric (tx_mpps, rx_mpps, tx_gbps_l1, tx_gbps_l2, "
			"rx_gbps_l1, rx_gbps_l2, loss_pct, latency_p50_ns, "
			"latency_p90_ns, latency_p99_ns, latency_p99_9_ns, "
			"cycles_per_pkt, conn_cps, conn_requests_per_s, "
			"conn_goodput_gbps, conn_failed_pct, conn_connect_p99_us, "
			"conn_max_cps, conn_max_cps_pdr, conn_capacity, "
			"conn_capacity_answered, conn_capacity_failed, "
			"conn_teardown_cps) "
			"or a group (throughput, loss, latency, cpu, connections)",
			key);
	}
	if (parse_value(val, &tol) != 0)
		return wr_err_usage(err, -EINVAL, "%s = '%s': expected N%% (relative change), "
			"N (absolute, in the metric's unit) or ignore, N >= 0", key, val);
	for (i = 0; i < WR_METRIC_COUNT; i++)
		if (hit[i])
			t->t[i] = tol;
	return 0;
}

int
wr_tolerances_load(struct wr_tolerances *t, const char *path,
		struct wr_error *err)
{
	FILE *f = fopen(path, "r");
	char line[256], *s;
	unsigned int nr = 0;
	int rc = 0;

	/* A tolerance file named on the command line: missing is usage. */
	if (f == NULL)
		return wr_err_usage(err, -errno, "%s: cannot read: %s", path,
			strerror(errno));
	while (rc == 0 && fgets(line, sizeof(line), f) != NULL) {
		nr++;
		line[strcspn(line, "#\n")] = '\0';
		s = trim(line);
		if (*s == '\0')
			continue;
		rc = wr_tolerances_set(t, s, err);
		if (rc != 0)
			wr_err_prefix(err, "%s:%u: ", path, nr);
	}
	fclose(f);
	return rc;
}

const char *
wr_tolerance_format(const struct wr_tolerance *t, char *buf, size_t len)
{
	if (t->ignore)
		snprintf(buf, len, "ignore");
	else
		snprintf(buf, len, "%g%s", t->value, t->relative ? "%" : "");
	return buf;
}
