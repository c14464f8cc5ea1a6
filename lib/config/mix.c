/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/units.h"
#include "mix.h"

/* RFC 6985 section 4, letters a..g; h and z are set per mix. */
static const uint32_t genome_sizes[] = { 64, 128, 256, 512, 1024, 1280, 1518 };

#define GENOME_JUMBO 9018u
#define SIMPLE_IMIX "64:7,594:4,1518:1"

/* Index of size in m, appended when new; -1 when the mix is full. */
static int
size_index(struct wr_mix *m, uint32_t size)
{
	unsigned int i;

	for (i = 0; i < m->nb_sizes; i++)
		if (m->size[i] == size)
			return (int)i;
	if (m->nb_sizes == WR_MIX_MAX_SIZES)
		return -1;
	m->size[m->nb_sizes] = size;
	return (int)m->nb_sizes++;
}

/* A decimal number at *p within [lo, hi]; *p moves past it. */
static int
parse_num(const char **p, uint32_t lo, uint32_t hi, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	v = strtoul(*p, &end, 10);
	if (v < lo || v > hi)
		return -ERANGE;
	*p = end;
	*out = (uint32_t)v;
	return 0;
}

/*
 * Smooth weighted round-robin over the weights in nb_per_cycle: each slot
 * goes to the size with the largest running credit (lowest index on ties),
 * which then pays the total. Deterministic, and no size comes in a run
 * longer than its share needs.
 */
static void
spread(struct wr_mix *m)
{
	int64_t credit[WR_MIX_MAX_SIZES] = { 0 };
	unsigned int k, i, best;

	for (k = 0; k < m->seq_len; k++) {
		best = 0;
		for (i = 0; i < m->nb_sizes; i++) {
			credit[i] += m->nb_per_cycle[i];
			if (credit[i] > credit[best])
				best = i;
		}
		credit[best] -= m->seq_len;
		m->seq[k] = (uint8_t)best;
	}
}

/* "SIZE[:WEIGHT],..." */
static int
parse_list(const char *s, struct wr_mix *m, struct wr_error *err)
{
	const char *p = s;
	uint32_t size, weight;
	int idx;

	for (;;) {
		weight = 1;
		if (parse_num(&p, 1, 65535, &size) != 0)
			return wr_err_usage(err, -EINVAL, "mix '%s': expected a frame size "
				"at '%s'", m->text, p);
		if (*p == ':' && (p++, parse_num(&p, 1, WR_MIX_MAX_SEQ, &weight) != 0))
			return wr_err_usage(err, -EINVAL, "mix '%s': expected a weight "
				"1..%u at '%s'", m->text, WR_MIX_MAX_SEQ, p);
		idx = size_index(m, size);
		if (idx < 0)
			return wr_err_usage(err, -EINVAL, "mix '%s': more than %u sizes",
				m->text, WR_MIX_MAX_SIZES);
		if (m->nb_per_cycle[idx] != 0)
			return wr_err_usage(err, -EINVAL, "mix '%s': size %u listed twice",
				m->text, size);
		m->nb_per_cycle[idx] = weight;
		m->seq_len += weight;
		if (m->seq_len > WR_MIX_MAX_SEQ)
			return wr_err_usage(err, -EINVAL, "mix '%s': weights add up to more "
				"than %u frames per cycle", m->text, WR_MIX_MAX_SEQ);
		if (*p == '\0')
			break;
		if (*p != ',')
			return wr_err_usage(err, -EINVAL, "mix '%s': expected ',' or the end "
				"at '%s'", m->text, p);
		p++;
	}
	spread(m);
	return 0;
}

/* The ",z=SIZE" and ",h=SIZE" settings after a genome's letters. */
static int
parse_genome_sizes(const char *p, const char *all, uint32_t *z, uint32_t *h,
		struct wr_error *err)
{
	while (*p == ',') {
		const char *at = p;

		if ((p[1] != 'z' && p[1] != 'h') || p[2] != '=')
			return wr_err_usage(err, -EINVAL, "mix '%s': expected ',z=SIZE' or "
				"',h=SIZE' at '%s'", all, at);
		p += 3;
		if (parse_num(&p, 1, 65535, at[1] == 'z' ? z : h) != 0)
			return wr_err_usage(err, -EINVAL, "mix '%s': expected a size "
				"1..65535 at '%s'", all, p);
	}
	if (*p != '\0')
		return wr_err_usage(err, -EINVAL, "mix '%s': genome letters are a..h and "
			"z (RFC 6985), not '%c'", all, *p);
	return 0;
}

/* Size of genome letter c; 0 when z is used but not given. */
static uint32_t
genome_size(char c, uint32_t z, uint32_t h)
{
	if (c == 'z')
		return z;
	if (c == 'h')
		return h;
	return genome_sizes[c - 'a'];
}

/* "letters[,z=SIZE][,h=SIZE]": one frame per letter, in order. */
static int
parse_genome(const char *s, struct wr_mix *m, struct wr_error *err)
{
	size_t n = strspn(s, "abcdefghz");
	uint32_t z = 0, h = GENOME_JUMBO, size;
	size_t k;
	int idx, rc;

	rc = parse_genome_sizes(s + n, m->text, &z, &h, err);
	if (rc != 0)
		return rc;
	if (n > WR_MIX_MAX_SEQ)
		return wr_err_usage(err, -EINVAL, "mix '%s': %zu letters, at most %u "
			"frames per cycle", m->text, n, WR_MIX_MAX_SEQ);
	for (k = 0; k < n; k++) {
		size = genome_size(s[k], z, h);
		if (size == 0)
			return wr_err_usage(err, -EINVAL, "mix '%s': letter z needs its "
				"size, e.g. '%.*s,z=594'", m->text, (int)n, s);
		idx = size_index(m, size);
		if (idx < 0)
			return wr_err_usage(err, -EINVAL, "mix '%s': more than %u sizes",
				m->text, WR_MIX_MAX_SIZES);
		m->seq[k] = (uint8_t)idx;
		m->nb_per_cycle[idx]++;
	}
	m->seq_len = (unsigned int)n;
	return 0;
}

/* Sizes within [lo, hi], then the running byte totals. */
static int
finish(struct wr_mix *m, uint32_t lo, uint32_t hi, struct wr_error *err)
{
	unsigned int i;

	for (i = 0; i < m->nb_sizes; i++)
		if (m->size[i] < lo || m->size[i] > hi)
			return wr_err_usage(err, -EINVAL, "mix '%s': frame size %u outside "
				"%u..%u", m->text, m->size[i], lo, hi);
	m->prefix_bytes[0] = 0;
	for (i = 0; i < m->seq_len; i++)
		m->prefix_bytes[i + 1] = m->prefix_bytes[i] + m->size[m->seq[i]];
	return 0;
}

int
wr_mix_parse(const char *s, uint32_t min_size, uint32_t max_size,
		struct wr_mix *out, struct wr_error *err)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if (s[0] == '\0' || strlen(s) >= sizeof(out->text))
		return wr_err_usage(err, -EINVAL, "mix: empty or longer than %u "
			"characters", WR_MIX_TEXT_LEN - 1);
	strcpy(out->text, s);
	if (strcmp(s, "imix") == 0)
		rc = parse_list(SIMPLE_IMIX, out, err);
	else if (s[0] >= '0' && s[0] <= '9')
		rc = parse_list(s, out, err);
	else if (strchr("abcdefghz", s[0]) != NULL)
		rc = parse_genome(s, out, err);
	else
		rc = wr_err_usage(err, -EINVAL, "mix '%s': expected imix, a weighted "
			"list like 64:7,594:4,1518:1 or an RFC 6985 genome like "
			"aaaaaaazzzzg,z=594", s);
	if (rc == 0)
		rc = finish(out, min_size, max_size, err);
	if (rc != 0)
		out->nb_sizes = 0;
	return rc;
}

double
wr_mix_mean_size(const struct wr_mix *m)
{
	if (m->nb_sizes == 0)
		return 0.0;
	return (double)wr_mix_cycle_bytes(m) / m->seq_len;
}

uint32_t
wr_mix_max_size(const struct wr_mix *m)
{
	uint32_t v = 0;
	unsigned int i;

	for (i = 0; i < m->nb_sizes; i++)
		if (m->size[i] > v)
			v = m->size[i];
	return v;
}

uint32_t
wr_mix_min_size(const struct wr_mix *m)
{
	uint32_t v = m->nb_sizes ? UINT32_MAX : 0;
	unsigned int i;

	for (i = 0; i < m->nb_sizes; i++)
		if (m->size[i] < v)
			v = m->size[i];
	return v;
}

uint64_t
wr_mix_bytes(const struct wr_mix *m, uint64_t nb_pkts)
{
	return nb_pkts / m->seq_len * wr_mix_cycle_bytes(m) +
		m->prefix_bytes[nb_pkts % m->seq_len];
}

int
wr_mix_to_pps(const struct wr_rate *r, const struct wr_mix *m,
		uint64_t link_bps, double *pps)
{
	double frames = m->seq_len, bytes = (double)wr_mix_cycle_bytes(m);
	double l1_bits = 8.0 * (bytes + WR_UNITS_L1_OVERHEAD_BYTES * frames);

	if (r == NULL || pps == NULL || m->nb_sizes == 0)
		return -EINVAL;
	if (r->unit == WR_RATE_NONE || r->unit == WR_RATE_PPS)
		return wr_rate_to_pps(r, 0, link_bps, pps);
	if (!isfinite(r->value) || !(r->value > 0.0))
		return -EINVAL;
	switch (r->unit) {
	case WR_RATE_BPS_L1:
		*pps = r->value * frames / l1_bits;
		return 0;
	case WR_RATE_BPS_L2:
		*pps = r->value * frames / (8.0 * bytes);
		return 0;
	case WR_RATE_PCT:
		if (link_bps == 0)
			return -EINVAL;
		*pps = r->value / 100.0 * (double)link_bps * frames / l1_bits;
		return 0;
	default:
		return -EINVAL;
	}
}
