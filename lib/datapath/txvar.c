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
	struct wr_frame_layout l;
	unsigned int i;
	uint8_t *buf;
	int rc = 0;

	memset(v, 0, sizeof(*v));
	v->mix = mix->nb_sizes != 0;
	v->csum6 = lay->udp_ck_live;
	*needed = v->mix || v->csum6;
	set_offsets(v, spec, lay);
	if (!v->mix)
		return 0;
	buf = malloc(WR_FRAME_MAX_SIZE);
	if (buf == NULL)
		return -ENOMEM;
	for (i = 0; i < mix->nb_sizes && rc == 0; i++)
		rc = size_fields(spec, mix->size[i], buf, &size[i], &l);
	free(buf);
	if (rc != 0)
		return rc;
	v->seq_len = mix->seq_len;
	for (i = 0; i < mix->seq_len; i++)
		v->slot[i] = size[mix->seq[i]];
	return 0;
}
