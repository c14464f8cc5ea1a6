# SPDX-License-Identifier: BSD-3-Clause
"""--capture FILE.pcapng on virtual ports: the file is read back with tshark
and tcpdump (not by wirerate) and compared with what the --impair fixture
did to the stream, frame by frame.
Usage: test_capture.py CASE (see CASES)."""
import os
import signal
import struct
import subprocess
import tempfile
import time

import cases
import wrtest
from capture_model import (arrival, expected, seq_of, tcpdump_count, tcpdump_times,
                           tshark_fields)
from wrtest import Checker

def capture_impair():
    """Gaps, duplicates and reordering from the fixture: the file holds
    exactly the frames around each, then the last ones, in arrival order,
    with wall-clock timestamps inside the run."""
    c = Checker("capture_impair")
    n, around, last = 20000, 2, 8
    with tempfile.TemporaryDirectory() as d:
        cap = os.path.join(d, "anomalies.pcapng")
        t0 = time.time()
        r = wrtest.run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
                            "--count", str(n), "--quiet",
                            "--impair", "drop=1000,dup=1000@250,reorder=1000@500",
                            "--capture", cap, "--capture-around", str(around),
                            "--capture-last", str(last), "--capture-max", "100k"])
        t1 = time.time()
        c.eq(r.rc, 0, "exit code")
        rows = tshark_fields(cap, ["frame.time_epoch", "udp.payload",
                                   "frame.interface_queue", "frame.len",
                                   "frame.cap_len", "frame.interface_id"])
        rc, nb = tcpdump_count(cap)
        c.eq(rc, 0, "tcpdump -r reads the file")
        c.eq(nb, len(rows), "tcpdump and tshark see the same frames")
        tdump = tcpdump_times(cap)
        blocks = tshark_fields(cap, ["frame.packet_flags_direction", "frame.interface_name",
                                     "frame.encap_type"])
        c.eq(os.listdir(d), ["anomalies.pcapng"], "no temporary file left")
    want = expected(arrival(n, (1000, 999), (1000, 250), (1000, 500)), around, last)
    got = [seq_of(p) for _, p, _, _, _, _ in rows]
    c.eq(len(got), len(want), "frames kept")
    c.true(got == want, "sequences kept, in order (first difference at %r)" %
           next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), None))
    times = [float(t) for t, _, _, _, _, _ in rows]
    c.true(all(t0 <= t <= t1 for t in times), "timestamps within the run: %r..%r "
           "not in %r..%r" % (min(times), max(times), t0, t1))
    c.true(times == sorted(times), "timestamps never go back")
    # tcpdump prints microseconds: the same instants, to its resolution.
    c.true(len(tdump) == len(times) and
           all(abs(a - b) < 2e-6 for a, b in zip(tdump, times)),
           "tcpdump -tt shows the timestamps tshark does")
    c.true(all(int(fl, 16) == 1 for fl, _, _ in blocks), "every frame marked inbound "
           "(EPB flags), not %r" % sorted({fl for fl, _, _ in blocks}))
    c.true(len({n for _, n, _ in blocks}) == 1 and blocks[0][1] != "",
           "one named interface block for the RX port: %r" %
           sorted({n for _, n, _ in blocks}))
    c.true(all(e == "1" for _, _, e in blocks), "Ethernet link type")
    c.true(all(q == "0" for _, _, q, _, _, _ in rows), "queue 0 recorded")
    c.true(all(i == "1" for _, _, _, _, _, i in rows), "the RX port's interface (1)")
    c.true(all(fl == "60" and cl == "60" for _, _, _, fl, cl, _ in rows),
           "whole 64-byte frames (60 without FCS)")
    k = r.doc["capture"]
    c.eq(k["frames"], len(want), "JSON frames")
    c.eq(k["dropped_pkts"], 0, "no copy dropped")
    c.eq(k["over_budget_pkts"], 0, "budget not reached")
    s = r.doc["streams"][0]
    # Each gap, duplicate and late frame is one odd arrival; a reordered
    # frame also leaves a gap before its successor.
    c.eq(k["anomalies"], s["gap_pkts"] + s["dup_pkts"] + 2 * s["late_pkts"],
         "anomalies = gaps + duplicates + 2 x reordered")
    c.done(r)


def capture_budget():
    """--capture-max bounds the copies per queue; what is past it is
    counted. --capture-what seq keeps no last frames; --capture-snaplen
    cuts frames but keeps their original length."""
    c = Checker("capture_budget")
    with tempfile.TemporaryDirectory() as d:
        cap = os.path.join(d, "b.pcapng")
        r = wrtest.run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
                            "--count", "50000", "--size", "128", "--quiet",
                            "--impair", "drop=100", "--capture", cap,
                            "--capture-what", "seq", "--capture-around", "1",
                            "--capture-max", "30", "--capture-snaplen", "64"])
        c.eq(r.rc, 0, "exit code")
        rows = tshark_fields(cap, ["udp.payload", "frame.len", "frame.cap_len"])
    k = r.doc["capture"]
    c.eq(len(rows), 30, "frames in the file = --capture-max")
    c.eq(k["frames"], 30, "JSON frames")
    # 500 drops, 499 gaps seen (the last frame is dropped: tail loss), each
    # after a frame: 1 before + the odd one + 1 after = 3 per gap, so the
    # budget of 30 holds 10 gaps; the other 489 are past it.
    c.eq(k["anomalies"], 499, "anomalies seen")
    c.eq(k["over_budget_pkts"], 489, "anomalies past the budget")
    seqs = [seq_of(p) for p, _, _ in rows]
    want = []
    for g in range(10):
        want += [100 * g + 98, 100 * g + 100, 100 * g + 101]
    c.eq(seqs, want, "sequences around the first 10 gaps")
    c.true(all(fl == "124" and cl == "64" for _, fl, cl in rows),
           "snapped to 64 bytes, original length 124 kept")
    c.done(r)


def capture_foreign():
    """Foreign frames from a pcap file arrive and are kept byte for byte
    (compared by tshark), up to --capture-max."""
    c = Checker("capture_foreign")
    frames = []
    for i in range(40):
        body = bytes([0x02, 0, 0, 0, 0, i, 0x02, 0, 0, 0, 1, i, 0x88, 0xb5])
        frames.append(body + bytes((i * 7 + j) & 0xff for j in range(46 + i)))
    with tempfile.TemporaryDirectory() as d:
        rx, tx, cap = (os.path.join(d, n) for n in ("rx.pcap", "tx.pcap", "f.pcapng"))
        with open(rx, "wb") as f:
            f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
            for b in frames:
                f.write(struct.pack("<IIII", 0, 0, len(b), len(b)) + b)
        r = wrtest.run(["net_pcap0,rx_pcap=%s,tx_pcap=%s" % (rx, tx)],
                       ["--tx-ports", "none", "--duration", "1", "--quiet",
                        "--capture", cap, "--capture-what", "foreign",
                        "--capture-max", "25", "--size", "128"])
        c.eq(r.rc, 0, "exit code")
        rows = tshark_fields(cap, ["eth.src", "frame.len"])
        raw = subprocess.run(["tshark", "-r", cap, "-x"], capture_output=True,
                             text=True).stdout
    c.eq(r.doc["totals"][0]["rx_foreign_pkts"], 40, "40 foreign frames received")
    c.eq(len(rows), 25, "first 25 kept (--capture-max)")
    c.eq([int(fl) for _, fl in rows], [len(b) for b in frames[:25]], "lengths")
    c.eq([s for s, _ in rows], ["02:00:00:00:01:%02x" % i for i in range(25)],
         "sources, in arrival order")
    last = frames[24]
    c.true(_hex_in_dump(last, raw), "bytes of the last kept frame")
    c.eq(r.doc["capture"]["over_budget_pkts"], 15, "15 past the budget")
    c.done(r)


def _hex_in_dump(frame, dump):
    """Whether tshark -x's hex dump holds frame's bytes (lines of 16)."""
    hexes = []
    for line in dump.splitlines():
        parts = line.split("  ")
        if len(parts) >= 2 and len(parts[0]) == 4:
            hexes += parts[1].split()
    joined = "".join(hexes)
    return frame.hex() in joined


def capture_trials():
    """A sweep of 4 trials, each stop copying its 4096 last frames (issue
    22 item 9): the copies of earlier stops do not exhaust the copy pool
    (1000 + 4096 + 256 copies per RX queue), so each trial's gap and
    last frames are all in the file (tshark), nothing is dropped, and
    tcpdump counts what the JSON says."""
    c = Checker("capture_trials")
    sizes, n, last = (64, 128, 256, 512), 8500, 4096
    with tempfile.TemporaryDirectory() as d:
        cap = os.path.join(d, "t.pcapng")
        r = wrtest.run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
                            "--mode", "sweep", "--sizes", ",".join(map(str, sizes)),
                            "--count", str(n), "--quiet",
                            "--impair", "drop=100000@500", "--capture", cap,
                            "--capture-what", "seq,last", "--capture-around", "0",
                            "--capture-last", str(last)], timeout=120)
        c.eq(r.rc, 0, "exit code")
        rows = tshark_fields(cap, ["frame.len", "udp.payload"])
        rc, nb = tcpdump_count(cap)
    k = r.doc["capture"]
    c.eq((k["dropped_pkts"], k["over_budget_pkts"]), (0, 0), "no copy dropped")
    c.eq((rc, nb, k["frames"]), (0, len(rows), len(rows)), "tcpdump, tshark and JSON agree")
    c.eq([(t["frame_size"], t["sent_pkts"]) for t in r.doc["trials"]],
         [(z, n) for z in sizes], "one trial per size")
    # Each trial numbers its frames from 0; the fixture drops 500 of each:
    # 501 is its gap, and n - 4096 .. n - 1 its last frames.
    want = [501] + list(range(n - last, n))
    for z in sizes:
        got = sorted(seq_of(p) for fl, p in rows if int(fl) == z - 4)
        c.true(got == want, "%d B: the gap and the %d last frames (%d kept, first "
               "missing %r)" % (z, last, len(got), sorted(set(want) - set(got))[:3]))
    c.done(r)


def capture_snaplen():
    """--capture-snaplen is honoured above the own frame size:
    1000-byte foreign frames among 64-byte own ones are kept
    whole with a snap length of 1500, cut to 200 with 200 (tshark)."""
    c = Checker("capture_snaplen")
    with tempfile.TemporaryDirectory() as d:
        rx = os.path.join(d, "rx.pcap")
        with open(rx, "wb") as f:
            f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
            for i in range(10):
                b = bytes([0x02, 0, 0, 0, 0, i, 0x02, 0, 0, 0, 1, i, 0x88, 0xb5])
                b += bytes((i + j) & 0xff for j in range(986))
                f.write(struct.pack("<IIII", 0, 0, len(b), len(b)) + b)
        got = {}
        for snap in (1500, 200):
            cap = os.path.join(d, "s%d.pcapng" % snap)
            r = wrtest.run(["net_pcap0,rx_pcap=" + rx],
                           ["--tx-ports", "none", "--duration", "1", "--quiet",
                            "--capture", cap, "--capture-what", "foreign",
                            "--capture-snaplen", str(snap)])
            c.eq(r.rc, 0, "snaplen %d: exit code" % snap)
            c.eq(r.doc["capture"]["snaplen"], snap, "snaplen %d: JSON" % snap)
            got[snap] = [(int(a), int(b)) for a, b in
                         tshark_fields(cap, ["frame.len", "frame.cap_len"])]
    c.eq(got[1500], [(1000, 1000)] * 10, "snaplen 1500: whole 1000-byte frames")
    c.eq(got[200], [(1000, 200)] * 10, "snaplen 200: cut, original length kept")
    c.done(r)


def capture_sigint():
    """Stopped by SIGINT mid-run: the file is complete (the last frames of
    the queue) and there is no temporary file."""
    c = Checker("capture_sigint")
    with tempfile.TemporaryDirectory() as d:
        cap = os.path.join(d, "s.pcapng")
        r = wrtest.run_and_signal([], ["--ring-pairs", "1", "--tx-ports", "0",
                                       "--rx-ports", "1", "--duration", "30",
                                       "--rate", "100kpps", "--quiet",
                                       "--capture", cap, "--capture-last", "5"], 2.0)
        c.eq(r.rc, 0, "exit code")
        rows = tshark_fields(cap, ["udp.payload"])
        c.eq(sorted(os.listdir(d)), ["s.pcapng"], "no temporary file left")
    seqs = [seq_of(p) for p, in rows]
    sent = r.doc["streams"][0]["sent_pkts"]
    c.eq(seqs, list(range(sent - 5, sent)), "the last 5 frames")
    c.done(r)


def capture_sigkill():
    """Killed with SIGKILL (no handler runs) after a few checkpoints: the
    file holds the frames kept until the last one, every one around a
    drop of the fixture, and opens in tshark."""
    c = Checker("capture_sigkill")
    with tempfile.TemporaryDirectory() as d:
        cap = os.path.join(d, "k.pcapng")
        argv = [wrtest.WIRERATE] + wrtest.eal_args([]) + [
            "--", "--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
            "--duration", "60", "--rate", "100kpps", "--quiet", "--checkpoint", "1s",
            "--impair", "drop=1000", "--capture", cap, "--capture-what", "seq"]
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline and not os.path.exists(cap):
            time.sleep(0.2)
        time.sleep(2.5)
        p.send_signal(signal.SIGKILL)
        p.wait()
        c.true(os.path.exists(cap), "a checkpoint was written")
        rows = tshark_fields(cap, ["udp.payload"]) if os.path.exists(cap) else []
    seqs = [seq_of(r[0]) for r in rows]
    c.true(len(seqs) >= 9, "frames of at least one drop: %d" % len(seqs))
    # Around the drop of 999 + 1000k: 995..998 before, 1000..1004 after.
    c.true(all(s % 1000 in (995, 996, 997, 998, 0, 1, 2, 3, 4) for s in seqs),
           "every frame next to a drop: %r" % seqs[:20])
    c.true(999 not in [s % 1000 for s in seqs], "no dropped frame in the file")
    c.done()


def capture_bad():
    """Bad capture options: exit 2 and a message naming the option."""
    c = Checker("capture_bad")
    for opts, msg in [
        (["--capture-what", "gaps"], "--capture-what gaps: 'gaps' is not one of"),
        (["--capture-around", "5000"], "--capture-around 5000: out of range"),
        (["--capture-snaplen", "10"], "--capture-snaplen 10: out of range"),
        (["--capture", "x.pcapng", "--reflect", "--duration", "1"],
         "--capture with --reflect"),
    ]:
        wrtest.refused(c, ["net_null0"], opts, msg)
    c.done()


CASES = cases.by_name(capture_impair, capture_budget, capture_foreign, capture_trials,
                      capture_snaplen, capture_sigint,
                      capture_sigkill, capture_bad)

if __name__ == "__main__":
    cases.main(CASES)
