/* SPDX-License-Identifier: BSD-3-Clause */
/* Options from a JSON object (optjson.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "optab.h"
#include "optjson.h"
#include "opts.h"
#include "profile.h"

/* Option name's member is not one an option can be given by. */
static int
bad_value(const char *name, const char *what, struct wr_error *err)
{
	return wr_err_usage(err, -EINVAL, "--%s: %s (a string, a number, true "
		"for an option without value, or an array of those for a "
		"repeatable option)", name, what);
}

/* One value of option name: a string, number or boolean. */
static int
set_one(const char *name, const json_t *v, struct wr_config *cfg,
		struct wr_error *err)
{
	char num[64];
	int rc;

	if (json_is_string(v)) {
		rc = wr_opts_set(name, json_string_value(v), cfg, err);
	} else if (json_is_integer(v)) {
		snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		rc = wr_opts_set(name, num, cfg, err);
	} else if (json_is_real(v)) {
		snprintf(num, sizeof(num), "%.17g", json_real_value(v));
		rc = wr_opts_set(name, num, cfg, err);
	} else if (json_is_true(v)) {
		rc = wr_opts_set(name, NULL, cfg, err);
	} else if (json_is_false(v)) {
		const struct wr_optdesc *o = wr_optab_find(name);

		if (o != NULL && o->has_arg == no_argument)
			return 0;
		rc = o == NULL ? -ENOENT : bad_value(name, "false is not a value", err);
	} else {
		return bad_value(name, "not a value", err);
	}
	if (rc == -ENOENT) {
		const char *near = wr_opts_closest(name);

		if (near != NULL)
			return wr_err_usage(err, -EINVAL, "--%s: unknown option; did "
				"you mean --%s? (see --help)", name, near);
		return wr_err_usage(err, -EINVAL, "--%s: unknown option (see --help)",
			name);
	}
	return rc;
}

static int
set_member(const char *name, const json_t *v, struct wr_config *cfg,
		struct wr_error *err)
{
	const json_t *e;
	size_t i;
	int rc;

	if (!json_is_array(v))
		return set_one(name, v, cfg, err);
	if (json_array_size(v) == 0)
		return bad_value(name, "an empty array", err);
	json_array_foreach(v, i, e) {
		if (json_is_array(e) || json_is_object(e))
			return bad_value(name, "an array inside an array", err);
		rc = set_one(name, e, cfg, err);
		if (rc != 0)
			return rc;
	}
	return 0;
}

int
wr_opts_from_json(const json_t *opts, struct wr_config *cfg,
		struct wr_error *err)
{
	const json_t *profile = json_object_get(opts, "profile");
	const char *name;
	const json_t *v;
	int rc;

	if (!json_is_object(opts))
		return wr_err_usage(err, -EINVAL, "the options are a JSON object "
			"by long name, e.g. {\"rate\": \"1Mpps\"}");
	if (profile != NULL) {
		if (!json_is_string(profile))
			return bad_value("profile", "a file name is expected", err);
		rc = wr_profile_load(json_string_value(profile), cfg, err);
		if (rc != 0)
			return rc;
	}
	json_object_foreach((json_t *)(uintptr_t)opts, name, v) {
		if (strcmp(name, "profile") == 0)
			continue;
		rc = set_member(name, v, cfg, err);
		if (rc != 0)
			return rc;
	}
	return wr_opts_check(cfg, err);
}
