/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The --impair parser (wr_impair_parse) on arbitrary strings.
 * Properties: a refusal has a message; an accepted rule picks a residue
 * below its modulus, a delay is at most 1 s, a policer rate is finite and
 * positive, and the option parser takes the same string the same way.
 */
#include <errno.h>
#include <math.h>

#include "config/impair_spec.h"
#include "config/opts.h"
#include "fuzz.h"

#define FUZZ_MAX_INPUT 512

static void
check_rule(const struct wr_impair_rule *r)
{
	FUZZ_CHECK(r->every == 0 ? r->at == 0 : r->at < r->every);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct wr_config cfg;
	struct wr_impair_spec spec;
	char *s, *argv[4];
	struct wr_error err;
	int rc, rc2;

	if (size > FUZZ_MAX_INPUT || (s = fuzz_strdup(data, size)) == NULL)
		return 0;
	err.msg[0] = '\0';
	rc = wr_impair_parse(s, &spec, &err);
	FUZZ_CHECK(rc == 0 || rc == -EINVAL);
	if (rc != 0) {
		FUZZ_CHECK(fuzz_error_ok(&err));
	} else {
		check_rule(&spec.drop);
		check_rule(&spec.dup);
		check_rule(&spec.reorder);
		FUZZ_CHECK(spec.delay_us <= 1000000);
		FUZZ_CHECK(spec.police_pps == 0 ||
			(isfinite(spec.police_pps) && spec.police_pps > 0));
	}
	argv[0] = (char *)(uintptr_t)"wirerate";
	argv[1] = (char *)(uintptr_t)"--impair";
	argv[2] = s;
	argv[3] = NULL;
	wr_config_defaults(&cfg);
	rc2 = wr_opts_parse(3, argv, &cfg, &err);
	/* The same verdict through the option parser. */
	FUZZ_CHECK(rc == 0 ? rc2 == WR_OPTS_RUN : rc2 == -EINVAL);
	free(s);
	return 0;
}
