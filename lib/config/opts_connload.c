/* SPDX-License-Identifier: BSD-3-Clause */
/* --mode conn-load's options (opts_connload.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "optab.h"
#include "opts_conn.h"
#include "opts_connload.h"
#include "opts_values.h"

int
wr_opts_connload_conc(const char *v, struct wr_conn_opts *co,
		struct wr_error *err)
{
	char one[32];
	const char *p = v, *comma;
	uint32_t n = 0, max = 0;
	size_t len;
	int rc;

	do {
		comma = strchr(p, ',');
		len = comma != NULL ? (size_t)(comma - p) : strlen(p);
		if (n == WR_CONN_LOAD_MAX)
			return wr_err_usage(err, -EINVAL, "--conn-concurrency '%s': "
				"at most %u values", v, WR_CONN_LOAD_MAX);
		if (len == 0 || len >= sizeof(one))
			return wr_err_usage(err, -EINVAL, "--conn-concurrency '%s': "
				"expected N or N,M,... (1..%u each)", v, WR_CONN_MAX_OPEN);
		memcpy(one, p, len);
		one[len] = '\0';
		rc = WR_OPTV_UINT("conn-concurrency", one, 1, WR_CONN_MAX_OPEN,
			&co->load_conc[n], err);
		if (rc != 0)
			return rc;
		if (co->load_conc[n] > max)
			max = co->load_conc[n];
		n++;
		p = comma != NULL ? comma + 1 : p + len;
	} while (comma != NULL);
	co->nb_load_conc = n;
	co->cfg.max_open = max;
	return 0;
}

uint32_t
wr_opts_connload_pool(const struct wr_conn_opts *co)
{
	uint64_t n = co->cfg.max_open + WR_CONN_LOAD_TW_SLOTS;
	uint32_t i;

	for (i = 0; i < co->nb_load_conc; i++)
		n += co->load_conc[i];
	return n > WR_CONN_MAX_OPEN ? WR_CONN_MAX_OPEN : (uint32_t)n;
}

int
wr_opts_connload_check(const struct wr_config *cfg, struct wr_error *err)
{
	const struct wr_conn_cfg *c = &cfg->conn.cfg;

	if (c->role == 0)
		return wr_err_usage(err, -EINVAL, "--mode conn-load needs --conn "
			"client: it opens the connections (docs/connload.md)");
	if (c->role != WR_CONN_CLIENT)
		return wr_err_usage(err, -EINVAL, "--mode conn-load with --conn "
			"server: the client's side runs the trials; run the server as "
			"a plain --conn server run");
	if (c->cps != 0)
		return wr_err_usage(err, -EINVAL, "--conn-rate with --mode "
			"conn-load: each trial opens as fast as --conn-concurrency "
			"allows");
	if (c->nb_conns != 0)
		return wr_err_usage(err, -EINVAL, "--conn-count with --mode "
			"conn-load: each trial lasts --trial");
	return 0;
}
