/* SPDX-License-Identifier: BSD-3-Clause */
/* The "capacity" object (conncap_doc.h). */
#include <errno.h>

#include "base/jsonw.h"
#include "conncap_doc.h"

/* The check: held ones, their answers, whether all answered. */
static json_t *
check_json(const struct wr_conncap_doc *d)
{
	json_t *o = json_object();

	if (o == NULL)
		return NULL;
	wr_json_set(o, "held", wr_json_u64(d->found ? d->capacity : 0));
	wr_json_set(o, "answered", wr_json_u64(d->checks_ok));
	wr_json_set(o, "all_answered", json_boolean(d->found &&
		d->checks_ok == d->capacity));
	return o;
}

int
wr_results_conncap_put(json_t *doc, const struct wr_conncap_doc *d,
	struct wr_error *err)
{
	json_t *o = json_object();

	if (o == NULL || json_object_set_new(doc, "capacity", o) != 0)
		return wr_err_env(err, -ENOMEM, "no memory for the capacity");
	wr_json_set(o, "rfc", json_string("RFC 9693 7"));
	wr_json_set(o, "phase", json_string(d->phase));
	wr_json_set(o, "ended_by", json_string(d->ended_by));
	wr_json_set(o, "found", json_boolean(d->found));
	wr_json_set(o, "connections", d->found ? wr_json_u64(d->capacity) :
		json_null());
	wr_json_set(o, "settled", json_boolean(d->settled));
	wr_json_set(o, "ceiling", wr_json_u64(d->ceiling));
	wr_json_set(o, "rate_cps", wr_json_u64(d->rate_cps));
	wr_json_set(o, "syn_timeout_s", json_real(d->syn_timeout_s));
	wr_json_set(o, "fill_s", json_real(d->fill_s));
	wr_json_set(o, "attempted", wr_json_u64(d->attempted));
	wr_json_set(o, "failed", wr_json_u64(d->failed));
	wr_json_set(o, "failed_syn", wr_json_u64(d->failed_syn));
	wr_json_set(o, "held_peak", wr_json_u64(d->held_peak));
	if (d->running)
		wr_json_set(o, "held_now", wr_json_u64(d->held_now));
	wr_json_set(o, "check", check_json(d));
	return 0;
}
