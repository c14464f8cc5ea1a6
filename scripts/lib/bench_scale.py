# SPDX-License-Identifier: BSD-3-Clause
"""The 'scale' case of bench.py: wirerate with 1..N worker lcores
(bench.sh --workers 1,2,4,8,15), one port per worker, the automatic plan:

  tx     N net_null ports, TX only, 64 B
  rx     N net_null ports (size=60), RX only: frames of zeros, classified
         (foreign) and counted; a source that costs no worker
  ring   N ring pairs (--ring-pairs: what one port sends its peer
         receives), TX and RX of own 64 B frames on every port, N ports'
         queues per worker: the received rate, every frame accounted

Lcore k (1..N) runs on CPU k; the main lcore 0 (the stats core, asleep
between samples) on CPU 0. When the machine has no spare CPU for it
(N + 1 > CPUs) lcore k runs on CPU (k - 1) modulo the CPUs and the main
lcore shares CPU 0 with worker 1: the table says so per row. Per row:
the wall-clock Mpps of all ports (median of the runs, over a window of
--seconds between two of wirerate's per-second samples), Mpps per worker,
TSC cycles per frame per worker (the mean over the workers of the JSON's
cpu.lcores[].tsc_per_pkt: busy cycles over frames moved) and the lowest
share of a CPU a worker thread got over the window (schedstat).
"""
import os
import re
import statistics
import sys

from eal import eal_args, remove_runtime_dir

KINDS = ("tx", "rx", "ring")


def lcore_map(n, ncpu):
    """(EAL --lcores value, shared): the main lcore 0 and workers 1..n."""
    if n + 1 <= ncpu:
        return ",".join("%d@%d" % (k, k) for k in range(n + 1)), False
    return ",".join(["0@0"] + ["%d@%d" % (k, (k - 1) % ncpu)
                               for k in range(1, n + 1)]), True


def kind_args(kind, n):
    """(vdevs, wirerate options, JSON sample key) of one kind at n workers."""
    if kind == "tx":
        return ["net_null%d" % i for i in range(n)], [
            "--rx-ports", "none", "--size", "64"], "tx_pkts"
    if kind == "rx":
        return ["net_null%d,size=60" % i for i in range(n)], [
            "--tx-ports", "none", "--size", "64"], "rx_pkts"
    return [], ["--ring-pairs", str(n), "--size", "64"], "rx_pkts"


def worker_shares(pid):
    """{thread: (on-CPU ns, waiting ns)} of the process's worker threads."""
    out = {}
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            base = "/proc/%d/task/%s/" % (pid, tid)
            with open(base + "comm") as f:
                if not re.match(r"(rte|lcore)-worker-\d+$", f.read().strip()):
                    continue
            with open(base + "schedstat") as f:
                run_ns, wait_ns = f.read().split()[:2]
            out[tid] = (int(run_ns), int(wait_ns))
    except (OSError, ValueError):
        pass
    return out


def lowest_share(s0, s1):
    shares = []
    for tid in s0.keys() & s1.keys():
        run, wait = s1[tid][0] - s0[tid][0], s1[tid][1] - s0[tid][1]
        shares.append(run / (run + wait) if run > 0 else 1.0)
    return min(shares) if shares else 1.0


def run_once(args, run_window, kind, n):
    """One run of kind with n workers: a dict of its figures."""
    vdevs, opts, key = kind_args(kind, n)
    lcores, shared = lcore_map(n, os.cpu_count())
    prefix = "wrscale%d" % os.getpid()
    ev = eal_args(vdevs, prefix=prefix)
    ev[ev.index("-l"):ev.index("-l") + 2] = ["--lcores", lcores]
    try:
        pkts, secs, sched, doc = run_window(
            args, ev, opts, worker_shares,
            lambda smp: sum(p[key] for p in smp["ports"]))
    finally:
        remove_runtime_dir(prefix)
    if kind == "ring" and not doc["accounting"]["balanced"]:
        sys.exit("scale: ring, %d workers: not every frame accounted: %s" % (
            n, doc["accounting"]))
    lc = doc["cpu"]["lcores"]
    args.scale_tsc_hz = doc["env"]["tsc_hz"]
    return {"pps": pkts / secs, "shared": shared, "lcores": lcores,
            "nb_workers": len(lc),
            "cyc": statistics.mean(x["tsc_per_pkt"] for x in lc),
            "share_min": lowest_share(sched[0], sched[1])}


def scale(args, log, run_window):
    """Every kind at every worker count, args.runs times, the order of
    the worker counts reversed every other round."""
    counts = [int(x) for x in args.workers.split(",")]
    res = {"case": "scale", "workers": counts, "nproc": os.cpu_count(), "rows": []}
    for kind in KINDS:
        runs = {n: [] for n in counts}
        for i in range(args.runs):
            for n in (counts if i % 2 == 0 else counts[::-1]):
                runs[n].append(run_once(args, run_window, kind, n))
            log("scale %s run %d: %s" % (kind, i + 1, "; ".join(
                "%d workers %.2f Mpps" % (n, runs[n][-1]["pps"] / 1e6) for n in counts)))
        for n in counts:
            r = runs[n]
            pps = statistics.median(x["pps"] for x in r)
            res["rows"].append({
                "kind": kind, "workers": n, "mpps": pps / 1e6, "mpps_per_worker":
                pps / 1e6 / n, "cyc_per_frame": statistics.median(x["cyc"] for x in r),
                "share_min": min(x["share_min"] for x in r),
                "shared": r[0]["shared"], "lcores": r[0]["lcores"], "runs": r})
    res["tsc_hz"] = args.scale_tsc_hz
    return res


def markdown_scale(res):
    out = ["", "Scaling on %d CPUs: workers = worker lcores, one port each "
           "(ring: one ring pair per worker); the main lcore shares CPU 0 "
           "with worker 1 where the row says so." % res["nproc"], "",
           "| kind | workers | EAL --lcores | main lcore | Mpps | Mpps per worker "
           "| cyc/frame per worker | worker CPU share, lowest |",
           "|---|---|---|---|---|---|---|---|"]
    for r in res["rows"]:
        out.append("| %s | %d | %s | %s | %.1f | %.1f | %.1f | %.0f %% |" % (
            r["kind"], r["workers"], r["lcores"],
            "shares CPU 0 with worker 1" if r["shared"] else "own CPU",
            r["mpps"], r["mpps_per_worker"], r["cyc_per_frame"],
            100 * r["share_min"]))
    return out
