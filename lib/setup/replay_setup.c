/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "base/pcapread.h"
#include "base/units.h"
#include "datapath/replay.h"
#include "replay_setup.h"
#include "run.h"

/* Bytes of hugepage memory nb mbufs of room data bytes take. */
static uint64_t
pool_bytes(uint64_t nb, uint32_t room)
{
	struct rte_mempool_objsz sz;
	uint32_t elt = rte_mempool_calc_obj_size(sizeof(struct rte_mbuf) + room, 0, &sz);

	return nb * elt;
}

/*
 * Copies of its nb frames a TX queue of pt needs so that the copy it
 * stages was given back by the PMD long ago: the port's descriptors, what
 * a ring pair holds beyond them (and a --capture at its receiver keeps:
 * fewer would wait forever for a frame kept until more arrive), the
 * pending burst and the one staged.
 */
static uint32_t
queue_reps(const struct wr_port *pt, uint16_t burst_pkts, uint32_t nb)
{
	uint32_t window = (uint32_t)pt->nb_txd + pt->tx_in_flight + 2u * burst_pkts;

	return nb == 0 ? 0 : (window + nb - 1) / nb;
}

/* Queue q of n on a port: frames q, q + n, ... of the file. */
static uint32_t
queue_frames(uint32_t nb_file, uint16_t q, uint16_t n)
{
	return q < nb_file ? (nb_file - q + n - 1) / n : 0;
}

/* The pool of every TX queue's copies, and the mbufs, all ours. */
static int
make_pool(struct wr_run *run, const struct wr_pcap *p, int socket, struct wr_error *err)
{
	struct wr_replay_set *s = run->setup.replay;
	uint32_t room = RTE_PKTMBUF_HEADROOM + p->max_len;
	const struct wr_port *pt;
	struct wr_txq *t;
	uint64_t total = 0;
	unsigned int i;

	WR_RUN_FOREACH_TXQ(run, i, t) {
		pt = &run->setup.ports[t->pidx];
		total += (uint64_t)queue_frames(p->nb_frames, t->queue, pt->nb_txq) *
			queue_reps(pt, t->burst_pkts, queue_frames(p->nb_frames,
			t->queue, pt->nb_txq));
	}
	s->nb = p->nb_frames;
	s->nb_mbufs = total <= UINT32_MAX ? (uint32_t)total : 0;
	if (s->nb_mbufs != 0) {
		s->pool = rte_pktmbuf_pool_create("wr_replay", s->nb_mbufs, 0, 0,
			(uint16_t)room, socket);
		s->mbufs = calloc(s->nb_mbufs, sizeof(s->mbufs[0]));
	}
	if (s->pool == NULL || s->mbufs == NULL ||
			rte_pktmbuf_alloc_bulk(s->pool, s->mbufs, s->nb_mbufs) != 0) {
		free(s->mbufs);
		s->mbufs = NULL;
		return wr_err_env(err, -ENOMEM, "--replay %s: its %" PRIu32 " frames (up to %"
			PRIu32 " bytes) need %.1f MiB of hugepage memory for the %" PRIu64
			" mbufs of their copies (each TX queue sends copies of its own, "
			"at least its descriptors and two bursts' worth: docs/replay.md), "
			"which EAL could not give (%s); give it more (-m, --socket-mem), "
			"fewer TX queues or ports, or replay a shorter file",
			run->setup.cfg->replay.path, p->nb_frames, p->max_len,
			pool_bytes(total, room) / 1048576.0, total,
			s->nb_mbufs == 0 ? "more than a pool holds" : rte_strerror(rte_errno));
	}
	s->pool_bytes = pool_bytes(s->nb_mbufs, room);
	s->span_ns = p->frames[p->nb_frames - 1].ts_ns - p->frames[0].ts_ns;
	s->loop_ns = s->span_ns + (s->nb > 1 ? s->span_ns / (s->nb - 1) : 0);
	return 0;
}

/* TSC cycles of ns nanoseconds of the capture at speed. */
static uint64_t
capture_tsc(uint64_t ns, double speed, uint64_t hz)
{
	return (uint64_t)((double)ns / speed * ((double)hz / 1e9));
}

/* Where a queue's share comes from. */
struct queue_src {
	const struct wr_pcap *p;
	struct rte_mbuf **copies;  /* reps * nb mbufs of the pool, unfilled */
	uint32_t reps;
	double speed;              /* timed by the capture when > 0 */
	uint64_t hz;
	int socket;
};

/* Fill r's copies with frames q, q + n, ... of the file. */
static void
fill_copies(struct wr_replayq *r, const struct wr_pcap *p, uint16_t q, uint16_t n)
{
	uint32_t c, k;

	for (c = 0; c < r->nb_copies; c++) {
		const struct wr_pcap_frame *f = &p->frames[q + (c % r->nb) * n];
		char *d = rte_pktmbuf_append(r->mbufs[c], (uint16_t)f->len);

		memcpy(d, p->data + f->off, f->len);
	}
	for (k = 0; k < r->nb; k++)
		r->prefix_bytes[k + 1] = r->prefix_bytes[k] + p->frames[q + k * n].len +
			WR_UNITS_FCS_BYTES;
}

/*
 * Queue q of n on a port: copies of frames q, q + n, ... of the file,
 * src->reps times over. Timed by the capture when src->speed > 0, a loop
 * lasting loop_ns over speed. NULL, or r with a NULL array: no memory.
 */
static struct wr_replayq *
make_queue(const struct queue_src *src, uint64_t loop_ns, uint16_t q, uint16_t n)
{
	const struct wr_pcap *p = src->p;
	uint32_t nb = queue_frames(p->nb_frames, q, n), k;
	struct wr_replayq *r = rte_zmalloc_socket("wr_replayq", sizeof(*r), 0, src->socket);

	if (r == NULL)
		return NULL;
	r->nb = nb;
	r->nb_copies = nb * src->reps;
	/* A queue with no frame of the file (more TX queues than frames) has
	 * no copies: none of the next queue's (trial.c sends nothing there). */
	r->mbufs = nb != 0 ? src->copies : NULL;
	r->prefix_bytes = rte_zmalloc_socket("wr_replay_b", (nb + 1) * sizeof(uint64_t),
		0, src->socket);
	if (src->speed > 0)
		r->due_tsc = rte_zmalloc_socket("wr_replay_t", (nb + 1) * sizeof(uint64_t),
			0, src->socket);
	if (r->prefix_bytes == NULL || (src->speed > 0 && r->due_tsc == NULL))
		return r;
	fill_copies(r, p, q, n);
	for (k = 0; r->due_tsc != NULL && k < nb; k++)
		r->due_tsc[k] = capture_tsc(p->frames[q + k * n].ts_ns - p->frames[0].ts_ns,
			src->speed, src->hz);
	if (src->speed > 0)
		r->loop_tsc = capture_tsc(loop_ns, src->speed, src->hz);
	return r;
}

static void
free_queue(struct wr_replayq *r)
{
	if (r == NULL)
		return;
	rte_free(r->prefix_bytes);
	rte_free(r->due_tsc);
	rte_free(r->stamp);
	rte_free(r->prefix_stamped);
	rte_free(r);
}

/* Every TX queue's share in its own copies, and its worker replays. */
static int
make_queues(struct wr_run *run, const struct wr_pcap *p, struct wr_error *err)
{
	const struct wr_config *cfg = run->setup.cfg;
	struct queue_src src = { .p = p, .copies = run->setup.replay->mbufs,
		.speed = cfg->rate.unit == WR_RATE_NONE ? cfg->replay.speed : 0,
		.hz = run->setup.tsc_hz };
	struct wr_txq *t;
	unsigned int i;

	WR_RUN_FOREACH_TXQ(run, i, t) {
		const struct wr_port *pt = &run->setup.ports[t->pidx];
		uint32_t nb = queue_frames(p->nb_frames, t->queue, pt->nb_txq);

		src.reps = queue_reps(pt, t->burst_pkts, nb);
		src.socket = pt->socket;
		t->replay = make_queue(&src, run->setup.replay->loop_ns, t->queue, pt->nb_txq);
		if (t->replay == NULL || t->replay->prefix_bytes == NULL ||
				(src.speed > 0 && t->replay->due_tsc == NULL))
			return wr_err_env(err, -ENOMEM, "--replay: no memory for the "
				"frame list of port %u TX queue %u", t->port, t->queue);
		src.copies += t->replay->nb_copies;
		if (cfg->replay.stamp && wr_replay_stamp_setup(t->replay,
				wr_port_stream_id(t->port, t->queue), pt->socket) != 0)
			return wr_err_env(err, -ENOMEM, "--replay-stamp: no memory for "
				"the stamps of port %u TX queue %u", t->port, t->queue);
	}
	for (i = 0; i < run->setup.plan.nb_workers; i++)
		if (run->setup.workers[i]->nb_tx > 0)
			run->setup.workers[i]->mode = WR_WORKER_REPLAY;
	return 0;
}

int
wr_replay_setup(struct wr_run *run, struct wr_error *err)
{
	const struct wr_config *cfg = run->setup.cfg;
	struct wr_pcap p;
	int rc, socket = run->setup.nb_ports > 0 ? run->setup.ports[0].socket : SOCKET_ID_ANY;

	if (cfg->replay.path[0] == '\0')
		return 0;
	rc = wr_pcap_read_file(cfg->replay.path, WR_FRAME_MAX_SIZE - WR_UNITS_FCS_BYTES,
		&p, err);
	if (rc != 0)
		return wr_err_prefix(err, "--replay ");
	run->setup.replay = calloc(1, sizeof(*run->setup.replay));
	if (run->setup.replay == NULL)
		rc = wr_err_env(err, -ENOMEM, "--replay: no memory");
	if (rc == 0)
		rc = make_pool(run, &p, socket < 0 ? SOCKET_ID_ANY : socket, err);
	if (rc == 0)
		rc = make_queues(run, &p, err);
	wr_pcap_free(&p);
	return rc;
}

uint64_t
wr_replay_release(struct wr_run *run)
{
	struct wr_replay_set *s = run->setup.replay;

	if (s == NULL || s->mbufs == NULL || s->released)
		return 0;
	rte_pktmbuf_free_bulk(s->mbufs, s->nb_mbufs);
	s->released = 1;
	return s->nb_mbufs - rte_mempool_avail_count(s->pool);
}

void
wr_replay_teardown(struct wr_run *run)
{
	struct wr_replay_set *s = run->setup.replay;
	struct wr_txq *t;
	unsigned int i;

	WR_RUN_FOREACH_TXQ(run, i, t) {
		free_queue(t->replay);
		t->replay = NULL;
	}
	if (s == NULL)
		return;
	if (!s->released && s->mbufs != NULL)
		rte_pktmbuf_free_bulk(s->mbufs, s->nb_mbufs);
	free(s->mbufs);
	rte_mempool_free(s->pool);
	free(s);
	run->setup.replay = NULL;
}
