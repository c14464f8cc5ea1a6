# SPDX-License-Identifier: BSD-3-Clause
"""Field ranges on real frames: a net_pcap capture read by tshark (an
independent dissector) holds every address, port, VLAN id and DSCP of the
ranges, each flow exactly once per cycle in increment and in random order,
with valid IPv4 header and IPv6 UDP checksums; over a ring pair every frame
is accounted for, exactly; bad ranges are refused before traffic."""
import itertools
import os
import tempfile

import cases
import wrtest
from test_traffic import capture, ring_exact, tshark
from wrtest import Checker

# Each tuple: --option, first, count, tshark field, value of index i.
V4 = [("--src-ip", 10, "ip.src", lambda i: "10.0.0.%d" % (250 + i) if i < 6
       else "10.0.1.%d" % (i - 6)),
      ("--dport", 20, "udp.dstport", lambda i: str(1000 + i)),
      ("--dscp", 2, "ip.dsfield.dscp", lambda i: str(46 + i)),
      ("--dst-mac", 2, "eth.dst", lambda i: "02:00:00:00:00:0%d" % (1 + i))]
V4_ARGS = ["--src-ip", "10.0.0.250-10.0.1.3", "--dport", "1000-1019",
           "--dscp", "46-47", "--dst-mac", "02:00:00:00:00:01-02:00:00:00:00:02"]
V4_FLOWS = 10 * 20 * 2 * 2


def v4_increment():
    """Increment order, dport fastest (sport fixed), then the source
    address, the MAC and DSCP: the capture is the product of the ranges in
    that order, twice, and the IPv4 header checksums are good."""
    return v4_capture([], "v4_increment")


def v4_random():
    """A seeded random order: each cycle holds every flow exactly once,
    not in increment order; another seed gives another order."""
    return v4_capture(["--vary", "random:7"], "v4_random")


def v4_expected():
    """The flows in increment order: dport fastest, then the source address
    (range.h: sport, dport, addresses, MACs, vlan, dscp)."""
    src, dport, dscp, mac = (V4[0][3], V4[1][3], V4[2][3], V4[3][3])
    return [(src(a), dport(p), dscp(d), mac(m))
            for d, m, a, p in itertools.product(range(2), range(2), range(10),
                                                range(20))]


def v4_capture(extra, name):
    c = Checker(name)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.pcap")
        r = capture(V4_ARGS + extra + ["--count", str(2 * V4_FLOWS)], path)
        c.eq(r.rc, 0, "exit code")
        rows = tshark(c, path, ["ip.src", "udp.dstport", "ip.dsfield.dscp", "eth.dst",
                                "ip.checksum.status", "udp.srcport"],
                      ["-o", "ip.check_checksum:TRUE"])
        c.eq(len(rows), 2 * V4_FLOWS, "frames captured")
        c.eq(sum(1 for x in rows if x[4] != "1"), 0, "IPv4 header checksums good")
        c.eq({x[5] for x in rows}, {"1024"}, "source port fixed")
        got = [tuple(x[:4]) for x in rows]
        want = v4_expected()
        for k, (opt, nb, field, val) in enumerate(V4):
            c.eq({x[k] for x in got}, {val(i) for i in range(nb)},
                 "%s: every value of the range, no other" % opt)
        if not extra:
            c.eq(got[:V4_FLOWS], want, "first cycle in increment order")
        else:
            c.eq(sorted(got[:V4_FLOWS]), sorted(want), "first cycle: each flow once")
            c.true(got[:V4_FLOWS] != want, "not increment order")
        c.eq(got[V4_FLOWS:], got[:V4_FLOWS], "second cycle = first")
        c.eq(r.doc["config"]["flows"], V4_FLOWS, "JSON config: flows")
        c.eq(r.doc["tx_streams"][0]["flows"], V4_FLOWS, "JSON stream: flows")
    c.done(r)


def v4_tagged():
    """Tagged IPv4, VLAN id and source address ranges in random order over
    four cycles: IPv4 header checksums good, each of the 750 flows exactly
    four times."""
    c = Checker("v4_tagged")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.pcap")
        r = capture(["--vlan", "10-12", "--size", "68", "--src-ip", "10.0.0.1-10.0.0.250",
                     "--vary", "random:4", "--count", "3000"], path)
        c.eq(r.rc, 0, "exit code")
        rows = tshark(c, path, ["vlan.id", "ip.src", "ip.checksum.status"],
                      ["-o", "ip.check_checksum:TRUE"])
        c.eq(len(rows), 3000, "frames captured")
        c.eq(sum(1 for x in rows if x[2] != "1"), 0, "IPv4 header checksums good")
        want = {(str(v), "10.0.0.%d" % a) for v in range(10, 13) for a in range(1, 251)}
        for k in range(4):
            c.eq(set(tuple(x[:2]) for x in rows[750 * k:750 * (k + 1)]), want,
                 "cycle %d: each flow once" % k)
    c.done(r)


def v4_mix_seq():
    """IPv4 IMIX with --stamp seq (the generic stamping loop, the header
    checksum written per size, then each flow's delta) and a destination
    port range: header checksums and lengths good, each port 20 times."""
    c = Checker("v4_mix_seq")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.pcap")
        r = capture(["--mix", "imix", "--stamp", "seq", "--dport", "1-100",
                     "--count", "2000"], path)
        c.eq(r.rc, 0, "exit code")
        rows = tshark(c, path, ["udp.dstport", "ip.checksum.status", "ip.len",
                                "frame.len"], ["-o", "ip.check_checksum:TRUE"])
        c.eq(len(rows), 2000, "frames captured")
        c.eq(sum(1 for x in rows if x[1] != "1"), 0, "IPv4 header checksums good")
        c.eq(sum(1 for x in rows if int(x[2]) != int(x[3]) - 14), 0, "IPv4 lengths")
        ports = [x[0] for x in rows]
        c.eq({p: ports.count(p) for p in set(ports)}, {str(p): 20 for p in range(1, 101)},
             "each port 20 times")
    c.done(r)


def v6_tagged_mix():
    """IPv6, tagged, a size mix, ranges on the source address (crossing a
    byte), the VLAN id and both ports, --flows folded in as the source port
    range, random order: every UDP checksum good (the addresses and ports
    are in its pseudo-header), every value seen, each flow once a cycle."""
    c = Checker("v6_tagged_mix")
    flows = 3 * 20 * 4 * 2
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r6.pcap")
        r = capture(["--ipv6", "--vlan", "7-8", "--mix", "88:3,200:1,1517:1",
                     "--src-ip6", "2001:2::f0-2001:2::103", "--dport", "5-8",
                     "--flows", "3", "--sport", "65533", "--vary", "random",
                     "--count", str(flows)], path)
        c.eq(r.rc, 0, "exit code")
        rows = tshark(c, path, ["ipv6.src", "vlan.id", "udp.srcport", "udp.dstport",
                                "udp.checksum.status"],
                      ["-o", "udp.check_checksum:TRUE"])
        c.eq(len(rows), flows, "frames captured")
        c.eq(sum(1 for x in rows if x[4] != "1"), 0, "UDP checksums good")
        c.eq({x[0] for x in rows}, {"2001:2::%x" % (0xf0 + i) for i in range(20)},
             "every source address")
        c.eq({x[1] for x in rows}, {"7", "8"}, "every VLAN id")
        c.eq({x[2] for x in rows}, {"65533", "65534", "65535"}, "--flows 3 source ports")
        c.eq({x[3] for x in rows}, {"5", "6", "7", "8"}, "every destination port")
        c.eq(len({tuple(x[:4]) for x in rows}), flows, "each flow once in the cycle")
    c.done(r)


def ranges_ring():
    """Ranges over a ring pair, random order and IPv6: every frame
    received as our own, per stream sent = received + lost exactly, and
    the PMDs' counts agree."""
    c = Checker("ranges_ring")
    for opts in (["--src-ip", "10.0.0.1-10.0.0.255", "--dport", "1-4", "--vary",
                  "random:3"],
                 ["--ipv6", "--size", "84", "--dst-ip6", "2001:2::1-2001:2::400",
                  "--sport", "1-2"]):
        r = ring_exact(c, opts)
        for s in r.doc["streams"]:
            q = [x["rx_pkts"] for x in s["rx"]["rx_queues"]]
            sp = s["rx"]["rx_spread"]
            c.eq(sp["queues"], len(q), "stream %d rx_spread queues" % s["stream_id"])
            c.eq(sp["max_share"], max(q) / sum(q), "stream %d max_share" % s["stream_id"])
            c.eq(sp["min_share"], min(q) / sum(q), "stream %d min_share" % s["stream_id"])
    c.done(r)


def ranges_bad_inputs():
    """Refused before traffic, exit 2, naming the option, value and why."""
    c = Checker("ranges_bad_inputs")
    bad = [
        (["--dport", "2000-1000"], "--dport 2000-1000: the range runs backwards"),
        (["--src-ip", "10.0.0.1-10.1.0.1"], "--src-ip 10.0.0.1-10.1.0.1: 65537 values"),
        (["--src-ip", "10.0.0.1-10.0.1.0", "--dport", "1-1000"],
         "the ranges make more than 65536 flows"),
        (["--vary", "sometimes"], "--vary sometimes: expected inc, random"),
        (["--sport", "1-2", "--flows", "4"], "flows and a sport range both vary"),
        (["--stream", "dport=1-9", "--stream", "dport=9-12"],
         "--stream 2 (stream1) overlaps --stream 1"),
    ]
    for opts, msg in bad:
        wrtest.refused(c, ["net_null0"], ["--count", "10", "--quiet"] + opts, msg,
                       want_json=True)
    c.done()


CASES = cases.by_name(v4_increment, v4_random, v4_tagged, v4_mix_seq, v6_tagged_mix, ranges_ring,
                      ranges_bad_inputs)

if __name__ == "__main__":
    cases.main(CASES)
