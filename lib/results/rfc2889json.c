/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <string.h>

#include "rfc2889json.h"
#include "base/jsonw.h"

/* "aa:bb:cc:dd:ee:ff" of mac as a JSON string. */
static json_t *
mac_json(const uint8_t *mac)
{
	char s[RTE_ETHER_ADDR_FMT_SIZE];

	snprintf(s, sizeof(s), "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1],
		mac[2], mac[3], mac[4], mac[5]);
	return json_string(s);
}

static json_t *
port_json(uint16_t idx, const struct rte_ether_addr *mac)
{
	json_t *o = json_object();

	wr_json_set(o, "index", json_integer(idx));
	wr_json_set(o, "mac", mac_json(mac->addr_bytes));
	return o;
}

static json_t *
plan_json(const struct wr_rfc2889_conf *r)
{
	json_t *o = json_object();

	wr_json_set(o, "kind", json_string(r->plan_random ? "random" : "range"));
	if (r->plan_random)
		wr_json_set(o, "seed", json_integer((json_int_t)r->plan_seed));
	else
		wr_json_set(o, "base", mac_json(r->plan_base));
	return o;
}

json_t *
wr_rfc2889_doc(json_t *doc, const struct wr_config *cfg,
		const struct rte_ether_addr macs[3])
{
	const struct wr_rfc2889_conf *r = &cfg->rfc2889;
	bool cap = cfg->mode == WR_MODE_ADDR_CAPACITY;
	json_t *o = json_object(), *ports = json_object();

	if (o == NULL)
		return NULL;
	wr_json_set(o, "section", json_string(cap ? "5.7" : "5.8"));
	wr_json_set(ports, "learning", port_json(r->learn_port, &macs[0]));
	wr_json_set(ports, "test", port_json(r->test_port, &macs[1]));
	wr_json_set(ports, "monitoring", port_json(r->mon_port, &macs[2]));
	wr_json_set(o, "ports", ports);
	wr_json_set(o, "plan", plan_json(r));
	wr_json_set(o, "min_addresses", json_integer(cap ? r->min_nb : r->max_nb));
	wr_json_set(o, "max_addresses", json_integer(r->max_nb));
	wr_json_set(o, "test_pps", json_real(r->addr_pps));
	if (cap) {
		wr_json_set(o, "learn_pps", json_real(r->addr_pps));
	} else {
		wr_json_set(o, "learn_min_pps", json_real(r->learn_min_pps));
		wr_json_set(o, "learn_max_pps", json_real(r->learn_max_pps));
	}
	wr_json_set(o, "aging_s", json_real((double)r->aging_ms / 1e3));
	wr_json_set(o, "settle_s", json_real((double)r->settle_ms / 1e3));
	wr_json_set(o, "fdb_reset", json_string(r->reset_cmd));
	wr_json_set(o, "trials", json_array());
	wr_json_set(doc, "rfc2889", o);
	return o;
}

void
wr_rfc2889_trial_json(json_t *o, const struct wr_rfc2889_trial_rec *t)
{
	json_t *x = json_object();

	wr_json_set(x, "addresses", json_integer(t->nb));
	wr_json_set(x, "learn_pps", json_real(t->learn_pps));
	wr_json_set(x, "test_pps", json_real(t->test_pps));
	wr_json_set(x, "learn_sent", json_integer((json_int_t)t->learn_sent_pkts));
	wr_json_set(x, "test_sent", json_integer((json_int_t)t->test_sent_pkts));
	wr_json_set(x, "test_received", json_integer((json_int_t)t->test_rx_pkts));
	wr_json_set(x, "flooded", json_integer((json_int_t)t->flooded_pkts));
	wr_json_set(x, "learn_flooded",
		json_integer((json_int_t)t->learn_flooded_pkts));
	wr_json_set(x, "reset_s", json_real(t->reset_s));
	wr_json_set(x, "duration_s", json_real(t->duration_s));
	wr_json_set(x, "pass", json_boolean(t->pass));
	json_array_append_new(json_object_get(o, "trials"), x);
}

void
wr_rfc2889_found_json(json_t *o, enum wr_mode mode,
		const struct wr_rfc2889_found *f)
{
	json_t *x = json_object();

	wr_json_set(x, "found", json_boolean(f->found));
	wr_json_set(x, "converged", json_boolean(f->converged));
	wr_json_set(x, "at_max", json_boolean(f->at_max));
	if (mode == WR_MODE_ADDR_CAPACITY) {
		wr_json_set(x, "capacity_addresses", f->found ?
			json_integer(f->capacity_nb) : json_null());
		wr_json_set(x, "fail_addresses", f->fail_nb ?
			json_integer(f->fail_nb) : json_null());
	} else {
		wr_json_set(x, "addresses", json_integer(f->nb));
		wr_json_set(x, "learning_rate_pps", f->found ?
			json_real(f->rate_pps) : json_null());
		wr_json_set(x, "fail_pps", f->fail_pps > 0 ?
			json_real(f->fail_pps) : json_null());
	}
	wr_json_set(o, "result", x);
}

int
wr_rfc2889_points(const json_t *doc, struct wr_points *out, struct wr_error *err)
{
	const json_t *o = json_object_get(doc, "rfc2889"), *r, *v;
	bool cap = strcmp(out->kind->name, "addr-capacity") == 0;
	unsigned int id = cap ? WR_METRIC_ADDR_CAPACITY : WR_METRIC_LEARN_RATE;
	const char *key = cap ? "capacity_addresses" : "learning_rate_pps";

	if (!json_is_object(o))
		return wr_err_usage(err, -EINVAL, "field 'rfc2889' is missing or "
			"not an object");
	r = json_object_get(o, "result");
	if (r == NULL && wr_kind_running(doc))
		return 0;       /* killed during the search: nothing found yet */
	if (!json_is_object(r))
		return wr_err_usage(err, -EINVAL, "field 'rfc2889.result' is "
			"missing or not an object: the search did not finish");
	v = json_object_get(r, key);
	if (json_is_null(v))
		return 0;       /* even the smallest count or rate failed */
	if (!json_is_number(v))
		return wr_err_usage(err, -EINVAL, "field 'rfc2889.result.%s' is "
			"missing or not a number", key);
	out->p[0].frame_size = 64;
	out->p[0].m.have[id] = true;
	out->p[0].m.v[id] = json_number_value(v);
	out->nb = 1;
	return 0;
}
