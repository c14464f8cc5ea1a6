/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generator's worker loop (wr_worker_main) and what it does besides
 * its bursts: per loop it walks the TX queues (tx_burst, worker_tx.h,
 * inlined here) and the RX queues (wr_rxq_burst, worker_rx.c, one call
 * per burst), applies a live rate (repace), serves a publication request
 * of the RX state (wr_worker_publish) and accounts its cycles; the TX
 * loop's CPU time is read once as it ends. Per burst: one TSC read, bulk
 * allocation from a pool whose mbufs already hold the frame template, a
 * stamp of sequence and timestamp per frame (fewer fields with --stamp
 * seq / none), one rte_eth_tx_burst; on RX one burst, classification of
 * each frame, bulk free. Counters are published once per burst
 * (counter.h).
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <rte_cycles.h>

#include "base/counter.h"
#include "capture.h"
#include "connworker.h"
#include "reflect.h"
#include "svcq.h"
#include "txsend.h"
#include "worker.h"
#include "worker_tx.h"

void
wr_txq_reset(struct wr_txq *q)
{
	q->next_seq = 0;
	q->flow = 0;
	q->var_pos = 0;
	q->nb_pending = 0;
	q->done = 0;
	memset(&q->st, 0, sizeof(q->st));
}

void
wr_rxq_tag(struct wr_rxq *q, uint16_t tag)
{
	unsigned int i;

	for (i = 0; i < WR_MAX_STREAMS; i++)
		wr_seq_init_tag(&q->streams[i].seq, tag);
}

void
wr_rxq_reset(struct wr_rxq *q)
{
	unsigned int i;

	memset(&q->st, 0, sizeof(q->st));
	wr_hist_init(&q->lat);
	wr_hist_pub_init(&q->lat_pub);
	q->nb_active = 0;
	for (i = 0; i < 2; i++) {
		q->pub[i].nb_streams = 0;
		q->pub[i].nb_unpublished = 0;
		wr_hist_init(&q->pub[i].lat);
		q->pub[i].ivl_min_tsc = UINT64_MAX;
		q->pub[i].ivl_max_tsc = 0;
	}
	for (i = 0; i < WR_MAX_STREAMS; i++) {
		struct wr_rx_stream *s = &q->streams[i];

		wr_seq_init(&s->seq);
		wr_jitter_init(&s->jitter);
		s->lat_min_tsc = UINT64_MAX;
		s->lat_max_tsc = 0;
		s->lat_sum_tsc = 0;
		s->lat_sum_hi = 0;
		s->nb_lat = 0;
		memset(&s->iat, 0, sizeof(s->iat));
		s->nb_burst_pkts = 0;
	}
}

/* Counts of src into h, and the moments from the streams given. */
static void
lat_counts(struct wr_hist *h, const struct wr_hist *src)
{
	unsigned int b;

	for (b = 0; b < WR_HIST_NB_BUCKETS; b++)
		h->counts[b] += src->counts[b];
	h->nb_overflow += src->nb_overflow;
}

static void
lat_stream(struct wr_hist *h, const struct wr_rx_stream *s)
{
	if (s->nb_lat == 0)
		return;
	h->nb += s->nb_lat;
	h->sum += s->lat_sum_tsc;
	h->sum_hi += s->lat_sum_hi + (h->sum < s->lat_sum_tsc);
	h->min = RTE_MIN(h->min, s->lat_min_tsc);
	h->max = RTE_MAX(h->max, s->lat_max_tsc);
}

void
wr_rxq_lat_final(struct wr_hist *h, const struct wr_rxq *q)
{
	unsigned int i;

	lat_counts(h, &q->lat);
	for (i = 0; i < q->nb_active; i++)
		lat_stream(h, &q->streams[q->active[i]]);
}

void
wr_rxq_lat_pub(struct wr_hist *h, const struct wr_rxq_pub *pb)
{
	unsigned int i;

	lat_counts(h, &pb->lat);
	for (i = 0; i < pb->nb_streams; i++)
		lat_stream(h, &pb->streams[i]);
}

/*
 * Copy q's state into the copy for request req (struct wr_rxq_pub); read:
 * the last request whose copies the stats core read. Of the latency
 * histogram (12 KB) only the buckets that changed since this copy was last
 * written are copied (wr_hist_pub_copy).
 */
static void
rxq_publish(struct wr_rxq *q, uint64_t req, uint64_t read)
{
	struct wr_rxq_pub *pb = &q->pub[req & 1];
	unsigned int i, n = RTE_MIN(q->nb_active, WR_PUB_STREAMS);

	wr_hist_pub_copy(&q->lat_pub, &q->lat, &pb->lat, req, read,
		&pb->ivl_min_tsc, &pb->ivl_max_tsc);
	for (i = 0; i < n; i++) {
		pb->sid[i] = q->active[i];
		pb->streams[i] = q->streams[q->active[i]];
	}
	pb->nb_streams = (uint16_t)n;
	pb->nb_unpublished = (uint16_t)(q->nb_active - n);
	__atomic_store_n(&q->pub_done, req, __ATOMIC_RELEASE);
}

void
wr_worker_publish(struct wr_worker *w, uint64_t req)
{
	uint64_t read = __atomic_load_n(&w->ctl->pub_read, __ATOMIC_RELAXED);
	unsigned int i;

	for (i = 0; i < w->nb_rx; i++)
		rxq_publish(w->rx[i], req, read);
	w->pub_seen = req;
}

/* Count one poll of a queue in its frames-per-burst bin. */
static inline void
count_burst(uint64_t *bins, uint16_t n)
{
	wr_counter_add(&bins[wr_cpu_burst_bin(n)], 1);
}

/* One burst on each RX queue of w (worker_rx.c); returns frames received. */
static inline unsigned int
poll_rx(struct wr_worker *w, uint64_t poll_tsc)
{
	unsigned int i, work = 0;
	uint16_t n;

	for (i = 0; i < w->nb_rx; i++) {
		n = wr_rxq_burst(w->rx[i], poll_tsc);
		count_burst(w->st.rx_bursts, n);
		work += n;
	}
	return work;
}

unsigned int
wr_worker_poll_rx(struct wr_worker *w, uint64_t poll_tsc)
{
	return poll_rx(w, poll_tsc);
}

/* One burst on each TX queue of a port whose link is up (txsend.h). */
static inline unsigned int
poll_tx(struct wr_worker *w, uint64_t now_tsc)
{
	if (unlikely(w->svc_tx))
		wr_svcq_poll_tx(w);
	return wr_worker_poll_tx(w, now_tsc, tx_burst);
}

/*
 * Rare path, at most once per loop: the controller published new pace
 * configurations (wr_ctl.pace_gen). Copied while the generation is even
 * and unchanged across the copy, else retried on the next loop.
 */
static __rte_noinline void
repace(struct wr_worker *w, uint64_t now_tsc)
{
	struct wr_pace_conf conf[WR_MAX_QPW];
	uint64_t gen = __atomic_load_n(&w->ctl->pace_gen, __ATOMIC_ACQUIRE);
	unsigned int i;

	if (gen & 1)
		return;
	for (i = 0; i < w->nb_tx; i++)
		conf[i] = w->tx[i]->pace_live;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&w->ctl->pace_gen, __ATOMIC_RELAXED) != gen)
		return;
	for (i = 0; i < w->nb_tx; i++) {
		if (conf[i].pps <= 0.0 || w->tx[i]->gated)
			continue;
		/* Checked by the controller: this cannot fail here. A queue
		 * paced before keeps its clamp and stall counts. */
		if ((w->tx[i]->paced ? wr_pace_rerate(&w->tx[i]->pace, &conf[i], now_tsc) :
				wr_pace_init(&w->tx[i]->pace, &conf[i], now_tsc)) == 0)
			w->tx[i]->paced = true;
	}
	w->pace_gen = gen;
}

/* CPU time the kernel gave the calling thread, in ns; 0 if unreadable. */
static uint64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Of that, time spent in the kernel in the thread's context, in ns; the
 * thread's voluntary context switches in *nvcsw.
 */
static uint64_t
thread_sys_ns(uint64_t *nvcsw)
{
	struct rusage ru;

	*nvcsw = 0;
	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		return 0;
	*nvcsw = (uint64_t)ru.ru_nvcsw;
	return (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
		(uint64_t)ru.ru_stime.tv_usec * 1000u;
}

/*
 * The time the thread has waited on a run queue, runnable but not given a
 * CPU, in ns (the second field of /proc/thread-self/schedstat); UINT64_MAX
 * when the kernel does not say.
 */
static uint64_t
thread_runq_ns(void)
{
	unsigned long long run, wait;
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	int n;

	if (f == NULL)
		return UINT64_MAX;
	n = fscanf(f, "%llu %llu", &run, &wait);
	fclose(f);
	return n == 2 ? (uint64_t)wait : UINT64_MAX;
}

/* Run-queue wait between two thread_runq_ns readings; UINT64_MAX unknown. */
static uint64_t
runq_span(uint64_t before, uint64_t after)
{
	if (before == UINT64_MAX || after == UINT64_MAX || after < before)
		return UINT64_MAX;
	return after - before;
}

int
wr_worker_main(void *arg)
{
	struct wr_worker *w = arg;
	uint64_t runq0 = thread_runq_ns();
	uint64_t vcs0, vcs1, sys0 = thread_sys_ns(&vcs0), cpu0 = thread_cpu_ns();
	uint64_t now = rte_rdtsc(), start = now;
	unsigned int i, work;

	if (w->mode == WR_WORKER_REFLECT)
		return wr_reflect_main(w);
	if (w->mode == WR_WORKER_REPLAY)
		return wr_replay_main(w);
	if (w->mode == WR_WORKER_CONN)
		return wr_connq_main(w);

	/* Pacing starts now; the configuration was validated at set-up.
	 * w->pace_gen is the trial's first generation (trial.c): a live rate
	 * published since the launch is applied on the first loop. */
	for (i = 0; i < w->nb_tx; i++) {
		if (w->tx[i]->paced)
			wr_pace_init(&w->tx[i]->pace, &w->tx[i]->pace_conf, now);
		if (w->tx[i]->gated)
			w->tx[i]->gate.next_tsc = now;
	}

	while (__atomic_load_n(&w->ctl->tx_stop, __ATOMIC_RELAXED) == 0) {
		if (unlikely(__atomic_load_n(&w->ctl->pace_gen, __ATOMIC_RELAXED) !=
				w->pace_gen))
			repace(w, now);
		work = poll_tx(w, now) + poll_rx(w, now);
		now = wr_worker_iter_end(w, work, now, rte_rdtsc);
	}
	wr_counter_set(&w->st.loop_cpu_ns, thread_cpu_ns() - cpu0);
	wr_counter_set(&w->st.loop_sys_ns, thread_sys_ns(&vcs1) - sys0);
	wr_counter_set(&w->st.loop_nvcsw, vcs1 - vcs0);
	wr_counter_set(&w->st.loop_runq_ns, runq_span(runq0, thread_runq_ns()));
	wr_counter_set(&w->st.loop_tsc, rte_rdtsc() - start);
	wr_worker_tx_end(w);
	return wr_worker_rx_until_stop(w, now);
}

int
wr_worker_rx_until_stop(struct wr_worker *w, uint64_t now)
{
	unsigned int i, work;

	while (__atomic_load_n(&w->ctl->rx_stop, __ATOMIC_RELAXED) == 0) {
		work = poll_rx(w, now);
		now = wr_worker_iter_end(w, work, now, rte_rdtsc);
	}
	for (i = 0; i < w->nb_rx; i++)
		if (w->rx[i]->cap != NULL)
			wr_capq_flush(w->rx[i]->cap);
	return 0;
}
