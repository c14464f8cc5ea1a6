/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "txvar.h"

/* The fields of spec at size, from a template built in buf. */
static int
size_fields(const struct wr_frame_spec *spec, uint32_t size, uint8_t *buf,
		struct wr_txvar_slot *out, struct wr_frame_layout *lay)
{
	struct wr_frame_spec s = *spec;

	s.size = size;
	if (wr_frame_build(&s, buf, WR_FRAME_MAX_SIZE, lay) != 0)
		return -EINVAL;
	out->data_len = (uint16_t)lay->data_len;
	memcpy(out->var_val, lay->var_val, sizeof(out->var_val));
	return 0;
}

/* True when the word at off is one of var_off (written per slot). */
static bool
is_var(const struct wr_txvar *v, uint32_t off)
{
	unsigned int i;

	for (i = 0; i < WR_FRAME_NB_VAR; i++)
		if (v->var_off[i] == off)
			return true;
	return false;
}

/*
 * A stacked mix: the header words (before the test header) that differ
 * between any size's template and the largest's, hdr[i] the headers of
 * size i (th_off bytes each), big the largest size's index.
 */
static int
ext_words(struct wr_txvar *v, const uint8_t *hdr, unsigned int nb_sizes,
		unsigned int big)
{
	const uint32_t n = v->th_off;
	uint32_t off;
	unsigned int i;

	for (off = 0; off + 1 < n; off += 2) {
		bool differs = false;

		for (i = 0; i < nb_sizes; i++)
			differs |= memcmp(hdr + i * n + off, hdr + big * n + off, 2) != 0;
		if (!differs || is_var(v, off))
			continue;
		if (v->nb_ext == WR_TXVAR_MAX_EXT)
			return -EINVAL;
		for (i = 0; i < nb_sizes; i++)
			memcpy(&v->ext_val[i][v->nb_ext], hdr + i * n + off, 2);
		v->ext_off[v->nb_ext++] = (uint16_t)off;
	}
	return 0;
}

/*
 * The slots of every size of mix, and for a stack (spec->stack) the outer
 * words that change with the size (ext_words).
 */
static int
sizes_fields(const struct wr_mix *mix, const struct wr_frame_spec *spec,
		struct wr_txvar *v, struct wr_txvar_slot *size)
{
	bool stacked = spec->stack != NULL && spec->stack->nb_layers != 0;
	unsigned int i, big = 0;
	struct wr_frame_layout l;
	uint8_t *buf, *hdr;
	int rc = 0;

	buf = malloc(WR_FRAME_MAX_SIZE + (size_t)WR_MIX_MAX_SIZES * v->th_off);
	if (buf == NULL)
		return -ENOMEM;
	hdr = buf + WR_FRAME_MAX_SIZE;
	for (i = 0; i < mix->nb_sizes && rc == 0; i++) {
		rc = size_fields(spec, mix->size[i], buf, &size[i], &l);
		memcpy(hdr + (size_t)i * v->th_off, buf, v->th_off);
		if (mix->size[i] > mix->size[big])
			big = i;
	}
	if (rc == 0 && stacked)
		rc = ext_words(v, hdr, mix->nb_sizes, big);
	free(buf);
	return rc;
}

/* Offsets of the fields TX rewrites, from any template's layout. */
static void
set_offsets(struct wr_txvar *v, const struct wr_frame_spec *spec,
		const struct wr_frame_layout *lay)
{
	v->th_off = lay->th_off;
	v->udp_ck_off = lay->udp_ck_off;
	v->sport_off = lay->udp_sport_off;
	v->sport_base_be = rte_cpu_to_be_16(spec->src_udp);
	memcpy(v->var_off, lay->var_off, sizeof(v->var_off));
	if (lay->udp_ck_live)
		v->ck_base = lay->var_val[WR_FRAME_NB_VAR - 1];
}

int
wr_txvar_build(const struct wr_mix *mix, const struct wr_frame_spec *spec,
		const struct wr_frame_layout *lay, struct wr_txvar *v, bool *needed)
{
	struct wr_txvar_slot size[WR_MIX_MAX_SIZES];
	unsigned int i;
	int rc;

	memset(v, 0, sizeof(*v));
	v->mix = mix->nb_sizes != 0;
	v->csum6 = lay->udp_ck_live;
	*needed = v->mix || v->csum6;
	set_offsets(v, spec, lay);
	if (!v->mix)
		return 0;
	rc = sizes_fields(mix, spec, v, size);
	if (rc != 0)
		return rc;
	v->seq_len = mix->seq_len;
	for (i = 0; i < mix->seq_len; i++) {
		v->slot[i] = size[mix->seq[i]];
		v->size_of[i] = (uint8_t)mix->seq[i];
	}
	return 0;
}
