/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <string.h>

#include "meshjson.h"
#include "meshlat.h"
#include "base/jsonw.h"

unsigned int
wr_mesh_nb_sizes(const struct wr_config *cfg)
{
	return cfg->nb_sizes ? cfg->nb_sizes : 1;
}

uint32_t
wr_mesh_size(const struct wr_config *cfg, unsigned int i)
{
	return cfg->nb_sizes ? cfg->sizes[i] : cfg->frame_size;
}

json_t *
wr_mesh_doc(json_t *doc, const struct wr_config *cfg, unsigned int nb,
		const struct rte_ether_addr *macs)
{
	const struct wr_rfc2889_conf *r = &cfg->rfc2889;
	json_t *o = json_object(), *ports = json_array(), *p, *sizes;
	char s[RTE_ETHER_ADDR_FMT_SIZE];
	unsigned int i;

	if (o == NULL || ports == NULL) {
		json_decref(o);
		json_decref(ports);
		return NULL;
	}
	wr_json_set(o, "section", json_string(wr_mesh_section(r->mesh_pattern)));
	wr_json_set(o, "pattern", json_string(wr_mesh_pattern_name(r->mesh_pattern)));
	for (i = 0; i < nb; i++) {
		p = json_object();
		snprintf(s, sizeof(s), "%02x:%02x:%02x:%02x:%02x:%02x",
			macs[i].addr_bytes[0], macs[i].addr_bytes[1],
			macs[i].addr_bytes[2], macs[i].addr_bytes[3],
			macs[i].addr_bytes[4], macs[i].addr_bytes[5]);
		wr_json_set(p, "index", json_integer(i));
		wr_json_set(p, "mac", json_string(s));
		json_array_append_new(ports, p);
	}
	wr_json_set(o, "ports", ports);
	sizes = json_array();
	for (i = 0; i < wr_mesh_nb_sizes(cfg); i++)
		json_array_append_new(sizes, json_integer(wr_mesh_size(cfg, i)));
	wr_json_set(o, "frame_size", json_integer(wr_mesh_size(cfg, 0)));
	wr_json_set(o, "sizes", sizes);
	wr_json_set(o, "min_pps", json_real(r->mesh_min_pps));
	wr_json_set(o, "max_pps", json_real(r->mesh_max_pps));
	wr_json_set(o, "trial_s", json_real((double)cfg->trial_ms / 1e3));
	wr_json_set(o, "settle_s", json_real((double)r->settle_ms / 1e3));
	wr_json_set(o, "fdb_reset", r->reset_cmd[0] ? json_string(r->reset_cmd) :
		json_null());
	wr_json_set(o, "latency_clock", json_string(WR_MESH_LAT_CLOCK));
	wr_json_set(o, "trials", json_array());
	wr_json_set(o, "results", json_array());
	wr_json_set(doc, "rfc2889", o);
	return o;
}

/* Port i's object of trial t. */
static json_t *
port_json(const struct wr_mesh_trial_rec *t, unsigned int i)
{
	struct wr_mesh_port_sum sum;
	json_t *x = json_object();

	wr_mesh_port_sum(t->plan, t->c, i, t->send_s, &sum);
	wr_json_set(x, "index", json_integer(i));
	wr_json_set(x, "sent", json_integer((json_int_t)sum.sent_pkts));
	wr_json_set(x, "lost", json_integer((json_int_t)sum.lost_pkts));
	wr_json_set(x, "received", json_integer((json_int_t)sum.rx_pkts));
	wr_json_set(x, "stray", json_integer((json_int_t)sum.stray_pkts));
	wr_json_set(x, "learn_sent", json_integer((json_int_t)t->c->learn_sent[i]));
	wr_json_set(x, "other_received", json_integer((json_int_t)t->c->other_rx[i]));
	wr_json_set(x, "tx_refused", json_integer((json_int_t)t->c->tx_refused[i]));
	wr_json_set(x, "forwarding_rate_pps", json_real(sum.fwd_pps));
	wr_json_set(x, "latency", wr_mesh_lat_json(&t->c->lat[i], t->tsc_hz));
	return x;
}

/* The verdicts of 5.5 of a congestion trial's counts c. */
static json_t *
congestion_json(const struct wr_mesh_counts *c)
{
	struct wr_mesh_congestion g;
	json_t *x = json_object();

	wr_mesh_congestion(c, &g);
	wr_json_set(x, "uncongested_sent", json_integer((json_int_t)g.uncongested_sent_pkts));
	wr_json_set(x, "uncongested_lost", json_integer((json_int_t)g.uncongested_lost_pkts));
	wr_json_set(x, "congested_sent", json_integer((json_int_t)g.congested_sent_pkts));
	wr_json_set(x, "congested_lost", json_integer((json_int_t)g.congested_lost_pkts));
	wr_json_set(x, "tx_refused", json_integer((json_int_t)g.refused_pkts));
	wr_json_set(x, "head_of_line_blocking", json_boolean(g.hol_blocking));
	wr_json_set(x, "back_pressure", json_boolean(g.back_pressure));
	return x;
}

/* The pairs of trial t, in sender then receiver order. */
static json_t *
pairs_json(const struct wr_mesh_trial_rec *t)
{
	const struct wr_mesh_plan *p = t->plan;
	json_t *a = json_array(), *x;
	unsigned int s, i, d;

	for (s = 0; s < p->nb_ports; s++) {
		for (i = 0; i < p->nb_dst[s]; i++) {
			d = p->dst[s][i];
			x = json_object();
			wr_json_set(x, "src", json_integer(s));
			wr_json_set(x, "dst", json_integer(d));
			wr_json_set(x, "sent", json_integer((json_int_t)t->c->sent[s][d]));
			wr_json_set(x, "received", json_integer((json_int_t)t->c->rx[s][d]));
			wr_json_set(x, "lost",
				json_integer((json_int_t)wr_mesh_lost(t->c, s, d)));
			wr_json_set(x, "stray", json_integer((json_int_t)t->c->stray[s][d]));
			json_array_append_new(a, x);
		}
	}
	return a;
}

/*
 * 5.10: the frames the broadcasting port sent (each one counts as sent to
 * every receiver in "sent") and the receivers.
 */
static json_t *
bcast_json(const struct wr_mesh_trial_rec *t)
{
	const struct wr_mesh_plan *p = t->plan;
	json_t *x = json_object();

	wr_json_set(x, "src", json_integer(0));
	wr_json_set(x, "frames_sent", json_integer((json_int_t)(p->nb_dst[0] ?
		t->c->sent[0][p->dst[0][0]] : 0)));
	wr_json_set(x, "receivers", json_integer(p->nb_dst[0]));
	return x;
}

void
wr_mesh_trial_json(json_t *o, const struct wr_mesh_trial_rec *t)
{
	json_t *x = json_object(), *ports = json_array();
	struct wr_mesh_port_sum sum;
	uint64_t sent = 0, rx = 0, lost = 0;
	unsigned int i;

	for (i = 0; i < t->plan->nb_ports; i++) {
		wr_mesh_port_sum(t->plan, t->c, i, t->send_s, &sum);
		sent += sum.sent_pkts;
		rx += sum.rx_pkts;
		lost += sum.lost_pkts;
		json_array_append_new(ports, port_json(t, i));
	}
	wr_json_set(x, "frame_size", json_integer(t->frame_size));
	wr_json_set(x, "offered_pps", json_real(t->offered_pps));
	wr_json_set(x, "send_s", json_real(t->send_s));
	wr_json_set(x, "reset_s", json_real(t->reset_s));
	wr_json_set(x, "sent", json_integer((json_int_t)sent));
	wr_json_set(x, "received", json_integer((json_int_t)rx));
	wr_json_set(x, "lost", json_integer((json_int_t)lost));
	wr_json_set(x, "forwarding_rate_pps", json_real(t->send_s > 0 ?
		(double)rx / t->send_s : 0.0));
	wr_json_set(x, "pass", json_boolean(t->pass));
	wr_json_set(x, "ports", ports);
	wr_json_set(x, "pairs", pairs_json(t));
	if (t->congestion)
		wr_json_set(x, "congestion", congestion_json(t->c));
	if (t->plan->bcast)
		wr_json_set(x, "broadcast", bcast_json(t));
	json_array_append_new(json_object_get(o, "trials"), x);
}

void
wr_mesh_found_json(json_t *o, const struct wr_mesh_found *f, uint32_t size)
{
	json_t *x = json_object();

	wr_json_set(x, "frame_size", json_integer(size));
	wr_json_set(x, "search", json_boolean(f->search));
	if (f->search) {
		wr_json_set(x, "found", json_boolean(f->found));
		wr_json_set(x, "converged", json_boolean(f->converged));
		wr_json_set(x, "at_max", json_boolean(f->at_max));
		wr_json_set(x, "throughput_pps", f->found ?
			json_real(f->throughput_pps) : json_null());
		wr_json_set(x, "fail_pps", f->fail_pps > 0 ?
			json_real(f->fail_pps) : json_null());
	}
	wr_json_set(x, "forwarding_rate_pps", f->fwd_pps > 0 ?
		json_real(f->fwd_pps) : json_null());
	if (json_object_get(o, "result") == NULL)
		json_object_set(o, "result", x);
	json_array_append_new(json_object_get(o, "results"), x);
}
