# SPDX-License-Identifier: BSD-3-Clause
"""Results that survive a crash, and cross-checks against counts wirerate
did not make (PMD counters). Usage: test_integrity.py CASE (see CASES)."""
import json
import os
import struct
import subprocess
import tempfile

import cases
import wrtest
from test_checkpoint import RING, incomplete_accepted, kill_mid_run, merge_accepted, tool
from wrtest import Checker, load_json


def rx_of_one_instant(c, s, label):
    """A stream's rx block agrees with its counts: taken from the same copy
    (during the run the published one, never the workers' live state, which
    has moved on), its queues add up to rx_pkts and every frame but each
    queue's first is one inter-arrival gap."""
    qs = s["rx"]["rx_queues"]
    c.eq(sum(q["rx_pkts"] for q in qs), s["rx_pkts"], "%s: rx_queues sum" % label)
    c.eq(s["rx"]["interarrival"]["nb"], s["rx_pkts"] - len(qs),
         "%s: one gap per frame after each queue's first" % label)


def checkpoint_sigkill():
    """--json is rewritten atomically during the run: SIGKILL leaves a valid
    result up to the last interval, labelled running, that compare, report
    and merge accept and label incomplete (the old one left nothing)."""
    c = Checker("checkpoint_sigkill")
    with tempfile.TemporaryDirectory() as d:
        doc, path = kill_mid_run(d, RING + ["--duration", "0", "--interval", "500ms",
                                            "--checkpoint", "1s"])
        c.true(doc is not None, "a result file survives SIGKILL")
        if doc is None:
            c.done()
        c.eq(doc["schema"], "wirerate-result/1", "schema")
        c.eq((doc["stop_reason"], doc["complete"]), ("running", False), "labelled running")
        c.true(len(doc["samples"]) >= 2, "intervals up to the last: %d" % len(doc["samples"]))
        c.eq(doc["duration_s"], doc["samples"][-1]["t_s"], "duration = last interval")
        tot = {t["port_id"]: t for t in doc["totals"]}
        last = {p["port_id"]: p for p in doc["samples"][-1]["ports"]}
        c.eq(tot[0]["tx_pkts"], last[0]["tx_pkts"], "totals as of the last interval")
        c.true(tot[1]["rx_own_pkts"] > 0, "frames received")
        # One instant: the streams' and the TX queues' sent are the ports'.
        c.eq(sum(x["sent_pkts"] for x in doc["streams"]), tot[0]["tx_pkts"],
             "streams' sent = the ports' TX (one reading)")
        c.eq(sum(x["sent_pkts"] for x in doc["tx_streams"]), tot[0]["tx_pkts"],
             "tx_streams' sent = the ports' TX (one reading)")
        c.eq(doc["accounting"]["sent_pkts"], tot[0]["tx_pkts"], "accounting's sent too")
        s = doc["streams"]
        c.eq(len(s), 1, "the stream, from the published copies")
        if s:
            c.true(0 < s[0]["rx_pkts"] <= s[0]["sent_pkts"], "received <= sent")
            c.eq(s[0]["sent_pkts"], s[0]["rx_pkts"] + s[0]["lost_pkts"],
                 "sent = received + in flight")
            rx_of_one_instant(c, s[0], "checkpoint")
        c.eq(doc["warnings"], [], "no live_unpublished warning (one stream)")
        c.eq(doc["accounting"]["complete"], False, "accounting labelled incomplete")
        c.eq(sorted(os.listdir(d)), ["r.json", "r.samples.jsonl"],
             "the result and its interval file, no temporary file")
        incomplete_accepted(c, path, "run")
        snd, _ = kill_mid_run(os.path.join(d), ["--rx-ports", "none", "--quiet",
                                                "--duration", "0", "--checkpoint", "1s"],
                              vdevs=["net_null0"], min_samples=1)
        with open(os.path.join(d, "s.json"), "w") as f:
            json.dump(snd, f)
        merge_accepted(c, os.path.join(d, "s.json"), path, "run")
    r = wrtest.run([], RING + ["--duration", "2.5", "--checkpoint", "1s"])
    c.eq(r.rc, 0, "a run to its end: exit code")
    c.eq(r.doc["stop_reason"], "duration", "the final result replaces the last one")
    c.true(r.doc["checkpoints"]["written"] >= 2 and r.doc["checkpoints"]["failed"] == 0,
           "checkpoints written during it: %r" % r.doc["checkpoints"])
    for st in r.doc["streams"]:
        rx_of_one_instant(c, st, "final")
    c.done(r)


def read_series(path):
    """The companion file's lines, parsed."""
    with open(path) as f:
        return [json.loads(line) for line in f]


def series_file():
    """Memory and the checkpoint are bounded: the result keeps the last 120
    intervals (series{} says how many there were), and every interval of
    every trial is in the companion R.samples.jsonl, one JSON object a line,
    equal to the result's samples where both have one."""
    c = Checker("series_file")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        argv = [wrtest.WIRERATE] + wrtest.eal_args([]) + ["--"] + RING + [
            "--duration", "15", "--interval", "100ms", "--json", path]
        p = subprocess.run(argv, capture_output=True, text=True, timeout=90,
                           stdin=subprocess.DEVNULL)
        c.eq(p.returncode, 0, "exit code: " + p.stderr[-300:])
        doc = load_json(path)
        samples = doc["samples"]
        ser = doc.get("series", {})
        n = ser.get("intervals", len(samples))
        c.true(n > 120, "more intervals than kept: %d" % n)
        c.eq(len(samples), 120, "samples[] keeps the last 120")
        c.eq((ser.get("kept"), ser.get("first_kept"), ser.get("kept_max")),
             (120, n - 120, 120), "series{} says which")
        c.eq(ser.get("file"), os.path.join(d, "r.samples.jsonl"), "companion named")
        lines = read_series(os.path.join(d, "r.samples.jsonl")) if ser.get("file") else []
        c.eq((len(lines), ser.get("file_lines"), ser.get("file_complete")),
             (n, n, True), "a line per interval")
        # Long lists: compared whole, reported short.
        c.true([x["interval"] for x in lines] == list(range(n)), "every interval, in order")
        c.eq({x["trial"] for x in lines}, {1}, "one trial")
        tail = lines[-len(samples):]
        c.true([x["ports"] for x in tail] == [s["ports"] for s in samples],
               "the file's last intervals = samples[]")
        c.true([x["t_s"] for x in tail] == [s["t_s"] for s in samples],
               "same times: file %r.. samples %r.." % (
                   [x["t_s"] for x in tail[:2]], [s["t_s"] for s in samples[:2]]))
        tx = [x["ports"][0]["tx_pkts"] for x in lines]
        c.true(all(a <= b for a, b in zip(tx, tx[1:])) and tx[0] > 0,
               "cumulative TX rises from the first interval on")
        tot = {t["port_id"]: t for t in doc["totals"]}
        c.true(tx[-1] <= tot[0]["tx_pkts"], "the last interval within the totals")
    c.done()


def xcheck_clean():
    """On ring and null ports every cross-check agrees: no warnings. The
    ring PMD's per-queue counters are compared queue by queue, on every
    DPDK release (struct rte_eth_stats up to 24.11, xstats from 25.11)."""
    c = Checker("xcheck_clean")
    for vdevs, opts, queues in ((["net_ring0"], ["--txq", "2", "--rxq", "2"], 4),
                                ([], RING[:-1], 2),
                                (["net_null0"], ["--rx-ports", "none"], None)):
        r = wrtest.run(vdevs, opts + ["--count", "200k", "--quiet"])
        c.eq(r.rc, 0, "%s: exit code" % vdevs)
        c.eq(r.doc["warnings"], [], "%s %s: no cross-check warning" % (vdevs, opts))
        if queues is not None:
            c.eq(r.doc["cross_checked"]["queues"], queues,
                 "%s %s: per-queue counts compared (TX and RX queues)" % (vdevs, opts))
        c.true("WARNING" not in r.out, "%s: none in the summary" % vdevs)
    c.done(r)


def xcheck_impair():
    """The --impair fixture sits between the PMD and wirerate's count, as a
    DUT would: what it removed and added is part of the path, so with it
    the PMD's ipackets still agree with wirerate's count exactly."""
    c = Checker("xcheck_impair")
    r = wrtest.run([], RING + ["--txq", "2", "--rxq", "2", "--count", "200000",
                               "--impair", "drop=1000,dup=1000@250,police=2Mpps"])
    c.eq(r.rc, 0, "exit code")
    imp = r.doc["totals"][1]["impair"]
    c.true(imp["dropped_pkts"] > 0 and imp["duplicated_pkts"] > 0, "fixture acted")
    c.eq(r.doc["warnings"], [], "PMD and wirerate agree through the fixture")
    c.eq(r.doc["totals"][1]["rx_pkts"], r.doc["totals"][1]["nic_ipackets"] -
         imp["dropped_pkts"] - imp["policed_pkts"] + imp["duplicated_pkts"],
         "rx = ipackets - dropped - policed + duplicated")
    c.done(r)


def xcheck_pool():
    """A pcap port whose RX pool is tiny: the PMD drops frames (rx_nombuf)
    that no stream shows as lost: rx_drops fires."""
    c = Checker("xcheck_pool")
    with tempfile.TemporaryDirectory() as d:
        rx = os.path.join(d, "rx.pcap")
        with open(rx, "wb") as f:
            f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
            for _ in range(2000):  # 3000 B: two mbufs each
                f.write(struct.pack("<IIII", 0, 0, 3000, 3000) + bytes(3000))
        r = wrtest.run(["net_pcap0,rx_pcap=%s,tx_pcap=%s/tx.pcap" % (rx, d)],
                       ["--tx-ports", "none", "--duration", "1", "--quiet",
                        "--pool-mbufs", "32"])
    c.eq(r.rc, 0, "exit code")
    nombuf = r.doc["totals"][0]["drops"]["rx_nombuf"]
    c.true(nombuf > 0, "the PMD ran out of mbufs: %d" % nombuf)
    w = [x for x in r.doc["warnings"] if x["check"] == "rx_drops"]
    c.eq(len(w), 1, "rx_drops warning: %r" % r.doc["warnings"])
    if w:
        c.eq((w[0]["port_id"], w[0]["pmd"], w[0]["wirerate"]), (0, nombuf, 0),
             "PMD drops against the streams' loss")
    c.eq(r.doc["totals"][0]["rx_pkts"] + nombuf, 2000, "every frame of the file")
    c.true("WARNING rx_drops" in r.out, "the summary names it")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        with open(path, "w") as f:
            json.dump(r.doc, f)
        jx = os.path.join(d, "j.xml")
        rc, out = tool("compare", "--junit", jx, path, path)
        xml = open(jx).read() if os.path.exists(jx) else ""
    c.eq(rc, 1, "compare fails on a cross-check warning")
    c.true("cross-check rx_drops failed" in out and "verdict: FAILED" in out,
           "compare names it: " + out[-400:])
    c.true('name="cross_checks"' in xml and 'type="cross-check"' in xml,
           "JUnit: a failed cross_checks case")
    c.done(r)


def warning(doc, check, port_id, queue=None):
    """The one warning check names for port_id (queue None: the port's)."""
    w = [x for x in doc["warnings"] if x["check"] == check and
         x["port_id"] == port_id and x["queue"] == queue]
    return w[0] if len(w) == 1 else None


def xcheck_tx_kernel():
    """af_packet on an interface that is down: the PMD takes every frame
    (wirerate counts it sent) but the kernel refuses the send (ENETDOWN),
    so net_af_packet counts it in oerrors, not opackets. tx_opackets and
    tx_oerrors fire, with the PMD's figures; the kernel's own counter of
    the interface says nothing left."""
    c = Checker("xcheck_tx_kernel")
    if not wrtest.have_netns():
        c.skip("cannot create a network namespace (needs root and CONFIG_NET_NS)")
        c.done()
    ns = "wrxk%d" % os.getpid()
    subprocess.run(["ip", "netns", "add", ns], check=True)
    try:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.json")
            # A new namespace's lo is down: nothing here brings it up.
            argv = ["ip", "netns", "exec", ns, wrtest.WIRERATE] + wrtest.eal_args(
                ["net_af_packet0,iface=lo"]) + ["--", "--rx-ports", "none",
                                                "--duration", "1", "--quiet",
                                                "--json", path]
            p = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                               stdin=subprocess.DEVNULL)
            r = wrtest.Result(p.returncode, p.stdout, p.stderr, load_json(path))
            kern = subprocess.run(["ip", "netns", "exec", ns, "cat",
                                   "/sys/class/net/lo/statistics/tx_packets"],
                                  capture_output=True, text=True).stdout.strip()
    finally:
        subprocess.run(["ip", "netns", "del", ns])
    c.eq(r.rc, 0, "exit code")
    if r.doc is None:
        c.done(r)
    t = r.doc["totals"][0]
    c.true(t["tx_pkts"] > 0, "wirerate handed frames over: %d" % t["tx_pkts"])
    c.eq((t["nic_opackets"], t["drops"]["tx_errors"]), (0, t["tx_pkts"]),
         "the PMD: opackets, oerrors")
    c.eq(kern, "0", "the kernel sent nothing on lo")
    w = warning(r.doc, "tx_opackets", 0)
    c.true(w is not None, "tx_opackets warning: %r" % r.doc["warnings"])
    if w:
        c.eq((w["wirerate"], w["pmd"]), (t["tx_pkts"], 0), "tx_opackets figures")
    w = warning(r.doc, "tx_oerrors", 0)
    c.true(w is not None, "tx_oerrors warning: %r" % r.doc["warnings"])
    if w:
        c.eq((w["wirerate"], w["pmd"]), (t["tx_pkts"], t["tx_pkts"]),
             "tx_oerrors figures")
    c.true("WARNING tx_opackets" in r.out and "WARNING tx_oerrors" in r.out,
           "the summary names both")
    c.done(r)


def xcheck_bond():
    """A bond in 802.3ad mode over a net_ring loopback: the bonding PMD
    sends and takes back its own LACP frames on the member port. They are
    in its counters (the sum of the member's) and never pass through
    wirerate: tx_opackets and rx_ipackets fire while every stream frame
    arrives, each PMD figure above wirerate's by the same LACP frames."""
    c = Checker("xcheck_bond")
    # The bonding PMD's devarg is "member" since DPDK 23.11, "slave" before.
    series = tuple(int(x) for x in os.environ["WR_DPDK_VERSION"].split(".")[:2])
    member = "member" if series >= (23, 11) else "slave"
    r = wrtest.run(["net_ring0", "net_bonding0,mode=4,%s=net_ring0" % member],
                   ["--tx-ports", "1", "--rx-ports", "1", "--count", "2000",
                    "--duration", "30", "--quiet"])
    c.eq(r.rc, 0, "exit code")
    if r.doc is None:
        c.done(r)
    t = r.doc["totals"][0]
    c.eq((t["port_id"], t["tx_pkts"], t["rx_own_pkts"], t["rx_pkts"]),
         (1, 2000, 2000, 2000), "port 1, the bond: every frame sent came back")
    lacp_tx, lacp_rx = t["nic_opackets"] - 2000, t["nic_ipackets"] - 2000
    c.true(lacp_tx > 0, "the bond sent LACP frames of its own: %d" % lacp_tx)
    c.eq(lacp_rx, lacp_tx, "and took every one back off the loop")
    for check, key in (("tx_opackets", "nic_opackets"), ("rx_ipackets", "nic_ipackets")):
        w = warning(r.doc, check, 1)
        c.true(w is not None, "%s warning: %r" % (check, r.doc["warnings"]))
        if w:
            c.eq((w["wirerate"], w["pmd"]), (2000, t[key]), "%s figures" % check)
        c.true("WARNING %s: port 1:" % check in r.out, "the summary names " + check)
    c.done(r)


def xcheck_mbufs():
    """A net_ring port nobody reads: the frames stay in its ring, and the
    ring PMD frees the ring at close without freeing them. The mempools
    count them in use: the mbufs check fires (and the run fails) with
    exactly the frames the PMD took (its opackets)."""
    c = Checker("xcheck_mbufs")
    r = wrtest.run(["net_ring0"], ["--rx-ports", "none", "--count", "5000",
                                   "--duration", "1", "--quiet"])
    c.eq(r.rc, 1, "exit code: mbufs missing fail the run")
    if r.doc is None:
        c.done(r)
    t = r.doc["totals"][0]
    c.true(0 < t["nic_opackets"] < 5000, "the ring filled: %d" % t["nic_opackets"])
    c.eq(r.doc["accounting"]["mbufs_missing"], t["nic_opackets"],
         "mbufs not back = frames left in the ring")
    w = warning(r.doc, "mbufs", None)
    c.true(w is not None, "mbufs warning: %r" % r.doc["warnings"])
    if w:
        c.eq(w["wirerate"], t["nic_opackets"], "mbufs figure")
    c.true("WARNING mbufs" in r.out and "mbufs were not returned" in r.err,
           "summary and error name it")
    c.done(r)


def pcap_records(path):
    """The frames of a classic pcap file, in order."""
    with open(path, "rb") as f:
        d = f.read()
    off, out = 24, []
    while off + 16 <= len(d):
        n = struct.unpack("<IIII", d[off:off + 16])[2]
        out.append(d[off + 16:off + 16 + n])
        off += 16 + n
    return d[:24], out


def sender_pcap(c, d, n):
    """A pcap file of n frames a wirerate sender wrote: (header, frames)."""
    own = os.path.join(d, "own.pcap")
    r = wrtest.run(["net_pcap0,tx_pcap=" + own], ["--rx-ports", "none",
                                                  "--count", str(n), "--quiet"])
    c.eq(r.rc, 0, "sender exit code")
    hdr, frames = pcap_records(own) if os.path.exists(own) else (b"", [])
    c.eq(len(frames), n, "frames the sender wrote")
    return hdr, frames


def write_pcap(path, hdr, frames):
    with open(path, "wb") as f:
        f.write(hdr)
        for x in frames:
            f.write(struct.pack("<IIII", 0, 0, len(x), len(x)) + x)


# An IEEE 802.3 frame (a length, 39, where Ethernet II has its type):
# LLC 42 42 03 and a spanning-tree configuration BPDU, padded to 60 bytes.
STP_BPDU = (bytes.fromhex("0180c2000000" "020000000001" "0027" "424203")
            + bytes(36)).ljust(60, b"\0")


def xcheck_foreign():
    """Frames wirerate did not make arrive among its own (from a pcap file
    of 500 frames a wirerate sender wrote, with 100 frames of zeros, 25
    spanning-tree BPDUs (802.3 frames) and 50 own frames made 10 bytes
    longer than their IP length says): the PMD's ipackets are own +
    foreign + malformed, and rx_ipackets stays quiet."""
    c = Checker("xcheck_foreign")
    with tempfile.TemporaryDirectory() as d:
        mixed = os.path.join(d, "mixed.pcap")
        hdr, frames = sender_pcap(c, d, 500)
        out = []
        for i, fr in enumerate(frames):
            out += [fr] + ([bytes(60)] if i % 5 == 0 else [])
            out += [fr + bytes(10)] if i % 10 == 0 else []
            out += [STP_BPDU] if i % 20 == 7 else []
        write_pcap(mixed, hdr, out)
        r = wrtest.run(["net_pcap0,rx_pcap=" + mixed], ["--tx-ports", "none",
                                                        "--duration", "1", "--quiet"])
    c.eq(r.rc, 0, "receiver exit code")
    if r.doc is None:
        c.done(r)
    t = r.doc["totals"][0]
    c.eq((t["rx_own_pkts"], t["rx_foreign_pkts"], t["rx_malformed_pkts"]),
         (500, 125, 50), "own, foreign, malformed")
    c.eq(t["nic_ipackets"], t["rx_own_pkts"] + t["rx_foreign_pkts"] + t["rx_malformed_pkts"],
         "the PMD's ipackets = own + foreign + malformed")
    c.eq(t["rx_pkts"], t["nic_ipackets"], "wirerate's RX count = ipackets")
    c.eq(r.doc["warnings"], [], "no cross-check warning")
    c.done(r)


def seq_stray_frames():
    """Stray frames of a stream are no sender restart: a
    duplicate of sequence 0 (the fixture's dup=100000@0 on 100k frames)
    reads dup 1; an early frame replayed 2000 frames late (a pcap file a
    wirerate sender wrote, frame 50 moved after frame 2049) reads late and
    old 1. Neither has a restart, a gap or excess; the PMD's ipackets and
    the file's frame count agree."""
    c = Checker("seq_stray_frames")
    r = wrtest.run([], RING + ["--count", "100000", "--impair", "dup=100000@0"])
    c.eq(r.rc, 0, "dup: exit code")
    s = r.doc["streams"][0]
    c.eq((s["sent_pkts"], s["rx_pkts"], s["dup_pkts"], s["restarts"], s["gap_pkts"],
          s["lost_pkts"], s["excess_pkts"]), (100000, 100000, 1, 0, 0, 0, 0),
         "dup: sent, rx, dup, restarts, gaps, lost, excess")
    t = r.doc["totals"][1]
    c.eq((t["impair"]["duplicated_pkts"], t["nic_ipackets"], t["rx_own_pkts"]),
         (1, 100000, 100001), "dup: the fixture's copy, the PMD's count, frames counted")
    with tempfile.TemporaryDirectory() as d:
        late = os.path.join(d, "late.pcap")
        hdr, frames = sender_pcap(c, d, 3000)
        order = frames[:50] + frames[51:2050] + frames[50:51] + frames[2050:]
        write_pcap(late, hdr, order)
        r = wrtest.run(["net_pcap0,rx_pcap=" + late], ["--tx-ports", "none",
                                                       "--duration", "1", "--quiet"])
    c.eq(r.rc, 0, "late: exit code")
    if r.doc is None:
        c.done(r)
    s = r.doc["streams"][0]
    c.eq((s["rx_pkts"], s["late_pkts"], s["old_pkts"], s["dup_pkts"], s["restarts"],
          s["gap_pkts"], s["lost_pkts"]), (3000, 1, 1, 0, 0, 0, 0),
         "late: rx, late, old, dup, restarts, gaps, lost")
    c.eq(r.doc["totals"][0]["nic_ipackets"], len(order), "late: the PMD read the whole file")
    c.done(r)


CASES = cases.by_name(checkpoint_sigkill, series_file,
                      xcheck_clean, xcheck_impair, xcheck_pool, xcheck_tx_kernel,
                      xcheck_bond, xcheck_mbufs, xcheck_foreign, seq_stray_frames)

if __name__ == "__main__":
    cases.main(CASES)
