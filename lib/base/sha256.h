/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SHA-256 (FIPS 180-4) of a buffer, as hex: the digest by which the
 * performance history stores each result once. By OpenSSL's libcrypto,
 * which DPDK already pulls in, rather than a hand-written copy.
 */
#ifndef WR_SHA256_H
#define WR_SHA256_H

#include <stddef.h>

#define WR_SHA256_HEX_LEN 65u   /* 64 hex digits and the NUL */

/*
 * The SHA-256 of len bytes at buf, in lower-case hex, into hex; an empty
 * string in the one case libcrypto fails (no memory).
 */
void wr_sha256_hex(const void *buf, size_t len, char hex[WR_SHA256_HEX_LEN]);

#endif /* WR_SHA256_H */
