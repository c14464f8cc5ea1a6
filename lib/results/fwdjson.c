/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>

#include "fwdjson.h"
#include "base/jsonw.h"

int
wr_fwd_max_json(json_t *o, const struct wr_fwd_max *m)
{
	json_t *r = json_object_get(o, "result"), *a, *x;
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
