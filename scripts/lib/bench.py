# SPDX-License-Identifier: BSD-3-Clause
"""wirerate against dpdk-testpmd on the same virtual ports, alternating runs.

Called by scripts/bench.sh (which installs and builds first). Standard
library only. Every figure is measured here; nothing is assumed.

Cases (one worker core each, lcore 1; lcore 0 is the main/stats lcore):
  tx64, tx1518    net_null as a sink: wirerate TX (--rx-ports none) against
                  testpmd --forward-mode=txonly --txpkts=SIZE-4
  rx64, rx1518    net_null as a source (size=SIZE-4): wirerate RX
                  (--tx-ports none) against testpmd --forward-mode=rxonly
  stamp           wirerate TX 64 B on net_null with --stamp full / seq / none
  ring64, ring1518  wirerate TX and RX on one core over a net_ring loopback:
                  does the RX analysis keep up (every frame back, none lost)?
  traffic         wirerate TX cost of size mixes, several streams and IPv6
                  against the fixed-size path (bench_traffic.py)
  replay          wirerate TX of --replay as fast as possible against fixed
                  test frames, 64 and 1518 B (bench_replay.py)
  scale           1..N worker lcores (--workers): TX on net_null, RX on
                  net_null, TX+RX on ring pairs (bench_scale.py)
  stacks          wirerate TX and RX cost of frames inside VXLAN against
                  plain frames of the same size (bench_stacks.py)
  nginx           connections per second to one nginx: wirerate's client
                  against wrk, alternating; nginx is the limit
                  (bench_nginx.py)
  conn_cps        wirerate's HTTP client and server back to back in one
                  process over a net_ring pair: CPS, failures, cycles a
                  connection (bench_conn.py)
  conn_memif      the same connections between two processes over memif,
                  alternating with conn_cps runs: both CPS and their ratio
                  (bench_conn.py)
  conn_bulk       TCP bulk goodput over a net_ring pair against stateless
                  TX of 1518-byte frames, alternating (bench_bulk.py)
  conn_bulk_memif the same between two processes over memif, which copies
                  each frame's bytes (bench_bulk.py)
  conn_tbf        TCP bulk through a tbf of 100 Mbit/s with a queue of 8
                  frames: wirerate's client beside the kernel's,
                  alternating, 20 runs each (bench_tbf.py)
  conn_hold       1 M connections held (--mode conn-capacity, client and
                  server in one process): peak RSS and hugepages, bytes
                  a connection (bench_hold.py)

Each run is measured over a window of --seconds between two of the
program's own per-second stats prints, by its own counters and clock:
wirerate's JSON samples (cumulative packets, t_s) at the t=... lines of
--plain; testpmd's --stats-period prints, the window's length being the
sum of testpmd's measured intervals (each one delta packets / printed pps).
At both ends of the window the worker thread's schedstat is read: its
on-CPU share over the window (on-CPU / (on-CPU + runnable-but-waiting)).
The figures compared first are the wall-clock medians; second, as a
correction for other processes on the worker's CPU, packets per CPU-second
of the worker (wall-clock rate / share) and cycles per packet = TSC Hz /
that rate.
"""
import argparse
import atexit
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import bench_rx
import bench_scale
from eal import eal_args, remove_runtime_dir
from stats import median_of
from bench_replay import markdown_replay, replay_cost, summarise_replay
from bench_nginx import markdown_nginx, nginx_cps
from bench_conn import conn_cps, conn_memif, markdown_conn, markdown_memif
from bench_bulk import conn_bulk, markdown_bulk
from bench_tbf import conn_tbf, markdown_tbf
from bench_hold import conn_hold, markdown_hold
from bench_stacks import markdown_stacks, stacks_cost, summarise_stacks
from bench_traffic import markdown_traffic, summarise_traffic, traffic_cost

TESTPMD = os.environ.get("TESTPMD", "dpdk-testpmd")
TX_TARGET = 1.7       # wirerate TX 64 B >= 1.7 x testpmd txonly
RX_TARGET = 1.0       # wirerate RX 64 B classifying >= testpmd rxonly
STAMP_TARGET = 0.10   # full header costs at most 10 % against none


def eal(vdev, tag):
    """The same EAL options for both programs: lcores 0 (main) and 1; tag
    "w" (wirerate) or "t" (testpmd) in the file prefix."""
    return eal_args([vdev], prefix="wrbench%d%s" % (os.getpid(), tag))


for _tag in ("w", "t"):
    atexit.register(remove_runtime_dir, "wrbench%d%s" % (os.getpid(), _tag))


def cpu_times():
    """(total, steal, idle) jiffies of all CPUs from /proc/stat."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return sum(v), (v[7] if len(v) > 7 else 0), v[3] + v[4]


def busy_pct(t0, t1):
    """Share of all CPUs busy between two cpu_times() readings, in %."""
    return 100.0 * (1 - (t1[2] - t0[2]) / max(1, t1[0] - t0[0]))


def loadavg():
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


def worker_sched(pid):
    """(on-CPU ns, runnable-but-waiting ns) of the process's worker lcore
    thread (EAL names it rte-worker-1), from schedstat; None if not found."""
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            base = "/proc/%d/task/%s/" % (pid, tid)
            with open(base + "comm") as f:
                if f.read().strip() not in ("rte-worker-1", "lcore-worker-1"):
                    continue
            with open(base + "schedstat") as f:
                run_ns, wait_ns = f.read().split()[:2]
            return int(run_ns), int(wait_ns)
    except (OSError, ValueError):
        pass
    return None


class Window:
    """A measurement window between two stats prints of one program: its
    own packet counters and measured time, and the worker thread's share
    of a CPU over the same span (other processes on its CPU take the rest)."""

    def __init__(self, pkts, secs, sched0, sched1):
        self.pps = pkts / secs if secs > 0 else 0.0
        run_ns, wait_ns = (sched1[0] - sched0[0], sched1[1] - sched0[1]) \
            if sched0 and sched1 else (0, 0)
        self.cpu_share = run_ns / (run_ns + wait_ns) if run_ns > 0 else 1.0
        # Packets per second of CPU time the worker actually got.
        self.cpu_pps = self.pps / self.cpu_share
        self.secs = secs
        self.attempts = 1

    def as_dict(self):
        return {"pps": self.pps, "cpu_pps": self.cpu_pps, "cpu_share": self.cpu_share,
                "secs": self.secs, "attempts": self.attempts}


def stream(argv, on_line, timeout):
    """Run argv line-buffered; on_line(pid, line) returns True to stop it
    with SIGINT. Returns (exit code, last lines of output)."""
    p = subprocess.Popen(["stdbuf", "-oL"] + argv, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)
    tail, deadline, stopped = [], time.monotonic() + timeout, False
    for line in p.stdout:
        tail = (tail + [line])[-40:]
        if not stopped and (on_line(p.pid, line) or time.monotonic() > deadline):
            p.send_signal(signal.SIGINT)
            stopped = True
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    return p.returncode, "".join(tail)


def run_window(args, ev, opts, sched, count):
    """One wirerate run with EAL options ev and options opts. The window
    spans args.seconds between two of its per-second prints (t=...),
    skipping the first second; sched(pid) is read at each print and
    count(sample) gives the packets of a JSON sample. Returns (packets,
    seconds, sched at both ends, JSON document)."""
    marks = []

    def on_line(pid, line):
        # "t=2.0s" or, since the live view names what is left, "t=2.0s of 4.0s, ..."
        m = re.match(r"^t=([\d.]+)s(?: of .*)?$", line.strip())
        if m:
            marks.append((float(m.group(1)), sched(pid)))
        return False

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        argv = [args.wirerate] + ev + ["--"] + opts + [
            "--duration", "%gs" % (args.seconds + 2), "--plain", "--json", path]
        rc, tail = stream(argv, on_line, args.seconds + 120)
        if rc != 0 or not os.path.exists(path):
            sys.exit("wirerate failed (exit %d): %s\n%s" % (rc, " ".join(argv), tail))
        with open(path) as f:
            doc = json.load(f)
    if len(marks) < 2:
        sys.exit("wirerate printed %d samples: %s\n%s" % (len(marks), " ".join(argv), tail))
    m0 = marks[0]
    m1 = next((m for m in marks if m[0] >= m0[0] + args.seconds - 0.05), marks[-1])

    def pkts_at(t):
        smp = min(doc["samples"], key=lambda x: abs(x["t_s"] - t))
        return smp["t_s"], count(smp)

    (t0, p0), (t1, p1) = pkts_at(m0[0]), pkts_at(m1[0])
    if p1 <= p0 or t1 <= t0:
        sys.exit("wirerate: no packets between t=%g and t=%g: %s" % (t0, t1, " ".join(argv)))
    return p1 - p0, t1 - t0, (m0[1], m1[1]), doc


def run_wirerate(args, vdev, opts, key):
    """One wirerate run on one port (run_window), its rate key. Returns
    (Window, JSON document)."""
    pkts, secs, sched, doc = run_window(args, eal(vdev, "w"), opts, worker_sched,
                                        lambda smp: smp["ports"][0][key])
    return Window(pkts, secs, sched[0], sched[1]), doc


SAMPLE = re.compile(r"^\s*(RX|TX)-packets:\s+(\d+)|^\s*(Rx|Tx)-pps:\s+(\d+)")


def run_testpmd(args, vdev, mode, size, pool):
    """One testpmd run in txonly/rxonly mode. The window spans args.seconds
    of its --stats-period prints from the first; its length is the sum of
    testpmd's own intervals, each recovered as delta packets / printed pps.
    Its one mbuf pool gets the size and per-lcore cache of wirerate's pool
    for the queue (pool mbufs, bench_rx.POOL_CACHE). Returns a Window."""
    opts = ["--forward-mode=" + mode, "--nb-cores=1", "--stats-period=1",
            "--total-num-mbufs=%d" % pool, "--mbcache=%d" % bench_rx.POOL_CACHE]
    if mode == "txonly":
        opts.append("--txpkts=%d" % (size - 4))
    want = "TX" if mode == "txonly" else "RX"
    st = {"pkts": None, "marks": [], "secs": 0.0}

    def on_line(pid, line):
        m = SAMPLE.match(line)
        if m and m.group(1) == want:
            st["pkts"] = int(m.group(2))
        elif m and m.group(3) and m.group(3).upper() == want and st["pkts"] is not None:
            pkts, pps = st["pkts"], int(m.group(4))
            if st["marks"] and pps > 0:
                st["secs"] += (pkts - st["marks"][-1][0]) / pps
            st["marks"].append((pkts, worker_sched(pid)))
            return st["secs"] >= args.seconds - 0.05
        return False

    argv = [TESTPMD] + eal(vdev, "t") + ["--"] + opts
    rc, tail = stream(argv, on_line, args.seconds + 120)
    mk = st["marks"]
    if len(mk) < 2 or st["secs"] <= 0:
        sys.exit("testpmd gave no rate (exit %d): %s\n%s" % (rc, " ".join(argv), tail))
    return Window(mk[-1][0] - mk[0][0], st["secs"], mk[0][1], mk[-1][1]), None


def steady(args, fn, *a):
    """fn(args, *a) -> (Window, extra), run again (at most args.attempts
    times in all) while the worker got less than args.min_share of its CPU:
    a worker that mostly waits for other processes measures its caches
    as much as itself. Keeps the attempt with the largest share; its
    as_dict() says how many attempts it took."""
    best = None
    for n in range(1, args.attempts + 1):
        w, extra = fn(args, *a)
        if best is None or w.cpu_share > best[0].cpu_share:
            best = (w, extra)
        if w.cpu_share >= args.min_share:
            break
        time.sleep(2)
    best[0].attempts = n
    return best


def wr_case(kind, size, stamp="full"):
    """(vdev, wirerate options, JSON rate key) of one wirerate case."""
    if kind == "tx":
        return "net_null0", ["--rx-ports", "none", "--size", str(size),
                             "--stamp", stamp], "tx_pkts"
    return "net_null0,size=%d" % (size - 4), ["--tx-ports", "none", "--size",
                                              str(size)], "rx_pkts"


def compare(args, kind, size, log):
    """Alternate wirerate and testpmd runs; the order flips every round."""
    vdev, opts, key = wr_case(kind, size)
    mode = "txonly" if kind == "tx" else "rxonly"
    wr, tp, tsc_hz, pool = [], [], 0, 0
    for i in range(args.runs):
        for who in (("wr", "tp") if i % 2 == 0 else ("tp", "wr")):
            if who == "wr":
                w, d = steady(args, run_wirerate, vdev, opts, key)
                tsc_hz = d["env"]["tsc_hz"]
                pool = d["ports"][0]["tx_pool_mbufs" if kind == "tx" else "rx_pool_mbufs"]
                wr.append(w.as_dict())
            else:
                tp.append(steady(args, run_testpmd, vdev, mode, size, pool)[0].as_dict())
        log("%s %d run %d: wirerate %s, testpmd %s" % (
            kind.upper(), size, i + 1, fmt_run(wr[-1]), fmt_run(tp[-1])))
    return {"case": "%s%d" % (kind, size), "dir": kind, "size": size,
            "tsc_hz": tsc_hz, "pool_mbufs": pool, "wirerate": wr, "testpmd": tp}


def fmt_run(r):
    return "%.2f Mpps (%.2f per CPU-second, %.0f %% CPU%s)" % (
        r["pps"] / 1e6, r["cpu_pps"] / 1e6, 100 * r["cpu_share"],
        ", %d tries" % r["attempts"] if r["attempts"] > 1 else "")


def stamp_cost(args, log):
    """wirerate TX 64 B with --stamp full / seq / none, alternating."""
    runs = {"full": [], "seq": [], "none": []}
    tsc_hz = 0
    for i in range(args.runs):
        order = ["full", "seq", "none"]
        for st in (order if i % 2 == 0 else order[::-1]):
            vdev, opts, key = wr_case("tx", 64, st)
            w, d = steady(args, run_wirerate, vdev, opts, key)
            tsc_hz = d["env"]["tsc_hz"]
            runs[st].append(w.as_dict())
        log("stamp run %d: full %s; seq %s; none %s" % (
            i + 1, fmt_run(runs["full"][-1]), fmt_run(runs["seq"][-1]),
            fmt_run(runs["none"][-1])))
    return {"case": "stamp64", "tsc_hz": tsc_hz, "runs": runs}


def ring(args, size, log):
    """TX and RX on one core over a net_ring loopback: every frame sent must
    come back as an own frame, in the stream's accounting, none lost."""
    out = {"case": "ring%d" % size, "size": size, "tsc_hz": 0, "tx": [],
           "lost_pkts": [], "tx_full_pkts": []}
    for i in range(args.runs):
        w, d = steady(args, run_wirerate, "net_ring0", ["--size", str(size)], "tx_pkts")
        t, acc = d["totals"][0], d["accounting"]
        out["tsc_hz"] = d["env"]["tsc_hz"]
        out["tx"].append(w.as_dict())
        out["lost_pkts"].append(acc["lost_pkts"])
        out["tx_full_pkts"].append(t["drops"]["tx_full_pkts"])
        if not acc["balanced"] or t["rx_own_pkts"] != t["tx_pkts"] or \
                acc["received_pkts"] != acc["sent_pkts"]:
            sys.exit("ring %d: not every frame came back: %s" % (size, acc))
        log("ring %d run %d: %s, lost %d, refused %d" % (
            size, i + 1, fmt_run(w.as_dict()), acc["lost_pkts"],
            t["drops"]["tx_full_pkts"]))
    return out


def cyc(tsc_hz, pps):
    return tsc_hz / pps if pps > 0 else float("nan")


def summarise(res):
    """Medians, ratios, cycles per packet and verdicts, added in place.
    Ratios and cycles are per CPU-second of the worker; wall-clock rates
    are kept next to them."""
    for r in res["compare"]:
        w, t = median_of(r["wirerate"], "cpu_pps"), median_of(r["testpmd"], "cpu_pps")
        ww, tw = median_of(r["wirerate"], "pps"), median_of(r["testpmd"], "pps")
        per_round = [a["pps"] / b["pps"] for a, b in zip(r["wirerate"], r["testpmd"])]
        r.update({"wirerate_mpps": w / 1e6, "testpmd_mpps": t / 1e6,
                  "wirerate_wall_mpps": ww / 1e6, "testpmd_wall_mpps": tw / 1e6,
                  "cpu_share_min": min(x["cpu_share"] for x in r["wirerate"] + r["testpmd"]),
                  "ratio_wall": ww / tw, "ratio_wall_per_round_median":
                  statistics.median(per_round), "ratio_cpu": w / t,
                  "wirerate_cycles_per_pkt": cyc(r["tsc_hz"], w),
                  "testpmd_cycles_per_pkt": cyc(r["tsc_hz"], t)})
        # Targets are judged on the wall-clock medians.
        if r["case"] == "tx64":
            r["target"], r["met"] = ">= %.1f" % TX_TARGET, r["ratio_wall"] >= TX_TARGET
        elif r["case"] == "rx64":
            r["target"], r["met"] = ">= %.1f" % RX_TARGET, r["ratio_wall"] >= RX_TARGET
    s = res["stamp"]
    if s:
        m = {k: median_of(v, "cpu_pps") for k, v in s["runs"].items()}
        s["mpps"] = {k: v / 1e6 for k, v in m.items()}
        s["wall_mpps"] = {k: median_of(v, "pps") / 1e6 for k, v in s["runs"].items()}
        s["cycles_per_pkt"] = {k: cyc(s["tsc_hz"], v) for k, v in m.items()}
        s["full_cost"] = 1 - m["full"] / m["none"]
        s["seq_cost"] = 1 - m["seq"] / m["none"]
        s["met"] = s["full_cost"] <= STAMP_TARGET
    for r in res["ring"]:
        tx = median_of(r["tx"], "cpu_pps")
        r.update({"tx_mpps": tx / 1e6, "tx_wall_mpps": median_of(r["tx"], "pps") / 1e6,
                  "cpu_share_min": min(x["cpu_share"] for x in r["tx"]),
                  "cycles_per_pkt": cyc(r["tsc_hz"], tx),
                  "keeps_up": all(x == 0 for x in r["lost_pkts"])})


def markdown(res):
    """The tables of docs/dev/bench.md from a summarised result."""
    e = res["env"]
    out = ["Measured %s on %s, %d CPUs (TSC %.3f GHz), %d runs of %g s per "
           "figure, wirerate linked to DPDK's %s libraries (testpmd: Debian's, "
           "shared). Load average %s before, %s after; CPUs busy %.0f %% in the "
           "2 s before (others' work), %.0f %% during (one polling worker is "
           "%.0f %%); steal %.1f %%." % (
               e["date"], e["cpu_model"], e["nproc"], e["tsc_hz"] / 1e9, res["runs"],
               res["seconds"], e["dpdk_link"], " ".join("%.2f" % x for x in e["load_before"]),
               " ".join("%.2f" % x for x in e["load_after"]), e["busy_before_pct"],
               e["busy_during_pct"], 100.0 / e["nproc"], e["steal_pct"]),
           "", "Wall-clock Mpps, median of the runs, and the ratio of the "
           "medians (the median of the per-round ratios in brackets); targets "
           "are judged on these. Secondary: Mpps per CPU-second of the worker "
           "thread (the wall-clock rate divided by the share of its CPU the "
           "worker got, from /proc schedstat) and cycles per packet = TSC Hz / "
           "that rate. Both programs use one mbuf pool of the same size per "
           "port and a per-lcore cache of %d. A run whose worker had under "
           "%.0f %% of its CPU was repeated (%d tries at most, the best kept)."
           % (bench_rx.POOL_CACHE, 100 * res["min_share"], res["attempts"]), "",
           "| case | wirerate Mpps | testpmd Mpps | ratio | per CPU-s: wirerate "
           "/ testpmd Mpps, ratio | wirerate cyc/pkt | testpmd cyc/pkt | worker "
           "CPU share, lowest | pool mbufs | target |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    if not res["compare"]:
        out = out[:1]
    for r in res["compare"]:
        tgt = "%s: %s" % (r["target"], "met" if r["met"] else "MISSED") if "target" in r else ""
        out.append("| %s %s B | %.1f | %.1f | %.2f (%.2f) | %.1f / %.1f, %.2f | %.1f "
                   "| %.1f | %.0f %% | %d | %s |" % (
                       r["dir"].upper(), r["size"], r["wirerate_wall_mpps"],
                       r["testpmd_wall_mpps"], r["ratio_wall"],
                       r["ratio_wall_per_round_median"], r["wirerate_mpps"],
                       r["testpmd_mpps"], r["ratio_cpu"],
                       r["wirerate_cycles_per_pkt"], r["testpmd_cycles_per_pkt"],
                       100 * r["cpu_share_min"], r["pool_mbufs"], tgt))
    s = res["stamp"]
    if s:
        out += ["", "| wirerate TX 64 B, net_null | Mpps | cyc/pkt | cost vs none |",
                "|---|---|---|---|"]
        for k in ("none", "seq", "full"):
            cost = "" if k == "none" else "%.1f %%" % (100 * s[k + "_cost"])
            out.append("| --stamp %s | %.1f (per CPU-s %.1f) | %.1f | %s |" % (
                k, s["wall_mpps"][k], s["mpps"][k], s["cycles_per_pkt"][k], cost))
        out.append("")
        out.append("Full header cost %.1f %% (target <= %d %%: %s)." % (
            100 * s["full_cost"], 100 * STAMP_TARGET, "met" if s["met"] else "MISSED"))
    if res["ring"]:
        out += ["", "| net_ring loopback, TX+RX on one core | Mpps sent = received "
                "| cyc/pkt (TX+RX) | worker CPU share, lowest | lost, per run "
                "| TX refused (ring full, retried), per run |",
                "|---|---|---|---|---|---|"]
        for r in res["ring"]:
            out.append("| %d B | %.1f (per CPU-s %.1f) | %.1f | %.0f %% | %s | %s |" % (
                r["size"], r["tx_wall_mpps"], r["tx_mpps"], r["cycles_per_pkt"],
                100 * r["cpu_share_min"], "/".join(str(x) for x in r["lost_pkts"]),
                "/".join(str(x) for x in r["tx_full_pkts"])))
    if res.get("rx_memif"):
        out += bench_rx.markdown(res["rx_memif"])
    return "\n".join(out) + "\n"


def dpdk_link(program):
    """How program links DPDK: "shared" when the loader maps a librte
    library for it (ldd), "static" when none (-Ddpdk_link=static)."""
    p = subprocess.run(["ldd", program], capture_output=True, text=True)
    return "shared" if "librte_" in p.stdout else "static"


def env_info(tsc_hz, program):
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {"cpu_model": model, "tsc_hz": tsc_hz, "nproc": os.cpu_count(),
            "dpdk_link": dpdk_link(program),
            "date": time.strftime("%Y-%m-%d %H:%M %Z"),
            "dpdk_package": subprocess.run(
                ["dpkg-query", "-W", "-f", "${Version}", "dpdk"],
                capture_output=True, text=True).stdout.strip() or "unknown"}


CASES = ["tx64", "tx1518", "rx64", "rx1518", "stamp", "ring64", "ring1518",
         "traffic", "rxmemif64", "rxmemif1518", "replay", "scale",
         "stacks", "nginx", "conn_cps", "conn_hold", "conn_memif", "conn_bulk",
         "conn_bulk_memif", "conn_tbf"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wirerate", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--min-share", type=float, default=0.5)
    ap.add_argument("--attempts", type=int, default=3)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--json", required=True)
    ap.add_argument("--md", required=True)
    args = ap.parse_args()
    cases = args.cases.split(",")
    bad = [c for c in cases if c not in CASES]
    if bad or args.runs < 1 or args.seconds < 2 or \
            not re.fullmatch(r"[1-9][0-9]*(,[1-9][0-9]*)*", args.workers):
        ap.error("cases from %s; --runs >= 1; --seconds >= 2; --workers "
                 "a list of counts >= 1 (1,2,4)" % ",".join(CASES))

    def log(msg):
        print("  " + msg, flush=True)

    res = {"schema": "wirerate-bench/1", "runs": args.runs, "seconds": args.seconds,
           "min_share": args.min_share, "attempts": args.attempts,
           "compare": [], "stamp": None, "ring": [], "traffic": None, "rx_memif": [],
           "replay": None, "scale": None, "stacks": None, "nginx": None,
           "conn_cps": None, "conn_hold": None, "conn_memif": None,
           "conn_bulk": None, "conn_bulk_memif": None, "conn_tbf": None}
    # What the machine does without us: CPU busy over 2 s before starting.
    q0 = cpu_times()
    time.sleep(2)
    load0, cpu0 = loadavg(), cpu_times()
    for c in cases:
        if c == "stamp":
            res["stamp"] = stamp_cost(args, log)
        elif c == "scale":
            res["scale"] = bench_scale.scale(args, log, run_window)
        elif c == "traffic":
            res["traffic"] = traffic_cost(args, log, steady, run_wirerate, fmt_run)
        elif c == "replay":
            res["replay"] = replay_cost(args, log, steady, run_wirerate, fmt_run)
        elif c == "stacks":
            res["stacks"] = stacks_cost(args, log, steady, run_wirerate, fmt_run)
        elif c == "nginx":
            res["nginx"] = nginx_cps(args, log)
        elif c == "conn_cps":
            res["conn_cps"] = conn_cps(args, log)
        elif c == "conn_hold":
            res["conn_hold"] = conn_hold(args, log)
        elif c == "conn_memif":
            res["conn_memif"] = conn_memif(args, log)
        elif c == "conn_bulk":
            res["conn_bulk"] = conn_bulk(args, log)
        elif c == "conn_bulk_memif":
            res["conn_bulk_memif"] = conn_bulk(args, log, memif=True)
        elif c == "conn_tbf":
            res["conn_tbf"] = conn_tbf(args, log)
        elif c.startswith("ring"):
            res["ring"].append(ring(args, int(c[4:]), log))
        elif c.startswith("rxmemif"):
            res["rx_memif"].append(bench_rx.rx_memif(args, int(c[7:]), log))
        else:
            res["compare"].append(compare(args, c[:2], int(c[2:]), log))
    cpu1 = cpu_times()
    tsc = next((r["tsc_hz"] for r in res["compare"] + res["ring"] + res["rx_memif"] +
                [res["stamp"] or {}, res["traffic"] or {}, res["replay"] or {},
                 res["scale"] or {}, res["stacks"] or {}, res["conn_cps"] or {},
                 res["conn_memif"] or {}, res["conn_bulk"] or {},
                 res["conn_bulk_memif"] or {}]
                if r.get("tsc_hz")), 0)
    res["env"] = env_info(tsc, args.wirerate)
    res["env"].update({"load_before": load0, "load_after": loadavg(),
                       "steal_pct": 100.0 * (cpu1[1] - cpu0[1]) / max(1, cpu1[0] - cpu0[0]),
                       "busy_before_pct": busy_pct(q0, cpu0),
                       "busy_during_pct": busy_pct(cpu0, cpu1)})
    summarise(res)
    md = markdown(res)
    if res["traffic"]:
        summarise_traffic(res["traffic"])
        md += "\n".join(markdown_traffic(res["traffic"])) + "\n"
    if res["replay"]:
        summarise_replay(res["replay"])
        md += "\n".join(markdown_replay(res["replay"])) + "\n"
    if res["scale"]:
        md += "\n".join(bench_scale.markdown_scale(res["scale"])) + "\n"
    if res["stacks"]:
        summarise_stacks(res["stacks"])
        md += "\n".join(markdown_stacks(res["stacks"])) + "\n"
    if res["nginx"]:
        md += "\n".join(markdown_nginx(res["nginx"])) + "\n"
    if res["conn_cps"]:
        md += "\n".join(markdown_conn(res["conn_cps"])) + "\n"
    if res["conn_hold"]:
        md += "\n".join(markdown_hold(res["conn_hold"])) + "\n"
    if res["conn_memif"]:
        md += "\n".join(markdown_memif(res["conn_memif"])) + "\n"
    for k in ("conn_bulk", "conn_bulk_memif"):
        if res[k]:
            md += "\n".join(markdown_bulk(res[k])) + "\n"
    if res["conn_tbf"]:
        md += "\n".join(markdown_tbf(res["conn_tbf"])) + "\n"
    with open(args.json, "w") as f:
        json.dump(res, f, indent=1)
    with open(args.md, "w") as f:
        f.write(md)
    print("\n" + md)
    print("JSON: %s  Markdown: %s" % (args.json, args.md))


if __name__ == "__main__":
    main()
