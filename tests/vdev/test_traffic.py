# SPDX-License-Identifier: BSD-3-Clause
"""Frame size mixes and IPv6 on real frames: captures read by tshark (an
independent dissector: lengths, IPv4 header and IPv6 UDP checksums), exact
byte accounting against the frames received, rate maths for a mix, and bad
input refused before traffic."""
import csv
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

import cases
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


def ring_exact(c, opts, nb=50000):
    """nb frames of opts over a ring pair: every frame received as our own,
    per stream sent = received + lost, bytes received = bytes sent, the
    PMDs agreeing. Returns the Result."""
    r = wrtest.run([], ["--ring-pairs", "1", "--count", str(nb), "--quiet",
                        "--grace", "50ms"] + opts)
    c.eq(r.rc, 0, "%s exit code" % opts)
    wrtest.stream_balance(c, r.doc)
    for t in r.doc["totals"]:
        p = t["port_id"]
        c.eq(t["nic_ipackets"], nb, "%s port %d PMD received" % (opts, p))
        c.eq(t["rx_own_pkts"], nb, "%s port %d own frames" % (opts, p))
        c.eq(t["rx_bytes"], t["tx_bytes"], "%s port %d bytes" % (opts, p))
        c.eq(t["rx_malformed_pkts"], 0, "%s port %d malformed" % (opts, p))
    return r


def mix_ring():
    """A mix over a ring pair, IPv4 and IPv6: every frame received as our
    own, per stream, and the bytes received equal the bytes the mix's
    sequence says were sent."""
    c = Checker("mix_ring")
    for opts in (["--mix", "imix"], ["--ipv6", "--mix", "84:7,594:4,1518:1,9018:1"]):
        r = ring_exact(c, opts)
    c.done(r)


def mix_rate():
    """An L1 rate with a mix: pps from the exact mean size plus 20 B."""
    c = Checker("mix_rate")
    want = 1e9 * 12 / (8 * (IMIX_CYCLE_BYTES + 12 * 20))
    check_rate(c, ["--mix", "imix", "--rate", "1Gbps"], want, "imix 1 Gbps L1")
    want = 1e9 * 12 / (8 * IMIX_CYCLE_BYTES)
    check_rate(c, ["--mix", "imix", "--rate", "l2:1Gbps"], want, "imix 1 Gbps L2")
    c.done()


# A real-time busy loop on one CPU for at most argv[2] seconds: the worker
# pinned there is off its CPU (all of it, or all but the kernel's real-time
# throttle's slices) until it ends or is killed.
HOG = """
import os, sys, time
os.sched_setaffinity(0, {int(sys.argv[1])})
os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
print("on", flush=True)
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    pass
"""


def start_hog(cpu, seconds):
    """The HOG on cpu, once it runs in the real-time class; None if it
    could not take it."""
    p = subprocess.Popen([sys.executable, "-c", HOG, str(cpu), str(seconds)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.stdout.readline().strip() != "on":
        p.wait()
        return None
    return p


def rate_stall_at_end():
    """A worker off its CPU when the run ends never grants again, yet the
    frames its pacer owed up to the stop count as clamped after a stall:
    frames the PMD sent + clamped + backlog = the rate over the run, and
    the reason says stalled (before, the tail was missing and the reason
    was that the run ended before the rate settled). The worker (lcore 1)
    is starved by a real-time busy loop on its CPU from 1 s after the
    start of a 2 s run until wirerate exits (at most 4 s: without the
    kernel's real-time throttle the worker runs only when it ends)."""
    c = Checker("rate_stall_at_end")
    if not wrtest.have_cpus(0, 1):
        wrtest.skip("CPUs 0 and 1 not both ours: the main lcore and the "
                    "worker need them")
    if not wrtest.have_rt_sched():
        wrtest.skip("the kernel refuses SCHED_FIFO: no real-time busy loop "
                    "to take the worker's CPU")
    argv = [wrtest.WIRERATE] + wrtest.eal_args(["net_null0"]) + [
        "--", "--rx-ports", "none", "--duration", "2", "--rate", "1Mpps", "--quiet"]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        p = subprocess.Popen(argv + ["--json", path], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             stdin=subprocess.DEVNULL)
        time.sleep(1.0)
        hog = start_hog(1, 4)
        try:
            out, err = p.communicate(timeout=60)
        finally:
            if hog is not None:
                hog.kill()
                hog.wait()
        c.true(hog is not None, "the busy loop took the real-time class")
        c.eq(p.returncode, 0, "exit code (%s)" % err[-300:])
        doc = wrtest.read_result(path)
    t = doc["totals"][0]
    rate = t["rate"]
    owed = rate["requested_pps"] * doc["duration_s"]
    have = t["nic_opackets"] + rate["clamped_pkts"] + rate["backlog_pkts"]
    c.true(abs(have / owed - 1) < 0.002,
           "sent %d + clamped %d + backlog %d = %d, the rate over %.4f s is %.0f"
           % (t["nic_opackets"], rate["clamped_pkts"], rate["backlog_pkts"], have,
              doc["duration_s"], owed))
    c.true(t["nic_opackets"] < 0.9 * owed, "the worker was starved: %d of %.0f sent"
           % (t["nic_opackets"], owed))
    c.eq(rate["reached"], False, "reached")
    c.eq(rate["stalls"]["clamped_pkts"], rate["clamped_pkts"], "every clamp a stall's")
    c.true(rate.get("reason", "").startswith("stalled"), "reason %r" % rate.get("reason"))
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
        wrtest.refused(c, ["net_null0"], ["--count", "10", "--quiet"] + opts, msg,
                       want_json=True)
    c.done()


STREAMS = ["--stream", "name=load;mix=imix;rate=100Mbps",
           "--stream", "name=probe;l3=ipv6;size=130;rate=5kpps;dport=2000;dscp=46",
           "--stream", "name=tagged;size=301;rate=3kpps;vlan=12;prio=5;sport=3000"]


def streams_ring():
    """Three streams on one port over a ring pair: each its own sequence,
    rate, size and RX queue; every frame accounted for per stream, against
    the receiving PMD's counter and the bytes received."""
    c = Checker("streams_ring")
    r = wrtest.run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
                        "--rxq", "3", "--duration", "1", "--quiet",
                        "--grace", "50ms"] + STREAMS)
    c.eq(r.rc, 0, "exit code")
    wrtest.stream_balance(c, r.doc)
    tx = {t["queue"]: t for t in r.doc["tx_streams"]}
    c.eq([tx[q]["name"] for q in range(3)], ["load", "probe", "tagged"], "names")
    c.eq([tx[q]["frame_size"] for q in range(3)], [1518, 130, 301], "sizes")
    c.eq(tx[1]["l3"], "ipv6", "probe is IPv6")
    for s in r.doc["streams"]:
        q = s["tx_queue"]
        c.eq(s["lost_pkts"], 0, "stream %d lost" % q)
        c.eq([(x["port_id"], x["queue"]) for x in s["rx"]["rx_queues"]], [(1, q)],
             "stream %d on RX queue %d (ring pair: queue k to queue k)" % (q, q))
        c.eq(s["rx"]["rx_queues"][0]["rx_pkts"], s["rx_pkts"], "stream %d per queue" % q)
    for q in (1, 2):
        c.true(abs(tx[q]["sent_pkts"] - tx[q]["requested_pps"]) <
               0.05 * tx[q]["requested_pps"] + 64,
               "%s sent %d in 1 s at %r pps" % (tx[q]["name"], tx[q]["sent_pkts"],
                                                 tx[q]["requested_pps"]))
    rx = r.doc["totals"][1]
    c.eq(rx["nic_ipackets"], sum(t["sent_pkts"] for t in tx.values()),
         "receiving PMD counted every frame sent")
    c.eq(rx["rx_bytes"], sum(t["sent_bytes"] for t in tx.values()),
         "bytes received = bytes the streams sent")
    c.done(r)


def streams_pcap():
    """Each stream's headers as tshark reads them: sizes, L3, DSCP, VLAN id
    and priority, UDP ports, good checksums."""
    c = Checker("streams_pcap")
    with tempfile.TemporaryDirectory() as d:
        # net_pcap gives one TX queue per tx_pcap: one file per stream.
        paths = [os.path.join(d, "s%d.pcap" % k) for k in range(3)]
        r = wrtest.run(["net_pcap0," + ",".join("tx_pcap=" + p for p in paths)],
                       ["--rx-ports", "none", "--quiet", "--count", "300"] + STREAMS)
        c.eq(r.rc, 0, "exit code")
        rows = []
        for p in paths:
            rows += tshark(c, p, ["udp.dstport", "frame.len", "ip.dsfield.dscp",
                                  "ipv6.tclass.dscp", "vlan.id", "vlan.priority",
                                  "udp.checksum.status", "ip.checksum.status"],
                           ["-o", "udp.check_checksum:TRUE", "-o",
                            "ip.check_checksum:TRUE"])
        c.eq(len(rows), 300, "frames captured")
        by = {}
        for x in rows:
            by.setdefault(x[0], []).append(x)
        c.eq(sorted((k, len(v)) for k, v in by.items()),
             [("1024", 200), ("2000", 100)], "frames per dport (load, tagged: 1024)")
        probe = by.get("2000", [])
        c.eq({(x[1], x[3], x[6]) for x in probe}, {("126", "46", "1")},
             "probe: 130 B IPv6, DSCP 46, UDP checksum good")
        tagged = [x for x in by.get("1024", []) if x[4]]
        c.eq(len(tagged), 100, "tagged frames")
        c.eq({(x[1], x[4], x[5], x[7]) for x in tagged}, {("297", "12", "5", "1")},
             "tagged: 301 B, VLAN 12 priority 5, IPv4 checksum good")
        load = [x for x in by.get("1024", []) if not x[4]]
        c.eq(sorted({int(x[1]) + 4 for x in load}), [64, 594, 1518], "load: the IMIX sizes")
    c.done(r)


TWO_STREAMS = ["--stream", "name=fast;size=128;rate=20kpps",
               "--stream", "name=slow;size=300;rate=5kpps;dport=9"]


def streams_csv():
    """--csv-streams on a ring pair with two streams: one row per stream,
    its sent count against what the receiver counted for that stream, the
    sum against the receiving PMD's counter, the rate per name."""
    c = Checker("streams_csv")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.csv")
        r = wrtest.run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
                            "--rxq", "2", "--duration", "1", "--quiet", "--grace",
                            "50ms", "--csv-streams", path] + TWO_STREAMS)
        c.eq(r.rc, 0, "exit code")
        with open(path) as f:
            lines = f.read().splitlines()
    c.eq(lines[0].split(","), ["trial", "stream_id", "name", "tx_port", "tx_queue",
                               "rx_port", "frame_size", "sent_pkts", "sent_bytes",
                               "rx_pkts", "lost_pkts", "excess_pkts", "late_pkts",
                               "dup_pkts", "lat_min_ns", "lat_mean_ns", "lat_max_ns",
                               "jitter_ns"], "header")
    rows = {x["name"]: x for x in csv.DictReader(lines)}
    c.eq(sorted(rows), ["fast", "slow"], "one row per stream")
    rx = {s["stream_id"]: s for s in r.doc["streams"]}
    for name, size, pps in (("fast", 128, 20000), ("slow", 300, 5000)):
        x = rows.get(name, {})
        sent = int(x.get("sent_pkts") or -1)
        c.eq(int(x.get("frame_size") or 0), size, "%s frame size" % name)
        c.eq(sent * size, int(x.get("sent_bytes") or -1), "%s bytes" % name)
        c.eq(sent, rx.get(int(x.get("stream_id") or -1), {}).get("rx_pkts"),
             "%s sent = what the receiver counted for it" % name)
        c.eq((x.get("rx_pkts"), x.get("lost_pkts")), (str(sent), "0"),
             "%s received, lost in the row" % name)
        c.true(abs(sent - pps) < 0.05 * pps + 64, "%s sent %d in 1 s at %d pps"
               % (name, sent, pps))
        c.true(float(x.get("lat_max_ns") or -1) > 0, "%s latency" % name)
    c.eq(sum(int(x["sent_pkts"]) for x in rows.values()),
         r.doc["totals"][1]["nic_ipackets"], "sum = the receiving PMD's count")
    check_report_streams(c, r.doc)
    c.done(r)


def report_table(md, title):
    """Rows of the Markdown table titled title (dicts by header)."""
    lines = md.split("## " + title, 1)[-1].split("\n\n")[1].splitlines()
    cells = [[x.strip() for x in ln.strip("|").split("|")] for ln in lines]
    return [dict(zip(cells[0], row)) for row in cells[2:]]


def check_report_streams(c, doc):
    """wirerate report on the result: a per-stream table whose sent and
    received columns match the receiver's per-stream counts and, summed,
    the receiving PMD's count."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "two.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        p = subprocess.run([wrtest.WIRERATE, "report", "--labels", "two", path],
                           capture_output=True, text=True, timeout=60)
    c.eq(p.returncode, 0, "report exit code (%s)" % p.stderr[-300:])
    title = "Streams of two (%s)" % wrtest.md_escape(path)
    c.true(title in p.stdout, "report has %r" % title)
    if title not in p.stdout:
        return
    rows = {x["name"]: x for x in report_table(p.stdout, title)}
    c.eq(sorted(rows), ["fast", "slow"], "report: a row per stream")
    rx = {s["stream_id"]: s for s in doc["streams"]}
    for name, x in rows.items():
        s = rx.get(int(x["stream"]), {})
        c.eq((int(x["sent"]), int(x["received"]), x["lost"]),
             (s.get("rx_pkts"), s.get("rx_pkts"), "0"),
             "report: %s sent = received = the receiver's count" % name)
    c.eq(sum(int(x["received"]) for x in rows.values()),
         doc["totals"][1]["nic_ipackets"], "report: sum = the receiving PMD's count")


def iat_below(iat, x_ns):
    """Gaps shorter than x_ns, from the log2 bins (x_ns a bin edge)."""
    return iat["zero_gaps"] + sum(b["count"] for b in iat["bins"]
                                  if b["below_ns"] <= x_ns * 1.0001)


def patterns_ring():
    """The receiver's per-stream inter-arrival histogram shows each
    pattern. A burst stream (16 every 2 ms): 15 of 16 gaps are 0, the
    others mostly in the bin holding 2 ms and almost none below 1 ms. A
    poisson stream (mean 500 us): its gaps below 4 mean gaps follow the
    exponential law, few are 0. A worker that loses its
    CPU (a shared machine) loses bursts or restarts the schedule, which
    shows in the rate, not in these shapes."""
    c = Checker("patterns_ring")
    r = wrtest.run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
                        "--rxq", "2", "--duration", "2", "--quiet", "--grace", "50ms",
                        "--stream", "name=b;size=128;pattern=burst:16/2ms",
                        "--stream", "name=p;size=128;pattern=poisson:5;rate=2kpps;dport=9"])
    c.eq(r.rc, 0, "exit code")
    wrtest.stream_balance(c, r.doc)
    st = {s["tx_queue"]: s for s in r.doc["streams"]}
    tx = {t["queue"]: t for t in r.doc["tx_streams"]}
    c.eq(tx[0]["sent_pkts"] % 16, 0, "burst: whole bursts of 16 sent")
    b = st[0]["rx"]["interarrival"]
    c.true(abs(b["zero_gaps"] / b["nb"] - 15 / 16) < 0.03,
           "burst: %d of %d gaps are 0, want 15/16" % (b["zero_gaps"], b["nb"]))
    top = max(b["bins"], key=lambda x: x["count"])
    c.true(top["below_ns"] / 2 <= 2e6 * 1.02 and 2e6 < top["below_ns"],
           "burst: most gaps between bursts in the bin of 2 ms (%r)" % b["bins"])
    nonzero = b["nb"] - b["zero_gaps"]
    short = iat_below(b, 1e6) - b["zero_gaps"]
    c.true(short <= 0.05 * nonzero + 2, "burst: %d of %d gaps between bursts "
           "below 1 ms" % (short, nonzero))
    p = st[1]["rx"]["interarrival"]
    mean = 500e3
    c.true(p["zero_gaps"] < 0.1 * p["nb"], "poisson: %d of %d gaps 0" % (p["zero_gaps"], p["nb"]))
    c.true(tx[1]["sent_pkts"] <= 2000 * 2 * 1.02 + 16, "poisson: never above the mean rate")
    edges = [x["below_ns"] for x in p["bins"] if x["below_ns"] < 4 * mean]
    cut = edges[-1]
    total = iat_below(p, cut)
    worst = 0.0
    for e in edges:
        want = (1 - math.exp(-e / mean)) / (1 - math.exp(-cut / mean))
        worst = max(worst, abs(iat_below(p, e) / total - want))
    c.true(worst < 0.1, "poisson: gaps below %.0f us follow the exponential law "
           "within 0.1 (worst %.3f)" % (cut / 1e3, worst))
    c.done(r)


def streams_bad_inputs():
    """Stream definitions refused before traffic, exit 2, stream and key named."""
    c = Checker("streams_bad_inputs")
    bad = [
        (["--stream", "size=64", "--stream", "size=128"],
         "--stream 2 (stream1) overlaps --stream 1 (stream0)"),
        (["--stream", "name=v6;l3=ipv6;size=80"],
         "--stream 1 (v6): size 80 is below the 84 bytes its IPv6"),
        (["--link-speed", "1G", "--stream", "name=a;rate=600Mbps",
          "--stream", "name=b;rate=500Mbps;dport=7"],
         "--stream 2 (b): rate: the streams up to this one need 1.1 Gb/s"),
        (["--stream", "name=m;mix=64,20000"], "frame size 20000 outside 64..9018"),
        (["--stream", "size=64;mix=imix"], "size and mix: give one"),
        (["--stream", "pattern=burst:4"], "expected burst:N/T"),
    ]
    for opts, msg in bad:
        wrtest.refused(c, ["net_null0"], ["--count", "10", "--quiet"] + opts, msg,
                       want_json=True)
    c.done()


def stream_mtu():
    """A stream (or mix) larger than the port can carry is refused before
    traffic, naming the stream: net_memif takes frames up to its ring's
    buffer size (bsize=, 2048 bytes by default).
    The server port needs no peer: nothing is sent."""
    c = Checker("stream_mtu")
    with tempfile.TemporaryDirectory() as d:
        port = "net_memif0,role=server,socket=%s,socket-abstract=no" % os.path.join(d, "m.sock")
        for opts, origin in (
                (["--stream", "name=small;size=128", "--stream",
                  "name=jumbo;size=9018;dport=9"], "(--stream 2 (jumbo))"),
                (["--mix", "64,9018"], "(--mix 64,9018)")):
            r = wrtest.run([port], ["--rx-ports", "none", "--count", "10", "--quiet"] + opts)
            c.eq(r.rc, 2, "%s exit code" % opts)
            c.true("frame size 9018 %s does not fit one buffer" % origin in r.err,
                   "%s: the error names it (got %r)" % (opts, r.err[-300:]))
    c.done()


def tap_tx_only_queues():
    """Two streams on a TX-only net_tap port: two TX queues and no RX role.
    net_tap pairs its queues (23.11 and later refuse 1 RX / 2 TX): the run
    configures as many RX queues and sends every frame, by the PMD's count."""
    c = Checker("tap_tx_only_queues")
    if not wrtest.have_tun():
        c.skip("no /dev/net/tun for net_tap")
        c.done()
    r = wrtest.run(["net_tap0,iface=wrq%d" % os.getpid()],
                   ["--rx-ports", "none", "--count", "1000", "--quiet", "--stream",
                    "name=a;size=128", "--stream", "name=b;size=256;dport=9"])
    c.eq(r.rc, 0, "exit code (err %r)" % r.err[-300:])
    if r.doc is not None:
        c.eq(r.doc["totals"][0]["nic_opackets"], 1000, "the PMD sent every frame")
        c.eq(sorted((s["queue"], s["sent_pkts"]) for s in r.doc["tx_streams"]),
             [(0, 500), (1, 500)], "each stream sent its share on its own TX queue")
    c.done()


CASES = cases.by_name(mix_pcap, ipv6_pcap, mix_ring, mix_rate, rate_stall_at_end,
                      traffic_bad_inputs,
                      streams_ring, streams_pcap, patterns_ring, streams_bad_inputs,
                      stream_mtu, streams_csv, tap_tx_only_queues)

if __name__ == "__main__":
    cases.main(CASES)
