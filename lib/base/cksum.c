/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Internet checksum's sum (cksum.h). The scalar sum adds each 64-bit
 * word's two 32-bit halves into a 64-bit total; the AVX2 one adds each
 * 32-bit lane's two 16-bit halves into eight 32-bit totals, folded into a
 * 64-bit one every WR_CKSUM_CHUNK bytes before a lane could overflow. Both
 * are sums of the same 16-bit words modulo 0xffff (2^16 = 1 modulo
 * 0xffff), folded the same way at the end.
 */
#include <string.h>

#include "base/cksum.h"

/* WR_CKSUM_NO_SIMD: the build without the AVX2 path, as on other CPUs. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
	!defined(WR_CKSUM_NO_SIMD)
#define WR_CKSUM_X86 1
#include <immintrin.h>
#endif

/*
 * Bytes summed into the 32-bit lanes before they are folded: a lane of
 * each of the two totals takes two 16-bit halves a 64-byte step, so 2^12
 * steps stay under 2^29 each and their sum under 2^30.
 */
#define WR_CKSUM_CHUNK ((size_t)64 << 12)

/* The unfolded sum of p[0, len): a 64-bit total of 16-bit words. */
static uint64_t
sum_scalar(const uint8_t *p, size_t len)
{
	uint64_t acc = 0, w;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, sizeof(w));
		acc += (w & 0xffffffffu) + (w >> 32);
	}
	/* the last 0 to 7 bytes */
	return acc + wr_cksum_words(p + i, len - i);
}

uint32_t
wr_cksum_add_scalar(const void *p, size_t len, uint32_t sum)
{
	return sum + wr_cksum_fold(sum_scalar(p, len));
}

#ifdef WR_CKSUM_X86
static bool have_avx2;

__attribute__((constructor)) static void
cksum_init(void)
{
	__builtin_cpu_init();
	have_avx2 = __builtin_cpu_supports("avx2");
}

/* The sum of the whole 64-byte steps of p[0, len), len at most
 * WR_CKSUM_CHUNK. */
__attribute__((target("avx2"))) static uint64_t
sum_avx2_chunk(const uint8_t *p, size_t len)
{
	const __m256i low = _mm256_set1_epi32(0xffff);
	__m256i a = _mm256_setzero_si256(), b = _mm256_setzero_si256();
	uint32_t lane[8];
	uint64_t acc = 0;
	size_t i;
	int k;

	for (i = 0; i + 64 <= len; i += 64) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
		__m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 32));

		a = _mm256_add_epi32(a, _mm256_and_si256(x, low));
		b = _mm256_add_epi32(b, _mm256_srli_epi32(x, 16));
		a = _mm256_add_epi32(a, _mm256_and_si256(y, low));
		b = _mm256_add_epi32(b, _mm256_srli_epi32(y, 16));
	}
	_mm256_storeu_si256((__m256i *)(void *)lane, _mm256_add_epi32(a, b));
	for (k = 0; k < 8; k++)
		acc += lane[k];
	return acc;
}

#else
/* No AVX2 path: the chunk sum below is never called. */
static const bool have_avx2 = false;

static uint64_t
sum_avx2_chunk(const uint8_t *p, size_t len)
{
	return sum_scalar(p, len & ~(size_t)63);
}
#endif

uint32_t
wr_cksum_add_long(const void *p, size_t len, uint32_t sum)
{
	const uint8_t *b = p;
	uint64_t acc = 0;
	size_t n;

	if (!have_avx2)
		return wr_cksum_add_scalar(p, len, sum);
	/* every piece starts at an even offset: the words stay paired */
	while (len >= 64) {
		n = len < WR_CKSUM_CHUNK ? len & ~(size_t)63 : WR_CKSUM_CHUNK;
		acc += sum_avx2_chunk(b, n);
		b += n;
		len -= n;
	}
	return sum + wr_cksum_fold(acc + sum_scalar(b, len));
}

bool
wr_cksum_have_avx2(void)
{
	return have_avx2;
}
