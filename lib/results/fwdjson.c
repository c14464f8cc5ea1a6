/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>

#include "fwdjson.h"
#include "base/jsonw.h"

/* The result of the size o's trials are at: the last of "results". */
static json_t *
size_result(json_t *o)
{
	json_t *a = json_object_get(o, "results");

	return json_array_get(a, json_array_size(a) - 1);
}

int
wr_fwd_max_json(json_t *o, const struct wr_fwd_max *m)
{
	json_t *r = size_result(o), *a, *x;
	unsigned int i;

	if (r == NULL)
		return -EINVAL;
	a = json_array();
	if (a == NULL)
		return -ENOMEM;
	for (i = 0; i < m->nb_ports; i++) {
		x = json_object();
		wr_json_set(x, "index", json_integer(i));
		wr_json_set(x, "mfr_pps", json_real(m->mfr_pps[i]));
		wr_json_set(x, "offered_pps", json_real(m->at_offered_pps[i]));
		json_array_append_new(a, x);
	}
	wr_json_set(r, "max_forwarding_rate", a);
	return 0;
}

int
wr_fwd_press_json(json_t *o, const struct wr_fwd_press *f)
{
	json_t *r = size_result(o), *a, *x, *p;
	unsigned int i;

	if (r == NULL)
		return -EINVAL;
	a = json_array();
	x = json_object();
	if (a == NULL || x == NULL) {
		json_decref(a);
		json_decref(x);
		return -ENOMEM;
	}
	for (i = 0; i < f->nb_ports; i++) {
		p = json_object();
		wr_json_set(p, "index", json_integer(i));
		wr_json_set(p, "forwarding_rate_pps", json_real(f->fwd_pps[i]));
		wr_json_set(p, "above_legal", json_boolean(f->fwd_pps[i] > f->legal_pps));
		json_array_append_new(a, p);
	}
	wr_json_set(x, "link_bps", json_real(f->link_bps));
	wr_json_set(x, "frame_len", json_integer(f->frame_len));
	wr_json_set(x, "gap_bits", json_integer(WR_FWD_PRESSURE_GAP_BITS));
	wr_json_set(x, "legal_gap_bits", json_integer(WR_FWD_GAP_BITS));
	wr_json_set(x, "offered_pps", json_real(f->offered_pps));
	wr_json_set(x, "legal_pps", json_real(f->legal_pps));
	wr_json_set(x, "tx_pps", json_real(f->tx_pps));
	wr_json_set(x, "held", json_boolean(f->held));
	wr_json_set(x, "tries", json_integer(f->tries));
	wr_json_set(x, "found", json_boolean(f->found));
	wr_json_set(x, "over_legal_pct", json_real(wr_fwd_over_pct(f)));
	wr_json_set(x, "port", f->port >= 0 ? json_integer(f->port) : json_null());
	wr_json_set(x, "ports", a);
	wr_json_set(r, "forward_pressure", x);
	return 0;
}
