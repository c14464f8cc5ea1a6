/* SPDX-License-Identifier: BSD-3-Clause */
/* The server's and the client's clock: deadlines and elapsed times. */
#ifndef WR_APP_CLOCK_H
#define WR_APP_CLOCK_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in milliseconds (start_ms). This function can't fail. */
static inline uint64_t
app_ctl_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

#endif /* WR_APP_CLOCK_H */
