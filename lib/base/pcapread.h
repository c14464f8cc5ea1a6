/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A reader of capture files for --replay: classic pcap (either byte order,
 * microsecond or nanosecond timestamps) and pcapng (Section Header,
 * Interface Description, Enhanced and Simple Packet blocks; other blocks
 * are skipped), Ethernet link type only. Pure: no EAL; it reads a whole
 * file into memory and indexes its frames, so set-up can copy them into
 * mbufs once. A frame the file does not hold whole (truncated, or cut by
 * the snap length) is an error, never sent short.
 */
#ifndef WR_PCAPREAD_H
#define WR_PCAPREAD_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Shortest frame accepted: an Ethernet header. */
#define WR_PCAP_MIN_FRAME 14u

/* One frame of the file: where its bytes are and when it was captured. */
struct wr_pcap_frame {
	uint64_t off;      /* first byte in wr_pcap.data */
	uint64_t ts_ns;    /* capture time, ns since the epoch (the file's) */
	uint32_t len;      /* bytes captured = bytes on the wire, FCS excluded */
};

/* What a file holds. Written by wr_pcap_parse, then read-only. */
struct wr_pcap {
	const uint8_t *data;          /* the file's bytes (caller's or owned) */
	uint8_t *owned;               /* data when wr_pcap_read_file read it */
	uint32_t nb_frames;
	struct wr_pcap_frame *frames; /* nb_frames, in file order; malloc'd */
	uint32_t max_len;             /* longest frame, bytes */
	uint64_t nb_bytes;            /* sum of the frames' lengths */
	int pcapng;                   /* 1: pcapng, 0: pcap */
};

/*
 * Index the frames of size bytes at data (pcap or pcapng, as the magic
 * says) into *out, which keeps pointing into data. Frames longer than
 * max_len bytes or shorter than WR_PCAP_MIN_FRAME are refused, as are
 * timestamps going back: each frame's time is at or after the previous
 * one's. On error err says where (frame number from 1, as tcpdump and
 * Wireshark count, or the byte offset of a bad block) and what is wrong,
 * class usage; *out is left empty.
 * Returns 0, -EINVAL (a bad file) or -ENOMEM.
 */
int wr_pcap_parse(const uint8_t *data, size_t size, uint32_t max_len,
		struct wr_pcap *out, struct wr_error *err);

/*
 * Read the file at path and index it as wr_pcap_parse does. The messages
 * start with the path. Returns 0, -errno of the read (class usage: the
 * file given cannot be read), -EINVAL or -ENOMEM.
 */
int wr_pcap_read_file(const char *path, uint32_t max_len, struct wr_pcap *out,
		struct wr_error *err);

/* Free what wr_pcap_parse or wr_pcap_read_file allocated. p may be empty. */
void wr_pcap_free(struct wr_pcap *p);

#endif /* WR_PCAPREAD_H */
