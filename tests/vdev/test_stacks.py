# SPDX-License-Identifier: BSD-3-Clause
"""Header stacks (--stack, docs/traffic.md) on real frames: every supported
stack sent into a net_pcap capture and dissected by tshark (an independent
dissector: its protocol chain, every IPv4 header checksum and every UDP
checksum, the test header in the innermost UDP payload); stacked frames
over a ring pair found by the receiver's rare path, every one exactly;
bad input refused."""
import os
import re
import tempfile

import cases
import wrtest
from test_traffic import capture, tshark
from wrtest import Checker

# spec: the tshark protocols of its layers, in order (ethertype and data
# left out); tshark lists a label stack as one mpls (its labels: below).
STACKS = {
    "eth/vlan(id=10)/vlan(id=20)/ipv4/udp": "eth vlan vlan ip udp",
    "eth/svlan(id=100)/vlan(id=20)/ipv6/udp": "eth ieee8021ad vlan ipv6 udp",
    "eth/mpls(label=100)/mpls(label=200)/ipv4/udp": "eth mpls ip udp",
    "eth/ipv4(src=10.0.0.1,dst=10.0.0.2)/udp/vxlan(vni=42)/eth/ipv4/udp":
        "eth ip udp vxlan eth ip udp",
    "eth/ipv6(src=fd00::1,dst=fd00::2)/udp/vxlan/eth/ipv4/udp":
        "eth ipv6 udp vxlan eth ip udp",
    "eth/ipv6/gre/eth/ipv4/udp": "eth ipv6 gre eth ip udp",
    "eth/ipv4/gre(key=7)/ipv6/udp": "eth ip gre ipv6 udp",
    "eth/ipv4/udp/geneve(vni=9)/eth/ipv6/udp": "eth ip udp geneve eth ipv6 udp",
    "eth/ipv6/udp/geneve/ipv4/udp": "eth ipv6 udp geneve ip udp",
}
LAYER_PROTOS = {"eth", "ieee8021ad", "vlan", "mpls", "ip", "ipv6", "udp", "gre", "vxlan", "geneve"}
NB = 50


def tshark_rows(c, path):
    """(frame.len, protocols, IPv4 checksum statuses, UDP checksum
    statuses, UDP payloads) per frame; several occurrences of a field
    are ';'-joined."""
    rows = tshark(c, path, ["frame.len", "frame.protocols", "ip.checksum.status",
                            "udp.checksum.status", "udp.payload"],
                  ["-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
                   "-E", "aggregator=;"])
    return [(int(r[0]), r[1].split(":"), r[2].split(";") if r[2] else [],
             r[3].split(";"), r[4].split(";")) for r in rows]


def check_pcap(c, path, spec, size, nb_frames):
    """Every frame of the capture: size bytes (FCS included), tshark's
    chain of protocols the stack's, IPv4 headers good, every UDP checksum
    over IPv6 good and none bad, our test header in the innermost UDP."""
    rows = tshark_rows(c, path)
    want = STACKS[spec].split()
    c.eq(len(rows), nb_frames, "%s: frames captured" % spec)
    nb_udp6 = sum(1 for a, b in zip(want, want[1:]) if (a, b) == ("ipv6", "udp"))
    bad = {"size": 0, "chain": 0, "ip": 0, "udp": 0, "magic": 0}
    for flen, protos, ipck, udpck, payload in rows:
        bad["size"] += flen + 4 != size
        bad["chain"] += [p for p in protos if p in LAYER_PROTOS] != want
        bad["ip"] += len(ipck) != want.count("ip") or any(s != "1" for s in ipck)
        # 1 good, 3 not present (0 over IPv4): no bad (0) or illegal (4).
        bad["udp"] += udpck.count("1") != nb_udp6 or any(s not in ("1", "3") for s in udpck)
        bad["magic"] += not payload[-1].startswith("57524831")
    c.eq(bad, {k: 0 for k in bad}, "%s: frames with a wrong size, protocol chain, "
         "IPv4 checksum, UDP checksum or test header" % spec)


def stacks_pcap():
    """Every supported stack at 1518 bytes, at its smallest size, and with
    5 flows (the UDP checksum that covers the stamps changes per frame):
    tshark dissects each frame as the stack says, checksums good."""
    c = Checker("stacks_pcap")
    r = None
    with tempfile.TemporaryDirectory() as d:
        for i, spec in enumerate(STACKS):
            path = os.path.join(d, "s%d.pcap" % i)
            r = capture(["--stack", spec, "--size", "1518", "--count", str(NB),
                         "--flows", "5"], path)
            c.eq(r.rc, 0, "%s: exit code (err %r)" % (spec, r.err[-300:]))
            check_pcap(c, path, spec, 1518, NB)
            if r.doc is not None:
                c.eq(r.doc["totals"][0]["nic_opackets"], NB, "%s: the PMD sent all" % spec)
            # The smallest frame the stack allows, as the error for 64 B names it.
            small = wrtest.run(["net_null0"], ["--stack", spec, "--size", "64",
                                               "--count", "1", "--quiet"])
            c.eq(small.rc, 2, "%s: --size 64 refused" % spec)
            mins = [int(m) for m in re.findall(r"at least (\d+) bytes", small.err)]
            c.true(len(mins) >= 1, "%s: the error names the minimum (%r)" % (spec, small.err))
            if mins:
                path = os.path.join(d, "m%d.pcap" % i)
                r = capture(["--stack", spec, "--count", str(NB), "--size",
                             str(mins[0])], path)
                c.eq(r.rc, 0, "%s: %d B exit code" % (spec, mins[0]))
                check_pcap(c, path, spec, mins[0], NB)
            if "mpls" in spec:
                labels = tshark(c, path, ["mpls.label", "mpls.bottom"], ["-E", "aggregator=;"])
                c.eq(set(labels), {("100;200", "0;1")}, "%s: labels, bottom of stack" % spec)
    c.done(r)


def stacks_ring():
    """Stacked frames over a ring pair (nothing strips them): the receiver
    finds every test header through the stack (rare path), so every frame
    is its stream's, none foreign, sent = received, and the received count
    is the PMD's. Per stream too, each with its own stack."""
    c = Checker("stacks_ring")
    r = None
    for spec in ("eth/ipv6/udp/vxlan/eth/ipv4/udp", "eth/svlan/vlan/mpls/ipv6/udp",
                 "eth/ipv4/gre/eth/vlan(id=5)/ipv4/udp"):
        r = wrtest.run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
                            "--count", "20000", "--quiet", "--grace", "50ms",
                            "--size", "200", "--stack", spec])
        c.eq(r.rc, 0, "%s: exit code (err %r)" % (spec, r.err[-300:]))
        if r.doc is None:
            continue
        wrtest.stream_balance(c, r.doc)
        rx = r.doc["totals"][1]
        c.eq(rx["rx_own_pkts"], 20000, "%s: every frame own" % spec)
        c.eq(rx["rx_foreign_pkts"] + rx["rx_malformed_pkts"], 0, "%s: none foreign" % spec)
        c.eq(r.doc["streams"][0]["lost_pkts"], 0, "%s: none lost" % spec)
        c.eq((r.doc["config"].get("stack"), r.doc["tx_streams"][0].get("stack")),
             (spec, spec), "%s: the result says what was sent" % spec)
    r = wrtest.run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
                        "--rxq", "2", "--count", "20000", "--quiet", "--grace", "50ms",
                        "--size", "200",
                        "--stream", "name=vx;stack=eth/ipv4/udp/vxlan/eth/ipv6/udp",
                        "--stream", "name=plain;dport=9"])
    c.eq(r.rc, 0, "two streams: exit code (err %r)" % r.err[-300:])
    if r.doc is not None:
        wrtest.stream_balance(c, r.doc)
        c.eq(sorted((s["rx_pkts"], s["lost_pkts"]) for s in r.doc["streams"]),
             [(10000, 0), (10000, 0)], "each stream all received")
        c.eq(r.doc["totals"][1]["rx_foreign_pkts"], 0, "two streams: none foreign")
        c.eq(sorted((s["name"], s.get("stack")) for s in r.doc["tx_streams"]),
             [("plain", None), ("vx", "eth/ipv4/udp/vxlan/eth/ipv6/udp")],
             "two streams: each its own stack in tx_streams")
    c.done(r)


def stacks_bad_inputs():
    """Stacks refused before traffic, exit 2, with what was wrong."""
    c = Checker("stacks_bad_inputs")
    for opts, msg in (
            (["--stack", "eth/vlan(id=5000)/ipv4/udp"],
             "--stack eth/vlan(id=5000)/ipv4/udp: layer 2 (vlan): id=5000: expected"),
            (["--stack", "eth/ipv4/udp/vxlan/ipv4/udp"], "layer 5: ipv4 cannot follow vxlan"),
            (["--stack", "eth/vlan/ipv4/udp", "--vlan", "3"], "a VLAN tag beside a stack"),
            (["--stack", "eth/vlan/ipv4/udp", "--mix", "imix"], "a size mix with a stack"),
            (["--stack", "eth/vlan/ipv4/udp", "--ipv6"], "the stack ends in ipv4/udp but IPv6"),
            (["--stack", "eth/ipv6/udp/vxlan/eth/ipv6/udp", "--size", "100"],
             "--size 100: a stacked frame needs at least 154 bytes"),
            (["--stream", "stack=eth/ipv4"], "--stream 1: stack=eth/ipv4: it must end in"),
            (["--stream", "l3=ipv4;stack=eth/ipv6/udp"],
             "--stream 1 (stream0): the stack ends in ipv6/udp but IPv4"),
            (["--stack", "eth/vlan/ipv4/udp", "--size", "128", "--dport", "1-9"],
             "--stack: a dport range with a stack is not supported"),
            (["--stream", "size=128;dst-ip=10.0.0.1-10.0.0.9;stack=eth/vlan/ipv4/udp"],
             "--stream 1 (stream0): a dst-ip range with a stack is not supported")):
        wrtest.refused(c, ["net_null0"], ["--count", "10", "--quiet"] + opts, msg)
    c.done()


CASES = cases.by_name(stacks_pcap, stacks_ring, stacks_bad_inputs)

if __name__ == "__main__":
    cases.main(CASES)
