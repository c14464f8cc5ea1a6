/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "config.h"
#include "service.h"
#include "stream.h"

void
wr_service_init(struct wr_service *s)
{
	memset(s, 0, sizeof(*s));
	s->flr = WR_SERVICE_NO_CRITERION;
	s->ftd_ns = WR_SERVICE_NO_CRITERION;
	s->fdv_ns = WR_SERVICE_NO_CRITERION;
	s->avail = WR_SERVICE_NO_CRITERION;
	s->partner = UINT32_MAX;
}

/* A number followed by one of the units (name, scale); NULL-terminated. */
struct unit {
	const char *name;
	double scale;
};

static int
with_unit(const char *v, const struct unit *u, const char *expect, double lo,
		double hi, double *out, struct wr_error *why)
{
	char *end;
	double x = strtod(v, &end);

	if (end == v)
		return wr_err_usage(why, -EINVAL, "expected a number with %s", expect);
	for (; u->name != NULL; u++)
		if (strcmp(end, u->name) == 0)
			break;
	if (u->name == NULL)
		return wr_err_usage(why, -EINVAL, "%s: the unit is missing or unknown "
			"(give %s)", *end ? end : "no unit", expect);
	x *= u->scale;
	if (!(x >= lo && x <= hi) || !isfinite(x))
		return wr_err_usage(why, -EINVAL, "out of range (%s)", expect);
	*out = x;
	return 0;
}

static const struct unit pct_units[] = { { "%", 0.01 }, { NULL, 0 } };
static const struct unit time_units[] = { { "ns", 1 }, { "us", 1e3 },
	{ "ms", 1e6 }, { "s", 1e9 }, { NULL, 0 } };

/* A rate of the bandwidth profile: any --rate form but max. */
static int
profile_rate(const char *v, struct wr_rate *r, struct wr_error *why)
{
	if (wr_rate_parse(v, r, why) != 0)
		return -EINVAL;
	if (r->unit == WR_RATE_NONE)
		return wr_err_usage(why, -EINVAL, "a bandwidth profile needs a rate, "
			"not max");
	return 0;
}

/* yellow=dscp:N | pcp:N */
static int
yellow_mark(struct wr_service *s, const char *v, struct wr_error *why)
{
	bool dscp = strncmp(v, "dscp:", 5) == 0;
	uint64_t x;

	if (!dscp && strncmp(v, "pcp:", 4) != 0)
		return wr_err_usage(why, -EINVAL, "expected dscp:N (0..63) or pcp:N "
			"(0..7)");
	if (wr_units_parse_u64(v + (dscp ? 5 : 4), 0, dscp ? 63 : 7, &x) != 0)
		return wr_err_usage(why, -EINVAL, "expected dscp:0..63 or pcp:0..7");
	s->yellow_mark = dscp ? WR_SERVICE_MARK_DSCP : WR_SERVICE_MARK_PCP;
	s->yellow_value = (uint8_t)x;
	return 0;
}

int
wr_service_key(struct wr_service *s, const char *k, const char *v, struct wr_error *why)
{
	int rc;

	if (strcmp(k, "cir") == 0 || strcmp(k, "eir") == 0) {
		rc = profile_rate(v, k[0] == 'c' ? &s->cir : &s->eir, why);
		if (rc == 0 && s->role == WR_SERVICE_NONE)
			s->role = WR_SERVICE_GREEN;
		return rc;
	}
	if (strcmp(k, "flr") == 0)
		return with_unit(v, pct_units, "%, e.g. flr=0.1%", 0, 1, &s->flr, why);
	if (strcmp(k, "avail") == 0)
		return with_unit(v, pct_units, "%, e.g. avail=99.9%", 0, 1, &s->avail, why);
	if (strcmp(k, "ftd") == 0)
		return with_unit(v, time_units, "ns, us, ms or s, e.g. ftd=10ms", 0, 1e12,
			&s->ftd_ns, why);
	if (strcmp(k, "fdv") == 0)
		return with_unit(v, time_units, "ns, us, ms or s, e.g. fdv=2ms", 0, 1e12,
			&s->fdv_ns, why);
	if (strcmp(k, "cbs") == 0 || strcmp(k, "ebs") == 0)
		return wr_err_usage(why, -EINVAL, "the burst tests of Y.1564 8.1.2 "
			"(CBS, EBS) are not implemented: leave %s= out", k);
	if (strcmp(k, "yellow") == 0)
		return yellow_mark(s, v, why);
	if (strcmp(k, "part") == 0) {
		if (strcmp(v, "yellow") != 0)
			return wr_err_usage(why, -EINVAL, "only part=yellow (the EIR part "
				"of a service, added by the program)");
		s->role = WR_SERVICE_YELLOW;
		return 0;
	}
	return 1;
}

bool
wr_service_any(const struct wr_config *cfg)
{
	unsigned int i;

	for (i = 0; i < cfg->nb_stream_defs; i++)
		if (cfg->streams[i].svc.role != WR_SERVICE_NONE)
			return true;
	return false;
}

/* The text of service idx's yellow stream: its own, marked yellow. */
static int
yellow_text(const struct wr_config *cfg, unsigned int idx, char *buf, size_t len,
		struct wr_error *err)
{
	const struct wr_stream_def *g = &cfg->streams[idx];
	const struct wr_service *s = &g->svc;
	unsigned int sport = g->src_udp + RTE_MAX(g->nb_flows, 1u);
	int n;

	if (strlen(g->name) + 2 >= WR_STREAM_NAME_LEN)
		return wr_err_usage(err, -EINVAL, "--stream %u (%s): name: at most %u "
			"characters for a service with eir= (its yellow part is NAME.y)",
			idx + 1, g->name, WR_STREAM_NAME_LEN - 3);
	n = snprintf(buf, len, "%s;name=%s.y;sport=%u;%s=%u;part=yellow",
		cfg->stream_text[idx], g->name, sport > 65535 ? 1 : sport,
		s->yellow_mark == WR_SERVICE_MARK_DSCP ? "dscp" : "prio", s->yellow_value);
	if (n < 0 || (size_t)n >= len)
		return wr_err_usage(err, -EINVAL, "--stream %u (%s): its definition is too "
			"long to add its yellow part (at most %u characters with it)",
			idx + 1, g->name, WR_STREAM_TEXT_LEN - 1);
	return 0;
}

/* Add the yellow stream of service idx. */
static int
add_yellow(struct wr_config *cfg, unsigned int idx, struct wr_error *err)
{
	struct wr_stream_def *g = &cfg->streams[idx];
	unsigned int y = cfg->nb_stream_defs;
	int rc;

	if (g->svc.yellow_mark == WR_SERVICE_MARK_NONE)
		return wr_err_usage(err, -EINVAL, "--stream %u (%s): eir= needs yellow= "
			"(dscp:N or pcp:N): how the frames above the CIR are marked",
			idx + 1, g->name);
	if (g->svc.yellow_mark == WR_SERVICE_MARK_PCP && g->vlan_id == 0)
		return wr_err_usage(err, -EINVAL, "--stream %u (%s): yellow=pcp:%u needs "
			"a VLAN tag (vlan=)", idx + 1, g->name, g->svc.yellow_value);
	if (y == WR_STREAM_MAX)
		return wr_err_usage(err, -EINVAL, "--stream %u (%s): eir=: its yellow "
			"frames need a TX queue of their own, and %u streams (services "
			"with an EIR count twice) take all %u", idx + 1, g->name, y,
			WR_STREAM_MAX);
	rc = yellow_text(cfg, idx, cfg->stream_text[y], WR_STREAM_TEXT_LEN, err);
	if (rc == 0)
		rc = wr_stream_build(cfg, y, err);
	if (rc != 0)
		return rc;
	cfg->nb_stream_defs++;
	g->svc.partner = y;
	cfg->streams[y].svc.partner = idx;
	return 0;
}

int
wr_service_expand(struct wr_config *cfg, struct wr_error *err)
{
	unsigned int i, n;
	int rc;

	if (cfg->nb_stream_given != 0)
		cfg->nb_stream_defs = cfg->nb_stream_given;
	n = cfg->nb_stream_defs;
	for (i = 0; i < n; i++) {
		struct wr_service *s = &cfg->streams[i].svc;

		if (s->role == WR_SERVICE_YELLOW)
			return wr_err_usage(err, -EINVAL, "--stream %u (%s): part=yellow is "
				"the program's: give eir= and yellow= on the service",
				i + 1, cfg->streams[i].name);
		if (s->role == WR_SERVICE_GREEN && s->eir.unit != WR_RATE_NONE) {
			rc = add_yellow(cfg, i, err);
			if (rc != 0)
				return rc;
		}
	}
	cfg->nb_stream_given = n;
	return 0;
}

/* L1 bits per second of rate r for stream d, 0 when it cannot say. */
static double
l1_bps(const struct wr_stream_def *d, const struct wr_rate *r, uint64_t link)
{
	struct wr_stream_def x = *d;
	double pps;

	x.rate = *r;
	x.share_pct = 0;
	if (r->unit == WR_RATE_NONE || wr_stream_pps(&x, r, link, &pps) != 0)
		return 0;
	return pps * 8.0 * (wr_stream_mean_size(d) + WR_UNITS_L1_OVERHEAD_BYTES);
}

/* One service's own rules. */
static int
check_one(const struct wr_config *cfg, unsigned int i, struct wr_error *err)
{
	const struct wr_stream_def *d = &cfg->streams[i];
	const struct wr_service *s = &d->svc;
	double cir, eir;

	if (s->cir.unit == WR_RATE_NONE)
		return wr_err_usage(err, -EINVAL, "--stream %u (%s): a service needs "
			"cir= (eir= alone is no bandwidth profile)", i + 1, d->name);
	if (d->rate.unit != WR_RATE_NONE || d->share_pct > 0 ||
			d->pattern.kind != WR_PATTERN_CONSTANT)
		return wr_err_usage(err, -EINVAL, "--stream %u (%s): rate=, share= and "
			"pattern= do not go with cir=: the test sets a service's rate",
			i + 1, d->name);
	if ((s->cir.unit == WR_RATE_PCT || s->eir.unit == WR_RATE_PCT) &&
			cfg->link_speed_bps == 0)
		return wr_err_usage(err, -EINVAL, "--stream %u (%s): cir=/eir= in %% need "
			"--link-speed", i + 1, d->name);
	if (cfg->link_speed_bps == 0)
		return 0;
	cir = l1_bps(d, &s->cir, cfg->link_speed_bps);
	eir = l1_bps(d, &s->eir, cfg->link_speed_bps);
	if (cir + eir > (double)cfg->link_speed_bps * (1 + 1e-9))
		return wr_err_usage(err, -EINVAL, "--stream %u (%s): cir + eir: %.6g Mb/s "
			"at L1, above the --link-speed of %.6g Mb/s", i + 1, d->name,
			(cir + eir) / 1e6, (double)cfg->link_speed_bps / 1e6);
	return 0;
}

/* The CIR steps: ascending, each above 0 and at most 100 %. */
static int
check_steps(const struct wr_config *cfg, struct wr_error *err)
{
	unsigned int i;

	for (i = 0; i < cfg->nb_y1564_steps; i++) {
		double p = cfg->y1564_steps_pct[i];

		if (!(p > 0 && p <= 100))
			return wr_err_usage(err, -EINVAL, "--y1564-steps: step %u (%g%%) "
				"is not above 0 and at most 100%% of the CIR", i + 1, p);
		if (i > 0 && p <= cfg->y1564_steps_pct[i - 1])
			return wr_err_usage(err, -EINVAL, "--y1564-steps: step %u (%g%%) is "
				"not above step %u (%g%%): the CIR steps go up", i + 1, p, i,
				cfg->y1564_steps_pct[i - 1]);
	}
	return 0;
}

/* Why this run measures no delay (NULL: it does), for the refusal. */
static const char *
no_delay(const struct wr_config *cfg)
{
	if (cfg->stamp == WR_STAMP_SEQ)
		return "--stamp seq writes no TX timestamp";
	if (cfg->stamp == WR_STAMP_NONE)
		return "--stamp none writes no test header";
	if (cfg->lat_mode == WR_LAT_OFF)
		return "--latency off measures no delay";
	return NULL;
}

/*
 * A criterion this run cannot measure is never passed: refused before
 * any traffic unless --skip-unmeasured (then the verdict lists it as not
 * measured).
 */
static int
check_measurable(const struct wr_config *cfg, unsigned int i,
		struct wr_error *err)
{
	const struct wr_stream_def *d = &cfg->streams[i];
	const char *why = no_delay(cfg);
	const char *kpi = d->svc.ftd_ns >= 0 ? "ftd" : "fdv";

	if (why == NULL || cfg->skip_unmeasured ||
			(d->svc.ftd_ns < 0 && d->svc.fdv_ns < 0))
		return 0;
	return wr_err_usage(err, -EINVAL, "--stream %u (%s): its criterion %s= "
		"cannot be measured: %s; use --stamp full (and not --latency off), drop "
		"%s=, or give --skip-unmeasured to judge the service without it",
		i + 1, d->name, kpi, why, kpi);
}

int
wr_service_check(const struct wr_config *cfg, struct wr_error *err)
{
	unsigned int i;
	int rc = check_steps(cfg, err);

	if (rc != 0 || cfg->mode != WR_MODE_Y1564)
		return rc;
	if (cfg->rate.unit != WR_RATE_NONE || cfg->count_pkts != 0 || cfg->nb_sizes != 0)
		return wr_err_usage(err, -EINVAL, "--%s with --mode y1564: each service's "
			"rates are its cir= and eir=, its frame size the stream's size=, "
			"its steps' lengths --step-time and --perf-time",
			cfg->rate.unit != WR_RATE_NONE ? "rate" : cfg->count_pkts ? "count" :
			"sizes");
	if (cfg->interval_ms != 1000)
		return wr_err_usage(err, -EINVAL, "--interval with --mode y1564: its "
			"performance test counts seconds (availability, Y.1563): keep 1s");
	if (cfg->nb_stream_defs == 0)
		return wr_err_usage(err, -EINVAL, "--mode y1564 needs services: --stream "
			"with cir= (docs/y1564.md)");
	for (i = 0; i < cfg->nb_stream_defs && rc == 0; i++) {
		const struct wr_stream_def *d = &cfg->streams[i];

		if (d->svc.role == WR_SERVICE_NONE)
			rc = wr_err_usage(err, -EINVAL, "--stream %u (%s): --mode y1564 tests "
				"services: give it cir= (and its criteria)", i + 1, d->name);
		else if (d->svc.role == WR_SERVICE_GREEN)
			rc = check_one(cfg, i, err);
		if (rc == 0 && d->svc.role == WR_SERVICE_GREEN)
			rc = check_measurable(cfg, i, err);
	}
	return rc;
}
