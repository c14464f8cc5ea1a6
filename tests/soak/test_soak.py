# SPDX-License-Identifier: BSD-3-Clause
"""Soak: a long loopback run at full rate (a ring pair, no pacing), checked
at every interval and at the end. Opt-in (suite 'soak'); length from
WR_SOAK_S (default 600 s).

Every interval: counters monotonic and still moving; no provable loss
(sequence gaps); the rest of sent - received explained as frames in flight:
at most what the rings hold, give or take what the port moves in the
moment between the stats core's reads of the TX and the RX counters.
At the end, exactly: sent = received + lost with nothing lost, every mbuf
back. Every interval is read from the result's companion file
(R.samples.jsonl: the result keeps the last 120). Memory: the process's
resident set sampled every 5 s must stay flat (within 256 KiB)
once the kept series is full (a bounded ring: docs/dev/bench.md)."""
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

import wrtest
from wrtest import Checker
from stats import rss_kib  # scripts/lib, on the path through wrtest

RING_SLOTS = 1023          # usable slots of one rte_ring of a ring pair
SKEW_S = 0.002             # the TX and RX counters of a sample are read
                           # within this of each other (the stats core
                           # may be preempted between them on a busy host)
BURST = 32
KEPT = 120                 # intervals a result keeps (WR_RUN_KEEP_INTERVALS)
QUEUES = 2


def sample_rss(p, out, stop):
    t0 = time.monotonic()
    while not stop.is_set() and p.poll() is None:
        v = rss_kib(p.pid)
        if v is not None:
            out.append((time.monotonic() - t0, v))
        stop.wait(5)


def check_intervals(c, samples):
    """Per interval: monotonic, no gaps, the rest explained as in flight."""
    prev = None
    worst_ahead = worst_behind = 0
    for i, s in enumerate(samples):
        by = {p["port_id"]: p for p in s["ports"]}
        sent, rx = by[0]["tx_pkts"], by[1]["rx_own_pkts"]
        lost = by[1]["gap_pkts"]
        flight = sent - rx - lost
        cur = (s["t_s"], sent, by[1]["rx_pkts"], rx)
        if prev is not None:
            c.true(all(a <= b for a, b in zip(prev, cur)),
                   "interval %d: time and counters monotonic %r -> %r" % (i, prev, cur))
            c.true(cur[3] > prev[3], "interval %d: frames still arriving" % i)
        prev = cur
        c.eq(lost, 0, "interval %d: no provable loss" % i)
        # The stats core reads the TX and the RX counters a moment apart:
        # allow what the port moves in SKEW_S either way, on top of the rings.
        skew = by[0]["tx_mpps"] * 1e6 * SKEW_S
        c.true(-skew - QUEUES * BURST <= flight <= QUEUES * (RING_SLOTS + BURST) + skew,
               "interval %d: %d in flight, within the rings and %.0f frames of read skew"
               % (i, flight, skew))
        worst_ahead = max(worst_ahead, flight)
        worst_behind = min(worst_behind, flight)
    return len(samples), worst_ahead, worst_behind


def read_series(path):
    """The companion file's intervals (one JSON object a line)."""
    try:
        with open(path) as f:
            return [json.loads(line) for line in f]
    except (OSError, ValueError):
        return []


def check_memory(c, rss, dur_s):
    """Flat once the kept series is full (KEPT intervals of 1 s, and the
    checkpoints' samples[] at its longest), to within 256 KiB."""
    warm_s = min(KEPT + 10, dur_s / 2)
    warm = [(t, v) for t, v in rss if t >= warm_s]
    if len(warm) < 3:
        c.true(False, "enough RSS samples after warm-up: %d" % len(warm))
        return 0, 0
    growth = max(v for _, v in warm) - warm[0][1]
    per_interval = growth * 1024.0 / max(1.0, warm[-1][0] - warm[0][0])
    c.true(growth <= 256, "RSS growth after %.0f s warm-up %d KiB <= 256 KiB"
           % (warm_s, growth))
    return growth, per_interval


def soak():
    dur = int(os.environ.get("WR_SOAK_S", "600"))
    c = Checker("soak")
    d = tempfile.mkdtemp(prefix="wrsoak")
    path = os.path.join(d, "r.json")
    argv = [wrtest.WIRERATE] + wrtest.eal_args([]) + [
        "--", "--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
        "--txq", str(QUEUES), "--rxq", str(QUEUES), "--burst", str(BURST),
        "--duration", "%ds" % dur, "--interval", "1s", "--quiet", "--json", path]
    rss, stop = [], threading.Event()
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, stdin=subprocess.DEVNULL)
    th = threading.Thread(target=sample_rss, args=(p, rss, stop), daemon=True)
    th.start()
    out, err = p.communicate(timeout=dur + 300)
    stop.set()
    th.join()
    wall = time.monotonic() - t0
    c.eq(p.returncode, 0, "exit code (stderr %r)" % err[-500:])
    doc = wrtest.read_result(path) if os.path.exists(path) else None
    c.true(doc is not None, "result written")
    if doc is None:
        c.done()
    series = read_series(os.path.join(d, "r.samples.jsonl"))
    c.eq(len(series), doc["series"]["intervals"], "every interval in the companion file")
    c.true(len(doc["samples"]) <= KEPT, "the result keeps at most %d: %d"
           % (KEPT, len(doc["samples"])))
    n, ahead, behind = check_intervals(c, series)
    c.true(n >= dur - 2, "an interval a second: %d" % n)
    acc = doc["accounting"]
    c.eq(acc["sent_pkts"], acc["received_pkts"] + acc["lost_pkts"], "sent = received + lost")
    c.eq(acc["lost_pkts"], 0, "nothing lost")
    c.eq(acc["mbufs_missing"], 0, "every mbuf back")
    wrtest.stream_balance(c, doc)
    tot = {t["port_id"]: t for t in doc["totals"]}
    c.eq(tot[0]["tx_pkts"], acc["sent_pkts"], "port counters agree with the streams")
    growth, per_iv = check_memory(c, rss, dur)
    print("soak: %d s (%.0f s wall), %d intervals, %d frames sent, %d received, "
          "%d lost, %d unaccounted; %.2f Mpps average; in flight at an interval "
          "%d..%d; RSS %d -> %d KiB (+%d KiB after warm-up, %.0f B/s)"
          % (dur, wall, n, acc["sent_pkts"], acc["received_pkts"], acc["lost_pkts"],
             acc["sent_pkts"] - acc["received_pkts"] - acc["lost_pkts"],
             acc["sent_pkts"] / doc["duration_s"] / 1e6, behind, ahead,
             rss[0][1] if rss else 0, rss[-1][1] if rss else 0, growth, per_iv))
    os.unlink(path)
    os.unlink(os.path.join(d, "r.samples.jsonl"))
    os.rmdir(d)
    c.done()


if __name__ == "__main__":
    soak()
