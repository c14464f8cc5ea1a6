# SPDX-License-Identifier: BSD-3-Clause
"""The conn_cps case of bench.py: wirerate's HTTP client and server back to
back in one process (--conn 0=client,1=server over a net_ring pair), one
request a connection, as fast as the engines go. Per run: connections a
second (the client's completed over the run's duration_s), failures (must
be 0), frames the rings refused, and TSC cycles per connection (the busy
TSC of the two worker lcores, from the result's cpu.lcores, over the
connections completed). The workers take lcores 1 and 2 on CPUs 0 and 1;
the main lcore shares CPU 0 (it sleeps between its stats reads)."""
import json
import os
import subprocess
import tempfile

from eal import eal_args, remove_runtime_dir
from stats import median_of

CONNS = 200000
OPEN = 1000


def run_once(args, seq):
    """One run; a dict of its figures, or None when it failed."""
    prefix = "wrbcps%d_%d" % (os.getpid(), seq)
    eal = eal_args([], prefix=prefix)
    eal = ["--lcores", "0@0,1@0,2@%d" % min(1, os.cpu_count() - 1)] + eal[2:]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        argv = [args.wirerate] + eal + [
            "--", "--ring-pairs", "1", "--conn", "0=client,1=server",
            "--port-ip", "0=198.18.0.2/15", "--port-ip", "1=198.19.0.1/15",
            "--conn-server", "198.19.0.1:80", "--conn-count", str(CONNS),
            "--conn-concurrency", str(OPEN), "--conn-time-wait", "1ms",
            "--conn-body", "100", "--quiet", "--json", path]
        p = subprocess.run(argv, capture_output=True, text=True, timeout=600,
                           stdin=subprocess.DEVNULL)
        remove_runtime_dir(prefix)
        if p.returncode != 0 or not os.path.exists(path):
            return None
        with open(path) as f:
            doc = json.load(f)
    cl = doc["connections"]
    busy = sum(lc["busy_tsc"] for lc in doc["cpu"]["lcores"])
    done = cl["books"]["completed"]
    refused = 0
    for line in p.stdout.splitlines():
        if line.startswith("frames: "):
            refused = int(line.split()[1])
    return {"cps": done / cl["duration_s"] if cl["duration_s"] > 0 else 0.0,
            "completed": done, "failed": cl["books"]["failed_total"],
            "refused_frames": refused,
            "cycles_per_conn": busy / done if done else None,
            "tsc_hz": doc["env"]["tsc_hz"]}


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
    return {"runs": runs, "conns": CONNS, "max_open": OPEN,
            "cps": median_of(runs, "cps"),
            "failed": sum(r["failed"] for r in runs),
            "cycles_per_conn": median_of([r for r in runs
                                          if r["cycles_per_conn"]],
                                         "cycles_per_conn"),
            "tsc_hz": runs[0]["tsc_hz"]}


def markdown_conn(t):
    """The case's lines of bench.md."""
    if not t.get("runs"):
        return ["", "## conn_cps", "", "no run completed"]
    return ["", "## conn_cps: HTTP client to server, one process, net_ring",
            "", "| connections a run | CPS (median) | failed | cycles a "
            "connection (both lcores) |", "|---|---|---|---|",
            "| %d | %.0f | %d | %.0f |" % (t["conns"], t["cps"], t["failed"],
                                         t["cycles_per_conn"] or 0)]
