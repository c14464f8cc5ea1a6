# SPDX-License-Identifier: BSD-3-Clause
"""RX of frames that come from another process (scripts/bench.sh cases
rxmemif64, rxmemif1518): one wirerate sender (TX only, memif server, its
worker on CPU 1) feeds, in alternating runs, a wirerate receiver or
dpdk-testpmd --forward-mode=rxonly (memif client, worker on CPU 0). Unlike
net_null RX, the frames are real ones built by another core: the receiver
reads data another CPU wrote, and wirerate analyses its own test header
(sequence, latency is not valid across processes without --latency tsc).
Both receivers report the wall-clock rate they received and their busy
cycles per frame (wirerate: the JSON's cpu.lcores[].tsc_per_pkt; testpmd:
--record-core-cycles), both with the same RX pool and cache sizes."""
import json
import os
import re
import signal
import statistics
import subprocess
import tempfile
import time

from eal import eal_args, remove_runtime_dir
from stats import median_of

TESTPMD = os.environ.get("TESTPMD", "dpdk-testpmd")
POOL_CACHE = 128      # lib/setup/port.c POOL_CACHE: testpmd gets --mbcache=128


def memif(sock, role):
    return "net_memif0,role=%s,socket=%s,socket-abstract=no" % (role, sock)


def eal(vdev, prefix, worker_cpu):
    """lcores 0,1; the worker on worker_cpu (1: the default main lcore 0);
    memif shares hugepages."""
    return eal_args([vdev], prefix=prefix, huge=True,
                    extra=[] if worker_cpu == 1 else ["--main-lcore", "1"])


def start_sender(wr, sock, size, secs):
    argv = [wr] + eal(memif(sock, "server"), "wrbs%d" % os.getpid(), 1) + [
        "--", "--rx-ports", "none", "--size", str(size), "--duration",
        "%gs" % secs, "--quiet", "--grace", "0"]
    return subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)


def rx_wirerate(args, sock, size):
    """A wirerate receiver for args.seconds + 1: rate over its samples after
    the first second, busy cycles per frame of its worker."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        argv = [args.wirerate] + eal(memif(sock, "client"), "wrbr%d" % os.getpid(), 0) + [
            "--", "--tx-ports", "none", "--size", str(size), "--duration",
            "%gs" % (args.seconds + 1), "--quiet", "--json", path]
        p = subprocess.run(argv, capture_output=True, text=True,
                           timeout=args.seconds + 60, stdin=subprocess.DEVNULL)
        if p.returncode != 0 or not os.path.exists(path):
            raise RuntimeError("wirerate receiver: exit %d %s" % (p.returncode, p.stderr[-500:]))
        with open(path) as f:
            doc = json.load(f)
    s = doc["samples"]
    a, b = s[0], s[-1]
    pps = (b["ports"][0]["rx_pkts"] - a["ports"][0]["rx_pkts"]) / (b["t_s"] - a["t_s"])
    lc = doc["cpu"]["lcores"][0]
    return {"pps": pps, "cycles_per_pkt": lc["tsc_per_pkt"], "busy_ratio": lc["busy_ratio"],
            "pool": doc["ports"][0]["rx_pool_mbufs"], "tsc_hz": doc["env"]["tsc_hz"]}


PPS = re.compile(r"^\s*Rx-pps:\s+(\d+)")
CYCLES = re.compile(r"CPU cycles/packet=([\d.]+)")


def rx_testpmd(args, sock, size, pool):
    """testpmd rxonly for args.seconds + 1 s of its per-second prints, then
    SIGINT: its median Rx-pps after the first print, and the busy cycles
    per packet --record-core-cycles prints at the end."""
    argv = [TESTPMD] + eal(memif(sock, "client"), "wrbt%d" % os.getpid(), 0) + [
        "--", "--forward-mode=rxonly", "--nb-cores=1", "--stats-period=1",
        "--record-core-cycles", "--total-num-mbufs=%d" % pool,
        "--mbcache=%d" % POOL_CACHE]
    p = subprocess.Popen(["stdbuf", "-oL"] + argv, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)
    rates, cycles, tail = [], None, []
    end = time.monotonic() + args.seconds + 60
    for line in p.stdout:
        tail = (tail + [line])[-30:]
        m, c = PPS.match(line), CYCLES.search(line)
        if m:
            rates.append(int(m.group(1)))
            if len(rates) == int(args.seconds) + 2 or time.monotonic() > end:
                p.send_signal(signal.SIGINT)
        if c:
            cycles = float(c.group(1))
    p.wait()
    if len(rates) < 3 or cycles is None:
        raise RuntimeError("testpmd receiver gave no rate or cycles:\n" + "".join(tail))
    return {"pps": statistics.median(rates[1:]), "cycles_per_pkt": cycles}


def one(args, who, size, pool):
    """One run: a fresh sender and socket, then the receiver."""
    with tempfile.TemporaryDirectory() as d:
        sock = os.path.join(d, "m.sock")
        snd = start_sender(args.wirerate, sock, size, args.seconds + 30)
        try:
            time.sleep(1.5)
            if who == "wr":
                return rx_wirerate(args, sock, size)
            return rx_testpmd(args, sock, size, pool)
        finally:
            snd.send_signal(signal.SIGINT)
            try:
                snd.wait(timeout=30)
            except subprocess.TimeoutExpired:
                snd.kill()
                snd.wait()
            for tag in ("wrbs", "wrbr", "wrbt"):
                remove_runtime_dir("%s%d" % (tag, os.getpid()))


def rx_memif(args, size, log):
    """Alternate the two receivers behind the same kind of sender."""
    out = {"case": "rxmemif%d" % size, "size": size, "wirerate": [], "testpmd": []}
    pool = None
    for i in range(args.runs):
        for who in (("wr", "tp") if i % 2 == 0 else ("tp", "wr")):
            if who == "wr":
                r = one(args, "wr", size, pool)
                pool = r["pool"]
                out["tsc_hz"] = r["tsc_hz"]
                out["wirerate"].append(r)
            else:
                out["testpmd"].append(one(args, "tp", size, pool or 2047))
        w, t = out["wirerate"][-1], out["testpmd"][-1]
        log("RX memif %d run %d: wirerate %.2f Mpps %.1f cyc/frame, testpmd %.2f "
            "Mpps %.1f cyc/frame" % (size, i + 1, w["pps"] / 1e6, w["cycles_per_pkt"],
                                     t["pps"] / 1e6, t["cycles_per_pkt"]))
    wr, tp = out["wirerate"], out["testpmd"]
    out.update({"wirerate_mpps": median_of(wr, "pps") / 1e6,
                "testpmd_mpps": median_of(tp, "pps") / 1e6,
                "wirerate_cycles_per_pkt": median_of(wr, "cycles_per_pkt"),
                "testpmd_cycles_per_pkt": median_of(tp, "cycles_per_pkt"),
                "pool_mbufs": pool, "pool_cache": POOL_CACHE})
    return out


def markdown(rows):
    out = ["", "| RX from another process (memif) | wirerate Mpps | testpmd rxonly "
           "Mpps | ratio | wirerate busy cyc/frame | testpmd busy cyc/frame | RX pool "
           "(both), cache |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append("| %d B | %.2f | %.2f | %.2f | %.1f | %.1f | %s, %d |" % (
            r["size"], r["wirerate_mpps"], r["testpmd_mpps"],
            r["wirerate_mpps"] / r["testpmd_mpps"], r["wirerate_cycles_per_pkt"],
            r["testpmd_cycles_per_pkt"], r["pool_mbufs"], r["pool_cache"]))
    return out
