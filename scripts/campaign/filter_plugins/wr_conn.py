# SPDX-License-Identifier: BSD-3-Clause
"""Connection cells of a campaign (docs/campaigns.md, "Connection cells"):
a cell with `conn:` runs wirerate's HTTP client (`--conn client`, docs/
tcp.md) on its sender's port against a server that is already up (nginx,
HAProxy in front of nginx, ...); there is no receiving wirerate. Used by
wr_campaign.py; pure Python, it reaches no host."""
import ipaddress
import shlex

# conn: keys, each a wirerate option.
CONN_KEYS = {"server": "--conn-server", "rate": "--conn-rate",
             "concurrency": "--conn-concurrency", "requests": "--conn-requests",
             "path": "--conn-path", "timeout": "--conn-timeout",
             "time_wait": "--conn-time-wait"}
# Source ports: the campaign's Nth cell takes slice N mod SPORT_SLICES of
# 1024-65535, so that a cell never meets the TIME_WAIT state the cell
# before it left on the server (wirerate's first sequence numbers repeat
# per 4-tuple, docs/tcp.md).
SPORT_FIRST, SPORT_SLICES, SPORT_SPAN = 1024, 8, 8064


class ConnMistake(Exception):
    """One mistake of a conn: cell, its text without the place."""


def _server(spec, hostvars):
    """ADDR:PORT, or HOST:NAME of a host's wr_servers ({NAME: ADDR:PORT}):
    (address text, host or None)."""
    s = str(spec)
    host, _, name = s.rpartition(":")
    if host in hostvars:
        servers = hostvars[host].get("wr_servers") or {}
        if name not in servers:
            raise ConnMistake("conn: server: host %s has no %r in wr_servers (it has: %s)" % (
                host, name, ", ".join(sorted(servers)) or "none"))
        s = str(servers[name])
        addr = s.rpartition(":")[0]
    else:
        addr, host = host, None
    try:
        ipaddress.ip_address(addr.strip("[]"))
    except ValueError:
        raise ConnMistake("conn: server: %r: expected ADDR:PORT, or HOST:NAME of a "
                          "host's wr_servers" % (spec,)) from None
    return s, host


def check(c, sender_port, hostvars):
    """A conn: cell's own rules; returns (server ADDR:PORT, its host or
    None). Raises ConnMistake."""
    conn = c["conn"]
    if not isinstance(conn, dict) or "server" not in conn:
        raise ConnMistake("conn: expected {server: ADDR:PORT or HOST:NAME, rate: N, ...}")
    unknown = set(conn) - set(CONN_KEYS) - {"options"}
    if unknown:
        raise ConnMistake("conn: unknown key(s) %s (known: %s)" % (
            ", ".join(sorted(unknown)), ", ".join(sorted(set(CONN_KEYS) | {"options"}))))
    given = [k for k in ("receiver", "mode") if k in c] + [
        k for k in ("latency",) if c.get(k)] + ["sizes"] * (c.get("sizes", [1518]) != [1518])
    for k in given[:1]:
            raise ConnMistake("%s: not for a conn: cell (its server answers, no "
                              "receiving wirerate; MTUs with mtus:)" % k)
    if "ip" not in sender_port:
        raise ConnMistake("conn: the sender's port needs ip: (ADDR/LEN, and gw: "
                          "when the server is behind a router)")
    return _server(conn["server"], hostvars)


def sender_options(cell, c, server, port_ip, row):
    """The client's options of the campaign's cell number ROW: --conn
    client and the conn: keys, --conn-mss from the cell's MTU (IPv4: MTU -
    40), its duration or --conn-count, its slice of source ports."""
    q = shlex.quote
    conn = dict(c["conn"], server=server)
    out = "--conn client %s" % port_ip
    for k in sorted(CONN_KEYS):
        if k in conn:
            out += " %s %s" % (CONN_KEYS[k], q(str(conn[k])))
    if "mtus" in c:
        out += " --conn-mss %d" % (cell["size"] - 18 - 40)
    out += " --duration %s" % q(str(c["duration"])) if "duration" in c else \
        " --conn-count %s" % q(str(c["count"]))
    lo = SPORT_FIRST + (row % SPORT_SLICES) * SPORT_SPAN
    out += " --conn-sport %d-%d" % (lo, lo + SPORT_SPAN - 1)
    out += " --grace %s --label %s --quiet" % (q(str(c["grace"])), q(cell["label"]))
    if conn.get("options"):
        out += " " + str(conn["options"])
    return out


def commands(cell, c, snd, server, row, helpers):
    """Fill a connection cell's command lines: the client's on its sender
    (helpers: wr_campaign's wr_dir, eal and port_ip), none for a receiver."""
    wr_dir, eal, port_ip = helpers
    host, _, port, hv = snd
    wd = wr_dir(hv)
    cell["sender"].update(dir="%s/cells/%s" % (wd, cell["id"]), wr_dir=wd)
    cell["sender"]["cmd"] = "%s %s -- %s %s --json %s/snd.json" % (
        shlex.quote(hv.get("wr_bin", wd + "/bin/wirerate")), eal(hv, "sender", port, host),
        sender_options(cell, c, server, port_ip(port), row), c["sender_options"],
        cell["sender"]["dir"])
    cell["receiver"]["cmd"] = "(none: the server %s answers)" % server
    cell["finish_wait_s"] = 0


class FilterModule:
    """Nothing for the playbook: wr_campaign.py's filters use this module."""

    def filters(self):
        return {}
