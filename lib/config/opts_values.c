/* SPDX-License-Identifier: BSD-3-Clause */
/* Option values: numbers, durations, addresses, port lists, lcore maps. */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "opts_values.h"
#include "base/units.h"

int
wr_optv_u64(const char *name, const char *val, uint64_t min, uint64_t max,
		uint64_t *out, struct wr_error *err)
{
	int rc = wr_units_parse_u64(val, min, max, out);

	if (rc == -ERANGE)
		return wr_err_usage(err, -EINVAL, "--%s %s: out of range, accepted %" PRIu64
			" to %" PRIu64, name, val, min, max);
	if (rc < 0)
		return wr_err_usage(err, -EINVAL, "--%s %s: not a whole number (k, M, G "
			"suffixes allowed)", name, val);
	return 0;
}

int
wr_optv_uint(const char *name, const char *val, uint64_t min, uint64_t max,
		void *out, size_t size, struct wr_error *err)
{
	uint64_t x;
	int rc = wr_optv_u64(name, val, min, max, &x, err);

	if (rc != 0)
		return rc;
	if (size == sizeof(uint16_t))
		*(uint16_t *)out = (uint16_t)x;
	else if (size == sizeof(uint32_t))
		*(uint32_t *)out = (uint32_t)x;
	else
		*(uint64_t *)out = x;
	return 0;
}

int
wr_optv_duration(const char *name, const char *val, uint64_t min_ms,
		uint64_t *out, struct wr_error *err)
{
	uint64_t ms;

	if (wr_units_parse_duration_ms(val, &ms) != 0)
		return wr_err_usage(err, -EINVAL, "--%s %s: not a duration, accepted e.g. "
			"10, 2.5s, 500ms, 5m, 1h", name, val);
	if (ms < min_ms && !(ms == 0 && min_ms == 0))
		return wr_err_usage(err, -EINVAL, "--%s %s: too short, at least %" PRIu64
			" ms", name, val, min_ms);
	*out = ms;
	return 0;
}

int
wr_opts_parse_portlist(const char *s, uint64_t *mask)
{
	uint64_t m = 0;
	const char *p = s;

	if (strcmp(s, "all") == 0) {
		*mask = 0;
		return 1;
	}
	if (strcmp(s, "none") == 0) {
		*mask = 0;
		return 0;
	}
	while (*p != '\0') {
		char *end;
		unsigned long lo, hi;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		lo = strtoul(p, &end, 10);
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			hi = strtoul(p, &end, 10);
		}
		if (lo > hi || hi >= WR_MAX_PORTS)
			return hi >= WR_MAX_PORTS ? -ERANGE : -EINVAL;
		for (; lo <= hi; lo++)
			m |= 1ULL << lo;
		if (*end == ',')
			end++;
		else if (*end != '\0')
			return -EINVAL;
		p = end;
	}
	if (m == 0)
		return -EINVAL;
	*mask = m;
	return 0;
}

/* Parse "tx3.1" / "rx0.0" into q. */
static int
parse_qref(const char *s, struct wr_qref *q)
{
	unsigned int port, queue;
	int n = 0;

	if (strncmp(s, "tx", 2) == 0)
		q->dir = WR_DIR_TX;
	else if (strncmp(s, "rx", 2) == 0)
		q->dir = WR_DIR_RX;
	else
		return -EINVAL;
	if (sscanf(s + 2, "%u.%u%n", &port, &queue, &n) != 2 ||
			s[2 + n] != '\0' || s[2] < '0' || s[2] > '9')
		return -EINVAL;
	if (port >= WR_MAX_PORTS || queue >= WR_MAX_QUEUES)
		return -ERANGE;
	q->port = (uint16_t)port;
	q->queue = (uint16_t)queue;
	return 0;
}

int
wr_opts_parse_map(const char *s, struct wr_map *map, struct wr_error *err)
{
	char buf[512];
	char *save = NULL, *tok, *colon, *end;
	unsigned long lcore;

	if (strlen(s) >= sizeof(buf))
		return wr_err_usage(err, -EINVAL, "--map %.40s...: too long", s);
	strcpy(buf, s);
	colon = strchr(buf, ':');
	lcore = strtoul(buf, &end, 10);
	if (colon == NULL || end != colon || buf[0] < '0' || buf[0] > '9' ||
			lcore >= 1024)
		return wr_err_usage(err, -EINVAL, "--map %s: expected LCORE:QUEUES, e.g. "
			"1:tx0.0,rx0.0 (lcore id before the colon)", s);
	memset(map, 0, sizeof(*map));
	map->lcore = (unsigned int)lcore;
	for (tok = strtok_r(colon + 1, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
		if (map->nb_q == RTE_DIM(map->q))
			return wr_err_usage(err, -EINVAL, "--map %s: more than %zu queues "
				"for one lcore", s, RTE_DIM(map->q));
		if (parse_qref(tok, &map->q[map->nb_q]) != 0)
			return wr_err_usage(err, -EINVAL, "--map %s: '%s' is not a queue; "
				"expected tx<port>.<queue> or rx<port>.<queue> with "
				"port < %u and queue < %u", s, tok, WR_MAX_PORTS,
				WR_MAX_QUEUES);
		map->nb_q++;
	}
	if (map->nb_q == 0)
		return wr_err_usage(err, -EINVAL, "--map %s: no queue after the colon", s);
	return 0;
}

int
wr_optv_ports(const char *name, const char *val, uint64_t *mask, bool *set,
		struct wr_error *err)
{
	int rc = wr_opts_parse_portlist(val, mask);

	if (rc == -ERANGE)
		return wr_err_usage(err, -EINVAL, "--%s %s: port ids go up to %u", name,
			val, WR_MAX_PORTS - 1);
	if (rc < 0)
		return wr_err_usage(err, -EINVAL, "--%s %s: expected a port list such as "
			"0,1 or 0-3, or all, or none", name, val);
	*set = (rc == 0);
	return 0;
}

int
wr_optv_real(const char *name, const char *v, double min, double max, double *out,
		struct wr_error *err)
{
	char *end;
	double x = strtod(v, &end);

	if (end == v || *end != '\0' || !(x >= min && x <= max))
		return wr_err_usage(err, -EINVAL, "--%s %s: expected a number from %g to %g",
			name, v, min, max);
	*out = x;
	return 0;
}


int
wr_optv_path(const char *name, const char *val, char *dst, size_t size,
		struct wr_error *err)
{
	if (val[0] == '\0' || strlen(val) >= size)
		return wr_err_usage(err, -EINVAL, "--%s: path empty or too long", name);
	strcpy(dst, val);
	return 0;
}
