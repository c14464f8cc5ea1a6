/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Capture file reader (pcapread.h). The formats: the classic pcap format
 * (https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-04.html) and
 * pcapng (draft-ietf-opsawg-pcapng). Every length read from the file is
 * checked against the bytes left before it is used.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcapread.h"

#define PCAP_MAGIC_US 0xa1b2c3d4u
#define PCAP_MAGIC_NS 0xa1b23c4du
#define PCAP_HDR_LEN 24u
#define PCAP_REC_LEN 16u
#define LINKTYPE_ETHERNET 1u

#define NG_SHB 0x0a0d0d0au
#define NG_IDB 1u
#define NG_SPB 3u
#define NG_EPB 6u
#define NG_BOM 0x1a2b3c4du
#define NG_OPT_TSRESOL 9u
#define NG_MAX_IFACES 256u

#define NS_PER_S 1000000000ull

/* A parse in progress: the input, its byte order and what was found. */
struct rd {
	const uint8_t *d;
	size_t size;
	int swap;            /* the file's byte order is not this machine's */
	uint32_t max_len;
	uint32_t cap;        /* room in p->frames */
	struct wr_pcap *p;
	struct wr_error *err;
	/* pcapng: the interfaces of the current section. */
	unsigned int nb_ifaces;
	uint32_t snaplen[NG_MAX_IFACES];
	uint8_t tsresol[NG_MAX_IFACES];
};

static uint32_t
rd32(const struct rd *r, size_t off)
{
	uint32_t v;

	memcpy(&v, r->d + off, sizeof(v));
	return r->swap ? __builtin_bswap32(v) : v;
}

static uint16_t
rd16(const struct rd *r, size_t off)
{
	uint16_t v;

	memcpy(&v, r->d + off, sizeof(v));
	return r->swap ? __builtin_bswap16(v) : v;
}

/* Frame number n (from 1) as tcpdump counts. */
static uint32_t
frame_no(const struct rd *r)
{
	return r->p->nb_frames + 1;
}

/* Index one frame of len bytes at off, captured at ts_ns; orig: on the wire. */
static int
add_frame(struct rd *r, size_t off, uint32_t len, uint32_t orig, uint64_t ts_ns)
{
	struct wr_pcap *p = r->p;
	struct wr_pcap_frame *f;

	if (len < orig)
		return wr_err_usage(r->err, -EINVAL, "frame %" PRIu32 ": cut by the snap "
			"length: %" PRIu32 " of its %" PRIu32 " bytes captured",
			frame_no(r), len, orig);
	if (len > r->max_len || len < WR_PCAP_MIN_FRAME)
		return wr_err_usage(r->err, -EINVAL, "frame %" PRIu32 ": %" PRIu32 " bytes; "
			"replayed frames have %u to %" PRIu32 " bytes (FCS excluded)",
			frame_no(r), len, WR_PCAP_MIN_FRAME, r->max_len);
	if (p->nb_frames > 0 && ts_ns < p->frames[p->nb_frames - 1].ts_ns)
		return wr_err_usage(r->err, -EINVAL, "frame %" PRIu32 ": its timestamp is "
			"%" PRIu64 " ns before the previous frame's (frames must be in "
			"time order)", frame_no(r),
			p->frames[p->nb_frames - 1].ts_ns - ts_ns);
	if (p->nb_frames == UINT32_MAX)
		return wr_err_usage(r->err, -EINVAL, "more than %" PRIu32 " frames",
			UINT32_MAX - 1);
	if (p->nb_frames == r->cap) {
		uint32_t cap = r->cap == 0 ? 1024 : (r->cap > UINT32_MAX / 2 ?
			UINT32_MAX : r->cap * 2);

		f = realloc(p->frames, (size_t)cap * sizeof(*f));
		if (f == NULL)
			return wr_err_env(r->err, -ENOMEM, "no memory to index %" PRIu32
				" frames", cap);
		p->frames = f;
		r->cap = cap;
	}
	f = &p->frames[p->nb_frames++];
	f->off = off;
	f->len = len;
	f->ts_ns = ts_ns;
	p->nb_bytes += len;
	if (len > p->max_len)
		p->max_len = len;
	return 0;
}

static int
linktype_check(struct rd *r, uint32_t lt, const char *where)
{
	if (lt == LINKTYPE_ETHERNET)
		return 0;
	return wr_err_usage(r->err, -EINVAL, "%s: link type %" PRIu32 " is not Ethernet "
		"(1); only Ethernet frames can be replayed", where, lt);
}

/* Classic pcap: the header, then records of 16 bytes and the frame. */
static int
parse_pcap(struct rd *r, int nsec)
{
	uint32_t incl, orig, frac;
	size_t off = PCAP_HDR_LEN;
	int rc = linktype_check(r, rd32(r, 20) & 0xffffu, "pcap header");

	while (rc == 0 && off < r->size) {
		if (r->size - off < PCAP_REC_LEN)
			return wr_err_usage(r->err, -EINVAL, "frame %" PRIu32 ": truncated "
				"record header (%zu of %u bytes)", frame_no(r),
				r->size - off, PCAP_REC_LEN);
		incl = rd32(r, off + 8);
		orig = rd32(r, off + 12);
		frac = rd32(r, off + 4);
		if (frac >= (nsec ? NS_PER_S : 1000000u))
			return wr_err_usage(r->err, -EINVAL, "frame %" PRIu32 ": fraction "
				"of a second %" PRIu32 " out of range", frame_no(r), frac);
		if (incl > r->size - off - PCAP_REC_LEN)
			return wr_err_usage(r->err, -EINVAL, "frame %" PRIu32 ": truncated: "
				"%zu of its %" PRIu32 " bytes in the file", frame_no(r),
				r->size - off - PCAP_REC_LEN, incl);
		rc = add_frame(r, off + PCAP_REC_LEN, incl, orig,
			(uint64_t)rd32(r, off) * NS_PER_S + (nsec ? frac : frac * 1000ull));
		off += PCAP_REC_LEN + incl;
	}
	return rc;
}

/*
 * ts in units of the interface's if_tsresol into *ns: 10^-v seconds, or
 * 2^-v with the high bit set. 0, or -EINVAL when ns would overflow.
 */
static int
ts_to_ns(uint64_t ts, uint8_t resol, uint64_t *ns)
{
	uint64_t m = 1;
	unsigned int v = resol & 0x7fu, i;

	if (resol & 0x80u) {
		if (v > 33)
			return -EINVAL;
		if ((ts >> v) > UINT64_MAX / NS_PER_S)
			return -EINVAL;
		*ns = (ts >> v) * NS_PER_S + (((ts & ((1ull << v) - 1)) * NS_PER_S) >> v);
		return 0;
	}
	if (v > 19)
		return -EINVAL;
	for (i = 0; i < (v > 9 ? v - 9 : 9 - v); i++)
		m *= 10;
	if (v > 9) {
		*ns = ts / m;
		return 0;
	}
	if (ts > UINT64_MAX / m)
		return -EINVAL;
	*ns = ts * m;
	return 0;
}

/* Options of an IDB from off to end: if_tsresol into r->tsresol[i]. */
static void
idb_options(struct rd *r, size_t off, size_t end, unsigned int i)
{
	uint16_t code, len;

	while (end - off >= 4) {
		code = rd16(r, off);
		len = rd16(r, off + 2);
		if (code == 0 || (size_t)len > end - off - 4)
			return;
		if (code == NG_OPT_TSRESOL && len == 1)
			r->tsresol[i] = r->d[off + 4];
		off += 4 + (((size_t)len + 3) & ~(size_t)3);
	}
}

static int
ng_idb(struct rd *r, size_t off, uint32_t blen)
{
	char where[48];
	unsigned int i = r->nb_ifaces;

	if (blen < 20)
		return wr_err_usage(r->err, -EINVAL, "offset %zu: interface block of %"
			PRIu32 " bytes, at least 20", off, blen);
	if (i == NG_MAX_IFACES)
		return wr_err_usage(r->err, -EINVAL, "offset %zu: more than %u interfaces "
			"in one section", off, NG_MAX_IFACES);
	snprintf(where, sizeof(where), "interface %u", i);
	if (linktype_check(r, rd16(r, off + 8), where) != 0)
		return -EINVAL;
	r->snaplen[i] = rd32(r, off + 12);
	r->tsresol[i] = 6;
	idb_options(r, off + 16, off + blen - 4, i);
	r->nb_ifaces++;
	return 0;
}

static int
ng_epb(struct rd *r, size_t off, uint32_t blen)
{
	uint32_t ifc, cap, orig;
	uint64_t ts, ns;

	if (blen < 32)
		return wr_err_usage(r->err, -EINVAL, "frame %" PRIu32 ": packet block of %"
			PRIu32 " bytes, at least 32", frame_no(r), blen);
	ifc = rd32(r, off + 8);
	ts = (uint64_t)rd32(r, off + 12) << 32 | rd32(r, off + 16);
	cap = rd32(r, off + 20);
	orig = rd32(r, off + 24);
	if (ifc >= r->nb_ifaces)
		return wr_err_usage(r->err, -EINVAL, "frame %" PRIu32 ": interface %" PRIu32
			" was not described (%u interfaces)", frame_no(r), ifc,
			r->nb_ifaces);
	if (cap > blen - 32)
		return wr_err_usage(r->err, -EINVAL, "frame %" PRIu32 ": truncated: "
			"%" PRIu32 " bytes captured in a block with room for %" PRIu32,
			frame_no(r), cap, blen - 32);
	if (ts_to_ns(ts, r->tsresol[ifc], &ns) != 0)
		return wr_err_usage(r->err, -EINVAL, "frame %" PRIu32 ": timestamp out of "
			"range (if_tsresol 0x%02x)", frame_no(r), r->tsresol[ifc]);
	return add_frame(r, off + 28, cap, orig, ns);
}

/* A Simple Packet Block has no timestamp: the previous frame's time. */
static int
ng_spb(struct rd *r, size_t off, uint32_t blen)
{
	uint32_t orig, cap;
	uint64_t ts = r->p->nb_frames > 0 ? r->p->frames[r->p->nb_frames - 1].ts_ns : 0;

	if (blen < 16 || r->nb_ifaces == 0)
		return wr_err_usage(r->err, -EINVAL, "frame %" PRIu32 ": simple packet "
			"block of %" PRIu32 " bytes%s", frame_no(r), blen,
			r->nb_ifaces == 0 ? " before any interface block" : "");
	orig = rd32(r, off + 8);
	cap = orig;
	if (r->snaplen[0] != 0 && cap > r->snaplen[0])
		cap = r->snaplen[0];
	if (cap > blen - 16)
		return wr_err_usage(r->err, -EINVAL, "frame %" PRIu32 ": truncated: "
			"%" PRIu32 " bytes in a block with room for %" PRIu32,
			frame_no(r), cap, blen - 16);
	return add_frame(r, off + 12, cap, orig, ts);
}

/* A Section Header Block at off: byte order, and no interfaces yet. */
static int
ng_shb(struct rd *r, size_t off)
{
	uint32_t bom;

	if (r->size - off < 28)
		return wr_err_usage(r->err, -EINVAL, "offset %zu: truncated section "
			"header (%zu of 28 bytes)", off, r->size - off);
	memcpy(&bom, r->d + off + 8, sizeof(bom));
	if (bom != NG_BOM && bom != __builtin_bswap32(NG_BOM))
		return wr_err_usage(r->err, -EINVAL, "offset %zu: section header with a "
			"wrong byte-order magic 0x%08" PRIx32, off, bom);
	r->swap = bom != NG_BOM;
	r->nb_ifaces = 0;
	return 0;
}

static int
ng_block(struct rd *r, size_t off, uint32_t type, uint32_t blen)
{
	switch (type) {
	case NG_IDB: return ng_idb(r, off, blen);
	case NG_EPB: return ng_epb(r, off, blen);
	case NG_SPB: return ng_spb(r, off, blen);
	case 2:
		return wr_err_usage(r->err, -EINVAL, "offset %zu: obsolete packet block "
			"(type 2) not supported; convert the file with editcap", off);
	default: return 0; /* name resolution, statistics, custom: skipped */
	}
}

/* pcapng: blocks of type, length, body, length again. */
static int
parse_pcapng(struct rd *r)
{
	size_t off = 0;
	uint32_t type, blen;
	int rc = 0;

	while (rc == 0 && off < r->size) {
		if (r->size - off < 12)
			return wr_err_usage(r->err, -EINVAL, "offset %zu: truncated block "
				"(%zu bytes left, a block has at least 12)", off,
				r->size - off);
		memcpy(&type, r->d + off, sizeof(type));
		if (type == NG_SHB && (rc = ng_shb(r, off)) != 0)
			return rc;
		type = rd32(r, off);
		blen = rd32(r, off + 4);
		if (blen < 12 || blen % 4 != 0 || blen > r->size - off)
			return wr_err_usage(r->err, -EINVAL, "offset %zu: block length %"
				PRIu32 " is %s", off, blen, blen > r->size - off ?
				"past the end of the file (truncated)" :
				"not a multiple of 4 of at least 12");
		if (rd32(r, off + blen - 4) != blen)
			return wr_err_usage(r->err, -EINVAL, "offset %zu: block length %"
				PRIu32 " does not match its trailer %" PRIu32, off, blen,
				rd32(r, off + blen - 4));
		rc = ng_block(r, off, type, blen);
		off += blen;
	}
	return rc;
}

int
wr_pcap_parse(const uint8_t *data, size_t size, uint32_t max_len,
		struct wr_pcap *out, struct wr_error *err)
{
	struct rd *r = calloc(1, sizeof(*r));
	uint32_t magic = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (r == NULL)
		return wr_err_env(err, -ENOMEM, "no memory to read a capture");
	*r = (struct rd){ .d = data, .size = size, .max_len = max_len, .p = out,
		.err = err };
	out->data = data;
	if (size >= 4)
		memcpy(&magic, data, sizeof(magic));
	if (magic == NG_SHB) {
		out->pcapng = 1;
		rc = parse_pcapng(r);
	} else if (size < PCAP_HDR_LEN && size >= 4 && (magic == PCAP_MAGIC_US ||
			magic == PCAP_MAGIC_NS || __builtin_bswap32(magic) == PCAP_MAGIC_US ||
			__builtin_bswap32(magic) == PCAP_MAGIC_NS)) {
		rc = wr_err_usage(err, -EINVAL, "truncated pcap header (%zu of %u bytes)",
			size, PCAP_HDR_LEN);
	} else if (magic == PCAP_MAGIC_US || magic == PCAP_MAGIC_NS) {
		rc = parse_pcap(r, magic == PCAP_MAGIC_NS);
	} else if (__builtin_bswap32(magic) == PCAP_MAGIC_US ||
			__builtin_bswap32(magic) == PCAP_MAGIC_NS) {
		r->swap = 1;
		rc = parse_pcap(r, __builtin_bswap32(magic) == PCAP_MAGIC_NS);
	} else {
		rc = wr_err_usage(err, -EINVAL, "wrong magic 0x%08" PRIx32 ": not a pcap or "
			"pcapng file%s", magic, size < 4 ? " (shorter than 4 bytes)" : "");
	}
	if (rc == 0 && out->nb_frames == 0)
		rc = wr_err_usage(err, -EINVAL, "no frames to replay");
	free(r);
	if (rc != 0)
		wr_pcap_free(out);
	return rc;
}

int
wr_pcap_read_file(const char *path, uint32_t max_len, struct wr_pcap *out,
		struct wr_error *err)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long size = -1;
	int rc;

	memset(out, 0, sizeof(*out));
	if (f == NULL)
		return wr_err_usage(err, -errno, "%s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) == 0)
		size = ftell(f);
	if (size < 0 || fseek(f, 0, SEEK_SET) != 0) {
		rc = wr_err_usage(err, -EINVAL, "%s: not a regular file", path);
		goto out;
	}
	buf = malloc(size > 0 ? (size_t)size : 1);
	if (buf == NULL) {
		rc = wr_err_env(err, -ENOMEM, "%s: no memory for its %ld bytes", path, size);
		goto out;
	}
	if (fread(buf, 1, (size_t)size, f) != (size_t)size) {
		rc = wr_err_usage(err, -EIO, "%s: read error", path);
		goto out;
	}
	rc = wr_pcap_parse(buf, (size_t)size, max_len, out, err);
	if (rc != 0) {
		wr_err_prefix(err, "%s: ", path);
		goto out;
	}
	out->owned = buf;
	buf = NULL;
out:
	free(buf);
	fclose(f);
	return rc;
}

void
wr_pcap_free(struct wr_pcap *p)
{
	free(p->frames);
	free(p->owned);
	memset(p, 0, sizeof(*p));
}
