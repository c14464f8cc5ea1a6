# SPDX-License-Identifier: BSD-3-Clause
"""The conn_cps and conn_memif cases of bench.py.

conn_cps: wirerate's HTTP client and server back to back in one process
(--conn 0=client,1=server over a net_ring pair), one request a
connection, as fast as the engines go, for --seconds (every run the
same window, whatever the host's speed, where a fixed count would make
the slow runs longer). Per run: connections a second (the
client's completed over the run's duration_s, after the drain that
closes every open connection), failures (must be 0), frames the rings
refused, and TSC cycles per connection (the busy TSC of the two worker
lcores, from the result's cpu.lcores, over the
connections completed). The workers take lcores 1 and 2 on CPUs 0 and 1;
the main lcore shares CPU 0 (it sleeps between its stats reads).

conn_memif: the same connections between two processes joined by memif
(net_memif, a server process with the memif server role and its worker
on CPU 1, then a client process with the client role and its worker on
CPU 0), alternating run by run with a conn_cps run, the order flipping
every round; the ratio of the two is the cost of the second process and
the memif rings. Each memif run is checked against the client's PMD
counters (memif's own count of the frames it passed): its frames sent
are the server's segments received, its frames received the server's
segments sent; the server's books close on the client's completed."""
import json
import os
import re
import signal
import statistics
import subprocess
import tempfile
import threading
import time

from eal import eal_args, remove_runtime_dir
from stats import median_of

OPEN = 8000
HTTP = ["--conn-concurrency", str(OPEN), "--conn-time-wait", "1ms"]
# The client's workers stop at its end, then it keeps its port open
# (--linger) until the server has gone: DPDK 22.11's memif can crash the
# side still polling when its peer disconnects (docs/testbeds.md), so the
# server, which polls until its SIGINT, must leave first.
LINGER_S = 10
REFUSED = re.compile(r"^frames: (\d+) refused by the port", re.M)


def refused_frames(out):
    """The frames a run's ports refused (freed; TCP resends them), from
    its closing lines; None when it printed none."""
    m = REFUSED.search(out)
    return int(m.group(1)) if m else None


def failed_before_end(cl):
    """The client's failures up to its last stats row before the run's
    end (the rows' counts are cumulative). Those after it, the drain's,
    are shown apart (failed_at_end): the servers of a one-process run no
    longer take the drain (docs/tcp.md, "Both roles in one run"), so
    that figure stays 0 unless something new refuses the last starts."""
    return cl["intervals"][-1]["failed"] if cl["intervals"] else 0


def busy_tsc(doc):
    return sum(lc["busy_tsc"] for lc in doc["cpu"]["lcores"])


def run_once(args, seq):
    """One conn_cps run; a dict of its figures, or None when it failed."""
    prefix = "wrbcps%d_%d" % (os.getpid(), seq)
    eal = eal_args([], prefix=prefix)
    eal = ["--lcores", "0@0,1@0,2@%d" % min(1, os.cpu_count() - 1)] + eal[2:]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        argv = [args.wirerate] + eal + [
            "--", "--ring-pairs", "1", "--conn", "0=client,1=server",
            "--port-ip", "0=198.18.0.2/15", "--port-ip", "1=198.19.0.1/15",
            "--conn-server", "198.19.0.1:80", "--duration", "%gs" % args.seconds] + HTTP + [
            "--conn-body", "100", "--quiet", "--json", path]
        p = subprocess.run(argv, capture_output=True, text=True, timeout=args.seconds + 120,
                           stdin=subprocess.DEVNULL)
        remove_runtime_dir(prefix)
        if p.returncode != 0 or not os.path.exists(path):
            return None
        with open(path) as f:
            doc = json.load(f)
    cl = doc["connections"]
    done = cl["books"]["completed"]
    before = failed_before_end(cl)
    return {"cps": done / cl["duration_s"] if cl["duration_s"] > 0 else 0.0,
            "completed": done, "failed": before,
            "failed_at_end": cl["books"]["failed_total"] - before,
            "refused_frames": refused_frames(p.stdout) or 0,
            "cycles_per_conn": busy_tsc(doc) / done if done else None,
            "tsc_hz": doc["env"]["tsc_hz"]}


def memif_vdev(sock, role):
    return "net_memif0,role=%s,socket=%s,socket-abstract=no" % (role, sock)


def stop(p):
    """SIGINT, then wait (SIGKILL after 30 s); its stdout."""
    if p.poll() is None:
        p.send_signal(signal.SIGINT)
    try:
        out = p.communicate(timeout=30)[0]
    except subprocess.TimeoutExpired:
        p.kill()
        out = p.communicate()[0]
    return out


def memif_figures(c, s, out_c, out_s):
    """A memif run's figures from the client's and the server's result
    documents and closing lines. PMD checks: the server's own memif
    counters are zeroed when the client leaves (the PMD's disconnect), so
    both directions are checked against the client's PMD counters."""
    cl, sv = c["connections"], s["connections"]
    b, sb = cl["books"], sv["books"]
    tc = c["totals"][0]
    done = b["completed"]
    refused = [refused_frames(out_c), refused_frames(out_s)]
    pmd = {"client_opackets": tc["nic_opackets"] - tc["tx_service_pkts"],
           "client_ipackets": tc["nic_ipackets"] - tc["rx_service_pkts"],
           "server_rx_segs": sb["rx_segs"], "server_tx_segs": sb["tx_segs"],
           "client_tx_segs": b["tx_segs"], "client_rx_segs": b["rx_segs"],
           # segments a full memif ring refused (freed; TCP sends again
           # what it must): never on the wire
           "client_refused": refused[0] or 0, "server_refused": refused[1] or 0}
    return {"cps": done / cl["duration_s"] if cl["duration_s"] > 0 else 0.0,
            "completed": done, "failed": failed_before_end(cl),
            "failed_at_end": b["failed_total"] - failed_before_end(cl),
            "attempted": b["attempted"],
            "server": {k: sb[k] for k in ("accepted", "closed", "reqs_served")},
            "refused_frames": sum(x or 0 for x in refused),
            "cycles_per_conn": (busy_tsc(c) + busy_tsc(s)) / done if done else None,
            "pmd": pmd, "secs": cl["duration_s"],
            "books_close": (b["attempted"] == done and b["failed_total"] == 0 and
                            sb["accepted"] == done and sb["closed"] == done and
                            sb["reqs_served"] == b["resps"] == done),
            "pmd_agree": (pmd["client_opackets"] == pmd["server_rx_segs"] and
                          pmd["client_ipackets"] == pmd["server_tx_segs"] -
                          pmd["server_refused"] and
                          pmd["client_ipackets"] == pmd["client_rx_segs"] and
                          pmd["client_opackets"] == pmd["client_tx_segs"] -
                          pmd["client_refused"]),
            "tsc_hz": c["env"]["tsc_hz"]}


def memif_pair(args, tag, srv, cli, closing="frames: "):
    """Two wirerate processes joined by memif: the server side first
    (memif server role; srv: its lcores, then its options after "--"),
    the client side once the server's socket exists (cli: the same). Once
    the client printed a line starting with `closing` (its workers
    stopped, its port kept open by --linger; None: once it exits) the
    server gets SIGINT, then the client leaves when its link goes down.
    Returns (client doc, server doc, client output, server output), or
    an error string."""
    with tempfile.TemporaryDirectory() as d:
        sock, sp, cp = (os.path.join(d, x) for x in ("m.sock", "s.json", "c.json"))
        seal = eal_args([memif_vdev(sock, "server")], prefix="wrbms" + tag, huge=True)
        ceal = eal_args([memif_vdev(sock, "client")], prefix="wrbmc" + tag, huge=True)
        srv_p = subprocess.Popen(
            [args.wirerate, "--lcores", srv[0]] + seal[2:] + ["--"] + srv[1] +
            ["--quiet", "--json", sp],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            stdin=subprocess.DEVNULL)
        try:
            end = time.monotonic() + 30
            while not os.path.exists(sock) and srv_p.poll() is None and \
                    time.monotonic() < end:
                time.sleep(0.05)
            cli_p = subprocess.Popen(
                [args.wirerate, "--lcores", cli[0]] + ceal[2:] + ["--"] + cli[1] +
                ["--quiet", "--json", cp],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                stdin=subprocess.DEVNULL)
            watchdog = threading.Timer(args.seconds + 120, cli_p.kill)
            watchdog.start()
            out_c = ""
            for line in cli_p.stdout:
                out_c += line
                if closing is not None and line.startswith(closing):
                    break
            if closing is None:
                cli_p.wait()
        finally:
            out_s = stop(srv_p)
        try:
            out_c += cli_p.communicate(timeout=LINGER_S + 30)[0]
        except subprocess.TimeoutExpired:
            cli_p.kill()
            out_c += cli_p.communicate()[0]
        watchdog.cancel()
        remove_runtime_dir("wrbms" + tag)
        remove_runtime_dir("wrbmc" + tag)
        if cli_p.returncode != 0 or srv_p.returncode != 0 or \
                not (os.path.exists(cp) and os.path.exists(sp)):
            return "client exit %d, server exit %s: %s %s" % (
                cli_p.returncode, srv_p.returncode, out_c[-300:], out_s[-300:])
        with open(cp) as f:
            c = json.load(f)
        with open(sp) as f:
            s = json.load(f)
    return c, s, out_c, out_s


def run_memif(args, seq):
    """One conn_memif run (memif_pair): the server with --link-timeout 0
    (its link comes up when the client connects), the client with
    --linger. A dict of its figures, or one with "error"."""
    cpu1 = min(1, os.cpu_count() - 1)
    r = memif_pair(args, "%d_%d" % (os.getpid(), seq),
                   ("0@0,1@%d" % cpu1,
                    ["--conn", "server", "--port-ip", "0=198.19.0.1/15"] + HTTP +
                    ["--conn-body", "100", "--duration", "0", "--link-timeout", "0"]),
                   ("0@0,1@0",
                    ["--conn", "client", "--port-ip", "0=198.18.0.2/15",
                     "--conn-server", "198.19.0.1:80",
                     "--duration", "%gs" % args.seconds] + HTTP +
                    ["--linger", "%ds" % LINGER_S]))
    if isinstance(r, str):
        return {"error": r}
    return memif_figures(*r)


def conn_cps(args, log):
    """--runs runs; the medians and every run."""
    runs = []
    for i in range(args.runs):
        r = run_once(args, i)
        log("conn_cps run %d: %s" % (i + 1, r))
        if r is not None:
            runs.append(r)
    if not runs:
        return {"runs": [], "error": "no run completed"}
    return {"runs": runs, "seconds": args.seconds, "max_open": OPEN,
            "cps": median_of(runs, "cps"),
            "failed": sum(r["failed"] for r in runs),
            "failed_at_end": sum(r["failed_at_end"] for r in runs),
            "cycles_per_conn": median_of([r for r in runs
                                          if r["cycles_per_conn"]],
                                         "cycles_per_conn"),
            "tsc_hz": runs[0]["tsc_hz"]}


def fmt_memif(r):
    if r is None or r.get("error"):
        return "FAILED %s" % (r or {}).get("error", "")
    return "%.0f/s, %d failed (%d at the drain), %.0f cyc/conn, %d frames refused%s" % (
        r["cps"], r["failed"], r["failed_at_end"], r["cycles_per_conn"] or 0,
        r["refused_frames"],
        "" if "books_close" not in r else ", books %s, PMD %s" % (
            "close" if r["books_close"] else "OPEN",
            "agrees" if r["pmd_agree"] else "DISAGREES"))


def conn_memif(args, log):
    """--runs rounds of a memif run and a conn_cps (ring) run, the order
    flipping every round; the medians, their ratio and every run."""
    memif, ring = [], []
    for i in range(args.runs):
        for who in (("m", "r") if i % 2 == 0 else ("r", "m")):
            if who == "m":
                memif.append(run_memif(args, i))
            else:
                ring.append(run_once(args, 100 + i) or {"error": "failed"})
        log("conn_memif round %d: memif %s; ring %s" % (
            i + 1, fmt_memif(memif[-1]), fmt_memif(ring[-1])))
    ok_m = [r for r in memif if not r.get("error")]
    ok_r = [r for r in ring if not r.get("error")]
    out = {"memif": memif, "ring": ring, "seconds": args.seconds, "max_open": OPEN}
    if not ok_m or not ok_r:
        out["error"] = "memif %d of %d runs, ring %d of %d completed" % (
            len(ok_m), len(memif), len(ok_r), len(ring))
        return out
    pairs = [(m, r) for m, r in zip(memif, ring)
             if not m.get("error") and not r.get("error")]
    out.update({
        "cps": median_of(ok_m, "cps"), "ring_cps": median_of(ok_r, "cps"),
        "failed": sum(r["failed"] for r in ok_m),
        "ring_failed": sum(r["failed"] for r in ok_r),
        "failed_at_end": sum(r["failed_at_end"] for r in ok_m),
        "ring_failed_at_end": sum(r["failed_at_end"] for r in ok_r),
        "cycles_per_conn": median_of(ok_m, "cycles_per_conn"),
        "ring_cycles_per_conn": median_of(ok_r, "cycles_per_conn"),
        "books_close": all(r["books_close"] for r in ok_m),
        "pmd_agree": all(r["pmd_agree"] for r in ok_m),
        "failed_runs": len(memif) - len(ok_m) + len(ring) - len(ok_r),
        "tsc_hz": ok_m[0]["tsc_hz"]})
    out["ratio"] = out["cps"] / out["ring_cps"]
    out["ratio_per_round_median"] = statistics.median(m["cps"] / r["cps"] for m, r in pairs) \
        if pairs else None
    out["cycles_ratio"] = out["cycles_per_conn"] / out["ring_cycles_per_conn"]
    return out


def markdown_conn(t):
    """The case's lines of bench.md."""
    if not t.get("runs"):
        return ["", "## conn_cps", "", "no run completed"]
    return ["", "## conn_cps: HTTP client to server, one process, net_ring",
            "", "| seconds a run | CPS (median) | failed (at the drain) | "
            "cycles a connection (both lcores) |", "|---|---|---|---|",
            "| %g | %.0f | %d (%d) | %.0f |" % (
                t["seconds"], t["cps"], t["failed"], t["failed_at_end"],
                t["cycles_per_conn"] or 0)]


def markdown_memif(t):
    """The conn_memif lines of bench.md."""
    if t.get("error"):
        return ["", "## conn_memif", "", t["error"]]
    rr = t["ratio_per_round_median"]
    return ["", "## conn_memif: HTTP client and server in two processes over "
            "memif, against conn_cps (one process, net_ring), alternating", "",
            "| | CPS (median) | failed (at the drain) | cycles a connection "
            "(both workers) |", "|---|---|---|---|",
            "| memif, two processes | %.0f | %d (%d) | %.0f |" % (
                t["cps"], t["failed"], t["failed_at_end"], t["cycles_per_conn"]),
            "| net_ring, one process | %.0f | %d (%d) | %.0f |" % (
                t["ring_cps"], t["ring_failed"], t["ring_failed_at_end"],
                t["ring_cycles_per_conn"]),
            "| memif / ring | %.2f (per round %s) | | %.2f |" % (
                t["ratio"], "%.2f" % rr if rr is not None else "-",
                t["cycles_ratio"]),
            "", "%g s a run, %d open at most. memif runs: books %s, "
            "client PMD counters %s with the server's segments; runs failed: %d." % (
                t["seconds"], t["max_open"],
                "close" if t["books_close"] else "DO NOT close",
                "agree" if t["pmd_agree"] else "DISAGREE", t["failed_runs"])]
