/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * LD_PRELOAD for the clocks case's slave ptp4l (tests/twoend/test_clocks.py):
 * every clock_adjtime() that would change a clock (frequency, offset,
 * step, status) is answered with the clock's state unchanged; reads pass
 * through. The test's namespaces share this machine's system clock, which
 * ptp4l must never adjust: with this its servo locks (port SLAVE) on the
 * offsets it measures, and nothing moves the clock.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/timex.h>
#include <time.h>

int clock_adjtime(clockid_t id, struct timex *tx);

int
clock_adjtime(clockid_t id, struct timex *tx)
{
	int (*real)(clockid_t, struct timex *) =
		(int (*)(clockid_t, struct timex *))dlsym(RTLD_NEXT, "clock_adjtime");
	struct timex read_only = { .modes = 0 };

	if (tx->modes == 0)
		return real(id, tx);
	return real(id, &read_only);
}
