# SPDX-License-Identifier: BSD-3-Clause
"""Connections through stateful devices (docs/testbeds.md, "Stateful
devices"): wirerate's client on the host end of a veth pair (af_packet)
into a router namespace, which reaches one or two server namespaces, each
with nginx (Debian) on its own veth. The router is the device under test:
nftables NAT44 (masquerade, conntrack), an nftables DNAT load balancer
(numgen inc mod 2) over two servers, or HAProxy as an L7 balancer in
front of two nginx. Every count wirerate keeps is compared with one the
device or the servers made: nginx's access logs, the router's conntrack
table and statistics, HAProxy's counters on its stats socket. TX
checksum offload is off on every kernel end whose frames reach wirerate
(af_packet would hand over segments without their checksum).
Usage: test_stateful.py CASE (see CASES)."""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import cases
import wrtest
from connbed import ip, probe
from wrtest import Checker

PID = os.getpid() % 10000
ROUTER = "wrsfr%d" % os.getpid()
SERVERS = ["wrsfa%d" % os.getpid(), "wrsfb%d" % os.getpid()]
HOST, RHOST = "wsfh_%d" % PID, "wsfr_%d" % PID
# Router end and server end of each server's veth pair.
RSRV = ["wsfa_%d" % PID, "wsfb_%d" % PID]
SRV = ["wsfA_%d" % PID, "wsfB_%d" % PID]
ME, GW = "198.18.0.1", "198.18.0.254"
SRV_IP = ["198.19.1.1", "198.19.2.1"]
SRV_GW = ["198.19.1.254", "198.19.2.254"]
SRVH = "wsfs_%d" % PID  # a wirerate server's end, in this namespace
VIP = "198.19.0.10"     # the balancer's address: on no link, routed by GW

NGINX_CONF = """worker_processes 1;
daemon on;
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{ worker_connections 4096; }}
http {{
    log_format wr '$remote_addr $status $connection $connection_requests';
    access_log {d}/access.log wr;
    keepalive_requests 100000;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    server {{
        listen {addr}:80;
        location / {{ return 200 "wirerate\\n"; }}
    }}
}}
"""

HAPROXY_CONF = """global
    daemon
    pidfile {d}/haproxy.pid
    stats socket {d}/haproxy.sock mode 600 level admin
    maxconn 8192
defaults
    mode http
    option http-keep-alive
    timeout connect 5s
    timeout client 20s
    timeout server 20s
frontend fe
    bind {vip}:80
    default_backend be
backend be
    balance roundrobin
    server a {a}:80
    server b {b}:80
"""


def nsexec(ns, *argv, check=True, timeout=30):
    return wrtest.sh("ip", "netns", "exec", ns, *argv, check=check, timeout=timeout)


def new_ns(ns):
    ip("netns", "add", ns)
    nsexec(ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
           "net.ipv6.conf.default.disable_ipv6=1")
    ip("-n", ns, "link", "set", "lo", "up")


def make_bed(wr_server=False):
    """The router namespace on wirerate's veth (GW) and on one veth to
    each server namespace (SRV_GW), forwarding on; each server has the
    router as its default gateway. TX checksum offload off on the
    router's end towards wirerate and on the servers' ends. wr_server:
    the first server's veth ends in this namespace instead (SRVH, for a
    wirerate server), and there is no second server."""
    new_ns(ROUTER)
    if wr_server:
        wr_server_link()
    ip("link", "add", HOST, "type", "veth", "peer", "name", RHOST)
    ip("link", "set", RHOST, "netns", ROUTER)
    wrtest.sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % HOST)
    ip("link", "set", HOST, "up")
    ip("-n", ROUTER, "addr", "add", GW + "/24", "dev", RHOST)
    ip("-n", ROUTER, "link", "set", RHOST, "up")
    nsexec(ROUTER, "ethtool", "-K", RHOST, "tx", "off")
    for ns, r, s, addr, gw in list(zip(SERVERS, RSRV, SRV, SRV_IP, SRV_GW))[
            1 if wr_server else 0:]:
        new_ns(ns)
        ip("link", "add", r, "type", "veth", "peer", "name", s)
        ip("link", "set", r, "netns", ROUTER)
        ip("link", "set", s, "netns", ns)
        ip("-n", ROUTER, "addr", "add", gw + "/24", "dev", r)
        ip("-n", ROUTER, "link", "set", r, "up")
        ip("-n", ns, "addr", "add", addr + "/24", "dev", s)
        ip("-n", ns, "link", "set", s, "up")
        ip("-n", ns, "route", "add", "default", "via", gw)
        nsexec(ns, "ethtool", "-K", s, "tx", "off")
    nsexec(ROUTER, "sysctl", "-qw", "net.ipv4.ip_forward=1")


def wr_server_link():
    """The router's veth to the first server's address, whose other end
    (SRVH) stays in this namespace for a wirerate server."""
    ip("link", "add", RSRV[0], "type", "veth", "peer", "name", SRVH)
    ip("link", "set", RSRV[0], "netns", ROUTER)
    wrtest.sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % SRVH)
    ip("link", "set", SRVH, "up")
    ip("-n", ROUTER, "addr", "add", SRV_GW[0] + "/24", "dev", RSRV[0])
    ip("-n", ROUTER, "link", "set", RSRV[0], "up")
    nsexec(ROUTER, "ethtool", "-K", RSRV[0], "tx", "off")


def drop_bed():
    for ns in [ROUTER] + SERVERS:
        ip("netns", "del", ns, check=False)
    for dev in (HOST, SRVH):
        ip("link", "del", dev, check=False)


def vdevs():
    return ["net_af_packet0,iface=%s,qdisc_bypass=0" % HOST]


class Nginx:
    """nginx in server namespace i, its config, pid and log in d."""

    def __init__(self, d, i):
        self.ns, self.d = SERVERS[i], os.path.join(d, "nginx%d" % i)
        os.makedirs(self.d)
        self.conf = os.path.join(self.d, "nginx.conf")
        with open(self.conf, "w") as f:
            f.write(NGINX_CONF.format(d=self.d, addr=SRV_IP[i]))
        nsexec(self.ns, "nginx", "-c", self.conf)

    def stop(self):
        nsexec(self.ns, "nginx", "-c", self.conf, "-s", "stop", check=False)

    def log(self):
        """The access log's lines, split: remote address, status,
        connection serial, request number on the connection."""
        path = os.path.join(self.d, "access.log")
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return [l.split() for l in f if l.strip()]


def client(server, n, rate, reqs=1, timeout=120, extra=(), duration=60):
    """wirerate's HTTP client: n connections of reqs GETs each to server
    (ADDR:PORT) through the router, at rate a second."""
    return wrtest.run(vdevs(), [
        "--port-ip", "0=%s/24,gw=%s" % (ME, GW), "--conn", "client",
        "--conn-server", server, "--conn-count", str(n), "--conn-rate",
        str(rate), "--conn-requests", str(reqs), "--duration", str(duration),
        "--plain"] + list(extra), timeout=timeout)


def books(doc):
    return doc["connections"]["books"] if doc and "connections" in doc else {}


def check_client(c, r, n, reqs=1):
    """wirerate's own books: n connections attempted and completed, none
    failed or left open, n * reqs good answers; the books close."""
    c.eq(r.rc, 0, "exit code (%r)" % r.err[-300:])
    b = books(r.doc)
    c.eq(b.get("attempted"), n, "attempted")
    c.eq(b.get("completed"), n, "completed")
    c.eq(b.get("failed_total"), 0, "failed")
    c.eq(b.get("open"), 0, "open at the end")
    c.eq(b.get("resps"), n * reqs, "good answers")
    c.eq(r.doc and r.doc["connections"]["books_check"].get("closed"), True,
         "the books close")
    return b


def ct_stats():
    """The router's conntrack statistics (conntrack -S), summed over CPUs."""
    p = nsexec(ROUTER, "conntrack", "-S")
    tot = {}
    for line in p.stdout.splitlines():
        for k, v in re.findall(r"(\w+)=(\d+)", line):
            if k != "cpu":
                tot[k] = tot.get(k, 0) + int(v)
    return tot


def ct_entries():
    """The router's conntrack entries of TCP to port 80 (conntrack -L):
    per entry (state, original source, reply destination)."""
    p = nsexec(ROUTER, "conntrack", "-L", "-p", "tcp", "--dport", "80",
               timeout=60)
    out = []
    for line in p.stdout.splitlines():
        f = line.split()
        src = [x[4:] for x in f if x.startswith("src=")]
        dst = [x[4:] for x in f if x.startswith("dst=")]
        if len(f) > 3 and len(src) == 2 and len(dst) == 2:
            out.append((f[3], src[0], dst[1]))
    return out


def stateful_nat44():
    """NAT44 with conntrack: nftables masquerade on the router's server
    side. 3,000 connections of one GET each: all completed; nginx's
    access log holds 3,000 lines, every one from the NAT's address; the
    router's conntrack table holds one entry per connection, from
    wirerate's address, rewritten to the NAT's; its insert_failed and
    drop (0) equal wirerate's failures."""
    c = Checker("stateful_nat44")
    probe(c, "nginx", "nft", "conntrack", "ethtool")
    n = 3000
    d = tempfile.mkdtemp(prefix="wrsf")
    make_bed()
    ngx = None
    try:
        nsexec(ROUTER, "nft", "add table ip wrnat; "
               "add chain ip wrnat post { type nat hook postrouting priority "
               "srcnat; policy accept; }; "
               "add rule ip wrnat post oifname %s masquerade" % RSRV[0])
        ngx = Nginx(d, 0)
        st0 = ct_stats()
        r = client(SRV_IP[0] + ":80", n, 1500)
        ngx.stop()
        b = check_client(c, r, n)
        log = ngx.log()
        c.eq(len(log), n, "lines in nginx's access log")
        c.eq(len([l for l in log if l[1] == "200"]), n, "of them, status 200")
        c.eq(sorted(set(l[0] for l in log)), [SRV_GW[0]],
             "every request came from the NAT's address")
        ents = ct_entries()
        c.eq(len([e for e in ents if e[1] == ME]), n,
             "conntrack entries from wirerate's address")
        c.eq(sorted(set(e[2] for e in ents)), [SRV_GW[0]],
             "every entry's reply goes to the NAT's address")
        st = ct_stats()
        lost = {k: st.get(k, 0) - st0.get(k, 0) for k in ("insert_failed", "drop",
                                                            "early_drop")}
        c.eq(sum(lost.values()), b.get("failed_total"),
             "conntrack's insert_failed + drop + early_drop %r = wirerate's "
             "failures" % lost)
        states = {}
        for e in ents:
            states[e[0]] = states.get(e[0], 0) + 1
        print("nat44: attempted %s, completed %s, failed %s; access log %d "
              "lines from %s; conntrack entries %d %r; conntrack -S %r" % (
                  b.get("attempted"), b.get("completed"), b.get("failed_total"),
                  len(log), sorted(set(l[0] for l in log)), len(ents), states,
                  lost))
        c.done(r)
    finally:
        if ngx is not None:
            ngx.stop()
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


def stateful_nat44_src_range():
    """NAT44 with four client addresses on the link (--conn-src-ip
    198.18.0.10-198.18.0.13): the router must resolve each by ARP to send
    the replies, so wirerate's port answers ARP for its source range. 500
    source ports (--conn-sport 1024-1523) on each: the NAT maps the four
    onto its one address, rewriting the source ports that collide. 2,000
    connections: all completed; the router's
    neighbour table holds the four addresses at wirerate's MAC; conntrack
    holds entries from each, all rewritten to the NAT's address, on
    distinct NAT tuples, some with a new port; nginx's log holds 2,000
    lines from the NAT's address."""
    c = Checker("stateful_nat44_src_range")
    probe(c, "nginx", "nft", "conntrack", "ethtool")
    n, srcs = 2000, ["198.18.0.%d" % i for i in range(10, 14)]
    d = tempfile.mkdtemp(prefix="wrsf")
    make_bed()
    ngx = None
    try:
        nsexec(ROUTER, "nft", "add table ip wrnat; "
               "add chain ip wrnat post { type nat hook postrouting priority "
               "srcnat; policy accept; }; "
               "add rule ip wrnat post oifname %s masquerade" % RSRV[0])
        ngx = Nginx(d, 0)
        r = client(SRV_IP[0] + ":80", n, 1000, extra=[
            "--conn-src-ip", "%s-%s" % (srcs[0], srcs[-1]),
            "--conn-sport", "1024-1523", "--conn-concurrency", "2000"],
            duration=20)
        ngx.stop()
        b = check_client(c, r, n)
        mac = r.doc and [p["mac"].lower() for p in r.doc["ports"]
                         if p["port_id"] == 0][0]
        neigh = json.loads(nsexec(ROUTER, "ip", "-j", "neigh", "show", "dev",
                                  RHOST).stdout or "[]")
        got = sorted(e["dst"] for e in neigh if e.get("lladdr") == mac)
        c.true(set(srcs) <= set(got), "the router resolved the four source "
               "addresses to wirerate's MAC %s: %r" % (mac, neigh))
        ents = ct_entries_ports()
        per = {a: len([e for e in ents if e[0] == a]) for a in srcs}
        # A new connection may take over the NAT tuple of one in
        # TIME_WAIT (the kernel then drops the old entry): at most n.
        c.true(all(k > 0 for k in per.values()) and sum(per.values()) <= n,
               "conntrack entries from each source address: %r" % per)
        c.eq(sorted(set(e[2] for e in ents)), [SRV_GW[0]],
             "every entry rewritten to the NAT's address")
        moved = len([e for e in ents if e[1] != e[3]])
        c.true(moved > 0, "the NAT gave colliding source ports a new one (%d)"
               % moved)
        c.eq(len(set((e[2], e[3]) for e in ents)), len(ents),
             "the NAT's tuples are distinct")
        log = ngx.log()
        c.eq(len(log), n, "lines in nginx's access log")
        c.eq(sorted(set(l[0] for l in log)), [SRV_GW[0]],
             "every request came from the NAT's address")
        print("nat44_src_range: attempted %s, completed %s; conntrack per "
              "source %r, %d ports rewritten; router's neighbours %r" % (
                  b.get("attempted"), b.get("completed"), per, moved, got))
        c.done(r)
    finally:
        if ngx is not None:
            ngx.stop()
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


def ct_entries_ports():
    """The router's conntrack entries to port 80: (original source,
    original source port, reply destination, reply destination port)."""
    p = nsexec(ROUTER, "conntrack", "-L", "-p", "tcp", "--dport", "80",
               timeout=60)
    out = []
    for line in p.stdout.splitlines():
        f = line.split()
        src = [x[4:] for x in f if x.startswith("src=")]
        dst = [x[4:] for x in f if x.startswith("dst=")]
        sport = [x[6:] for x in f if x.startswith("sport=")]
        dport = [x[6:] for x in f if x.startswith("dport=")]
        if len(src) == 2 and len(dst) == 2 and len(sport) == 2 and len(dport) == 2:
            out.append((src[0], sport[0], dst[1], dport[1]))
    return out


def nft_counter(table):
    """The packets of the one counter in the router's nftables table."""
    p = nsexec(ROUTER, "nft", "list", "table", "ip", table)
    m = re.search(r"counter packets (\d+)", p.stdout)
    return int(m.group(1)) if m else None


def stateful_fw_refused():
    """A stateful firewall that refuses new connections above a rate:
    nftables on the router answers a new connection's SYN by a RST when
    more than 500 a second arrive (ct state new, limit rate over, reject
    with tcp reset). 2,000 connections at 1,000 a second: wirerate's
    refused connections equal the rule's own counter, its completed ones
    nginx's access log, and nothing failed otherwise."""
    c = Checker("stateful_fw_refused")
    probe(c, "nginx", "nft", "ethtool")
    n = 2000
    d = tempfile.mkdtemp(prefix="wrsf")
    make_bed()
    ngx = None
    try:
        nsexec(ROUTER, "nft", "add table ip wrfw; "
               "add chain ip wrfw fw { type filter hook forward priority filter; "
               "policy accept; }; "
               "add rule ip wrfw fw tcp dport 80 ct state new limit rate over "
               "500/second counter reject with tcp reset")
        ngx = Nginx(d, 0)
        r = client(SRV_IP[0] + ":80", n, 1000)
        ngx.stop()
        # Refused connections are what the run measured, as lost frames
        # are in a frame run: the run itself succeeded.
        c.eq(r.rc, 0, "exit code (%r)" % r.err[-300:])
        b = books(r.doc)
        f = b.get("failed", {})
        rst = nft_counter("wrfw")
        c.true(rst is not None and 0 < rst < n, "the firewall refused some: %r"
               % rst)
        c.eq(f.get("refused"), rst, "refused = the firewall's counter of RSTs")
        c.eq(b.get("failed_total"), f.get("refused"), "no failure but refused")
        log = ngx.log()
        c.eq(len(log), b.get("completed"), "completed = lines in nginx's log")
        c.eq(b.get("attempted"), n, "attempted")
        c.eq(b.get("completed", 0) + b.get("failed_total", 0), n,
             "attempted = completed + refused")
        c.eq(r.doc and r.doc["connections"]["books_check"].get("closed"), True,
             "the books close")
        print("fw_refused: attempted %s, completed %s, refused %s; the rule's "
              "counter %s; nginx's log %d lines" % (
                  b.get("attempted"), b.get("completed"), f.get("refused"), rst,
                  len(log)))
        c.done(r)
    finally:
        if ngx is not None:
            ngx.stop()
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


def stateful_dnat_lb():
    """A DNAT load balancer: nftables 'dnat to numgen inc mod 2 map' from
    a virtual address to two nginx. 3,000 connections: every one reached
    one of the two (the access logs add up to completed, from wirerate's
    own address), each got half."""
    c = Checker("stateful_dnat_lb")
    probe(c, "nginx", "nft", "ethtool")
    n = 3000
    d = tempfile.mkdtemp(prefix="wrsf")
    make_bed()
    ngx = []
    try:
        nsexec(ROUTER, "nft", "add table ip wrlb; "
               "add chain ip wrlb pre { type nat hook prerouting priority "
               "dstnat; policy accept; }; "
               "add rule ip wrlb pre ip daddr %s tcp dport 80 dnat to numgen "
               "inc mod 2 map { 0 : %s, 1 : %s }" % (VIP, SRV_IP[0], SRV_IP[1]))
        ngx = [Nginx(d, i) for i in (0, 1)]
        r = client(VIP + ":80", n, 1500)
        for x in ngx:
            x.stop()
        b = check_client(c, r, n)
        logs = [x.log() for x in ngx]
        counts = [len(l) for l in logs]
        c.eq(sum(counts), b.get("completed"), "the two access logs add up to "
             "completed (%r)" % counts)
        for i, k in enumerate(counts):
            c.true(abs(2 * k - n) <= 2, "server %d got half: %d of %d" % (i, k, n))
        c.eq(sorted(set(l[0] for l in logs[0] + logs[1])), [ME],
             "every request came from wirerate's address (no SNAT)")
        c.eq(len([l for l in logs[0] + logs[1] if l[1] == "200"]), n, "status 200")
        print("dnat_lb: attempted %s, completed %s, failed %s; servers %r" % (
            b.get("attempted"), b.get("completed"), b.get("failed_total"), counts))
        c.done(r)
    finally:
        for x in ngx:
            x.stop()
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


def wr_serve(d):
    """wirerate's HTTP server on SRVH (the first server's address) in the
    background, its worker on the other CPU than the client's and its own
    file prefix; returns (process, JSON path) once its first interval
    row is out."""
    path, log = os.path.join(d, "s.json"), os.path.join(d, "s.out")
    argv = [wrtest.WIRERATE] + wrtest.eal_args(
        ["net_af_packet0,iface=%s,qdisc_bypass=0" % SRVH],
        prefix="wrsfs%d" % os.getpid(), extra=["--main-lcore", "1"]) + [
        "--", "--port-ip", "0=%s/24" % SRV_IP[0], "--conn", "server",
        "--conn-listen", "80", "--duration", "60", "--plain", "--json", path]
    out = open(log, "w")
    p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL)
    end = time.monotonic() + 30
    while time.monotonic() < end and p.poll() is None:
        with open(log) as f:
            text = f.read()
        if "counts since start" in text:
            break
        time.sleep(0.1)
    return p, path


def wr_serve_end(p, path):
    """SIGINT the server, wait for it; (exit code, its result or None)."""
    if p.poll() is None:
        p.send_signal(signal.SIGINT)
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    return p.returncode, (wrtest.read_result(path) if os.path.exists(path)
                          else None)


def server_syns(pcap):
    """Distinct (source, destination) of the SYNs without ACK in pcap,
    as tcpdump reads them."""
    p = wrtest.sh("tcpdump", "-nr", pcap, "tcp[tcpflags] & tcp-syn != 0 and "
                  "tcp[tcpflags] & tcp-ack == 0", timeout=60)
    return set((l.split()[2], l.split()[4].rstrip(":"))
               for l in p.stdout.splitlines() if l.strip())


def stateful_nat44_wr_server():
    """A wirerate server beyond the NAT44 (a second process, its own file
    prefix and CPU): it sees every connection from the NAT's address. Its
    books tie back to the client's through the device's own table:
    client attempted = conntrack entries from the client's address =
    distinct SYNs that left the NAT towards the server (tcpdump), each
    from the NAT's address and the port conntrack gave it = the server's
    accepted; closed, and requests served = the client's answers."""
    c = Checker("stateful_nat44_wr_server")
    probe(c, "nft", "conntrack", "ethtool", "tcpdump")
    n = 2000
    d = tempfile.mkdtemp(prefix="wrsf")
    make_bed(wr_server=True)
    srv = td = None
    try:
        nsexec(ROUTER, "nft", "add table ip wrnat; "
               "add chain ip wrnat post { type nat hook postrouting priority "
               "srcnat; policy accept; }; "
               "add rule ip wrnat post oifname %s masquerade" % RSRV[0])
        pcap = os.path.join(d, "nat.pcap")
        td = subprocess.Popen(["ip", "netns", "exec", ROUTER, "tcpdump", "-i",
                               RSRV[0], "-U", "-w", pcap, "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 10
        while not os.path.exists(pcap) and time.monotonic() < end:
            time.sleep(0.05)
        srv, spath = wr_serve(d)
        r = client(SRV_IP[0] + ":80", n, 1000)
        time.sleep(0.5)
        src, sdoc = wr_serve_end(srv, spath)
        srv = None
        td.terminate()
        td.wait()
        td = None
        b = check_client(c, r, n)
        sb = books(sdoc)
        c.eq(src, 0, "the server's exit code")
        ents = [e for e in ct_entries() if e[1] == ME]
        c.eq(len(ents), n, "conntrack entries from wirerate's client")
        nat = sorted(set(e[2] for e in ents))
        c.eq(nat, [SRV_GW[0]], "every entry rewritten to the NAT's address")
        syns = server_syns(pcap)
        c.eq(len(syns), n, "distinct SYNs from the NAT to the server (tcpdump)")
        c.eq(sorted(set(x[0].rsplit(".", 1)[0] for x in syns)), [SRV_GW[0]],
             "every SYN the server got came from the NAT's address")
        c.eq(sb.get("accepted"), n, "the server accepted every connection")
        c.eq(sb.get("closed"), b.get("completed"), "the server closed "
             "as many as the client completed")
        c.eq(sb.get("open"), 0, "open on the server at the end")
        c.eq(sb.get("reqs_served"), b.get("resps"), "requests served = "
             "answers the client got")
        print("nat44 + wirerate server: client attempted %s completed %s; "
              "conntrack %d entries to %r; SYNs at the server %d; server "
              "accepted %s closed %s served %s" % (
                  b.get("attempted"), b.get("completed"), len(ents), nat,
                  len(syns), sb.get("accepted"), sb.get("closed"),
                  sb.get("reqs_served")))
        c.done(r)
    finally:
        if srv is not None:
            wr_serve_end(srv, os.path.join(d, "s.json"))
        if td is not None:
            td.terminate()
            td.wait()
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


def hap_cmd(sock, cmd):
    """One command on HAProxy's stats socket; its whole answer."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(sock)
    s.sendall((cmd + "\n").encode())
    out = b""
    while True:
        b = s.recv(65536)
        if not b:
            break
        out += b
    s.close()
    return out.decode()


def hap_info(sock):
    return dict(l.split(": ", 1) for l in hap_cmd(sock, "show info").splitlines()
                if ": " in l)


def hap_stat(sock):
    """show stat as {(proxy, server): row}."""
    lines = [l for l in hap_cmd(sock, "show stat").splitlines() if l.strip()]
    head = lines[0].lstrip("# ").split(",")
    rows = {}
    for l in lines[1:]:
        row = dict(zip(head, l.split(",")))
        rows[(row["pxname"], row["svname"])] = row
    return rows


def haproxy_case(name, n, reqs):
    """HAProxy (HTTP mode, round robin, keep-alive) on the router in front
    of the two nginx: n connections of reqs GETs each. HAProxy's own
    counters equal wirerate's: show info CumConns and CumReq (less this
    test's own commands on the socket), show stat's frontend sessions and
    requests, the two servers' sessions add up to the requests, each got
    half; nginx's access logs add up too."""
    c = Checker(name)
    probe(c, "nginx", "haproxy", "ethtool")
    d = tempfile.mkdtemp(prefix="wrsf")
    make_bed()
    ngx = []
    try:
        ngx = [Nginx(d, i) for i in (0, 1)]
        conf, sock = os.path.join(d, "haproxy.cfg"), os.path.join(d, "haproxy.sock")
        with open(conf, "w") as f:
            f.write(HAPROXY_CONF.format(d=d, vip=GW, a=SRV_IP[0], b=SRV_IP[1]))
        nsexec(ROUTER, "haproxy", "-f", conf)
        end = time.monotonic() + 10
        while not os.path.exists(sock) and time.monotonic() < end:
            time.sleep(0.05)
        i0 = hap_info(sock)
        r = client(GW + ":80", n, 1000, reqs)
        i1 = hap_info(sock)
        st = hap_stat(sock)
        b = check_client(c, r, n, reqs)
        # Each command on the socket is a connection and a request of
        # HAProxy's own: the second show info counts itself.
        conns = int(i1["CumConns"]) - int(i0["CumConns"]) - 1
        hreqs = int(i1["CumReq"]) - int(i0["CumReq"]) - 1
        c.eq(conns, b.get("completed"), "HAProxy's CumConns = completed")
        c.eq(hreqs, b.get("resps"), "HAProxy's CumReq = answers")
        fe = st.get(("fe", "FRONTEND"), {})
        c.eq(int(fe.get("stot", -1)), b.get("completed"), "frontend sessions = "
             "completed")
        c.eq(int(fe.get("req_tot", -1)), b.get("resps"), "frontend requests = "
             "answers")
        c.eq(int(fe.get("hrsp_2xx", -1)), b.get("resps"), "frontend 2xx = answers")
        srv = [int(st.get(("be", s), {}).get("stot", -1)) for s in ("a", "b")]
        c.eq(sum(srv), n * reqs, "the two servers' sessions add up to the "
             "requests (%r)" % srv)
        for s, k in zip("ab", srv):
            c.true(abs(2 * k - n * reqs) <= 2, "server %s got half: %d" % (s, k))
        errs = [int(st.get(("be", "BACKEND"), {}).get(k, -1) or 0)
                for k in ("econ", "eresp")]
        c.eq(errs, [0, 0], "backend connection and response errors")
        for x in ngx:
            x.stop()
        logs = [len(x.log()) for x in ngx]
        c.eq(logs, srv, "nginx's access logs = HAProxy's server sessions")
        print("%s: attempted %s, completed %s, answers %s; HAProxy CumConns +%d, "
              "CumReq +%d, frontend stot %s req_tot %s, servers %r, access logs "
              "%r" % (name, b.get("attempted"), b.get("completed"), b.get("resps"),
                      conns, hreqs, fe.get("stot"), fe.get("req_tot"), srv, logs))
        c.done(r)
    finally:
        for x in ngx:
            x.stop()
        pid = os.path.join(d, "haproxy.pid")
        if os.path.exists(pid):
            with open(pid) as f:
                for p in f.read().split():
                    wrtest.sh("kill", p, check=False)
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


def stateful_haproxy():
    """HAProxy: 2,000 connections of one GET each."""
    haproxy_case("stateful_haproxy", 2000, 1)


def stateful_haproxy_keepalive():
    """HAProxy: 500 connections of 8 GETs each (keep-alive)."""
    haproxy_case("stateful_haproxy_keepalive", 500, 8)


CASES = cases.by_name(stateful_nat44, stateful_nat44_src_range, stateful_nat44_wr_server,
                      stateful_fw_refused,
                      stateful_dnat_lb,
                      stateful_haproxy, stateful_haproxy_keepalive)

if __name__ == "__main__":
    cases.main(CASES)
