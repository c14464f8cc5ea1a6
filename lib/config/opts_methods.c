/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/units.h"
#include "opts_methods.h"
#include "opts_values.h"

void
wr_opts_methods_defaults(struct wr_config *cfg)
{
	struct wr_capture_conf *c = &cfg->capture;

	c->path[0] = '\0';
	c->what = WR_CAPTURE_FOREIGN | WR_CAPTURE_SEQ | WR_CAPTURE_LAST;
	c->around_pkts = 4;
	c->last_pkts = 16;
	c->max_pkts = 1000;
	c->snaplen = 0;
	wr_mlr_default_goals(cfg->goals, &cfg->nb_goals);
	cfg->mlr_initial_ms = 0;
	cfg->nb_lat_loads = 4;
	cfg->lat_loads_pct[0] = 0;
	cfg->lat_loads_pct[1] = 10;
	cfg->lat_loads_pct[2] = 50;
	cfg->lat_loads_pct[3] = 90;
	cfg->lat_trial_ms = 0;
	cfg->nb_y1564_steps = 4;
	cfg->y1564_steps_pct[0] = 25;
	cfg->y1564_steps_pct[1] = 50;
	cfg->y1564_steps_pct[2] = 75;
	cfg->y1564_steps_pct[3] = 100;
	cfg->step_ms = 10000;
	cfg->perf_ms = 15 * 60 * 1000;
	cfg->police_margin = 0.05;
	cfg->ses_flr = 0.5;
}

static int
opt_ms(const char *name, const char *v, uint64_t *out, struct wr_error *err)
{
	if (wr_units_parse_duration_ms(v, out) != 0 || *out < 100)
		return wr_err_usage(err, -EINVAL, "--%s %s: expected a duration of at "
			"least 100ms (e.g. 500ms, 2s)", name, v);
	return 0;
}

/* "0,10,50,90" (percent of the rate found, 0..100) or "none". */
static int
opt_loads(const char *v, struct wr_config *cfg, struct wr_error *err)
{
	char buf[256], *tok, *save = NULL, *end;
	double x;

	cfg->nb_lat_loads = 0;
	if (strcmp(v, "none") == 0)
		return 0;
	if (strlen(v) == 0 || strlen(v) >= sizeof(buf))
		return wr_err_usage(err, -EINVAL, "--lat-loads: list empty or too long");
	strcpy(buf, v);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
		x = strtod(tok, &end);
		if (end == tok || *end != '\0' || !(x >= 0 && x <= 100))
			return wr_err_usage(err, -EINVAL, "--lat-loads %s: '%s' is not a "
				"percentage from 0 to 100", v, tok);
		if (cfg->nb_lat_loads == WR_MAX_LAT_LOADS)
			return wr_err_usage(err, -EINVAL, "--lat-loads %s: at most %u loads",
				v, WR_MAX_LAT_LOADS);
		cfg->lat_loads_pct[cfg->nb_lat_loads++] = x;
	}
	return 0;
}

/* "25,50,75,100": % of the CIR (checked in order by service.c). */
static int
opt_steps(const char *v, struct wr_config *cfg, struct wr_error *err)
{
	char buf[256], *tok, *save = NULL, *end;
	double x;

	cfg->nb_y1564_steps = 0;
	if (strlen(v) == 0 || strlen(v) >= sizeof(buf))
		return wr_err_usage(err, -EINVAL, "--y1564-steps: list empty or too long");
	strcpy(buf, v);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
		x = strtod(tok, &end);
		if (end == tok || (*end != '\0' && strcmp(end, "%") != 0))
			return wr_err_usage(err, -EINVAL, "--y1564-steps %s: '%s' is not a "
				"percentage of the CIR", v, tok);
		if (cfg->nb_y1564_steps == WR_MAX_Y1564_STEPS)
			return wr_err_usage(err, -EINVAL, "--y1564-steps %s: at most %u "
				"steps", v, WR_MAX_Y1564_STEPS);
		cfg->y1564_steps_pct[cfg->nb_y1564_steps++] = x;
	}
	return 0;
}

/* A percentage 0..100 into a ratio. */
static int
opt_pct(const char *name, const char *v, double *out, struct wr_error *err)
{
	char *end;
	double x = strtod(v, &end);

	if (end == v || (*end != '\0' && strcmp(end, "%") != 0) || !(x >= 0 && x <= 100))
		return wr_err_usage(err, -EINVAL, "--%s %s: expected a percentage "
			"from 0 to 100", name, v);
	*out = x / 100.0;
	return 0;
}

/* "foreign,seq,last" (any subset, at least one) into WR_CAPTURE_* bits. */
static int
opt_what(const char *v, uint32_t *what, struct wr_error *err)
{
	static const struct { const char *name; uint32_t bit; } names[] = {
		{ "foreign", WR_CAPTURE_FOREIGN }, { "seq", WR_CAPTURE_SEQ },
		{ "last", WR_CAPTURE_LAST },
	};
	const char *p = v, *end;
	unsigned int i;
	size_t n;

	*what = 0;
	for (;;) {
		end = strchr(p, ',');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		for (i = 0; i < RTE_DIM(names); i++)
			if (strlen(names[i].name) == n && strncmp(p, names[i].name, n) == 0)
				break;
		if (i == RTE_DIM(names))
			return wr_err_usage(err, -EINVAL, "--capture-what %s: '%.*s' is not "
				"one of foreign, seq, last", v, (int)n, p);
		*what |= names[i].bit;
		if (end == NULL)
			return 0;
		p = end + 1;
	}
}

int
wr_opts_methods(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	struct wr_capture_conf *cc = &cfg->capture;

	switch (c) {
	case WR_OPT_CAPTURE:
		return wr_optv_path("capture", v, cc->path, sizeof(cc->path), err);
	case WR_OPT_CAPTURE_WHAT: return opt_what(v, &cc->what, err);
	case WR_OPT_CAPTURE_AROUND:
		return WR_OPTV_UINT("capture-around", v, 0, 4096, &cc->around_pkts, err);
	case WR_OPT_CAPTURE_LAST:
		return WR_OPTV_UINT("capture-last", v, 0, 4096, &cc->last_pkts, err);
	case WR_OPT_CAPTURE_MAX:
		return WR_OPTV_UINT("capture-max", v, 0, 1u << 20, &cc->max_pkts, err);
	case WR_OPT_CAPTURE_SNAPLEN:
		return WR_OPTV_UINT("capture-snaplen", v, 14, WR_FRAME_MAX_SIZE,
			&cc->snaplen, err);
	case WR_OPT_GOALS:
		return wr_mlr_goals_parse(v, cfg->goals, &cfg->nb_goals, err);
	case WR_OPT_MLR_INITIAL: return opt_ms("mlr-initial", v, &cfg->mlr_initial_ms, err);
	case WR_OPT_LAT_LOADS: return opt_loads(v, cfg, err);
	case WR_OPT_LAT_TRIAL: return opt_ms("lat-trial", v, &cfg->lat_trial_ms, err);
	case WR_OPT_Y1564_STEPS: return opt_steps(v, cfg, err);
	case WR_OPT_STEP_TIME: return opt_ms("step-time", v, &cfg->step_ms, err);
	case WR_OPT_PERF_TIME:
		if (strcmp(v, "0") == 0) {
			cfg->perf_ms = 0;
			return 0;
		}
		return opt_ms("perf-time", v, &cfg->perf_ms, err);
	case WR_OPT_POLICE_MARGIN:
		return opt_pct("police-margin", v, &cfg->police_margin, err);
	case WR_OPT_SES_FLR: return opt_pct("ses-flr", v, &cfg->ses_flr, err);
	case WR_OPT_SKIP_UNMEASURED:
		cfg->skip_unmeasured = true;
		return 0;
	default:
		return 1;
	}
}

int
wr_opts_methods_check(struct wr_config *cfg, struct wr_error *err)
{
	if (cfg->skip_unmeasured && cfg->mode != WR_MODE_Y1564)
		return wr_err_usage(err, -EINVAL, "--skip-unmeasured without --mode "
			"y1564: only its verdicts judge criteria");
	if (cfg->capture.path[0] != '\0' && cfg->reflect)
		return wr_err_usage(err, -EINVAL, "--capture with --reflect: a reflector "
			"sends what it receives back; capture on the generator");
	/* CSIT's final trials are 1 s; RFC 2544's 60 s default is for its own. */
	if (cfg->mode == WR_MODE_MLR && !cfg->trial_set)
		cfg->trial_ms = 1000;
	if (cfg->mode == WR_MODE_MLR && cfg->mlr_initial_ms > cfg->trial_ms)
		return wr_err_usage(err, -EINVAL, "--mlr-initial %" PRIu64 "ms is longer than "
			"--trial %" PRIu64 "ms: short trials must not be longer than the "
			"final ones", cfg->mlr_initial_ms, cfg->trial_ms);
	return 0;
}
