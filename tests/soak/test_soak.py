# SPDX-License-Identifier: BSD-3-Clause
"""Soak: a long loopback run at full rate (a ring pair, no pacing), checked
at every interval and at the end. Opt-in (suite 'soak'); length from
WR_SOAK_S (default 600 s).

Every interval: counters monotonic and still moving; no provable loss
(sequence gaps); the rest of sent - received explained as frames in flight:
at most what the rings hold, give or take what the port moves in the
moment between the stats core's reads of the TX and the RX counters.
At the end, exactly: sent = received + lost with nothing lost, every mbuf
back. Memory: the process's resident set sampled every 5 s must stay flat
after a warm-up minute, but for the interval series it keeps (the samples
of the result), which is measured and bounded."""
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

import wrtest
from wrtest import Checker

RING_SLOTS = 1023          # usable slots of one rte_ring of a ring pair
SKEW_S = 0.002             # the TX and RX counters of a sample are read
                           # within this of each other (the stats core
                           # may be preempted between them on a busy host)
BURST = 32
QUEUES = 2


def rss_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def sample_rss(p, out, stop):
    t0 = time.monotonic()
    while not stop.is_set() and p.poll() is None:
        v = rss_kib(p.pid)
        if v is not None:
            out.append((time.monotonic() - t0, v))
        stop.wait(5)


def check_intervals(c, doc):
    """Per interval: monotonic, no gaps, the rest explained as in flight."""
    prev = None
    worst_ahead = worst_behind = 0
    for i, s in enumerate(doc["samples"]):
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
    return len(doc["samples"]), worst_ahead, worst_behind


def check_memory(c, rss, n_intervals, dur_s):
    """Flat after a warm-up minute, apart from the interval series."""
    warm = [v for t, v in rss if t >= min(60, dur_s / 4)]
    if len(warm) < 3:
        c.true(False, "enough RSS samples after warm-up: %d" % len(warm))
        return 0, 0
    growth = max(warm) - warm[0]
    per_interval = growth * 1024.0 / max(1, n_intervals)
    c.true(growth <= 8 * 1024, "RSS growth after warm-up %d KiB <= 8 MiB" % growth)
    c.true(per_interval <= 4096, "RSS growth %.0f B per interval <= 4 KiB" % per_interval)
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
    n, ahead, behind = check_intervals(c, doc)
    c.true(n >= dur - 2, "an interval a second: %d" % n)
    acc = doc["accounting"]
    c.eq(acc["sent_pkts"], acc["received_pkts"] + acc["lost_pkts"], "sent = received + lost")
    c.eq(acc["lost_pkts"], 0, "nothing lost")
    c.eq(acc["mbufs_missing"], 0, "every mbuf back")
    wrtest.stream_balance(c, doc)
    tot = {t["port_id"]: t for t in doc["totals"]}
    c.eq(tot[0]["tx_pkts"], acc["sent_pkts"], "port counters agree with the streams")
    growth, per_iv = check_memory(c, rss, n, dur)
    print("soak: %d s (%.0f s wall), %d intervals, %d frames sent, %d received, "
          "%d lost, %d unaccounted; %.2f Mpps average; in flight at an interval "
          "%d..%d; RSS %d -> %d KiB (+%d KiB after warm-up, %.0f B per interval)"
          % (dur, wall, n, acc["sent_pkts"], acc["received_pkts"], acc["lost_pkts"],
             acc["sent_pkts"] - acc["received_pkts"] - acc["lost_pkts"],
             acc["sent_pkts"] / doc["duration_s"] / 1e6, behind, ahead,
             rss[0][1] if rss else 0, rss[-1][1] if rss else 0, growth, per_iv))
    os.unlink(path)
    os.rmdir(d)
    c.done()


if __name__ == "__main__":
    soak()
