/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cross-option rules of a connection run (opts_conn.h): what its
 * options mean together and with the rest of the command line, checked
 * once every option is known, and the configuration of each port.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "optab.h"
#include "opts_conn.h"
#include "opts_connmode.h"
#include "opts_connload.h"
#include "base/l3svc.h"
#include "base/units.h"

/* Bytes around a segment's payload in a frame: Ethernet, FCS, TCP. */
#define FRAME_AROUND_BYTES (RTE_ETHER_HDR_LEN + WR_UNITS_FCS_BYTES + 20u)

/* Option bits of wr_conn_opts.given. */
#define BIT(id) (1ULL << ((id) - WR_OPT_CONN))
/* Options only a client takes, only a server, only HTTP, only bulk. */
#define CLIENT_ONLY (BIT(WR_OPT_CONN_SERVER) | BIT(WR_OPT_CONN_RATE) | \
	BIT(WR_OPT_CONN_COUNT) | BIT(WR_OPT_CONN_REQUESTS) | \
	BIT(WR_OPT_CONN_PATH) | BIT(WR_OPT_CONN_HOST) | \
	BIT(WR_OPT_CONN_SRC_IP) | BIT(WR_OPT_CONN_SPORT) | \
	BIT(WR_OPT_CONN_BULK) | BIT(WR_OPT_CONN_TIMEOUT) | \
	BIT(WR_OPT_CONN_REQ_BODY))
#define SERVER_ONLY (BIT(WR_OPT_CONN_LISTEN) | BIT(WR_OPT_CONN_BODY))
#define HTTP_ONLY (BIT(WR_OPT_CONN_REQUESTS) | BIT(WR_OPT_CONN_BODY) | \
	BIT(WR_OPT_CONN_PATH) | BIT(WR_OPT_CONN_HOST) | BIT(WR_OPT_CONN_TIMEOUT) | \
	BIT(WR_OPT_CONN_REQ_BODY))
#define BULK_ONLY BIT(WR_OPT_CONN_BULK)

/* The name of the first option of bits (lowest id), without "--". */
static const char *
first_name(uint64_t bits)
{
	size_t i;

	for (i = 0; i < wr_optab_len; i++)
		if (wr_optab[i].id >= WR_OPT_CONN &&
				wr_optab[i].id <= WR_OPT_CONN_LAST &&
				(bits & BIT(wr_optab[i].id)) != 0)
			return wr_optab[i].name;
	return "?";
}

/* The first option given that builds or times test frames, or NULL. */
static const char *
frame_option(const struct wr_config *cfg)
{
	static const struct { unsigned int bit; const char *name; } addrs[] = {
		{ WR_ADDR_SRC4, "--src-ip" }, { WR_ADDR_DST4, "--dst-ip" },
		{ WR_ADDR_SRC6, "--src-ip6" }, { WR_ADDR_DST6, "--dst-ip6" },
	};
	size_t i;

	if (cfg->size_set || cfg->nb_sizes != 0)
		return "--size";
	if (cfg->mix.nb_sizes != 0)
		return "--mix";
	if (cfg->nb_stream_defs != 0)
		return "--stream";
	if (cfg->nb_flows > 1)
		return "--flows";
	if (cfg->ipv6)
		return "--ipv6 (the server's address says the family)";
	for (i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++)
		if (cfg->addr_set & addrs[i].bit)
			return addrs[i].name;
	if (cfg->src_udp != 1024 || cfg->dst_udp != 1024)
		return "--sport/--dport (--conn-sport, --conn-server's port)";
	if (cfg->vlan_id != 0 || cfg->vlan_prio != 0 || cfg->dscp != 0)
		return cfg->vlan_id != 0 ? "--vlan (--port-ip's vlan= tags a port)" :
			cfg->vlan_prio != 0 ? "--vlan-prio" : "--dscp";
	if (cfg->stack.nb_layers != 0)
		return "--stack";
	if (cfg->pattern.kind != WR_PATTERN_CONSTANT)
		return "--pattern";
	if (cfg->stamp != WR_STAMP_FULL)
		return "--stamp";
	if (cfg->count_pkts != 0)
		return "--count (--conn-count counts connections)";
	if (cfg->rate.unit != WR_RATE_NONE)
		return "--rate (--conn-rate opens connections at a rate)";
	return NULL;
}

/* The first option given that makes another kind of run, or NULL. */
static const char *
run_option(const struct wr_config *cfg)
{
	if (cfg->mode != WR_MODE_RUN && !wr_opts_connmode_is(cfg->mode) &&
			cfg->mode != WR_MODE_CONN_CAPACITY)
		return "--mode";
	if (cfg->replay.path[0] != '\0')
		return "--replay";
	if (cfg->reflect)
		return "--reflect";
	if (cfg->peer[0] != '\0' && cfg->conn.cfg.role != WR_CONN_CLIENT)
		return "--peer (a client's: the far end runs the server)";
	if (wr_impair_active(&cfg->impair))
		return "--impair";
	if (cfg->rx_ports_set)
		return "--rx-ports (a connection's port sends and receives: "
			"--tx-ports names them)";
	if (cfg->start_on_rx || cfg->idle_timeout_ms != 0)
		return cfg->start_on_rx ? "--start-on-rx" : "--idle-timeout";
	if (cfg->nb_repeat > 1 || cfg->nb_warmup > 0)
		return cfg->nb_repeat > 1 ? "--repeat" : "--warmup";
	return NULL;
}

/* Options of the other role or application than the run's. */
static int
check_roles(const struct wr_conn_opts *co, struct wr_error *err)
{
	const struct wr_conn_cfg *c = &co->cfg;
	bool client = c->role == WR_CONN_CLIENT;
	uint64_t wrong = wr_opts_conn_both(co) ? 0 :
		co->given & (client ? SERVER_ONLY : CLIENT_ONLY);
	const char *app = wr_optab_word(WR_OPT_CONN_APP, c->app - 1);

	if (wrong != 0)
		return wr_err_usage(err, -EINVAL, "--%s with --conn %s: it is an "
			"option of a %s", first_name(wrong), client ? "client" :
			"server", client ? "server" : "client");
	wrong = co->given & (c->app == WR_CONN_APP_HTTP ? BULK_ONLY : HTTP_ONLY);
	if (wrong != 0)
		return wr_err_usage(err, -EINVAL, "--%s with --conn-app %s: it is an "
			"option of --conn-app %s", first_name(wrong), app,
			c->app == WR_CONN_APP_HTTP ? "bulk" : "http");
	if (client && c->family == 0)
		return wr_err_usage(err, -EINVAL, "--conn client needs --conn-server "
			"ADDR:PORT (where to connect)");
	if (co->src_set && co->src_family != c->family)
		return wr_err_usage(err, -EINVAL, "--conn-src-ip: IPv%u addresses "
			"towards the IPv%u --conn-server; give addresses of the "
			"server's family", co->src_family, c->family);
	return 0;
}

/* The ports of the run, as far as known before EAL: --tx-ports, else 0. */
static uint64_t
run_ports(const struct wr_config *cfg)
{
	return cfg->tx_ports_set ? cfg->tx_port_mask : 1;
}

/* Each port of the run has a --port-ip address of family f (4 or 6). */
static int
check_ports(const struct wr_config *cfg, uint8_t f, struct wr_error *err)
{
	uint64_t m = run_ports(cfg);
	unsigned int p, n = 0;

	for (p = 0; p < WR_MAX_PORTS; p++) {
		if ((m >> p & 1) == 0)
			continue;
		n += wr_opts_conn_port_role(cfg, p) == WR_CONN_CLIENT;
		if (!(f == 4 ? cfg->port_ip[p].v4.set : cfg->port_ip[p].v6.set))
			return wr_err_usage(err, -EINVAL, "--conn: port %u has no "
				"IPv%u address; give it one with --port-ip %u=ADDR/LEN "
				"(a connection starts from its port's address)", p,
				f, p);
		if (cfg->port_ip[p].vlan_id != 0)
			return wr_err_usage(err, -EINVAL, "--port-ip %u=...,vlan=%u: "
				"a connection's frames carry no VLAN tag (its ARP "
				"would); give the port an untagged address", p,
				cfg->port_ip[p].vlan_id);
	}
	if (m == 0)
		return wr_err_usage(err, -EINVAL, "--conn with --tx-ports none: no "
			"port runs the connections");
	if (n > 1 && cfg->conn.src_set)
		return wr_err_usage(err, -EINVAL, "--conn-src-ip with %u ports: "
			"the addresses are one port's; give one client port", n);
	return 0;
}

/* A server's family: its first port's, IPv4 when it has both. */
static uint8_t
server_family(const struct wr_config *cfg)
{
	uint64_t m = run_ports(cfg);
	unsigned int p;

	for (p = 0; p < WR_MAX_PORTS; p++)
		if (m >> p & 1)
			return cfg->port_ip[p].v4.set ? 4 : cfg->port_ip[p].v6.set ?
				6 : 4;
	return 4;
}

/* MSS, window shift, Host, and the tuples against the concurrency. */
static int
check_sizes(struct wr_config *cfg, struct wr_error *err)
{
	struct wr_conn_cfg *c = &cfg->conn.cfg;
	unsigned int ip = c->family == 4 ? 20 : 40, max_mss, frame;
	uint64_t tuples = (uint64_t)c->nb_laddrs * (c->lport_last - c->lport_first + 1u);

	max_mss = WR_FRAME_MAX_SIZE - FRAME_AROUND_BYTES - ip;
	if (!cfg->conn.mss_set)
		c->mss_bytes = (uint16_t)(1500 - 20 - ip);
	else if (c->mss_bytes > max_mss)
		return wr_err_usage(err, -EINVAL, "--conn-mss %u: over %u, the most "
			"an IPv%u frame of %u bytes carries", c->mss_bytes, max_mss,
			c->family, WR_FRAME_MAX_SIZE);
	/*
	 * A jumbo MSS needs jumbo frames: the ports' MTU check and RX buffers
	 * follow the frame size, as for --size (a segment that the ring or an
	 * mbuf cannot hold would be cut, and the connection would stall).
	 */
	frame = c->mss_bytes + ip + FRAME_AROUND_BYTES;
	if (frame > RTE_ETHER_MAX_LEN && frame > cfg->frame_size)
		cfg->frame_size = frame;
	for (c->wscale = 0; (c->rcv_wnd_bytes >> c->wscale) > 65535; c->wscale++)
		;
	if (c->role == WR_CONN_CLIENT && c->max_open > tuples)
		return wr_err_usage(err, -EINVAL, "--conn-concurrency %" PRIu32 ": "
			"more than the %" PRIu64 " source 4-tuples (%" PRIu32 " addresses"
			" x %u ports of --conn-sport %u-%u); widen --conn-sport or "
			"--conn-src-ip", c->max_open, tuples, c->nb_laddrs,
			c->lport_last - c->lport_first + 1u, c->lport_first,
			c->lport_last);
	return 0;
}

/* The Host header by default: the server's address as the URL writes it. */
static void
default_host(struct wr_conn_cfg *c)
{
	char a[48];

	if (inet_ntop(c->family == 4 ? AF_INET : AF_INET6, c->server_addr, a,
			sizeof(a)) == NULL)
		a[0] = '\0';
	snprintf(c->host, sizeof(c->host), c->family == 4 ? "%s" : "[%s]", a);
}

int
wr_opts_conn_check(struct wr_config *cfg, struct wr_error *err)
{
	struct wr_conn_opts *co = &cfg->conn;
	struct wr_conn_cfg *c = &co->cfg;
	const char *o;
	int rc;

	rc = wr_opts_connmode_check(cfg, err);
	if (rc != 0)
		return rc;
	if (c->role == 0) {
		if (co->given != 0)
			return wr_err_usage(err, -EINVAL, "--%s needs --conn client or "
				"--conn server: it is an option of a connection run "
				"(docs/tcp.md)", first_name(co->given));
		return 0;
	}
	o = frame_option(cfg);
	if (o == NULL)
		o = run_option(cfg);
	if (o != NULL)
		return wr_err_usage(err, -EINVAL, "--conn with %s: a connection run "
			"sends TCP segments, not test frames (docs/tcp.md)", o);
	rc = check_roles(co, err);
	if (rc == 0)
		rc = wr_opts_conn_roles_check(cfg, err);
	if (rc != 0)
		return rc;
	if (c->role == WR_CONN_SERVER) {
		c->family = server_family(cfg);
		c->server_port = co->listen_port;
	}
	rc = check_ports(cfg, c->family, err);
	if (rc == 0)
		rc = check_sizes(cfg, err);
	if (rc != 0)
		return rc;
	if (c->role == WR_CONN_CLIENT && !co->host_set)
		default_host(c);
	/* conn-load's trials end their keep-alive connections at the drain. */
	if (cfg->mode == WR_MODE_CONN_LOAD) {
		c->drain_cut = 1;
		c->max_open = wr_opts_connload_pool(co);
	}
	/* A count of connections ends the run, not the default time. */
	if (c->nb_conns != 0 && !cfg->duration_set)
		cfg->duration_ms = 0;
	if (c->role == WR_CONN_CLIENT)
		return wr_opts_conn_share_check(c, cfg->nb_txq, err);
	return 0;
}

int
wr_opts_conn_share_check(const struct wr_conn_cfg *c, unsigned int nq,
		struct wr_error *err)
{
	uint32_t ports = (uint32_t)c->lport_last - c->lport_first + 1u;
	const char *opt = ports < nq ? "--conn-sport" :
		c->max_open < nq ? "--conn-concurrency" :
		c->cps != 0 && c->cps < nq ? "--conn-rate" :
		c->nb_conns != 0 && c->nb_conns < nq ? "--conn-count" : NULL;

	if (opt == NULL)
		return 0;
	return wr_err_usage(err, -EINVAL, "%s gives less than one for each of "
		"a client port's %u queue pairs (--txq/--rxq): its workers share "
		"the source ports, the connections open at once, the rate and "
		"the count", opt, nq);
}

int
wr_opts_conn_port_cfg(const struct wr_config *cfg, unsigned int port_id,
		struct wr_conn_cfg *out, struct wr_error *err)
{
	const struct wr_conn_cfg *c = &cfg->conn.cfg;
	const struct wr_portip_fam *f;
	uint8_t role = wr_opts_conn_port_role(cfg, port_id);

	if (role == 0)
		return wr_err_usage(err, -EINVAL, "port %u: not a port of a "
			"connection run", port_id);
	f = c->family == 4 ? &cfg->port_ip[port_id].v4 : &cfg->port_ip[port_id].v6;
	if (!f->set)
		return wr_err_usage(err, -EINVAL, "--conn: port %u has no IPv%u "
			"address; give it one with --port-ip %u=ADDR/LEN", port_id,
			c->family, port_id);
	*out = *c;
	out->role = role;
	if (role != c->role)   /* a server port of a run of both */
		out->server_port = cfg->conn.listen_port;
	if (!cfg->conn.src_set || role == WR_CONN_SERVER) {
		memset(out->laddr, 0, sizeof(out->laddr));
		memcpy(out->laddr, f->addr, c->family == 4 ? 4 : 16);
		out->nb_laddrs = 1;
	}
	return 0;
}

void
wr_opts_conn_svc(const struct wr_config *cfg, struct wr_l3svc_port *svc)
{
	const struct wr_conn_cfg *c = &cfg->conn.cfg;
	uint32_t a;

	if (c->role != WR_CONN_CLIENT || !cfg->conn.src_set)
		return;
	svc->nb_more = c->nb_laddrs;
	if (c->family == 4) {
		memcpy(&a, c->laddr, 4);
		svc->more_ip4 = ntohl(a);
	} else {
		memcpy(svc->more_ip6, c->laddr, 16);
	}
}
