/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cross-option rules: what each option accepts alone is checked as it
 * is parsed (opts.c); what options mean together is checked here, once
 * every option of the command line and the profile is known.
 */
#include <errno.h>
#include <stdint.h>

#include "opts.h"
#include "opts_conn.h"
#include "opts_conncap.h"
#include "opts_conntear.h"
#include "portip.h"
#include "opts_methods.h"
#include "opts_rfc2889.h"
#include "optab.h"
#include "opts_peer.h"
#include "opts_serve.h"
#include "opts_range.h"
#include "opts_replay.h"
#include "opts_traffic.h"

/*
 * Rules of two-ended runs. A reflector sends what it receives, on the TX
 * queue paired with each RX queue, so it generates nothing and needs as
 * many TX queues as RX queues; its clock is any frame's (--rx-clock any).
 */
static int
check_twoend(struct wr_config *cfg, struct wr_error *err)
{
	bool rx_none = cfg->rx_ports_set && cfg->rx_port_mask == 0;
	bool tx_none = cfg->tx_ports_set && cfg->tx_port_mask == 0;

	if ((cfg->reflect || cfg->start_on_rx || cfg->idle_timeout_ms) && rx_none)
		return wr_err_usage(err, -EINVAL, "--rx-ports none with --%s: it needs "
			"received frames", cfg->reflect ? "reflect" :
			cfg->start_on_rx ? "start-on-rx" : "idle-timeout");
	if (cfg->reflect && cfg->tx_ports_set)
		return wr_err_usage(err, -EINVAL, "--reflect with --tx-ports: a reflector "
			"sends on its RX ports only (choose them with --rx-ports)");
	if ((cfg->reflect || cfg->start_on_rx || cfg->idle_timeout_ms) &&
			cfg->mode != WR_MODE_RUN)
		return wr_err_usage(err, -EINVAL, "--%s with --mode: test modes generate and "
			"receive in one process; two-ended runs are plain runs",
			cfg->reflect ? "reflect" : cfg->start_on_rx ? "start-on-rx" :
			"idle-timeout");
	if (cfg->reflect && cfg->count_pkts != 0)
		return wr_err_usage(err, -EINVAL, "--reflect with --count: a reflector "
			"generates nothing; stop it with --duration or "
			"--idle-timeout");
	if (cfg->start_on_rx && !cfg->reflect && !tx_none)
		return wr_err_usage(err, -EINVAL, "--start-on-rx: a run that generates frames "
			"starts its clock at launch; use it with --tx-ports none "
			"(a receiver) or --reflect");
	if (cfg->rx_clock_set && !cfg->start_on_rx && cfg->idle_timeout_ms == 0)
		return wr_err_usage(err, -EINVAL, "--rx-clock without --start-on-rx or "
			"--idle-timeout: it chooses the frames they wait for");
	/* A reflector classifies nothing (reflect.c): any frame is its clock. */
	if (cfg->reflect && cfg->rx_clock_set && cfg->rx_clock == WR_RX_CLOCK_OWN)
		return wr_err_usage(err, -EINVAL, "--rx-clock own with --reflect: a "
			"reflector sends back every frame without telling own from "
			"foreign, so any frame drives its clock (--rx-clock any)");
	if (cfg->reflect) {
		cfg->nb_txq = cfg->nb_rxq;
		cfg->rx_clock = WR_RX_CLOCK_ANY;
	}
	/* An idle timeout ends the run: no default duration on top of it. */
	if (cfg->idle_timeout_ms != 0 && !cfg->duration_set)
		cfg->duration_ms = 0;
	return 0;
}

/*
 * The modes that judge loss need a receiver: this process's RX ports or
 * the far end's (--peer). Without either no trial could be judged.
 */
static int
check_judge(const struct wr_config *cfg, struct wr_error *err)
{
	bool rx_none = cfg->rx_ports_set && cfg->rx_port_mask == 0;

	if (cfg->mode == WR_MODE_RUN || cfg->mode == WR_MODE_SWEEP || !rx_none ||
			cfg->peer[0] != '\0')
		return 0;
	return wr_err_usage(err, -EINVAL, "--mode %s with --rx-ports none and no "
		"--peer: nothing receives, so no trial can be judged; give RX ports "
		"or --peer tcp:HOST:PORT", wr_optab_word(WR_OPT_MODE, (int)cfg->mode));
}

/* Whether --port-ip gave any port an address. */
static bool
any_port_ip(const struct wr_config *cfg)
{
	unsigned int i;

	for (i = 0; i < WR_MAX_PORTS; i++)
		if (wr_portip_any(&cfg->port_ip[i]))
			return true;
	return false;
}

/* --flows folded into the ranges, which the frames can take. */
static int
check_ranges(struct wr_config *cfg, struct wr_error *err)
{
	if (wr_opts_range_flows(&cfg->ranges, &cfg->nb_flows, "--flows", err) != 0)
		return -EINVAL;
	return wr_range_check(&cfg->ranges, cfg->ipv6, cfg->vlan_id != 0, err);
}

int
wr_opts_check(struct wr_config *cfg, struct wr_error *err)
{
	unsigned int i;
	int rc = check_twoend(cfg, err);

	if (rc == 0)
		rc = wr_opts_conncap_check(cfg, err);
	if (rc == 0)
		rc = wr_opts_conntear_check(cfg, err);
	if (rc == 0)
		rc = check_judge(cfg, err);

	if (rc == 0)
		rc = wr_opts_methods_check(cfg, err);
	if (rc == 0)
		rc = wr_opts_replay_check(cfg, err);
	if (rc == 0)
		rc = wr_opts_peer_check(cfg, err);
	if (rc == 0)
		rc = wr_opts_rfc2889_check(cfg, err);
	if (rc == 0)
		rc = wr_opts_conn_check(cfg, err);
	if (rc != 0)
		return rc;
	rc = wr_opts_serve_check(cfg, err);
	if (rc != 0)
		return rc;
	/* A frame count alone runs until it is sent, not for the default time. */
	if (cfg->count_pkts != 0 && !cfg->duration_set)
		cfg->duration_ms = 0;
	if (cfg->announce_ms != 0 && !any_port_ip(cfg))
		return wr_err_usage(err, -EINVAL, "--announce needs --port-ip: only a "
			"port with an address announces it");
	if (cfg->announce_ms != 0 && (cfg->reflect || cfg->replay.path[0] != '\0'))
		return wr_err_usage(err, -EINVAL, "--announce with --%s: its workers run "
			"a loop of their own, without the responder (docs/l3.md)",
			cfg->reflect ? "reflect" : "replay");
	if (cfg->nb_sizes > 0 && cfg->size_set)
		return wr_err_usage(err, -EINVAL, "--size and --sizes together: give one");
	if (cfg->nb_sizes > 0 && cfg->mode == WR_MODE_RUN)
		return wr_err_usage(err, -EINVAL, "--sizes needs a --mode (sweep, throughput, "
			"loss, b2b); a plain run uses --size");
	/* Ports are set up once for the largest size of the list. */
	for (i = 0; i < cfg->nb_sizes; i++)
		if (i == 0 || cfg->sizes[i] > cfg->frame_size)
			cfg->frame_size = cfg->sizes[i];
	/* Sizes against the headers (IPv6, tag); a mix sets frame_size. */
	rc = wr_opts_traffic_check(cfg, err);
	if (rc != 0)
		return rc;
	if (cfg->tx_ports_set && cfg->rx_ports_set &&
			cfg->tx_port_mask == 0 && cfg->rx_port_mask == 0)
		return wr_err_usage(err, -EINVAL, "--tx-ports none and --rx-ports none: "
			"nothing to do");
	if (cfg->count_pkts != 0 && cfg->tx_ports_set && cfg->tx_port_mask == 0)
		return wr_err_usage(err, -EINVAL, "--count with --tx-ports none: no port sends, "
			"so the count would never be reached; give --duration for "
			"a receive-only run");
	if (cfg->nb_flows > 1 && (uint32_t)cfg->src_udp + cfg->nb_flows - 1 > 65535)
		return wr_err_usage(err, -EINVAL, "--flows %u with --sport %u: UDP source ports "
			"would pass 65535", cfg->nb_flows, cfg->src_udp);
	if (cfg->nb_stream_defs == 0 && check_ranges(cfg, err) != 0)
		return -EINVAL;
	if (wr_impair_active(&cfg->impair) && cfg->burst_pkts > WR_IMPAIR_MAX_BURST)
		return wr_err_usage(err, -EINVAL, "--burst %u with --impair: at most %u (the "
			"fixture may double a burst)", cfg->burst_pkts, WR_IMPAIR_MAX_BURST);
	if ((cfg->nb_repeat > 1 || cfg->nb_warmup > 0) && cfg->duration_ms == 0 &&
			cfg->count_pkts == 0 && cfg->idle_timeout_ms == 0 &&
			(cfg->replay.path[0] == '\0' || cfg->replay.nb_loops == 0))
		return wr_err_usage(err, -EINVAL, "--repeat/--warmup: each trial must end by "
			"itself; give --duration T or --count N%s", cfg->replay.path[0] != '\0' ?
			" (or a --replay-loop other than 0)" : "");
	if (cfg->pool_mbufs != 0 && cfg->pool_mbufs < cfg->burst_pkts)
		return wr_err_usage(err, -EINVAL, "--pool-mbufs %u is below --burst %u: no "
			"burst could ever be allocated", cfg->pool_mbufs,
			cfg->burst_pkts);
	if (cfg->burst_pkts > cfg->nb_txd / 2)
		return wr_err_usage(err, -EINVAL, "--burst %u is more than half of --txd %u",
			cfg->burst_pkts, cfg->nb_txd);
	return 0;
}
