# SPDX-License-Identifier: BSD-3-Clause
"""Frame size mixes and IPv6 on real frames: captures read by tshark (an
independent dissector: lengths, IPv4 header and IPv6 UDP checksums), exact
byte accounting against the frames received, rate maths for a mix, and bad
input refused before traffic."""
import os
import shutil
import subprocess
import sys
import tempfile

import wrtest
from test_vdev import check_rate
from wrtest import Checker

IMIX_CYCLE_BYTES = 7 * 64 + 4 * 594 + 1518


def tshark(c, path, fields, extra=()):
    """Rows of the capture at path as tuples of strings, one per frame."""
    if shutil.which("tshark") is None:
        c.true(False, "tshark installed (scripts/test.sh installs it; or "
               "apt-get install tshark)")
        c.done()
    argv = ["tshark", "-r", path, "-n", "-T", "fields", "-E", "separator=,"]
    argv += list(extra)
    for f in fields:
        argv += ["-e", f]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    c.eq(p.returncode, 0, "tshark reads %s" % os.path.basename(path))
    return [tuple(line.split(",")) for line in p.stdout.splitlines()]


def capture(opts, path):
    """Send into a pcap file on net_pcap; return the run's Result."""
    return wrtest.run(["net_pcap0,tx_pcap=" + path],
                      ["--rx-ports", "none", "--quiet"] + opts)


def mix_pcap():
    """IPv4 simple IMIX into a pcap: 7:4:1 exactly per 12 frames, the same
    sequence every cycle, sizes interleaved, valid IPv4 headers, and the
    JSON's bytes equal to the bytes tshark counts."""
    c = Checker("mix_pcap")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "imix.pcap")
        r = capture(["--mix", "imix", "--count", "1200"], path)
        c.eq(r.rc, 0, "exit code")
        rows = tshark(c, path, ["frame.len", "ip.len", "ip.checksum.status"],
                      ["-o", "ip.check_checksum:TRUE"])
        sizes = [int(x[0]) + 4 for x in rows]
        c.eq(len(sizes), 1200, "frames captured")
        c.eq({s: sizes.count(s) for s in set(sizes)}, {64: 700, 594: 400, 1518: 100},
             "sizes 7:4:1")
        c.eq(sizes[12:], sizes[:-12], "the 12-frame sequence repeats")
        c.true("64,64,64" not in ",".join(map(str, sizes[:24])), "sizes interleave")
        c.eq(sum(1 for x in rows if int(x[1]) != int(x[0]) - 14), 0, "IPv4 lengths")
        c.eq(sum(1 for x in rows if x[2] != "1"), 0, "IPv4 header checksums good")
        tx = r.doc["tx_streams"][0]
        c.eq(tx["sent_bytes"], sum(sizes), "sent_bytes = bytes in the capture")
        c.eq(r.doc["totals"][0]["tx_bytes"], sum(sizes), "port tx_bytes")
        c.eq(r.doc["config"]["mix_bytes_per_cycle"], IMIX_CYCLE_BYTES, "cycle bytes")
        # RFC 6985 genome: sent letter by letter.
        path = os.path.join(d, "genome.pcap")
        r = capture(["--mix", "aaaaaaazzzzg,z=594", "--count", "24"], path)
        c.eq(r.rc, 0, "genome exit code")
        got = [int(x[0]) + 4 for x in tshark(c, path, ["frame.len"])]
        c.eq(got, ([64] * 7 + [594] * 4 + [1518]) * 2, "genome order")
    c.done(r)


def check_udp6(c, path, nb, l2, what):
    """Every frame of the capture: IPv6/UDP with a good checksum and
    consistent lengths. Returns the frame sizes (FCS included)."""
    rows = tshark(c, path, ["frame.len", "ipv6.plen", "udp.length",
                            "udp.checksum.status", "udp.srcport"],
                  ["-o", "udp.check_checksum:TRUE"])
    c.eq(len(rows), nb, "%s: frames captured" % what)
    c.eq(sum(1 for x in rows if x[3] != "1"), 0, "%s: UDP checksums good" % what)
    c.eq(sum(1 for x in rows if int(x[1]) != int(x[0]) - l2 - 40), 0,
         "%s: IPv6 payload lengths" % what)
    c.eq(sum(1 for x in rows if x[2] != x[1]), 0, "%s: UDP lengths" % what)
    return [int(x[0]) + 4 for x in rows], {x[4] for x in rows}


def ipv6_pcap():
    """IPv6/UDP at the 84-byte minimum with 5 flows, at 9018 bytes, and an
    odd-sized tagged mix: tshark finds every UDP checksum good."""
    c = Checker("ipv6_pcap")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "min.pcap")
        r = capture(["--ipv6", "--size", "84", "--flows", "5", "--count", "500"], path)
        c.eq(r.rc, 0, "84 B exit code")
        sizes, sports = check_udp6(c, path, 500, 14, "84 B")
        c.eq(set(sizes), {84}, "84 B sizes")
        c.eq(sports, {"1024", "1025", "1026", "1027", "1028"}, "5 flows")
        path = os.path.join(d, "jumbo.pcap")
        r = capture(["--ipv6", "--size", "9018", "--count", "200"], path)
        c.eq(r.rc, 0, "9018 B exit code")
        check_udp6(c, path, 200, 14, "9018 B")
        path = os.path.join(d, "mix.pcap")
        r = capture(["--ipv6", "--vlan", "7", "--mix", "88:3,89:2,1517:1,9018:1",
                     "--count", "700", "--stamp", "seq"], path)
        c.eq(r.rc, 0, "mix exit code")
        sizes, _ = check_udp6(c, path, 700, 18, "tagged mix")
        c.eq({s: sizes.count(s) for s in set(sizes)},
             {88: 300, 89: 200, 1517: 100, 9018: 100}, "tagged mix sizes")
        c.eq(r.doc["totals"][0]["tx_bytes"], sum(sizes), "tx_bytes = capture")
    c.done(r)


def mix_ring():
    """A mix over a ring pair, IPv4 and IPv6: every frame received as our
    own, per stream, and the bytes received equal the bytes the mix's
    sequence says were sent."""
    c = Checker("mix_ring")
    for opts in (["--mix", "imix"], ["--ipv6", "--mix", "84:7,594:4,1518:1,9018:1"]):
        r = wrtest.run([], ["--ring-pairs", "1", "--count", "50000", "--quiet",
                            "--grace", "50ms"] + opts)
        c.eq(r.rc, 0, "%s exit code" % opts)
        wrtest.stream_balance(c, r.doc)
        for t in r.doc["totals"]:
            p = t["port_id"]
            c.eq(t["nic_ipackets"], 50000, "%s port %d PMD received" % (opts, p))
            c.eq(t["rx_own_pkts"], 50000, "%s port %d own frames" % (opts, p))
            c.eq(t["rx_bytes"], t["tx_bytes"], "%s port %d bytes" % (opts, p))
            c.eq(t["rx_malformed_pkts"], 0, "%s port %d malformed" % (opts, p))
    c.done(r)


def mix_rate():
    """An L1 rate with a mix: pps from the exact mean size plus 20 B."""
    c = Checker("mix_rate")
    want = 1e9 * 12 / (8 * (IMIX_CYCLE_BYTES + 12 * 20))
    check_rate(c, ["--mix", "imix", "--rate", "1Gbps"], want, "imix 1 Gbps L1")
    want = 1e9 * 12 / (8 * IMIX_CYCLE_BYTES)
    check_rate(c, ["--mix", "imix", "--rate", "l2:1Gbps"], want, "imix 1 Gbps L2")
    c.done()


def traffic_bad_inputs():
    """Refused before traffic, exit 2, naming the option and the size."""
    c = Checker("traffic_bad_inputs")
    bad = [
        (["--ipv6", "--size", "83"], "--size 83: an IPv6 frame needs at least 84"),
        (["--ipv6", "--vlan", "9", "--size", "87"], "a tagged IPv6 frame needs at least 88"),
        (["--ipv6", "--mix", "imix"], "--mix imix: frame size 64 is below the 84"),
        (["--mix", "64,20000"], "frame size 20000 outside 64..9018"),
        (["--mix", "imix", "--mode", "throughput"], "--mix with --mode"),
        (["--mix", "aaz"], "letter z needs its size"),
        (["--dst-ip6", "1.2.3.4"], "not an IPv6 address"),
    ]
    for opts, msg in bad:
        r = wrtest.run(["net_null0"], ["--count", "10", "--quiet"] + opts)
        c.eq(r.rc, 2, "%s exit code" % opts)
        c.true(msg in r.err, "%s says %r (got %r)" % (opts, msg, r.err[-300:]))
        c.eq(r.doc, None, "%s: no result written" % opts)
    c.done()


CASES = {f.__name__: f for f in (mix_pcap, ipv6_pcap, mix_ring, mix_rate,
                                  traffic_bad_inputs)}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        print("usage: test_traffic.py {%s}" % ",".join(CASES))
        sys.exit(2)
    CASES[sys.argv[1]]()
