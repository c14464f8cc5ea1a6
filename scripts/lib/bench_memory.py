#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Memory of a long run (docs/dev/bench.md, "Memory of a long run"): wirerate on
a ring-pair loopback at --interval 100ms with --checkpoint, its resident set
(VmRSS) and the checkpoint file's size read whenever a new checkpoint
appears, against the intervals that checkpoint counts. Prints RSS at
interval 150 and at the last one, the growth per interval between them, and
the largest checkpoint; exits 1 when RSS grew more than 256 KiB from
interval 150 to 900 or a checkpoint reached 2 MB (the memory targets).

Usage: bench_memory.py [--wirerate PATH] [--seconds S] [--json FILE]
Standard library only; run as root (DPDK)."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import eal
from stats import rss_kib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FROM_IV, TO_IV = 150, 900
RSS_FLAT_KIB = 256
CKPT_MAX_B = 2 * 1000 * 1000


def intervals_of(doc):
    """Intervals a checkpoint counts: series{} where the result has one,
    else its samples[] (before the bound every interval was kept)."""
    ser = doc.get("series")
    return ser["intervals"] if ser else len(doc.get("samples", []))


def watch(p, path, readings):
    """Until p ends: at each new checkpoint, (intervals, RSS KiB, bytes)."""
    seen = None
    while p.poll() is None:
        time.sleep(0.25)
        try:
            st = os.stat(path)
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError):
            continue
        if (st.st_mtime_ns, st.st_ino) == seen:
            continue
        seen = (st.st_mtime_ns, st.st_ino)
        rss = rss_kib(p.pid)
        if rss is not None and doc.get("stop_reason") == "running":
            readings.append((intervals_of(doc), rss, st.st_size))


def first_at(readings, iv):
    """The first reading at interval iv or later, None if none."""
    return next((r for r in readings if r[0] >= iv), None)


def measure(wirerate, seconds):
    readings = []
    with tempfile.TemporaryDirectory(prefix="wrbenchmem") as d:
        path = os.path.join(d, "r.json")
        argv = [wirerate] + eal.eal_args([], prefix="wrbenchmem%d" % os.getpid()) + [
            "--", "--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1", "--quiet",
            "--rate", "1mpps", "--duration", "%ds" % seconds, "--interval", "100ms",
            "--checkpoint", "1s", "--json", path]
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True, stdin=subprocess.DEVNULL)
        watch(p, path, readings)
        err = p.communicate()[1]
        eal.remove_runtime_dir("wrbenchmem%d" % os.getpid())
        if p.returncode != 0:
            sys.exit("wirerate exited %d: %s" % (p.returncode, err[-500:]))
    return readings


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wirerate", default=os.path.join(ROOT, "build/app/wirerate"))
    ap.add_argument("--seconds", type=int, default=100,
                    help="run length; >= 95 reaches interval 900 [100]")
    ap.add_argument("--json", help="write the readings and figures here")
    a = ap.parse_args()
    readings = measure(a.wirerate, a.seconds)
    lo, hi = first_at(readings, FROM_IV), readings[-1] if readings else None
    if lo is None or hi is None or hi[0] <= lo[0]:
        sys.exit("too few checkpoints: %r" % readings[-3:])
    per_iv = (hi[1] - lo[1]) * 1024.0 / (hi[0] - lo[0])
    growth = hi[1] - lo[1]
    biggest = max(r[2] for r in readings)
    print("| intervals | RSS KiB | checkpoint bytes |\n|---:|---:|---:|")
    for r in (readings[0], lo, hi):
        print("| %d | %d | %d |" % r)
    print("RSS %+d KiB from interval %d to %d: %.0f B per interval; "
          "largest checkpoint %d B" % (growth, lo[0], hi[0], per_iv, biggest))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"readings": readings, "rss_growth_kib": growth,
                       "bytes_per_interval": per_iv, "checkpoint_max_b": biggest}, f)
    ok = biggest < CKPT_MAX_B and (hi[0] < TO_IV or growth <= RSS_FLAT_KIB)
    if hi[0] < TO_IV:
        print("note: the run ended at interval %d, before %d" % (hi[0], TO_IV))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
