/* SPDX-License-Identifier: BSD-3-Clause */
/* A --mode conn-capacity result read back (conncap_read.h). */
#include <errno.h>

#include "conncap_read.h"

bool
wr_conncap_is(const json_t *doc)
{
	return json_is_object(json_object_get(doc, "capacity"));
}

/*
 * The count at key of o into metric id of p: absent or null leaves the
 * metric absent when may_lack; anything else but a count is bad input.
 */
static int
count(const json_t *o, const char *key, bool may_lack, unsigned int id,
		struct wr_point *p, struct wr_error *err)
{
	const json_t *x = json_object_get(o, key);

	if (may_lack && (x == NULL || json_is_null(x)))
		return 0;
	if (!json_is_integer(x) || json_integer_value(x) < 0)
		return wr_err_usage(err, -EINVAL, "field 'capacity.%s' is %s",
			key, x == NULL ? "missing" : "not a count");
	p->m.have[id] = true;
	p->m.v[id] = (double)json_integer_value(x);
	return 0;
}

int
wr_conncap_points(const json_t *doc, struct wr_points *out,
		struct wr_error *err)
{
	const json_t *o = json_object_get(doc, "capacity");
	const json_t *check = json_object_get(o, "check");
	struct wr_point *p = &out->p[0];
	bool found;

	if (!json_is_object(o) || !json_is_object(check))
		return wr_err_usage(err, -EINVAL, "field 'capacity' or "
			"'capacity.check' is missing or not an object");
	if (!json_is_boolean(json_object_get(o, "found")))
		return wr_err_usage(err, -EINVAL, "field 'capacity.found' is "
			"missing or not true/false");
	found = json_is_true(json_object_get(o, "found"));
	out->nb = 1;
	p->frame_size = 0;
	if (count(o, "failed", false, WR_METRIC_CONN_CAPACITY_FAILED, p,
			err) != 0)
		return -EINVAL;
	/* Written during the fill: the count held so far (INCOMPLETE). */
	if (!found && wr_kind_running(doc))
		return count(o, "held_now", false, WR_METRIC_CONN_CAPACITY, p,
			err);
	if (!found)
		return 0;
	if (count(o, "connections", false, WR_METRIC_CONN_CAPACITY, p,
			err) != 0)
		return -EINVAL;
	return count(check, "answered", false,
		WR_METRIC_CONN_CAPACITY_ANSWERED, p, err);
}
