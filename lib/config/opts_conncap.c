/* SPDX-License-Identifier: BSD-3-Clause */
/* --mode conn-capacity's option rules (opts_conncap.h). */
#include <errno.h>
#include <inttypes.h>

#include "config.h"
#include "optab.h"
#include "opts_conn.h"
#include "opts_conncap.h"

/* Option bit of wr_conn_opts.given. */
#define GIVEN(co, id) (((co)->given >> ((id) - WR_OPT_CONN)) & 1)

int
wr_opts_conncap_check(struct wr_config *cfg, struct wr_error *err)
{
	struct wr_conn_opts *co = &cfg->conn;
	struct wr_conn_cfg *c = &co->cfg;

	if (cfg->mode != WR_MODE_CONN_CAPACITY)
		return 0;
	if (c->role != WR_CONN_CLIENT)
		return wr_err_usage(err, -EINVAL, "--mode conn-capacity needs "
			"--conn client: it opens connections and holds them "
			"(docs/conncap.md)");
	if (c->app != WR_CONN_APP_HTTP)
		return wr_err_usage(err, -EINVAL, "--mode conn-capacity with "
			"--conn-app bulk: the held connections are HTTP (a request "
			"each, then one more to check them); use --conn-app http");
	if (GIVEN(co, WR_OPT_CONN_REQUESTS))
		return wr_err_usage(err, -EINVAL, "--mode conn-capacity with "
			"--conn-requests: each connection makes two requests, its "
			"first and its check");
	if (c->nb_conns == 0)
		c->nb_conns = c->max_open;
	if (c->nb_conns > c->max_open)
		return wr_err_usage(err, -EINVAL, "--mode conn-capacity: "
			"--conn-count %" PRIu64 " over --conn-concurrency %" PRIu32
			": every connection is held open; raise the concurrency",
			c->nb_conns, c->max_open);
	if (c->cps == 0)
		c->cps = WR_CONNCAP_RATE_DEFAULT;
	c->hold = 1;
	c->reqs_per_conn = 2;
	c->syn_timeout_us = WR_CONNCAP_SYN_TIMEOUT_US;
	return 0;
}
