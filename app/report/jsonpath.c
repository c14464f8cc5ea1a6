/* SPDX-License-Identifier: BSD-3-Clause */
/* Small readers of two-ended results' files, shared with app/history. */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>

#include "jsonpath.h"

const char *
rep_str_of(const json_t *o, const char *key, const char *dflt)
{
	const json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : dflt;
}

void
rep_sibling(char *out, size_t len, const char *base, const char *path)
{
	char dir[PATH_MAX];

	if (path[0] == '/') {
		snprintf(out, len, "%s", path);
		return;
	}
	snprintf(dir, sizeof(dir), "%s", base);
	snprintf(out, len, "%s/%s", dirname(dir), path);
}
