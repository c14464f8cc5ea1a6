/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Initial sequence numbers as RFC 6528 (section 3) says:
 *   ISN = M + F(localip, localport, remoteip, remoteport, secretkey)
 * M a timer of 4 us ticks on an absolute clock (CLOCK_REALTIME), so that
 * a later connection on the same 4-tuple starts above an earlier one,
 * also across runs: what lets a server still in TIME_WAIT accept the new
 * SYN (RFC 9293 3.10.7.4, RFC 6191). F is SipHash-2-4 of the tuple under
 * a 128-bit key. The key is the same for every run on one boot of the
 * machine (derived from the kernel's random boot id, as Linux keeps one
 * secret per boot): a key of its own per run would draw F anew and break
 * the order across runs. Computed once per connection, no division.
 */
#ifndef WR_TCP_ISN_H
#define WR_TCP_ISN_H

#include <stddef.h>
#include <stdint.h>

#include "tcp/tuple.h"

/* The key and the clock's offset; written at set-up, then read only. */
struct wr_tcp_isn {
	uint64_t k0, k1;        /* SipHash key */
	int64_t off_us;         /* absolute time (us) minus the caller's */
};

/* Where the per-boot key comes from. */
#define WR_TCP_ISN_BOOT_ID "/proc/sys/kernel/random/boot_id"

/*
 * Set isn's key from the text of the file at path (the boot id: the
 * same for every process until the machine reboots), or, when it cannot
 * be read, from getrandom (then per process). Returns 0 for the file's
 * key, 1 for a random one. Can't fail.
 */
int wr_tcp_isn_key_init(struct wr_tcp_isn *isn, const char *path);

/*
 * Tie the caller's clock to the absolute one: now_us on the caller's
 * clock is now. Can't fail.
 */
void wr_tcp_isn_clock(struct wr_tcp_isn *isn, uint64_t now_us);

/* SipHash-2-4 of len bytes at p under (k0, k1). Can't fail. */
uint64_t wr_tcp_siphash(uint64_t k0, uint64_t k1, const void *p, size_t len);

/*
 * The ISN of a connection on tuple t (local, remote) made at now_us on
 * the caller's clock (wr_tcp_isn_clock): RFC 6528's M + F. Can't fail.
 */
uint32_t wr_tcp_isn_of(const struct wr_tcp_isn *isn,
	const struct wr_tcp_tuple *t, uint64_t now_us);

#endif /* WR_TCP_ISN_H */
