/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Roles by port (opts_conn.h): --conn 0=client,1=server runs a client
 * and a server in one process, back to back or through a device. The
 * client's options go to its ports, the server's to its ports.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "optab.h"
#include "opts_conn.h"
#include "base/units.h"

/* One P=ROLE of the list, at most 31 characters. */
static int
one_role(const char *item, const char *v, struct wr_conn_opts *co,
		struct wr_error *err)
{
	const char *eq = strchr(item, '=');
	char port[8];
	uint64_t p;
	int role;

	if (eq == NULL || (size_t)(eq - item) >= sizeof(port))
		goto bad;
	memcpy(port, item, (size_t)(eq - item));
	port[eq - item] = '\0';
	role = wr_optab_value(WR_OPT_CONN, eq + 1);
	if (wr_units_parse_u64(port, 0, WR_MAX_PORTS - 1, &p) != 0 || role < 0)
		goto bad;
	if (co->role_ports >> p & 1)
		return wr_err_usage(err, -EINVAL, "--conn %s: port %" PRIu64
			" is named twice", v, p);
	co->role_ports |= 1ULL << p;
	if (role + 1 == WR_CONN_SERVER)
		co->server_ports |= 1ULL << p;
	return 0;
bad:
	return wr_err_usage(err, -EINVAL, "--conn %s: %s is not PORT=client or "
		"PORT=server (a port 0..%u)", v, item, WR_MAX_PORTS - 1);
}

int
wr_opts_conn_roles(const char *v, struct wr_conn_opts *co, struct wr_error *err)
{
	char item[32];
	const char *s = v, *comma;
	size_t n;
	int rc;

	co->role_ports = co->server_ports = 0;
	for (;;) {
		comma = strchr(s, ',');
		n = comma != NULL ? (size_t)(comma - s) : strlen(s);
		if (n == 0 || n >= sizeof(item))
			return wr_err_usage(err, -EINVAL, "--conn %s: expected "
				"PORT=ROLE[,PORT=ROLE...], e.g. 0=client,1=server", v);
		memcpy(item, s, n);
		item[n] = '\0';
		rc = one_role(item, v, co, err);
		if (rc != 0)
			return rc;
		if (comma == NULL)
			break;
		s = comma + 1;
	}
	co->cfg.role = co->role_ports != co->server_ports ? WR_CONN_CLIENT :
		WR_CONN_SERVER;
	return 0;
}

bool
wr_opts_conn_both(const struct wr_conn_opts *co)
{
	return co->server_ports != 0 && co->server_ports != co->role_ports;
}

uint8_t
wr_opts_conn_port_role(const struct wr_config *cfg, unsigned int port_id)
{
	const struct wr_conn_opts *co = &cfg->conn;

	if (co->cfg.role == 0 || port_id >= WR_MAX_PORTS)
		return 0;
	if (co->role_ports == 0)
		return co->cfg.role;
	if ((co->role_ports >> port_id & 1) == 0)
		return 0;
	return (co->server_ports >> port_id & 1) ? WR_CONN_SERVER :
		WR_CONN_CLIENT;
}

/* In a run of both: --conn-server is one of the server ports' addresses. */
static int
check_target(const struct wr_config *cfg, struct wr_error *err)
{
	const struct wr_conn_opts *co = &cfg->conn;
	const struct wr_portip_fam *f;
	unsigned int p;

	for (p = 0; p < WR_MAX_PORTS; p++) {
		if ((co->server_ports >> p & 1) == 0)
			continue;
		f = co->cfg.family == 4 ? &cfg->port_ip[p].v4 : &cfg->port_ip[p].v6;
		if (!f->set)   /* refused as any port without an address */
			return 0;
		if (memcmp(f->addr, co->cfg.server_addr,
				co->cfg.family == 4 ? 4 : 16) == 0)
			return 0;
	}
	return wr_err_usage(err, -EINVAL, "--conn-server: with client and "
		"server ports in one run, it names a server port's --port-ip "
		"address (the server of this run is ours)");
}

int
wr_opts_conn_roles_check(struct wr_config *cfg, struct wr_error *err)
{
	struct wr_conn_opts *co = &cfg->conn;

	if (co->role_ports == 0)
		return 0;
	if (cfg->tx_ports_set && cfg->tx_port_mask != co->role_ports)
		return wr_err_usage(err, -EINVAL, "--tx-ports and --conn name other "
			"ports: --conn PORT=ROLE,... names every port of a "
			"connection run (leave --tx-ports out)");
	cfg->tx_port_mask = co->role_ports;
	cfg->tx_ports_set = true;
	if (!wr_opts_conn_both(co))
		return 0;
	if (!co->listen_set)
		co->listen_port = co->cfg.server_port;
	else if (co->listen_port != co->cfg.server_port)
		return wr_err_usage(err, -EINVAL, "--conn-listen %u: the client "
			"connects to port %u (--conn-server); in a run of both "
			"roles give the same port, or leave --conn-listen out",
			co->listen_port, co->cfg.server_port);
	return check_target(cfg, err);
}
