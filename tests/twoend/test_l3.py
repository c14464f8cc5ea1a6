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
import re
import socket
import struct
import subprocess
import threading
import time

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
    """The router: two veth pairs, forwarding on, addresses without DAD
    (link-local ones too), no neighbour entries; wirerate's ends up with no address of their own."""
    ip("netns", "add", NS)
    for h, r in zip(HOST, ROUTER):
        ip("link", "add", h, "type", "veth", "peer", "name", r)
        ip("link", "set", r, "netns", NS)
        # No duplicate address detection of the router's link-local
        # addresses either: until it ends the kernel sends no NS.
        nsexec("sysctl", "-qw", "net.ipv6.conf.%s.accept_dad=0" % r)
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


def vdevs(qpairs0=1):
    """Both ports; port 0 (the sender) with qpairs0 sockets in one fanout group."""
    return ["net_af_packet%d,iface=%s,qdisc_bypass=0%s" % (
        i, h, ",qpairs=%d" % qpairs0 if i == 0 and qpairs0 > 1 else "")
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


def snmp(ipv6, key6, group4, key4):
    """One counter of the router's own stack: key6 of /proc/net/snmp6, or
    key4 of group4 in /proc/net/snmp."""
    if ipv6:
        rows = dict(l.split()[:2] for l in
                    nsexec("cat", "/proc/net/snmp6").stdout.splitlines() if l.strip())
        return int(rows[key6])
    lines = [l.split() for l in nsexec("cat", "/proc/net/snmp").stdout.splitlines()
             if l.startswith(group4 + ":")]
    return int(lines[1][lines[0].index(key4)])


def forwarded(ipv6):
    """The router's count of forwarded datagrams (its own, not wirerate's)."""
    return snmp(ipv6, "Ip6OutForwDatagrams", "Ip", "ForwDatagrams")


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


def icmp_echo_replies(ipv6):
    """Echo replies the router's stack received (its counters, not ping's)."""
    return snmp(ipv6, "Icmp6InEchoReplies", "Icmp", "InEchoReps")


def run_during(opts, ipv6, action, timeout=90, qpairs0=1):
    """wirerate through the router in a thread; once the router forwards
    its frames (the workers run), action() in this one. Returns
    (Result, what action returned)."""
    before = forwarded(ipv6)
    out = []
    t = threading.Thread(target=lambda: out.append(wrtest.run(
        vdevs(qpairs0), opts, timeout=timeout)))
    t.start()
    end = time.monotonic() + timeout
    while t.is_alive() and forwarded(ipv6) == before and time.monotonic() < end:
        time.sleep(0.1)
    got = action() if t.is_alive() else None
    t.join()
    return out[0], got


def ping_both(ipv6, n):
    """n pings from the router to each wirerate port's address; the exit
    codes and ping's own summaries."""
    nets = NETS6 if ipv6 else NETS4
    res = []
    for addr, _ in nets:
        p = nsexec("ping", "-6" if ipv6 else "-4", "-c", str(n), "-i", "0.2",
                   "-W", "2", addr, check=False)
        res.append((addr, p.returncode, p.stdout))
    return res


def ping(ipv6):
    c = Checker("l3_ping_v%d" % (6 if ipv6 else 4))
    probe(c)
    make_bed()
    try:
        n = 5
        replies = icmp_echo_replies(ipv6)
        opts = port_ips(ipv6) + ["--tx-ports", "0", "--rx-ports", "1", "--rate",
                                 "2kpps", "--duration", "8", "--plain"]
        r, pings = run_during(opts + (["--ipv6", "--size", "84"] if ipv6 else []),
                              ipv6, lambda: ping_both(ipv6, n))
        c.eq(r.rc, 0, "exit code")
        c.true(pings is not None, "the pings ran while wirerate sent")
        for addr, rc, text in pings or []:
            c.eq(rc, 0, "ping %s: exit code" % addr)
            c.true("%d received" % n in text, "ping %s: %d answered: %r" % (
                addr, n, text[-200:]))
        c.eq(icmp_echo_replies(ipv6) - replies, 2 * n,
             "the router's stack received every echo reply (its counter)")
        if r.doc:
            tot = r.doc["totals"]
            rx = sum(t["rx_service_pkts"] for t in tot)
            c.true(rx >= 2 * n, "service frames received: %d" % rx)
            c.eq(sum(t["tx_service_pkts"] for t in tot), rx,
                 "every service frame answered")
            c.eq(sum(t["service_drop_pkts"] for t in tot), 0, "none lost")
            wrtest.stream_balance(c, r.doc)
            print("v%d: service rx %d tx %d, foreign %d; stream sent %d lost %d" % (
                6 if ipv6 else 4, rx, sum(t["tx_service_pkts"] for t in tot),
                sum(t["rx_foreign_pkts"] for t in tot),
                r.doc["streams"][0]["sent_pkts"], r.doc["streams"][0]["lost_pkts"]))
        c.done(r)
    finally:
        drop_bed()


def l3_ping_v4():
    """During a run, ping from the router to both ports (the sender's
    reply goes by its worker's reply ring, the receive-only port's from
    the main lcore): ping's exit codes and counts and the router's
    InEchoReps say every echo was answered; they are service frames,
    each answered, none foreign, and the stream balances exactly."""
    ping(False)


def l3_ping_v6():
    """The same with ping -6: neighbour solicitations and echo requests
    answered during the run."""
    ping(True)


def l3_announce():
    """--announce 300ms: during the run each port sends a gratuitous ARP
    every 300 ms (port 0 by its worker's reply ring, receive-only port 1
    from the main lcore). tcpdump on the router's ends counts them: one
    before traffic, the rest exactly wirerate's service TX less its
    replies (tx_service_pkts - rx_service_pkts); at least two during the
    run. --announce without --port-ip is bad input."""
    c = Checker("l3_announce")
    probe(c)
    make_bed()
    try:
        dumps = [subprocess.Popen(["ip", "netns", "exec", NS, "tcpdump", "-l", "-nn",
                                   "-i", r, "arp"], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True) for r in ROUTER]
        time.sleep(1)
        r = wrtest.run(vdevs(), port_ips(False) + [
            "--tx-ports", "0", "--rx-ports", "1", "--rate", "2kpps", "--duration",
            "3", "--announce", "300ms", "--plain"])
        time.sleep(0.5)
        seen = []
        for d, (addr, _) in zip(dumps, NETS4):
            d.terminate()
            out = d.communicate(timeout=10)[0]
            seen.append(len([l for l in out.splitlines()
                             if "Request who-has %s tell %s" % (addr, addr) in l]))
        c.eq(r.rc, 0, "exit code")
        if r.doc:
            for t, n in zip(r.doc["totals"], seen):
                ann = t["tx_service_pkts"] - t["rx_service_pkts"]
                c.eq(n, 1 + ann, "port %d: gratuitous ARPs tcpdump saw = 1 before "
                     "traffic + %d announced during it" % (t["port_id"], ann))
                c.true(ann >= 2, "port %d: announced %d times" % (t["port_id"], ann))
                c.eq(t["service_drop_pkts"], 0, "port %d: none lost" % t["port_id"])
            wrtest.stream_balance(c, r.doc)
            print("gratuitous ARPs seen per port: %r" % seen)
        wrtest.refused(c, vdevs(), ["--announce", "1s"],
                       "--announce needs --port-ip")
        c.done(r)
    finally:
        drop_bed()


# Sends the frames given in hex (argv[2:]) on interface argv[1]: run in
# the router's namespace. Raw AF_PACKET: the frames go out as written.
SEND_RAW = """import socket, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
for f in sys.argv[2:]:
    s.send(bytes.fromhex(f))
"""


def mac_bytes(iface):
    """The router's end's MAC, as 6 bytes."""
    link = json.loads(nsexec("ip", "-j", "link", "show", iface).stdout)[0]
    return bytes.fromhex(link["address"].replace(":", ""))


def arp_request(src_mac, sip, tip, hlen=6):
    """A broadcast ARP request; hlen other than 6 makes it malformed."""
    arp = struct.pack("!HHBBH", 1, 0x0800, hlen, 4, 1) + src_mac + \
        socket.inet_aton(sip) + bytes(6) + socket.inet_aton(tip)
    return b"\xff" * 6 + src_mac + b"\x08\x06" + arp + bytes(18)


def neighbour_solicitation(src_mac, sip, target, bad_sum=False):
    """An NS for target to its solicited-node group, with a source
    link-layer option; bad_sum: a wrong ICMPv6 checksum (RFC 4861 7.1.1
    says drop it)."""
    src, tgt = socket.inet_pton(socket.AF_INET6, sip), \
        socket.inet_pton(socket.AF_INET6, target)
    dst = socket.inet_pton(socket.AF_INET6, "ff02::1:ff00:0")[:13] + tgt[13:]
    body = struct.pack("!BBHI", 135, 0, 0, 0) + tgt + b"\x01\x01" + src_mac
    pseudo = src + dst + struct.pack("!IxxxB", len(body), 58)
    data = pseudo + body
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xffff) + (total >> 16)
    csum = (~total & 0xffff) ^ (1 if bad_sum else 0)
    body = body[:2] + struct.pack("!H", csum) + body[4:]
    ip6 = struct.pack("!IHBB", 6 << 28, len(body), 58, 255) + src + dst
    return b"\x33\x33" + dst[12:] + src_mac + b"\x86\xdd" + ip6 + body


def bad_frames(i, n):
    """n of each for wirerate's port i, from the router's end: an ARP
    request and an NS for another host (foreign), an ARP request with a
    wrong hardware length and an NS with a wrong checksum, both for the
    port's own address (malformed)."""
    mac = mac_bytes(ROUTER[i])
    (me4, gw4), (me6, gw6) = NETS4[i], NETS6[i]
    other4, other6 = me4.rsplit(".", 1)[0] + ".77", me6.rsplit(":", 1)[0] + ":77"
    one = [arp_request(mac, gw4, other4), neighbour_solicitation(mac, gw6, other6),
           arp_request(mac, gw4, me4, hlen=7),
           neighbour_solicitation(mac, gw6, me6, bad_sum=True)]
    return one * n


def l3_bad_service():
    """During a run, ARP requests and NS for another host (foreign) and
    malformed ones for the port's own address (a wrong ARP hardware
    length, a wrong ICMPv6 checksum) are sent from the router's ends to
    both ports (port 1 by its worker, send-only port 0 by the main lcore):
    each port counts exactly its malformed ones, and tcpdump on the
    router's ends sees no answer to any of them (every answer it sees is
    one wirerate counted as service TX; none names .77 or :77)."""
    c = Checker("l3_bad_service")
    probe(c)
    make_bed()
    n = 5
    try:
        dumps = [subprocess.Popen(["ip", "netns", "exec", NS, "tcpdump", "-l", "-nn",
                                   "-i", r, "(arp or icmp6) and not ether src " +
                                   mac_bytes(r).hex(":")], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True) for r in ROUTER]
        time.sleep(1)

        def inject():
            for i, r in enumerate(ROUTER):
                nsexec("python3", "-c", SEND_RAW, r,
                       *[f.hex() for f in bad_frames(i, n)])
            return True
        r, sent = run_during(port_ips(False) + port_ips(True) + [
            "--tx-ports", "0", "--rx-ports", "1", "--rate", "2kpps", "--duration",
            "4", "--plain"], False, inject)
        time.sleep(0.5)
        answers = []
        for d in dumps:
            d.terminate()
            out = d.communicate(timeout=10)[0].splitlines()
            answers.append([l for l in out if "Reply" in l or
                            ("neighbor advertisement" in l and "> ff02::1:" not in l)])
        c.eq(r.rc, 0, "exit code")
        c.true(sent, "the frames were sent during the run")
        if r.doc:
            for t, ans in zip(sorted(r.doc["totals"], key=lambda t: t["port_id"]),
                              answers):
                p = t["port_id"]
                c.eq(t["rx_malformed_pkts"], 2 * n, "port %d: malformed counted" % p)
                c.true(t["rx_foreign_pkts"] >= 2 * n, "port %d: foreign counted (%d)"
                       % (p, t["rx_foreign_pkts"]))
                c.eq(len(ans), t["tx_service_pkts"], "port %d: every answer tcpdump "
                     "saw is a counted service reply: %r" % (p, ans[:4]))
                # The address answered for, not the whole line: a MAC
                # such as 02:a9:77:... holds ":77" too.
                c.eq([l for l in ans if re.search(
                    r"(Reply|tgt is) [0-9a-f:.]*[.:]77[ ,]", l)], [],
                     "port %d: nothing answered for another host" % p)
            wrtest.stream_balance(c, r.doc)
        c.done(r)
    finally:
        drop_bed()


def stale(ipv6):
    c = Checker("l3_stale_v%d" % (6 if ipv6 else 4))
    probe(c)
    make_bed()
    fam = "ipv6" if ipv6 else "ipv4"
    try:
        # The router's entry for wirerate's receiving port goes stale
        # within 0.25..0.75 s, is probed 1 s later, and fails after 3
        # unanswered probes 1 s apart.
        for key, val in (("base_reachable_time_ms", 500), ("gc_stale_time", 1),
                         ("delay_first_probe_time", 1)):
            nsexec("sysctl", "-qw", "net.%s.neigh.%s.%s=%d" % (fam, ROUTER[1], key, val))
        dump = subprocess.Popen(["ip", "netns", "exec", NS, "tcpdump", "-l", "-nn", "-i",
                                 ROUTER[1], "(arp or icmp6) and not ether src " +
                                 mac_bytes(ROUTER[1]).hex(":")],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True)
        time.sleep(1)
        r = wrtest.run(vdevs(), port_ips(ipv6) + [
            "--tx-ports", "0", "--rx-ports", "1", "--rate", "2kpps", "--duration", "6",
            "--plain"] + (["--ipv6", "--size", "84"] if ipv6 else []))
        time.sleep(0.5)
        dump.terminate()
        out = dump.communicate(timeout=10)[0].splitlines()
        answers = [l for l in out if "Reply" in l or
                   ("neighbor advertisement" in l and "> ff02::1:" not in l)]
        c.eq(r.rc, 0, "exit code")
        if r.doc:
            t1 = [t for t in r.doc["totals"] if t["port_id"] == 1][0]
            c.true(t1["rx_service_pkts"] >= 3, "port 1: the router re-resolved it "
                   "during the run (%d requests)" % t1["rx_service_pkts"])
            c.eq(t1["tx_service_pkts"], t1["rx_service_pkts"], "port 1: each answered")
            c.eq(len(answers), t1["tx_service_pkts"], "tcpdump saw each answer")
            c.eq(r.doc["streams"][0]["lost_pkts"], 0, "nothing lost")
            wrtest.stream_balance(c, r.doc)
            print("v%d: the router asked port 1 %d times in 6 s" % (
                6 if ipv6 else 4, t1["rx_service_pkts"]))
        c.done(r)
    finally:
        drop_bed()


def l3_stale_v4():
    """The router's neighbour timers made short (reachable 0.5 s, probe
    after 1 s): over a 6 s trial it re-resolves wirerate's receiving
    port several times, each request answered (tcpdump sees each answer
    wirerate counts), and no frame is lost; without the responder the
    entry fails after 3 s and traffic stops."""
    stale(False)


def l3_stale_v6():
    """The same with IPv6 neighbour discovery."""
    stale(True)


def mac_change(name, extra):
    """The router's MAC changes during a run with extra options (arp_notify
    on: the kernel sends a gratuitous ARP with the new one): wirerate
    follows it, the result says so (next_hops: the new mac, mac_changes 1,
    first_mac the old one), the router forwards every frame port 1
    receives (its own count), and the frames lost in the switch are under
    a tenth of those sent (not following, every frame after the change
    would be lost)."""
    c = Checker(name)
    probe(c)
    make_bed()
    new = "02:00:00:00:24:01"
    try:
        nsexec("sysctl", "-qw", "net.ipv4.conf.%s.arp_notify=1" % ROUTER[0])
        old = json.loads(nsexec("ip", "-j", "link", "show", ROUTER[0]).stdout)[0]["address"]
        before = forwarded(False)

        def change():
            time.sleep(1)
            ip("-n", NS, "link", "set", "dev", ROUTER[0], "address", new)
            return True
        r, done = run_during(port_ips(False) + [
            "--tx-ports", "0", "--rx-ports", "1", "--rate", "2kpps", "--duration",
            "5", "--plain"] + extra, False, change)
        c.eq(r.rc, 0, "exit code")
        c.true(done, "the MAC changed during the run")
        if r.doc:
            p0 = [p for p in r.doc["ports"] if p["port_id"] == 0][0]
            hop = p0["next_hops"][0] if p0["next_hops"] else {}
            c.eq((hop.get("mac"), hop.get("mac_changes"), hop.get("first_mac")),
                 (new.upper(), 1, old.upper()), "next_hops: followed and reported")
            s = r.doc["streams"][0]
            c.eq(forwarded(False) - before, s["rx_pkts"], "the router forwarded "
                 "exactly what port 1 received (its own count)")
            c.true(s["lost_pkts"] * 10 < s["sent_pkts"], "lost %d of %d" % (
                s["lost_pkts"], s["sent_pkts"]))
            wrtest.stream_balance(c, r.doc)
            print("MAC change: lost %d of %d" % (s["lost_pkts"], s["sent_pkts"]))
        c.done(r)
    finally:
        drop_bed()


def l3_mac_change():
    """The router's MAC changes during the run: followed (mac_change)."""
    mac_change("l3_mac_change", [])


def l3_mac_change_ranges():
    """The same with a field range (--dport 5000-5003): the frames take
    their MACs from the queue's flow rows, which follow too (before,
    they kept the old MAC, 79 % lost)."""
    mac_change("l3_mac_change_ranges", ["--dport", "5000-5003"])


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


def veth_pair_run(opts, tag):
    """wirerate on both ends of a veth pair made for the test (ports 0 and
    1), tcpdump on port 1's end meanwhile; returns (Result, the lines
    tcpdump printed)."""
    h = "wl3%s%d" % (tag, os.getpid() % 10000)
    ip("link", "add", h + "a", "type", "veth", "peer", "name", h + "b")
    try:
        for end in (h + "a", h + "b"):
            wrtest.sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % end)
            ip("link", "set", end, "up")
        dump = subprocess.Popen(["tcpdump", "-l", "-nn", "-e", "-i", h + "b", "arp or "
                                 "(vlan and arp)"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        time.sleep(1)
        v = ["net_af_packet%d,iface=%s%s,qdisc_bypass=0" % (i, h, e)
             for i, e in enumerate("ab")]
        r = wrtest.run(v, opts)
        time.sleep(0.5)
        dump.terminate()
        out = dump.communicate(timeout=10)[0]
        return r, [l for l in out.splitlines() if l.strip()]
    finally:
        ip("link", "del", h + "a", check=False)


def l3_same_link():
    """Two wirerate ports on one link (a veth pair) with addresses of one
    prefix and no gateway, as VMs on a vSwitch: port 0 resolves port 1's
    address directly (port 1's announcement or its answer, both made
    while port 0 polls), and the traffic balances exactly (the PMDs'
    counts agree); tcpdump sees the ARP untagged."""
    c = Checker("l3_same_link")
    probe(c)
    r, arp = veth_pair_run(["--port-ip", "0=10.10.0.1/24", "--port-ip", "1=10.10.0.2/24",
                            "--tx-ports", "0", "--rx-ports", "1", "--rate", "2kpps",
                            "--count", "1000", "--plain"], "s")
    c.eq(r.rc, 0, "exit code")
    c.true(any("Request who-has 10.10.0.2 tell 10.10.0.1" in l and "vlan" not in l
               for l in arp), "tcpdump: port 0's request, untagged: %r" % arp[:4])
    if r.doc:
        ports = {p["port_id"]: p for p in r.doc["ports"]}
        c.eq([(x["ip"], x["mac"]) for x in ports[0]["next_hops"]],
             [("10.10.0.2", ports[1]["mac"])], "port 0's next hop is port 1")
        c.eq(r.doc["streams"][0]["rx_pkts"], 1000, "all received")
        wrtest.stream_balance(c, r.doc)
    c.done(r)


def l3_vlan():
    """vlan=N: two ports on one veth pair, both on VLAN 100: port 0
    resolves port 1 by tagged ARP (tcpdump sees the requests and answers
    tagged 100, none untagged), and the tagged traffic balances exactly.
    Port 1 on VLAN 200 instead: port 0's requests go unanswered, exit 1."""
    c = Checker("l3_vlan")
    probe(c)
    base = ["--tx-ports", "0", "--rx-ports", "1", "--rate", "2kpps", "--count",
            "1000", "--size", "68", "--plain"]
    r, arp = veth_pair_run(["--port-ip", "0=10.10.0.1/24,vlan=100",
                               "--port-ip", "1=10.10.0.2/24,vlan=100"] + base, "v")
    c.eq(r.rc, 0, "exit code")
    c.true(len(arp) >= 2 and all("vlan 100" in l for l in arp),
           "tcpdump: every ARP frame tagged 100: %r" % arp[:6])
    c.true(any("Request who-has 10.10.0.2 tell 10.10.0.1" in l for l in arp),
           "tcpdump: port 0's request")
    if r.doc:
        ports = {p["port_id"]: p for p in r.doc["ports"]}
        c.eq([(x["ip"], x["mac"]) for x in ports[0]["next_hops"]],
             [("10.10.0.2", ports[1]["mac"])], "port 0's next hop is port 1")
        c.eq(r.doc["streams"][0]["rx_pkts"], 1000, "all received")
        wrtest.stream_balance(c, r.doc)
    r2, arp2 = veth_pair_run(["--port-ip", "0=10.10.0.1/24,vlan=100",
                                 "--port-ip", "1=10.10.0.2/24,vlan=200"] + base, "w")
    c.eq(r2.rc, 1, "another VLAN: exit code")
    c.true("port 0: next hop 10.10.0.2 did not answer 12 ARP requests" in r2.err,
           "another VLAN: the message %r" % r2.err[-300:])
    c.eq(len([l for l in arp2 if "vlan 100" in l and "who-has 10.10.0.2" in l]), 12,
         "tcpdump: 12 requests tagged 100")
    c.done(r)


def ping_port0(ipv6, n, size):
    """n pings of size bytes from the router to wirerate's port 0."""
    addr = (NETS6 if ipv6 else NETS4)[0][0]
    p = nsexec("ping", "-6" if ipv6 else "-4", "-c", str(n), "-i", "0.2",
               "-W", "2", "-s", str(size), addr, check=False)
    return addr, p.returncode, p.stdout


def l3_qpairs():
    """A send-only af_packet port with qpairs=2 and 4 (the kernel's fanout
    hands a reply to any of its sockets), IPv4 and IPv6, with different
    flows each time: the router is resolved (its neighbour table holds
    port 0's MAC, its forwarding count equals what was sent) and ping's
    own count says every echo to port 0 was answered during the run."""
    c = Checker("l3_qpairs")
    probe(c)
    for ipv6 in (False, True):
        for nq, sport in ((2, "1000-1007"), (4, "2000-2063")):
            make_bed()
            try:
                nets = NETS6 if ipv6 else NETS4
                n = 4
                before = forwarded(ipv6)
                opts = port_ips(ipv6) + [
                    "--tx-ports", "0", "--rx-ports", "1", "--txq", str(nq),
                    "--sport", sport, "--rate", "2kpps", "--duration", "3",
                    "--plain"] + (["--ipv6", "--size", "84"] if ipv6 else [])
                r, pg = run_during(opts, ipv6, lambda: ping_port0(ipv6, n, 8 + nq),
                                   qpairs0=nq)
                what = "v%d qpairs=%d" % (6 if ipv6 else 4, nq)
                c.eq(r.rc, 0, "%s: exit code (%r)" % (what, r.err[-300:]))
                c.true(pg is not None and pg[1] == 0 and "%d received" % n in pg[2],
                       "%s: ping answered %d of %d: %r" % (what, n, n,
                                                            pg and pg[2][-200:]))
                entry = neigh(nets[0][0])
                if r.doc:
                    p0 = [p for p in r.doc["ports"] if p["port_id"] == 0][0]
                    c.true(entry is not None and
                           entry.get("lladdr") == p0["mac"].lower(),
                           "%s: the router's neighbour entry: %r" % (what, entry))
                    sent = r.doc["totals"][0]["tx_pkts"]
                    c.eq(forwarded(ipv6) - before, sent, "%s: the router "
                         "forwarded every frame (its count)" % what)
                    print("%s: sent %d, ping %s" % (what, sent, pg and pg[1]))
            finally:
                drop_bed()
    c.done()


CASES = cases.by_name(l3_resolve_v4, l3_resolve_v6, l3_no_answer, l3_off_link,
                      l3_same_link, l3_vlan, l3_ping_v4, l3_ping_v6, l3_announce,
                      l3_bad_service, l3_stale_v4, l3_stale_v6, l3_mac_change,
                      l3_mac_change_ranges, l3_qpairs)

if __name__ == "__main__":
    cases.main(CASES)
