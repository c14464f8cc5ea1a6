/* SPDX-License-Identifier: BSD-3-Clause */
/* --mode conn-teardown's option rules (opts_conntear.h). */
#include <errno.h>
#include <inttypes.h>

#include "config.h"
#include "optab.h"
#include "opts_conn.h"
#include "opts_conncap.h"
#include "opts_conntear.h"

/* Option bit of wr_conn_opts.given. */
#define GIVEN(co, id) (((co)->given >> ((id) - WR_OPT_CONN)) & 1)

/* What the mode needs of the client; 0 or -EINVAL. */
static int
check_client(const struct wr_config *cfg, struct wr_error *err)
{
	const struct wr_conn_opts *co = &cfg->conn;
	const struct wr_conn_cfg *c = &co->cfg;

	if (c->role != WR_CONN_CLIENT)
		return wr_err_usage(err, -EINVAL, "--mode conn-teardown needs "
			"--conn client: it fills a table with connections and "
			"closes them (docs/connteardown.md)");
	if (c->app != WR_CONN_APP_HTTP)
		return wr_err_usage(err, -EINVAL, "--mode conn-teardown with "
			"--conn-app bulk: the held connections are HTTP; use "
			"--conn-app http");
	if (GIVEN(co, WR_OPT_CONN_REQUESTS))
		return wr_err_usage(err, -EINVAL, "--mode conn-teardown with "
			"--conn-requests: each connection makes one request, then "
			"is held until its close");
	if (cfg->peer[0] != '\0')
		return wr_err_usage(err, -EINVAL, "--peer with --mode "
			"conn-teardown: start the server at the far end yourself");
	return 0;
}

int
wr_opts_conntear_check(struct wr_config *cfg, struct wr_error *err)
{
	struct wr_conn_opts *co = &cfg->conn;
	struct wr_conn_cfg *c = &co->cfg;
	int rc;

	if (cfg->mode != WR_MODE_CONN_TEARDOWN)
		return 0;
	rc = check_client(cfg, err);
	if (rc != 0)
		return rc;
	if (c->cps < 1)
		return wr_err_usage(err, -EINVAL, "--mode conn-teardown needs "
			"--conn-rate N (N >= 1): the highest close rate it tries, "
			"closes/s per port");
	if (c->nb_conns == 0)
		return wr_err_usage(err, -EINVAL, "--mode conn-teardown needs "
			"--conn-count N (N >= 1): the connections each trial "
			"opens, holds and closes");
	if (c->nb_conns > c->max_open)
		return wr_err_usage(err, -EINVAL, "--mode conn-teardown: "
			"--conn-count %" PRIu64 " over --conn-concurrency %" PRIu32
			": every connection is held open; raise the concurrency",
			c->nb_conns, c->max_open);
	c->hold = 1;
	c->reqs_per_conn = 2;
	c->syn_timeout_us = WR_CONNCAP_SYN_TIMEOUT_US;
	c->close_timeout_us = GIVEN(co, WR_OPT_CONN_TIMEOUT) ?
		c->resp_timeout_us : WR_CONNTEAR_CLOSE_TIMEOUT_US;
	if (!GIVEN(co, WR_OPT_CONN_TIME_WAIT))
		c->time_wait_us = WR_CONNTEAR_TIME_WAIT_US;
	return 0;
}
