# SPDX-License-Identifier: BSD-3-Clause
"""--port-ip on a real stack: a Linux router in a network namespace made
for the test, joined to wirerate's two af_packet ports by veth pairs, with
no static neighbours. wirerate resolves the router by ARP (IPv4) or
neighbour solicitation (IPv6) before traffic; the router's own counters
prove it: its neighbour table holds wirerate's MAC, and every frame
wirerate sent was addressed to the router's MAC (the kernel forwards only
those: /proc/net/snmp ForwDatagrams, snmp6 Ip6OutForwDatagrams). A next
hop that never answers is exit 1 naming the port, the address and how
long it tried; a destination off the link without a gateway is exit 2.
Usage: test_l3.py CASE (see CASES)."""
import json
import os
import subprocess

import cases
import wrtest
from wrtest import Checker

NS = "wrl3%d" % os.getpid()
HOST = ["wl3h%d_%d" % (i, os.getpid() % 10000) for i in (0, 1)]
ROUTER = ["wl3r%d_%d" % (i, os.getpid() % 10000) for i in (0, 1)]
NETS4 = [("198.18.0.1", "198.18.0.254"), ("198.19.0.1", "198.19.0.254")]
NETS6 = [("2001:db8::1", "2001:db8::fe"), ("2001:db8:1::1", "2001:db8:1::fe")]


def ip(*args, check=True):
    return wrtest.sh("ip", *args, check=check)


def nsexec(*argv, check=True):
    return wrtest.sh("ip", "netns", "exec", NS, *argv, check=check)


def probe(c):
    """Skip (and end) the case when the machine cannot make namespaces."""
    if not wrtest.have_netns():
        c.skip("this process cannot create a network namespace")
        c.done()


def make_bed():
    """The router: two veth pairs, forwarding on, addresses without DAD,
    no neighbour entries; wirerate's ends up with no address of their own."""
    ip("netns", "add", NS)
    for h, r in zip(HOST, ROUTER):
        ip("link", "add", h, "type", "veth", "peer", "name", r)
        ip("link", "set", r, "netns", NS)
        wrtest.sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % h)
        ip("link", "set", h, "up")
        ip("-n", NS, "link", "set", r, "up")
    for r, (_, gw4), (_, gw6) in zip(ROUTER, NETS4, NETS6):
        ip("-n", NS, "addr", "add", gw4 + "/24", "dev", r)
        ip("-n", NS, "addr", "add", gw6 + "/64", "dev", r, "nodad")
    nsexec("sysctl", "-qw", "net.ipv4.ip_forward=1", "net.ipv6.conf.all.forwarding=1")


def drop_bed():
    ip("netns", "del", NS, check=False)
    for h in HOST:
        ip("link", "del", h, check=False)


def vdevs():
    return ["net_af_packet%d,iface=%s,qdisc_bypass=0" % (i, h)
            for i, h in enumerate(HOST)]


def port_ips(ipv6, gw0=None):
    """--port-ip for both ports, each with the router as gateway."""
    nets = NETS6 if ipv6 else NETS4
    plen = 64 if ipv6 else 24
    gws = [gw0 or nets[0][1], nets[1][1]]
    out = []
    for i, ((a, _), gw) in enumerate(zip(nets, gws)):
        out += ["--port-ip", "%d=%s/%d,gw=%s" % (i, a, plen, gw)]
    return out


def neigh(addr):
    """The router's neighbour entry for addr (ip -j neigh), or None."""
    p = nsexec("ip", "-j", "neigh", "show", "to", addr)
    rows = json.loads(p.stdout or "[]")
    return rows[0] if rows else None


def forwarded(ipv6):
    """The router's count of forwarded datagrams (its own, not wirerate's)."""
    if ipv6:
        for line in nsexec("cat", "/proc/net/snmp6").stdout.splitlines():
            if line.startswith("Ip6OutForwDatagrams"):
                return int(line.split()[1])
        return None
    lines = [l.split() for l in nsexec("cat", "/proc/net/snmp").stdout.splitlines()
             if l.startswith("Ip:")]
    return int(lines[1][lines[0].index("ForwDatagrams")])


def resolve(ipv6):
    c = Checker("l3_resolve_v%d" % (6 if ipv6 else 4))
    probe(c)
    make_bed()
    try:
        before = forwarded(ipv6)
        opts = port_ips(ipv6) + ["--tx-ports", "0", "--rx-ports", "1", "--rate",
                                 "2kpps", "--count", "1000", "--plain"]
        r = wrtest.run(vdevs(), opts + (["--ipv6", "--size", "84"] if ipv6 else []))
        c.eq(r.rc, 0, "exit code")
        nets = NETS6 if ipv6 else NETS4
        if r.doc:
            p0 = [p for p in r.doc["ports"] if p["port_id"] == 0][0]
            hops = p0["next_hops"]
            c.eq([h["ip"] for h in hops], [nets[0][1]], "port 0 resolved the router")
            router_mac = json.loads(nsexec("ip", "-j", "link", "show", ROUTER[0])
                                    .stdout)[0]["address"]
            c.eq(hops and hops[0]["mac"].lower(), router_mac, "the router's MAC")
            c.true("tx0.0 next hop %s is %s" % (nets[0][1], hops and hops[0]["mac"])
                   in r.out, "the plan says so")
            entry = neigh(nets[0][0])
            c.true(entry is not None and entry.get("lladdr") == p0["mac"].lower(),
                   "the router's neighbour table holds wirerate's port 0: %r" % entry)
            sent = r.doc["totals"][0]["tx_pkts"]
            c.eq(sent, 1000, "frames sent")
            c.eq(forwarded(ipv6) - before, sent, "every frame reached the router "
                 "addressed to it (its forwarding count)")
            print("v%d: router %s resolved in %d ms; the router forwarded %d of %d" % (
                6 if ipv6 else 4, hops and hops[0]["mac"], hops and hops[0]["wait_ms"],
                forwarded(ipv6) - before, sent))
        c.done(r)
    finally:
        drop_bed()


def l3_resolve_v4():
    """IPv4: ARP resolves the gateway; the router learns wirerate's MAC."""
    resolve(False)


def l3_resolve_v6():
    """IPv6: NS resolves the gateway; the router learns wirerate's MAC."""
    resolve(True)


def l3_no_answer():
    """A gateway nobody has: exit 1, the port, the address and the time;
    the router's interface saw every request (its rx counter)."""
    c = Checker("l3_no_answer")
    probe(c)
    make_bed()
    try:
        stat = "/sys/class/net/%s/statistics/rx_packets" % ROUTER[0]
        before = int(nsexec("cat", stat).stdout)
        r = wrtest.run(vdevs(), port_ips(False, gw0="198.18.0.77") +
                       ["--tx-ports", "0", "--rx-ports", "1", "--plain", "--quiet"])
        c.eq(r.rc, 1, "exit code")
        c.true("port 0: next hop 198.18.0.77 did not answer 12 ARP requests in 3."
               in r.err, "message: %r" % r.err[-400:])
        c.eq(r.doc, None, "no result")
        # Gratuitous ARPs of both ports' reach the router too: at least 12.
        c.true(int(nsexec("cat", stat).stdout) - before >= 12, "the requests reached "
               "the router")
        c.done(r)
    finally:
        drop_bed()


def l3_off_link():
    """A destination off the port's link and no gateway: bad input, exit 2."""
    c = Checker("l3_off_link")
    probe(c)
    make_bed()
    try:
        wrtest.refused(c, vdevs(), ["--port-ip", "0=198.18.0.1/24", "--tx-ports", "0",
                                    "--rx-ports", "1", "--dst-ip", "198.19.0.1"],
                       "port 0: destination 198.19.0.1 is not on its link "
                       "198.18.0.1/24 and --port-ip gave it no gateway")
        c.done()
    finally:
        drop_bed()


def l3_same_link():
    """Two wirerate ports on one link (a veth pair) with addresses of one
    prefix and no gateway, as VMs on a vSwitch: port 0 resolves port 1's
    address directly (port 1's announcement or its answer, both made
    while port 0 polls), and the traffic balances exactly (the PMDs'
    counts agree)."""
    c = Checker("l3_same_link")
    probe(c)
    h = "wl3s%d" % (os.getpid() % 10000)
    ip("link", "add", h + "a", "type", "veth", "peer", "name", h + "b")
    try:
        for end in (h + "a", h + "b"):
            wrtest.sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % end)
            ip("link", "set", end, "up")
        v = ["net_af_packet%d,iface=%s%s,qdisc_bypass=0" % (i, h, e)
             for i, e in enumerate("ab")]
        r = wrtest.run(v, ["--port-ip", "0=10.10.0.1/24", "--port-ip", "1=10.10.0.2/24",
                           "--tx-ports", "0", "--rx-ports", "1", "--rate", "2kpps",
                           "--count", "1000", "--plain"])
        c.eq(r.rc, 0, "exit code")
        if r.doc:
            macs = {p["port_id"]: p for p in r.doc["ports"]}
            hops = macs[0]["next_hops"]
            c.eq([(x["ip"], x["mac"]) for x in hops], [("10.10.0.2", macs[1]["mac"])],
                 "port 0's next hop is port 1")
            c.eq(r.doc["streams"][0]["rx_pkts"], 1000, "all received")
            wrtest.stream_balance(c, r.doc)
        c.done(r)
    finally:
        ip("link", "del", h + "a", check=False)


CASES = cases.by_name(l3_resolve_v4, l3_resolve_v6, l3_no_answer, l3_off_link,
                      l3_same_link)

if __name__ == "__main__":
    cases.main(CASES)
