/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ether.h>

#include "opts_rfc2889.h"
#include "optab.h"
#include "opts_values.h"

/* Highest learning or test frame rate taken, frames/s. */
#define ADDR_MAX_PPS 1e8

void
wr_opts_rfc2889_defaults(struct wr_config *cfg)
{
	struct wr_rfc2889_conf *r = &cfg->rfc2889;
	static const uint8_t base[6] = { 0x02, 0x28, 0x89, 0, 0, 0 };

	memset(r, 0, sizeof(*r));
	r->learn_port = 0;
	r->test_port = 1;
	r->mon_port = 2;
	r->min_nb = 1;
	r->max_nb = 4096;
	r->addr_pps = 1000;
	r->learn_min_pps = 100;
	r->learn_max_pps = 10000;
	r->aging_ms = 300000;
	r->settle_ms = 100;
	memcpy(r->plan_base, base, sizeof(base));
	r->mesh_pattern = WR_MESH_FULL;
	r->mesh_min_pps = 1000;
	r->mesh_max_pps = 1000;
}

/* A --mesh-pattern name (wr_mesh_pattern_name). */
static int
opt_pattern(const char *v, struct wr_rfc2889_conf *r, struct wr_error *err)
{
	static const char *const names[] = { [WR_MESH_FULL] = "full",
		[WR_MESH_ONE_TO_MANY] = "one-to-many",
		[WR_MESH_MANY_TO_ONE] = "many-to-one",
		[WR_MESH_CONGESTION] = "congestion",
		[WR_MESH_UNIDIR] = "unidirectional",
		[WR_MESH_MULTI_DEVICE] = "multi-device",
		[WR_MESH_BROADCAST] = "broadcast" };
	unsigned int i;

	for (i = 0; i < RTE_DIM(names); i++) {
		if (strcmp(v, names[i]) == 0) {
			r->mesh_pattern = (enum wr_mesh_pattern)i;
			return 0;
		}
	}
	return wr_err_usage(err, -EINVAL, "--mesh-pattern %s: expected full, "
		"one-to-many, many-to-one, congestion, unidirectional, "
		"multi-device or broadcast", v);
}

/* "PPS" (one trial) or "MIN-MAX" (a search), frames/s per port. */
static int
opt_mesh_rate(const char *v, struct wr_rfc2889_conf *r, struct wr_error *err)
{
	char *end;
	double lo = strtod(v, &end), hi = lo;

	if (end != v && *end == '-') {
		v = end + 1;
		hi = strtod(v, &end);
		if (end != v && *end == '\0' && !(hi > lo))
			return wr_err_usage(err, -EINVAL, "--mesh-rate %g-%g: the "
				"largest rate must be above the smallest", lo, hi);
	}
	if (end == v || *end != '\0' || !(lo >= 1) || hi > ADDR_MAX_PPS)
		return wr_err_usage(err, -EINVAL, "--mesh-rate: expected PPS or "
			"MIN-MAX, frames/s per port from 1 to %g", ADDR_MAX_PPS);
	r->mesh_min_pps = lo;
	r->mesh_max_pps = hi;
	r->mesh_rate_set = true;
	return 0;
}

/* "L,T,M": three run port indices. */
static int
opt_ports(const char *v, struct wr_rfc2889_conf *r, struct wr_error *err)
{
	unsigned int l, t, m;
	int n = -1;

	if (sscanf(v, "%u,%u,%u%n", &l, &t, &m, &n) != 3 || v[n] != '\0' ||
			l >= WR_MAX_PORTS || t >= WR_MAX_PORTS || m >= WR_MAX_PORTS)
		return wr_err_usage(err, -EINVAL, "--addr-ports %s: expected three "
			"port indices L,T,M below %u (learning, test, monitoring)",
			v, WR_MAX_PORTS);
	if (l == t || l == m || t == m)
		return wr_err_usage(err, -EINVAL, "--addr-ports %s: the learning, "
			"test and monitoring ports must be three different ports", v);
	r->learn_port = (uint16_t)l;
	r->test_port = (uint16_t)t;
	r->mon_port = (uint16_t)m;
	return 0;
}

/* "N" or "N-M" of whole numbers (k, M suffixes) into *lo, *hi. */
static int
opt_count(const char *v, uint32_t *lo, uint32_t *hi, struct wr_error *err)
{
	char a[32];
	const char *dash = strchr(v, '-');
	uint64_t x, y;
	size_t n = dash != NULL ? (size_t)(dash - v) : strlen(v);

	if (n == 0 || n >= sizeof(a))
		return wr_err_usage(err, -EINVAL, "--addr-count %s: expected N or "
			"N-M, address counts 1..%u", v, WR_RFC2889_MAX_ADDRS);
	memcpy(a, v, n);
	a[n] = '\0';
	if (wr_optv_u64("addr-count", a, 1, WR_RFC2889_MAX_ADDRS, &x, err) != 0 ||
			wr_optv_u64("addr-count", dash != NULL ? dash + 1 : a, 1,
			WR_RFC2889_MAX_ADDRS, &y, err) != 0)
		return -EINVAL;
	if (y < x)
		return wr_err_usage(err, -EINVAL, "--addr-count %s: the largest count "
			"is below the smallest", v);
	*lo = (uint32_t)x;
	*hi = (uint32_t)y;
	return 0;
}

/* "MIN-MAX" frames/s, MIN < MAX. */
static int
opt_rates(const char *v, struct wr_rfc2889_conf *r, struct wr_error *err)
{
	char *end;
	double lo = strtod(v, &end), hi;

	if (end == v || *end != '-')
		return wr_err_usage(err, -EINVAL, "--learn-rates %s: expected MIN-MAX "
			"in frames/s (e.g. 100-10000)", v);
	v = end + 1;
	hi = strtod(v, &end);
	if (end == v || *end != '\0' || !(lo > 0) || !(hi > lo) || hi > ADDR_MAX_PPS)
		return wr_err_usage(err, -EINVAL, "--learn-rates: expected 0 < MIN < "
			"MAX <= %g frames/s", ADDR_MAX_PPS);
	r->learn_min_pps = lo;
	r->learn_max_pps = hi;
	return 0;
}

/* "MAC" (unicast) or "random[:SEED]". */
static int
opt_plan(const char *v, struct wr_rfc2889_conf *r, struct wr_error *err)
{
	struct rte_ether_addr a;
	char *end;

	if (strncmp(v, "random", 6) == 0 && (v[6] == '\0' || v[6] == ':')) {
		r->plan_random = true;
		r->plan_seed = v[6] == ':' ? strtoull(v + 7, &end, 0) : 1;
		if (v[6] == ':' && (end == v + 7 || *end != '\0'))
			return wr_err_usage(err, -EINVAL, "--addr-plan %s: the seed is "
				"not a whole number", v);
		return 0;
	}
	if (rte_ether_unformat_addr(v, &a) != 0 || (a.addr_bytes[0] & 0x01))
		return wr_err_usage(err, -EINVAL, "--addr-plan %s: expected a unicast "
			"MAC (the first address) or random[:SEED]", v);
	r->plan_random = false;
	memcpy(r->plan_base, a.addr_bytes, sizeof(r->plan_base));
	return 0;
}

int
wr_opts_rfc2889(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	struct wr_rfc2889_conf *r = &cfg->rfc2889;

	switch (c) {
	case WR_OPT_ADDR_PORTS: return opt_ports(v, r, err);
	case WR_OPT_ADDR_COUNT: return opt_count(v, &r->min_nb, &r->max_nb, err);
	case WR_OPT_ADDR_RATE:
		return wr_optv_real("addr-rate", v, 1, ADDR_MAX_PPS, &r->addr_pps, err);
	case WR_OPT_LEARN_RATES: return opt_rates(v, r, err);
	case WR_OPT_FDB_RESET:
		if (v[0] == '\0' || strlen(v) >= sizeof(r->reset_cmd))
			return wr_err_usage(err, -EINVAL, "--fdb-reset: the command is "
				"empty or longer than %u bytes", WR_RFC2889_CMD_LEN - 1);
		snprintf(r->reset_cmd, sizeof(r->reset_cmd), "%s", v);
		return 0;
	case WR_OPT_AGING:
		if (strcmp(v, "0") == 0) {
			r->aging_ms = 0;
			return 0;
		}
		return wr_optv_duration("aging", v, 1000, &r->aging_ms, err);
	case WR_OPT_ADDR_SETTLE:
		return wr_optv_duration("addr-settle", v, 0, &r->settle_ms, err);
	case WR_OPT_ADDR_PLAN: return opt_plan(v, r, err);
	case WR_OPT_MESH_PATTERN: return opt_pattern(v, r, err);
	case WR_OPT_MESH_RATE: return opt_mesh_rate(v, r, err);
	case WR_OPT_MESH_FWD_PRESSURE:
		return wr_optv_u64("mesh-forward-pressure", v, 1000000,
			1000000000000ULL, &r->fwd_pressure_bps, err);
	default:
		return 1;
	}
}

/* --mode mesh's frame sizes, FCS included: its tag, an MTU of 1500. */
#define MESH_MIN_SIZE 64u
#define MESH_MAX_SIZE 1518u

static bool
addr_mode(enum wr_mode m)
{
	return m == WR_MODE_ADDR_CAPACITY || m == WR_MODE_ADDR_LEARNING;
}

int
wr_opts_rfc2889_check(const struct wr_config *cfg, struct wr_error *err)
{
	const struct wr_rfc2889_conf *r = &cfg->rfc2889;
	const char *mode = cfg->mode == WR_MODE_ADDR_CAPACITY ? "addr-capacity" :
		"addr-learning";
	uint32_t size;
	unsigned int i;

	if (r->fwd_pressure_bps != 0 && r->mesh_rate_set)
		return wr_err_usage(err, -EINVAL, "--mesh-forward-pressure sets the "
			"rate of its one trial: leave out --mesh-rate");
	if (r->fwd_pressure_bps != 0 && cfg->mode != WR_MODE_MESH)
		return wr_err_usage(err, -EINVAL, "--mesh-forward-pressure needs "
			"--mode mesh");
	for (i = 0; cfg->mode == WR_MODE_MESH && i < (cfg->nb_sizes ?
			cfg->nb_sizes : 1); i++) {
		size = cfg->nb_sizes ? cfg->sizes[i] : cfg->frame_size;
		if (size < MESH_MIN_SIZE || size > MESH_MAX_SIZE)
			return wr_err_usage(err, -EINVAL, "--mode mesh: frame size "
				"%u (--size, --sizes): its frames are %u to %u bytes "
				"(an MTU of 1500)", size, MESH_MIN_SIZE, MESH_MAX_SIZE);
	}
	if (!addr_mode(cfg->mode))
		return 0;
	if (r->reset_cmd[0] == '\0')
		return wr_err_usage(err, -EINVAL, "--mode %s needs --fdb-reset CMD: a "
			"command that empties the switch's address table before each "
			"trial (e.g. 'bridge fdb flush dev br0')", mode);
	return 0;
}
