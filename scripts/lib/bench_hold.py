# SPDX-License-Identifier: BSD-3-Clause
"""The conn_hold case of bench.py: --mode conn-capacity with the client
and the server in one process over a net_ring pair, 1,000,000
connections opened at 25,000 a second and held, then released and
checked. Prints the connections held (held = attempted, 0 failed), the
checks answered, the process's peak resident set (VmRSS, sampled every
0.2 s from /proc) and its hugepages (HugetlbPages: the pools and both
engines' connection memory live there), and those over the connections
held. docs/tcp.md ("Memory per connection") sets them beside the
engine's bytes a connection from sizeof (unit conn_http)."""
import json
import os
import subprocess
import tempfile
import time

from eal import eal_args, remove_runtime_dir

CONNS = 1000000
RATE = 25000


def status_kib(pid, key):
    """A field of /proc/PID/status in KiB, or 0."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def conn_hold(args, log):
    """One run; a dict of its figures, or one with "error"."""
    prefix = "wrbhold%d" % os.getpid()
    eal = eal_args([], prefix=prefix)
    eal = ["--lcores", "0@0,1@0,2@%d" % min(1, os.cpu_count() - 1)] + eal[2:]
    peak = {"rss": 0, "huge": 0}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        argv = [args.wirerate] + eal + [
            "--", "--ring-pairs", "1", "--conn", "0=client,1=server",
            "--port-ip", "0=198.18.0.2/15", "--port-ip", "1=198.19.0.1/15",
            "--conn-server", "198.19.0.1:80",
            "--conn-src-ip", "198.18.1.0-198.18.1.31",
            "--mode", "conn-capacity",
            "--conn-count", str(CONNS), "--conn-concurrency", str(CONNS),
            "--conn-rate", str(RATE), "--conn-body", "100", "--quiet",
            "--json", path]
        p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True,
                             stdin=subprocess.DEVNULL)
        while p.poll() is None:
            peak["rss"] = max(peak["rss"], status_kib(p.pid, "VmRSS"))
            peak["huge"] = max(peak["huge"], status_kib(p.pid, "HugetlbPages"))
            time.sleep(0.2)
        out = p.stdout.read()
        remove_runtime_dir(prefix)
        if p.returncode != 0 or not os.path.exists(path):
            return {"error": "exit %d: %s" % (p.returncode, out[-500:])}
        with open(path) as f:
            doc = json.load(f)
    cap = doc["capacity"]
    held = cap["connections"]
    r = {"held": held, "attempted": cap["attempted"], "failed": cap["failed"],
         "answered": cap["check"]["answered"],
         "peak_rss_kib": peak["rss"], "peak_hugetlb_kib": peak["huge"],
         "rss_b_per_conn": peak["rss"] * 1024.0 / held if held else None,
         "total_b_per_conn": (peak["rss"] + peak["huge"]) * 1024.0 / held
         if held else None}
    log("conn_hold: %s" % r)
    return r


def markdown_hold(t):
    """The case's lines of bench.md."""
    if t.get("error"):
        return ["", "## conn_hold", "", t["error"]]
    return ["", "## conn_hold: 1 M connections held, client and server in "
            "one process, net_ring", "",
            "| held | attempted | failed | checks answered | peak VmRSS KiB "
            "| hugepages KiB | bytes a connection (RSS + hugepages) |",
            "|---|---|---|---|---|---|---|",
            "| %d | %d | %d | %d | %d | %d | %.0f |" % (
                t["held"], t["attempted"], t["failed"], t["answered"],
                t["peak_rss_kib"], t["peak_hugetlb_kib"],
                t["total_b_per_conn"] or 0)]
