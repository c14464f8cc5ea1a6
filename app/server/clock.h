/* SPDX-License-Identifier: BSD-3-Clause */
/* The server's and the client's clock: deadlines and elapsed times. */
#ifndef WR_APP_CLOCK_H
#define WR_APP_CLOCK_H

#include <pthread.h>
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

/*
 * Wait on cond (mutex held) for at most 100 ms: the main lcore's waits,
 * so that a signal's flag is seen within that. This function can't fail.
 */
static inline void
app_ctl_wait_100ms(pthread_cond_t *cond, pthread_mutex_t *mutex)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 100000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_cond_timedwait(cond, mutex, &ts);
}

#endif /* WR_APP_CLOCK_H */
