/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cpuinfo.h"

/* Whether line is "key", blanks, ":"; *val then points after ": ". */
static bool
key_line(const char *line, const char *key, const char **val)
{
	size_t n = strlen(key);
	const char *p = line + n;

	if (strncmp(line, key, n) != 0)
		return false;
	p += strspn(p, " \t");
	if (*p != ':')
		return false;
	p++;
	*val = p + strspn(p, " \t");
	return true;
}

int
wr_cpuinfo_get(const char *path, const char *key, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[8192];
	const char *val;
	int rc = -ENOENT;

	if (f == NULL)
		return -ENOENT;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (!key_line(line, key, &val))
			continue;
		snprintf(buf, len, "%.*s", (int)strcspn(val, "\n"), val);
		rc = 0;
		break;
	}
	fclose(f);
	return rc;
}

bool
wr_cpuinfo_has_flags(const char *path, const char *words)
{
	char flags[8192], want[256], pad[8200], *w, *save = NULL;

	if (wr_cpuinfo_get(path, "flags", flags, sizeof(flags)) != 0)
		return false;
	snprintf(pad, sizeof(pad), " %s ", flags);
	snprintf(want, sizeof(want), "%s", words);
	for (w = strtok_r(want, " ", &save); w != NULL; w = strtok_r(NULL, " ", &save)) {
		char needle[64];

		snprintf(needle, sizeof(needle), " %s ", w);
		if (strstr(pad, needle) == NULL)
			return false;
	}
	return true;
}
