/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The --replay reader: arbitrary bytes as a capture file through
 * wr_pcap_parse (pcap of either byte order and resolution, pcapng blocks).
 * Properties: a refusal has a message and leaves nothing indexed; an
 * accepted file has at least one frame, every frame lies inside the input
 * with a length in [WR_PCAP_MIN_FRAME, max_len], timestamps never go back,
 * and the totals agree with the frames.
 */
#include <errno.h>

#include "base/pcapread.h"
#include "fuzz.h"

#define FUZZ_MAX_LEN 1600u

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	struct wr_pcap p;
	struct wr_error err;
	uint64_t bytes = 0;
	uint32_t i, max = 0;
	int rc;

	if (copy == NULL)
		return 0;
	/* An exact-size heap copy: AddressSanitizer sees any read past it. */
	memcpy(copy, data, size);
	wr_err_clear(&err);
	rc = wr_pcap_parse(copy, size, FUZZ_MAX_LEN, &p, &err);
	if (rc != 0) {
		FUZZ_CHECK(rc == -EINVAL || rc == -ENOMEM);
		FUZZ_CHECK(fuzz_error_ok(&err));
		FUZZ_CHECK(p.nb_frames == 0 && p.frames == NULL);
		free(copy);
		return 0;
	}
	FUZZ_CHECK(p.nb_frames > 0);
	for (i = 0; i < p.nb_frames; i++) {
		const struct wr_pcap_frame *f = &p.frames[i];

		FUZZ_CHECK(f->len >= WR_PCAP_MIN_FRAME && f->len <= FUZZ_MAX_LEN);
		FUZZ_CHECK(f->off <= size && f->len <= size - f->off);
		FUZZ_CHECK(i == 0 || f->ts_ns >= p.frames[i - 1].ts_ns);
		bytes += f->len;
		max = f->len > max ? f->len : max;
	}
	FUZZ_CHECK(bytes == p.nb_bytes && max == p.max_len);
	wr_pcap_free(&p);
	free(copy);
	return 0;
}
