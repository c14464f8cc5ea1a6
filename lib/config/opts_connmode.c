/* SPDX-License-Identifier: BSD-3-Clause */
/* The test modes of a connection run (opts_connmode.h). */
#include <errno.h>
#include <inttypes.h>

#include "optab.h"
#include "opts_conn.h"
#include "opts_connmode.h"
#include "opts_connload.h"

bool
wr_opts_connmode_is(enum wr_mode mode)
{
	return mode == WR_MODE_CONN_RATE || mode == WR_MODE_CONN_LOAD ||
		mode == WR_MODE_CONN_TEARDOWN;
}

/* The --mode word of mode. */
static const char *
mode_word(enum wr_mode mode)
{
	const char *w = wr_optab_word(WR_OPT_MODE, (int)mode);

	return w != NULL ? w : "?";
}

int
wr_opts_connmode_check(const struct wr_config *cfg, struct wr_error *err)
{
	const struct wr_conn_cfg *c = &cfg->conn.cfg;
	const char *m = mode_word(cfg->mode);

	if (cfg->conn.nb_load_conc > 1 && cfg->mode != WR_MODE_CONN_LOAD)
		return wr_err_usage(err, -EINVAL, "--conn-concurrency with %" PRIu32
			" values: a list is for --mode conn-load only (one trial a "
			"value; docs/connload.md)", cfg->conn.nb_load_conc);
	if (cfg->peer[0] != '\0' && wr_opts_connmode_is(cfg->mode) &&
			wr_opts_conn_both(&cfg->conn))
		return wr_err_usage(err, -EINVAL, "--peer with --mode %s and a "
			"server port here (--conn): the far end runs the server; "
			"give this run client ports only", m);
	if (cfg->mode == WR_MODE_CONN_LOAD)
		return wr_opts_connload_check(cfg, err);
	/* opts_conntear.c checks its own (they set the engine's). */
	if (cfg->mode == WR_MODE_CONN_TEARDOWN)
		return 0;
	if (!wr_opts_connmode_is(cfg->mode)) {
		if (c->role != 0 && cfg->mode != WR_MODE_RUN &&
				cfg->mode != WR_MODE_CONN_CAPACITY)
			return wr_err_usage(err, -EINVAL, "--mode %s with --conn: "
				"not a mode of connections (--mode conn-rate, "
				"conn-capacity, conn-load and conn-teardown are; "
				"docs/tcp.md)", m);
		return 0;
	}
	if (c->role == 0)
		return wr_err_usage(err, -EINVAL, "--mode %s needs --conn client: "
			"it searches a rate of connections (docs/tcp.md)", m);
	if (c->role != WR_CONN_CLIENT)
		return wr_err_usage(err, -EINVAL, "--mode %s with --conn server: "
			"the client's side searches; run the server as a plain "
			"--conn server run", m);
	if (c->cps == 0)
		return wr_err_usage(err, -EINVAL, "--mode %s needs --conn-rate N: "
			"the highest rate it tries, connections/s per port", m);
	if (c->nb_conns != 0)
		return wr_err_usage(err, -EINVAL, "--conn-count with --mode %s: "
			"each trial lasts --trial", m);
	return 0;
}
