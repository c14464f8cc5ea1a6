/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tolerance file of `wirerate compare --tolerances FILE`: arbitrary
 * bytes written to an in-memory file read by wr_tolerances_load, the
 * function compare uses.
 * Properties: a refusal has a message; every tolerance accepted is finite
 * and non-negative.
 */
#include <errno.h>
#include <math.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "measure/tolerance.h"

#define FUZZ_MAX_INPUT 8192

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wr_tolerances t;
	char path[64];
	struct wr_error err;
	unsigned int i;
	int fd, rc;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	fd = memfd_create("wr_fuzz_tol", 0);
	FUZZ_CHECK(fd >= 0);
	FUZZ_CHECK(write(fd, data, size) == (ssize_t)size);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	wr_tolerances_defaults(&t);
	err.msg[0] = '\0';
	rc = wr_tolerances_load(&t, path, &err);
	close(fd);
	FUZZ_CHECK(rc == 0 || rc == -EINVAL);
	if (rc != 0)
		FUZZ_CHECK(fuzz_error_ok(&err));
	for (i = 0; i < WR_METRIC_COUNT; i++)
		FUZZ_CHECK(t.t[i].ignore ||
			(isfinite(t.t[i].value) && t.t[i].value >= 0));
	return 0;
}
