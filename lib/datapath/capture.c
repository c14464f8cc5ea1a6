/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_ether.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_pcapng.h>
#include <rte_ring.h>

#include "base/fileio.h"
#include "capture.h"
#include "capture_kept.h"
#include "pcapng_compat.h"

/* Most queues one run captures on. */
#define CAPTURE_MAX_QUEUES (WR_MAX_PORTS * WR_MAX_QUEUES)
/* Copies in flight per queue beyond its budget: the last frames. */
#define CAPTURE_SLACK_PKTS 256u
/* Biggest copy pool, whatever the options say. */
#define CAPTURE_MAX_POOL (1u << 20)
/* Frames handed to rte_pcapng_write_packets at once. */
#define CAPTURE_WRITE_CHUNK 256u
/* Copies taken off a ring at once by the stats core. */
#define CAPTURE_DRAIN_CHUNK 256u
/* Drained copies kept for the file at most: this many times the pool. */
#define CAPTURE_KEPT_FACTOR 4u

/*
 * Workers put a struct cap_meta (capture_kept.h) in front of each raw copy;
 * the stats core turns the copies into pcapng blocks later, in TSC order.
 * rte_pcapng_copy() converts TSC to wall time with state it updates
 * without locks, and only forwards in time: it runs on one thread only.
 */
struct wr_capture {
	struct wr_capture_conf conf;
	struct rte_mempool *pool;    /* raw copies, filled by workers */
	struct rte_mempool *out;     /* pcapng blocks, CAPTURE_WRITE_CHUNK */
	uint64_t epoch_ns;           /* wall clock (CLOCK_REALTIME) at ... */
	uint64_t epoch_tsc;          /* ... this TSC */
	uint64_t tsc_hz;
	/* The pcapng writer, opened before the first frame (its clock only
	 * goes forwards) on an unlinked scratch file: section and interface
	 * blocks, then the packets of the latest write, copied to the
	 * output file. */
	rte_pcapng_t *pc;
	int fd;                      /* the scratch file (pc owns it) */
	off_t hdr_len;               /* its bytes before the packets */
	uint32_t snaplen;
	unsigned int nb_q;
	struct wr_capq *q[CAPTURE_MAX_QUEUES];
	uint32_t nb_written;         /* copies in the file at the last checkpoint */
	uint32_t nb_ckpt_failed;     /* checkpoints that could not be written */
	uint64_t written_tsc;        /* when it was written */
	uint32_t pool_size;          /* copies in transit at most (pool, rings) */
	struct wr_capkept kept;      /* drained copies, bounded */
};

/* Copy one frame; a copy that cannot be made or queued is counted. */
static void
keep(struct wr_capq *c, const struct rte_mbuf *m, uint64_t tsc, uint64_t idx)
{
	struct rte_mbuf *cp = rte_pktmbuf_copy(m, c->pool, 0, c->snaplen);
	struct cap_meta *meta = cp == NULL ? NULL :
		(struct cap_meta *)rte_pktmbuf_prepend(cp, sizeof(*meta));

	if (meta != NULL) {
		meta->tsc = tsc;
		meta->idx = idx;
		meta->port = c->port;
		meta->queue = c->queue;
		meta->orig_len = rte_pktmbuf_pkt_len(m);
	}
	if (meta == NULL || rte_ring_sp_enqueue(c->ring, cp) != 0) {
		rte_pktmbuf_free(cp);
		c->st.nb_dropped_pkts++;
		return;
	}
	c->st.nb_copied_pkts++;
}

/* Frame of arrival index a: in this burst (from base) or held. */
static const struct rte_mbuf *
frame_at(const struct wr_capq *c, struct rte_mbuf **pkts, uint64_t base,
		uint64_t a, uint64_t tsc, uint64_t *a_tsc)
{
	if (a >= base) {
		*a_tsc = tsc;
		return pkts[a - base];
	}
	*a_tsc = c->held_tsc[a & (c->nb_hold - 1)];
	return c->held[a & (c->nb_hold - 1)];
}

/* Whether the frame classified why is one c keeps. */
static bool
wanted(const struct wr_capq *c, uint8_t why)
{
	if (why == WR_CAPTURE_WHY_NONE)
		return false;
	if (why == WR_CAPTURE_WHY_SEQ)
		return (c->what & WR_CAPTURE_SEQ) != 0;
	return (c->what & WR_CAPTURE_FOREIGN) != 0;
}

/* An anomaly at arrival index a: the frames before it, then itself. */
static void
keep_anomaly(struct wr_capq *c, struct rte_mbuf **pkts, uint64_t base,
		uint64_t a, uint64_t tsc)
{
	uint64_t from = a > c->around_pkts ? a - c->around_pkts : 0, b, t;
	const struct rte_mbuf *m;

	if (c->st.nb_budget_pkts >= c->max_pkts) {
		c->st.nb_over_budget_pkts++;
		return;
	}
	from = RTE_MAX(from, RTE_MAX(c->next_uncopied, c->held_from));
	for (b = from; b <= a && c->st.nb_budget_pkts < c->max_pkts; b++) {
		m = frame_at(c, pkts, base, b, tsc, &t);
		keep(c, m, t, b);
		c->st.nb_budget_pkts++;
	}
	c->next_uncopied = a + 1;
	c->after_left = c->around_pkts;
}

/*
 * Give n mbufs back: one bulk put into pool when every one is plain (what
 * the worker's own RX free does), else the general free.
 */
static void
give_back(struct rte_mbuf **m, uint16_t n, bool raw, struct rte_mempool *pool)
{
	if (n == 0)
		return;
	if (raw)
		rte_mempool_put_bulk(pool, (void **)m, n);
	else
		rte_pktmbuf_free_bulk(m, n);
}

/* Hold the newest frames of the burst; free the rest and the displaced. */
static void
hold(struct wr_capq *c, const struct wr_capq_burst *b)
{
	struct rte_mbuf *out[2 * WR_MAX_BURST];
	struct rte_mempool *pool = b->pkts[0]->pool;
	uint16_t keep_n = (uint16_t)RTE_MIN((uint32_t)b->nb, c->nb_hold);
	uint16_t nb_out = (uint16_t)(b->nb - keep_n), i;
	bool raw = b->raw;
	uint64_t a;
	uint32_t slot;

	memcpy(out, b->pkts, nb_out * sizeof(b->pkts[0]));
	for (i = nb_out; i < b->nb; i++) {
		a = c->nb_seen + i;
		slot = (uint32_t)(a & (c->nb_hold - 1));
		if (c->held[slot] != NULL) {
			out[nb_out++] = c->held[slot];
			raw &= c->held_raw[slot] && c->held[slot]->pool == pool;
		}
		c->held[slot] = b->pkts[i];
		c->held_tsc[slot] = b->tsc;
		c->held_raw[slot] = b->raw;
	}
	a = c->nb_seen + b->nb;
	if (a - c->held_from > c->nb_hold)
		c->held_from = a - c->nb_hold;
	give_back(out, nb_out, raw, pool);
}

/* Keep what the frames of an anomalous burst (or the one after) ask. */
static void
scan(struct wr_capq *c, const struct wr_capq_burst *b)
{
	uint64_t base = c->nb_seen;
	uint16_t i;

	for (i = 0; i < b->nb; i++) {
		if (unlikely(b->why[i] != WR_CAPTURE_WHY_NONE))
			c->st.nb_anomalies++;
		if (wanted(c, b->why[i])) {
			keep_anomaly(c, b->pkts, base, base + i, b->tsc);
		} else if (c->after_left != 0) {
			c->after_left--;
			if (c->st.nb_budget_pkts < c->max_pkts) {
				keep(c, b->pkts[i], b->tsc, base + i);
				c->st.nb_budget_pkts++;
				c->next_uncopied = base + i + 1;
			}
		}
	}
}

void
wr_capq_burst(struct wr_capq *c, const struct wr_capq_burst *b)
{
	if (unlikely(b->anomalous || c->after_left != 0))
		scan(c, b);
	if (c->nb_hold == 0) {
		give_back(b->pkts, b->nb, b->raw, b->pkts[0]->pool);
		c->held_from = c->nb_seen + b->nb;
	} else {
		hold(c, b);
	}
	c->nb_seen += b->nb;
}

void
wr_capq_flush(struct wr_capq *c)
{
	uint64_t a, from = c->nb_seen > c->last_pkts ? c->nb_seen - c->last_pkts : 0;
	uint32_t slot;

	from = RTE_MAX(from, RTE_MAX(c->next_uncopied, c->held_from));
	for (a = c->held_from; a < c->nb_seen; a++) {
		slot = (uint32_t)(a & (c->nb_hold - 1));
		if ((c->what & WR_CAPTURE_LAST) && a >= from)
			keep(c, c->held[slot], c->held_tsc[slot], a);
		rte_pktmbuf_free(c->held[slot]);
		c->held[slot] = NULL;
	}
	c->held_from = c->nb_seen;
	c->next_uncopied = RTE_MAX(c->next_uncopied, c->nb_seen);
	c->after_left = 0;
}

/* The clock pair: TSC read on both sides of the wall clock, averaged. */
static void
clock_start(struct wr_capture *cap)
{
	struct timespec ts;
	uint64_t t0 = rte_get_tsc_cycles();

	clock_gettime(CLOCK_REALTIME, &ts);
	cap->epoch_tsc = t0 + (rte_get_tsc_cycles() - t0) / 2;
	cap->epoch_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	cap->tsc_hz = rte_get_tsc_hz();
}

/* Open the pcapng writer on a scratch file; 0 or a negative errno. */
static int
pcapng_open(struct wr_capture *cap)
{
	FILE *tmp = tmpfile();
	int fd = tmp == NULL ? -1 : dup(fileno(tmp));

	if (tmp != NULL)
		fclose(tmp);
	if (fd < 0)
		return -errno;
	cap->fd = fd;
	cap->pc = wr_pcapng_open(fd);
	if (cap->pc == NULL)
		return -rte_errno;
	cap->hdr_len = lseek(fd, 0, SEEK_CUR);
	return cap->hdr_len < 0 ? -errno : 0;
}

struct wr_capture *
wr_capture_create(const struct wr_capture_conf *conf, unsigned int nb_rxq,
		uint32_t frame_size)
{
	struct wr_capture *cap = calloc(1, sizeof(*cap));
	uint64_t n = (uint64_t)nb_rxq * (conf->max_pkts + conf->last_pkts +
		CAPTURE_SLACK_PKTS);
	char name[RTE_MEMPOOL_NAMESIZE];

	if (cap == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	cap->conf = *conf;
	clock_start(cap);
	/*
	 * --capture-snaplen as asked, even above the own frames (foreign ones
	 * may be larger); by default the own frame without its FCS.
	 */
	cap->snaplen = conf->snaplen != 0 ? conf->snaplen : frame_size - 4;
	cap->pool_size = (uint32_t)RTE_MIN(n, (uint64_t)CAPTURE_MAX_POOL);
	wr_capkept_init(&cap->kept, CAPTURE_KEPT_FACTOR * cap->pool_size);
	snprintf(name, sizeof(name), "wr_cap_%d", (int)getpid());
	cap->pool = rte_pktmbuf_pool_create(name, cap->pool_size, 0, 0,
		(uint16_t)(RTE_PKTMBUF_HEADROOM + cap->snaplen), SOCKET_ID_ANY);
	snprintf(name, sizeof(name), "wr_capo_%d", (int)getpid());
	if (cap->pool != NULL)
		cap->out = rte_pktmbuf_pool_create(name, 2 * CAPTURE_WRITE_CHUNK + 1,
			0, 0, (uint16_t)(RTE_PKTMBUF_HEADROOM +
			rte_pcapng_mbuf_size(cap->snaplen)), SOCKET_ID_ANY);
	if (cap->out == NULL || wr_pcapng_clock_start(cap->out) != 0 ||
			pcapng_open(cap) != 0) {
		if (cap->pc != NULL)
			rte_pcapng_close(cap->pc);
		rte_mempool_free(cap->out);
		rte_mempool_free(cap->pool);
		free(cap);
		rte_errno = ENOMEM;
		return NULL;
	}
	return cap;
}

uint32_t
wr_capture_hold_slots(const struct wr_capture_conf *conf)
{
	uint32_t n = RTE_MAX((conf->what & WR_CAPTURE_SEQ) ? conf->around_pkts : 0,
		(conf->what & WR_CAPTURE_LAST) ? conf->last_pkts : 0);

	return n == 0 ? 0 : rte_align32pow2(n);
}

struct wr_capq *
wr_capture_queue(struct wr_capture *cap, uint16_t port, uint16_t queue,
		int socket)
{
	uint32_t slots = wr_capture_hold_slots(&cap->conf);
	size_t sz = sizeof(struct wr_capq) + slots * (sizeof(struct rte_mbuf *) +
		sizeof(uint64_t) + sizeof(bool));
	char name[RTE_RING_NAMESIZE];
	struct wr_capq *c;

	if (cap->nb_q == CAPTURE_MAX_QUEUES) {
		rte_errno = ENOSPC;
		return NULL;
	}

	c = rte_zmalloc_socket("wr_capq", sz, RTE_CACHE_LINE_SIZE, socket);
	if (c == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	snprintf(name, sizeof(name), "wr_cap_%d_%u", (int)getpid(), cap->nb_q);
	c->ring = rte_ring_create(name, cap->pool_size, socket,
		RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
	if (c->ring == NULL) {
		rte_free(c);
		return NULL;
	}
	c->pool = cap->pool;
	c->port = port;
	c->queue = queue;
	c->what = cap->conf.what;
	c->around_pkts = (cap->conf.what & WR_CAPTURE_SEQ) ? cap->conf.around_pkts : 0;
	c->last_pkts = cap->conf.last_pkts;
	c->max_pkts = cap->conf.max_pkts;
	c->snaplen = cap->snaplen;
	c->nb_hold = slots;
	c->held = (struct rte_mbuf **)(c + 1);
	c->held_tsc = (uint64_t *)(c->held + slots);
	c->held_raw = (bool *)(c->held_tsc + slots);
	cap->q[cap->nb_q++] = c;
	return c;
}

/* Move raw copy m (meta, then the snap) into the store, or count it lost. */
static void
keep_copy(struct wr_capture *cap, const struct rte_mbuf *m)
{
	uint32_t len = rte_pktmbuf_pkt_len(m) - (uint32_t)sizeof(struct cap_meta);
	void *room = wr_capkept_add(&cap->kept, rte_pktmbuf_mtod(m, const void *), len);
	const void *d;

	if (room == NULL)
		return;
	d = rte_pktmbuf_read(m, sizeof(struct cap_meta), len, room);
	if (d != room)
		memcpy(room, d, len);
}

void
wr_capture_drain(struct wr_capture *cap)
{
	struct rte_mbuf *m[CAPTURE_DRAIN_CHUNK];
	unsigned int i, k, n, left;

	if (cap == NULL)
		return;
	/* One ring's worth a queue a call: workers refill it meanwhile, and
	 * the main lcore's clock and signals must come round (svc.c too). */
	for (i = 0; i < cap->nb_q; i++) {
		left = rte_ring_get_capacity(cap->q[i]->ring);
		while (left != 0 && (n = rte_ring_sc_dequeue_burst(cap->q[i]->ring,
				(void **)m, RTE_MIN(left, RTE_DIM(m)), NULL)) > 0) {
			for (k = 0; k < n; k++)
				keep_copy(cap, m[k]);
			rte_pktmbuf_free_bulk(m, n);
			left -= n;
		}
	}
}

/*
 * Wall-clock ns of an RX TSC by the run's own clock pair. rte_pcapng_copy()
 * of DPDK 22.11 converts the TSC itself and gets it wrong by a constant
 * (dates in 2281 here): there the block's timestamp is set again from
 * this (pcapng_compat.h).
 */
static uint64_t
tsc_to_ns(const struct wr_capture *cap, uint64_t tsc)
{
	uint64_t d = tsc - cap->epoch_tsc, s = d / cap->tsc_hz;

	return cap->epoch_ns + s * 1000000000u +
		(d - s * cap->tsc_hz) * 1000000000u / cap->tsc_hz;
}

/* One kept copy as a pcapng block in out's pool; NULL when none is free. */
static struct rte_mbuf *
to_block(const struct wr_capture *cap, const struct cap_copy *cp)
{
	const struct cap_meta *meta = &cp->meta;
	struct rte_mbuf *body = rte_pktmbuf_alloc(cap->out);
	char *d = body == NULL ? NULL : rte_pktmbuf_append(body, (uint16_t)cp->len);
	struct rte_mbuf *b;

	if (d == NULL) {
		rte_pktmbuf_free(body);
		return NULL;
	}
	memcpy(d, cp->data, cp->len);
	b = wr_pcapng_copy(meta->port, meta->queue, body, cap->out, cap->snaplen);
	rte_pktmbuf_free(body);
	if (b != NULL)
		wr_pcapng_set_time(b, meta->tsc, tsc_to_ns(cap, meta->tsc),
			meta->orig_len);
	return b;
}

/* Copy the scratch file (the pcapng of the latest write) to f. */
static int
copy_out(const struct wr_capture *cap, FILE *f)
{
	char buf[65536];
	off_t at = 0;
	ssize_t n;

	while ((n = pread(cap->fd, buf, sizeof(buf), at)) > 0) {
		if (fwrite(buf, 1, (size_t)n, f) != (size_t)n)
			return -EIO;
		at += n;
	}
	return n < 0 ? -errno : 0;
}

int
wr_capture_write(FILE *f, const void *arg)
{
	const struct wr_capture *cap = arg;
	struct rte_mbuf *chunk[CAPTURE_WRITE_CHUNK];
	uint32_t i, k, n;
	ssize_t w = 0;

	/* The scratch file keeps its section and interface blocks. */
	if (ftruncate(cap->fd, cap->hdr_len) != 0 ||
			lseek(cap->fd, cap->hdr_len, SEEK_SET) != cap->hdr_len)
		return -errno;
	/* Per queue the copies are in arrival order already; merge them. */
	wr_capkept_sort(&cap->kept);
	for (i = 0; i < cap->kept.nb_kept && w >= 0; i += n) {
		n = RTE_MIN(cap->kept.nb_kept - i, CAPTURE_WRITE_CHUNK);
		for (k = 0; k < n; k++)
			if ((chunk[k] = to_block(cap, cap->kept.copies[i + k])) == NULL)
				break;
		w = k == n ? rte_pcapng_write_packets(cap->pc, chunk, (uint16_t)n) : -1;
		rte_pktmbuf_free_bulk(chunk, k);
	}
	return w < 0 ? -EIO : copy_out(cap, f);
}

void
wr_capture_checkpoint(struct wr_capture *cap, uint64_t now_tsc, uint64_t period_tsc)
{
	if (cap == NULL || period_tsc == 0 || cap->kept.nb_kept == cap->nb_written ||
			now_tsc - cap->written_tsc < period_tsc)
		return;
	cap->written_tsc = now_tsc;
	/* A failed checkpoint is counted; the final write reports its error. */
	if (wr_file_write(cap->conf.path, wr_capture_write, cap, NULL) == 0)
		cap->nb_written = cap->kept.nb_kept;
	else
		cap->nb_ckpt_failed++;
}

void
wr_capture_figures(const struct wr_capture *cap, struct wr_capture_figures *f)
{
	unsigned int i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < cap->nb_q; i++) {
		f->copied_pkts += cap->q[i]->st.nb_copied_pkts;
		f->dropped_pkts += cap->q[i]->st.nb_dropped_pkts;
		f->over_budget_pkts += cap->q[i]->st.nb_over_budget_pkts;
		f->anomalies += cap->q[i]->st.nb_anomalies;
	}
	f->dropped_pkts += cap->kept.nb_lost;
	f->path = cap->conf.path;
	f->frames = cap->kept.nb_kept;
	f->snaplen = cap->snaplen;
	f->checkpoints_failed = cap->nb_ckpt_failed;
	f->around_pkts = cap->conf.around_pkts;
	f->last_pkts = cap->conf.last_pkts;
	f->max_pkts = cap->conf.max_pkts;
}

/* Free whatever a queue still holds (a worker that never flushed). */
static void
free_held(struct wr_capq *c)
{
	uint32_t i;

	for (i = 0; i < c->nb_hold; i++) {
		rte_pktmbuf_free(c->held[i]);
		c->held[i] = NULL;
	}
}

void
wr_capture_destroy(struct wr_capture *cap)
{
	unsigned int i;

	if (cap == NULL)
		return;
	wr_capture_drain(cap);
	for (i = 0; i < cap->nb_q; i++) {
		free_held(cap->q[i]);
		rte_ring_free(cap->q[i]->ring);
		rte_free(cap->q[i]);
	}
	if (cap->pc != NULL)
		rte_pcapng_close(cap->pc);
	rte_mempool_free(cap->out);
	rte_mempool_free(cap->pool);
	wr_capkept_free(&cap->kept);
	free(cap);
}
