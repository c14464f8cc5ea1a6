/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The far end's counts during a trial (--peer, docs/twoended.md): its
 * `status` (docs/api.md), asked by the main lcore at each interval of
 * the live view; the workers never wait for it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "peer.h"

/* Sum of key over the ports of the far end's live block. */
static double
sum_ports(const json_t *ports, const char *key)
{
	const json_t *p;
	double sum = 0.0;
	size_t i;

	json_array_foreach(ports, i, p)
		sum += json_number_value(json_object_get(p, key));
	return sum;
}

bool
app_peer_live(struct app_peer_session *ps, char *buf, size_t len)
{
	const json_t *live, *ports;
	const char *state;
	struct wr_error err;
	json_t *res = NULL;
	bool ok;

	if (ps->conn.fd < 0 || !ps->counting)
		return false;
	if (app_peer_request(&ps->conn, "status", NULL, &res, NULL, &err) != 0) {
		snprintf(buf, len, "far end (live): %s\n", err.msg);
		return true;
	}
	live = json_object_get(res, "live");
	ports = json_object_get(live, "ports");
	state = json_string_value(json_object_get(live, "state"));
	ok = state != NULL && strcmp(state, "running") == 0 && json_is_array(ports);
	if (ok)
		snprintf(buf, len, "far end (live, its last interval): RX %.3f Mpps "
			"%.3f Gb/s L1; %.0f frames received so far in this trial\n",
			sum_ports(ports, "rx_pps") / 1e6,
			sum_ports(ports, "rx_l1_bps") / 1e9,
			sum_ports(ports, "rx_own_pkts"));
	json_decref(res);
	return ok;
}
