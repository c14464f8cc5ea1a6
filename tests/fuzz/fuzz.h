/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared helpers of wirerate's fuzz targets. Each target is one file
 * fuzz_NAME.c defining LLVMFuzzerTestOneInput(); it is built twice (see
 * meson.build): with libFuzzer where the compiler has it (suite 'fuzz'),
 * and everywhere with replay.c, which feeds it the committed corpus and
 * the crash inputs kept as regression cases (suite 'unit').
 *
 * A target checks properties, not just "no crash": a broken one calls
 * FUZZ_CHECK, which prints what failed and aborts so the fuzzer keeps
 * the input.
 */
#ifndef WR_FUZZ_H
#define WR_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, \
			__LINE__, #cond); \
		abort(); \
	} \
} while (0)

/* An error message was written: non-empty and NUL-terminated in len. */
static inline int
fuzz_msg_ok(const char *err, size_t len)
{
	return err[0] != '\0' && memchr(err, '\0', len) != NULL;
}

/* A refusal filled e: a class, an errno and a terminated message. */
static inline bool
fuzz_error_ok(const struct wr_error *e)
{
	return e->cls != WR_ERR_NONE && e->errnum > 0 &&
		fuzz_msg_ok(e->msg, sizeof(e->msg));
}

/*
 * Copy size bytes into a heap string of exactly size + 1 bytes, so that
 * AddressSanitizer sees any read past the terminating NUL. NULL on
 * allocation failure (the caller returns 0).
 */
static inline char *
fuzz_strdup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s != NULL) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

#endif /* WR_FUZZ_H */
