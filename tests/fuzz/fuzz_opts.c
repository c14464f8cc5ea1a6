/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The option parser (wr_opts_parse) on arbitrary command lines, then the
 * lcore planner on what it accepted. Input: arguments after "--", one per
 * line (or NUL-separated). Properties: an error comes with a message; an
 * accepted configuration is one a run can start from (every value within
 * its documented range, every cross-option rule holds), the same input
 * parses the same way twice, and the planner either places every queue or
 * says why not.
 */
#include <errno.h>
#include <math.h>

#include "config/opts.h"
#include "fuzz.h"
#include "setup/plan.h"

#define FUZZ_MAX_ARGS 64
#define FUZZ_MAX_INPUT 4096

static void
check_map(const struct wr_map *m)
{
	unsigned int i;

	FUZZ_CHECK(m->nb_q >= 1 && m->nb_q <= RTE_DIM(m->q));
	for (i = 0; i < m->nb_q; i++)
		FUZZ_CHECK(m->q[i].port < WR_MAX_PORTS &&
			m->q[i].queue < WR_MAX_QUEUES);
}

/* What a run relies on once the parser said yes. */
static void
check_config(const struct wr_config *c)
{
	unsigned int i;

	FUZZ_CHECK(c->nb_txq >= 1 && c->nb_txq <= WR_MAX_QUEUES);
	FUZZ_CHECK(c->nb_rxq >= 1 && c->nb_rxq <= WR_MAX_QUEUES);
	FUZZ_CHECK(c->burst_pkts >= 1 && c->burst_pkts <= WR_MAX_BURST);
	FUZZ_CHECK(c->burst_pkts <= c->nb_txd / 2);
	FUZZ_CHECK(c->pool_mbufs == 0 || (c->pool_mbufs >= c->burst_pkts &&
		c->pool_mbufs <= WR_MAX_POOL_MBUFS));
	FUZZ_CHECK(c->frame_size >= WR_FRAME_MIN_SIZE &&
		c->frame_size <= WR_FRAME_MAX_SIZE);
	FUZZ_CHECK(c->vlan_id == 0 || c->frame_size >= WR_FRAME_MIN_SIZE + 4);
	FUZZ_CHECK(c->interval_ms >= 100);
	FUZZ_CHECK(c->nb_flows >= 1 &&
		(uint32_t)c->src_udp + c->nb_flows - 1 <= 65535);
	FUZZ_CHECK(c->nb_sizes <= WR_MAX_SIZES);
	for (i = 0; i < c->nb_sizes; i++)
		FUZZ_CHECK(c->sizes[i] >= WR_FRAME_MIN_SIZE + (c->vlan_id ? 4 : 0) &&
			c->sizes[i] <= c->frame_size);
	FUZZ_CHECK(c->nb_maps <= WR_MAX_MAPS);
	for (i = 0; i < c->nb_maps; i++)
		check_map(&c->maps[i]);
	FUZZ_CHECK(memchr(c->json_path, '\0', sizeof(c->json_path)) != NULL);
	FUZZ_CHECK(memchr(c->csv_path, '\0', sizeof(c->csv_path)) != NULL);
	FUZZ_CHECK(memchr(c->label, '\0', sizeof(c->label)) != NULL);
	FUZZ_CHECK(c->nb_repeat >= 1 && c->nb_repeat <= WR_MAX_REPEAT);
	FUZZ_CHECK(c->rate.unit == WR_RATE_NONE ||
		(isfinite(c->rate.value) && c->rate.value > 0));
	FUZZ_CHECK(!(c->tx_ports_set && c->rx_ports_set &&
		c->tx_port_mask == 0 && c->rx_port_mask == 0));
	/* A trial that cannot end by itself is only allowed when asked. */
	FUZZ_CHECK(c->nb_repeat + c->nb_warmup == 1 || c->duration_ms != 0 ||
		c->count_pkts != 0);
	/* --count with no port to send would wait for ever. */
	FUZZ_CHECK(!(c->count_pkts != 0 && c->duration_ms == 0 &&
		c->tx_ports_set && c->tx_port_mask == 0));
}

/* Four ports of one socket, the masks' roles, two worker lcores. */
static void
check_plan(const struct wr_config *c)
{
	static struct wr_plan plan;
	struct wr_plan_port pp[4];
	struct wr_plan_lcore lc[2] = { { 1, 0 }, { 2, 0 } };
	unsigned int i, n = 0, placed = 0, want = 0;
	struct wr_error err;
	int rc;

	for (i = 0; i < 4; i++) {
		bool tx = !c->tx_ports_set || (c->tx_port_mask >> i) & 1;
		bool rx = !c->rx_ports_set || (c->rx_port_mask >> i) & 1;

		if (!tx && !rx)
			continue;
		pp[n].port_id = (uint16_t)i;
		pp[n].socket = 0;
		pp[n].nb_txq = tx ? c->nb_txq : 0;
		pp[n].nb_rxq = rx ? c->nb_rxq : 0;
		want += pp[n].nb_txq + pp[n].nb_rxq;
		n++;
	}
	wr_err_clear(&err);
	rc = c->nb_maps > 0 ?
		wr_plan_from_maps(c->maps, c->nb_maps, pp, n, lc, 2, &plan, &err) :
		wr_plan_auto(pp, n, lc, 2, &plan, &err);
	if (rc != 0) {
		/* A plan refused for what the command line asked: usage. */
		FUZZ_CHECK(rc == -EINVAL && fuzz_error_ok(&err) &&
			err.cls == WR_ERR_USAGE);
		return;
	}
	FUZZ_CHECK(plan.nb_workers <= 2);
	for (i = 0; i < plan.nb_workers; i++)
		placed += wr_plan_worker_load(&plan.w[i]);
	FUZZ_CHECK(placed == want);
}

/* Field by field: struct copies may leave padding bytes differing. */
static bool
same_config(const struct wr_config *a, const struct wr_config *b)
{
	return a->frame_size == b->frame_size && a->burst_pkts == b->burst_pkts &&
		a->duration_ms == b->duration_ms && a->count_pkts == b->count_pkts &&
		a->tx_port_mask == b->tx_port_mask &&
		a->rx_port_mask == b->rx_port_mask && a->nb_maps == b->nb_maps &&
		a->nb_sizes == b->nb_sizes && a->mode == b->mode &&
		a->rate.unit == b->rate.unit &&
		(a->rate.unit == WR_RATE_NONE || a->rate.value == b->rate.value) &&
		a->impair.drop.every == b->impair.drop.every &&
		a->nb_repeat == b->nb_repeat &&
		strcmp(a->json_path, b->json_path) == 0 &&
		strcmp(a->label, b->label) == 0;
}

static int
parse(int argc, char **argv, struct wr_config *cfg, struct wr_error *err)
{
	wr_config_defaults(cfg);
	wr_err_clear(err);
	return wr_opts_parse(argc, argv, cfg, err);
}

/* argv from the input: each argument its own exact-size allocation. */
static int
make_argv(const uint8_t *data, size_t size, char **argv)
{
	size_t start = 0, k;
	int argc = 1;

	argv[0] = (char *)(uintptr_t)"wirerate";
	for (k = 0; k <= size && argc <= FUZZ_MAX_ARGS; k++) {
		if (k < size && data[k] != '\n' && data[k] != '\0')
			continue;
		argv[argc++] = fuzz_strdup(data + start, k - start);
		start = k + 1;
	}
	argv[argc] = NULL;
	return argc;
}

static void
free_argv(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		free(argv[i]);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct wr_config cfg, again;
	char *argv[FUZZ_MAX_ARGS + 2], *argv2[FUZZ_MAX_ARGS + 2];
	char quiet[] = "--quiet";
	struct wr_error err;
	struct wr_error err2;
	char *plain[] = { (char *)(uintptr_t)"wirerate", quiet, NULL };
	int argc, rc, rc2;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	/* getopt_long permutes argv (options first): keep the pointers. */
	argc = make_argv(data, size, argv);
	memcpy(argv2, argv, sizeof(argv[0]) * (size_t)(argc + 1));
	rc = parse(argc, argv, &cfg, &err);
	FUZZ_CHECK(rc == WR_OPTS_RUN || rc == WR_OPTS_HELP ||
		rc == WR_OPTS_VERSION || rc == -EINVAL);
	/* Whatever is wrong with a command line is the request's: exit 2. */
	if (rc < 0)
		FUZZ_CHECK(fuzz_error_ok(&err) && err.cls == WR_ERR_USAGE);
	/*
	 * No state survives a call: a plain command line still parses as it
	 * should, and the same arguments, in fresh memory, parse the same way.
	 */
	FUZZ_CHECK(parse(2, plain, &again, &err2) == WR_OPTS_RUN);
	free_argv(argc, argv2);
	argc = make_argv(data, size, argv);
	memcpy(argv2, argv, sizeof(argv[0]) * (size_t)(argc + 1));
	rc2 = parse(argc, argv, &again, &err2);
	FUZZ_CHECK(rc2 == rc);
	if (rc < 0)
		FUZZ_CHECK(strcmp(err.msg, err2.msg) == 0);
	if (rc == WR_OPTS_RUN) {
		FUZZ_CHECK(same_config(&cfg, &again));
		check_config(&cfg);
		check_plan(&cfg);
	}
	free_argv(argc, argv2);
	return 0;
}
