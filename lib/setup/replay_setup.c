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
pool_bytes(uint32_t nb, uint32_t room)
{
	struct rte_mempool_objsz sz;
	uint32_t elt = rte_mempool_calc_obj_size(sizeof(struct rte_mbuf) + room, 0, &sz);

	return (uint64_t)nb * elt;
}

/* The pool and one mbuf per frame, holding its bytes. */
static int
load_frames(struct wr_replay_set *s, const struct wr_pcap *p, const char *path,
		int socket, struct wr_error *err)
{
	uint32_t room = RTE_PKTMBUF_HEADROOM + p->max_len, i;

	s->pool = rte_pktmbuf_pool_create("wr_replay", p->nb_frames, 0, 0,
		(uint16_t)room, socket);
	s->mbufs = calloc(p->nb_frames, sizeof(s->mbufs[0]));
	if (s->pool == NULL || s->mbufs == NULL ||
			rte_pktmbuf_alloc_bulk(s->pool, s->mbufs, p->nb_frames) != 0) {
		free(s->mbufs);
		s->mbufs = NULL;
		return wr_err_env(err, -ENOMEM, "--replay %s: its %" PRIu32 " frames (up to %"
			PRIu32 " bytes) need %.1f MiB of hugepage memory for their "
			"mbufs, which EAL could not give (%s); give it more (-m, "
			"--socket-mem) or replay a shorter file", path, p->nb_frames,
			p->max_len, pool_bytes(p->nb_frames, room) / 1048576.0,
			rte_strerror(rte_errno));
	}
	s->nb = p->nb_frames;
	for (i = 0; i < p->nb_frames; i++) {
		char *d = rte_pktmbuf_append(s->mbufs[i], (uint16_t)p->frames[i].len);

		memcpy(d, p->data + p->frames[i].off, p->frames[i].len);
	}
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

/*
 * Queue q of n on a port: frames q, q + n, ... of the file. Timed by the
 * capture when speed > 0, a loop lasting s->loop_ns over speed.
 */
static struct wr_replayq *
make_queue(const struct wr_replay_set *s, const struct wr_pcap *p, uint16_t q,
		uint16_t n, double speed, uint64_t hz, int socket)
{
	uint32_t nb = q < s->nb ? (s->nb - q + n - 1) / n : 0, k, i;
	struct wr_replayq *r = rte_zmalloc_socket("wr_replayq", sizeof(*r), 0, socket);
	uint64_t ts0 = p->frames[0].ts_ns;

	if (r == NULL)
		return NULL;
	r->nb = nb;
	r->mbufs = rte_zmalloc_socket("wr_replay_m", (nb + 1) * sizeof(r->mbufs[0]), 0, socket);
	r->prefix_bytes = rte_zmalloc_socket("wr_replay_b", (nb + 1) * sizeof(uint64_t),
		0, socket);
	if (speed > 0)
		r->due_tsc = rte_zmalloc_socket("wr_replay_t", (nb + 1) * sizeof(uint64_t),
			0, socket);
	if (r->mbufs == NULL || r->prefix_bytes == NULL || (speed > 0 && r->due_tsc == NULL))
		return r;
	for (k = 0, i = q; k < nb; k++, i += n) {
		r->mbufs[k] = s->mbufs[i];
		r->prefix_bytes[k + 1] = r->prefix_bytes[k] + p->frames[i].len +
			WR_UNITS_FCS_BYTES;
		if (r->due_tsc != NULL)
			r->due_tsc[k] = capture_tsc(p->frames[i].ts_ns - ts0, speed, hz);
	}
	if (speed > 0)
		r->loop_tsc = capture_tsc(s->loop_ns, speed, hz);
	return r;
}

static void
free_queue(struct wr_replayq *r)
{
	if (r == NULL)
		return;
	rte_free(r->mbufs);
	rte_free(r->prefix_bytes);
	rte_free(r->due_tsc);
	rte_free(r);
}

/* Every TX queue's share, and its worker replays. */
static int
make_queues(struct wr_run *run, const struct wr_pcap *p, struct wr_error *err)
{
	const struct wr_config *cfg = run->setup.cfg;
	double speed = cfg->rate.unit == WR_RATE_NONE ? cfg->replay.speed : 0;
	struct wr_txq *t;
	unsigned int i;

	WR_RUN_FOREACH_TXQ(run, i, t) {
		const struct wr_port *pt = &run->setup.ports[t->pidx];

		t->replay = make_queue(run->setup.replay, p, t->queue, pt->nb_txq, speed,
			run->setup.tsc_hz, pt->socket);
		if (t->replay == NULL || t->replay->mbufs == NULL ||
				t->replay->prefix_bytes == NULL ||
				(speed > 0 && t->replay->due_tsc == NULL))
			return wr_err_env(err, -ENOMEM, "--replay: no memory for the "
				"frame list of port %u TX queue %u", t->port, t->queue);
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
		rc = load_frames(run->setup.replay, &p, cfg->replay.path,
			socket < 0 ? SOCKET_ID_ANY : socket, err);
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
	rte_pktmbuf_free_bulk(s->mbufs, s->nb);
	s->released = 1;
	return s->nb - rte_mempool_avail_count(s->pool);
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
		rte_pktmbuf_free_bulk(s->mbufs, s->nb);
	free(s->mbufs);
	rte_mempool_free(s->pool);
	free(s);
	run->setup.replay = NULL;
}
