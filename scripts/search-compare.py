#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""RFC 2544 binary search (--mode throughput) against MLRsearch (--mode mlr)
on the same device, at the same precision: trials, total time and the
spread of the NDR and PDR over repeats, alternating the two methods.

Devices: 'police' (the --impair police fixture on a ring pair) and 'tbf'
(a Linux tbf shaper on a veth pair in a network namespace, wirerate on
both ends through net_af_packet; needs root and iproute2).
Usage: scripts/search-compare.py [--device police|tbf] [--repeats N]
       [--wirerate PATH] [--json OUT]
Prints a Markdown table (docs/rfc2544.md has one)."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from eal import eal_args  # noqa: E402
from stats import median_sd  # noqa: E402

NS = "wrcmp%d" % os.getpid()
DEVICES = {
    # police=500kpps, 1 Mpps maximum, 0.5 s trials, 1% precision.
    "police": {"vdevs": [], "opts": ["--ring-pairs", "1", "--tx-ports", "0",
                                     "--rx-ports", "1", "--size", "64",
                                     "--rate", "1Mpps", "--impair", "police=500kpps"]},
    # tbf at 40 Mbit/s (60-byte frames in the kernel: ~83 kpps), 200 kpps max;
    # qdisc_bypass=0 or the af_packet PMD skips the qdisc (and the shaper).
    "tbf": {"vdevs": ["net_af_packet0,iface=wra,framecnt=8192,qdisc_bypass=0",
                      "net_af_packet1,iface=wrb,framecnt=8192"],
            "opts": ["--tx-ports", "0", "--rx-ports", "1", "--size", "64",
                     "--rate", "200kpps"]},
}
METHODS = {
    "binary": ["--mode", "throughput", "--trial", "500ms", "--resolution", "1",
               "--pdr", "0.005", "--max-trials", "40"],
    "mlr": ["--mode", "mlr", "--trial", "500ms", "--mlr-initial", "100ms",
            "--goals", "0:0.5:1s:0.01,0.005:0.5:1s:0.01"],
}


def sh(*argv):
    subprocess.run(argv, check=True)


def tbf_up():
    sh("ip", "netns", "add", NS)
    sh("ip", "-n", NS, "link", "add", "wra", "type", "veth", "peer", "name", "wrb")
    for i in ("wra", "wrb"):
        sh("ip", "netns", "exec", NS, "sysctl", "-qw",
           "net.ipv6.conf.%s.disable_ipv6=1" % i)
        sh("ip", "-n", NS, "link", "set", i, "up")
    sh("ip", "-n", NS, "link", "set", "lo", "up")
    sh("ip", "netns", "exec", NS, "tc", "qdisc", "add", "dev", "wra", "root", "tbf",
       "rate", "40mbit", "burst", "16kb", "latency", "20ms")


def tbf_down():
    subprocess.run(["ip", "netns", "del", NS], check=False)


def one(wirerate, device, method, d):
    path = os.path.join(d, "r.json")
    argv = [wirerate] + eal_args(DEVICES[device]["vdevs"], huge=True) + \
        ["--"] + DEVICES[device]["opts"] + METHODS[method] + \
        ["--lat-loads", "none", "--quiet", "--json", path]
    if device == "tbf":
        argv = ["ip", "netns", "exec", NS] + argv
    t0 = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True, timeout=900)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(argv), p.stderr[-500:]))
    doc = json.load(open(path))
    r = doc["results"][0]
    traffic = sum(t["duration_s"] for t in doc["trials"])
    if method == "binary":
        return {"trials": len(doc["trials"]), "traffic_s": traffic, "wall_s": wall,
                "ndr": r["ndr_pps"], "pdr": r["pdr_pps"]}
    g = r["goals"]
    return {"trials": len(doc["trials"]), "traffic_s": traffic, "wall_s": wall,
            "ndr": g[0]["conditional_throughput_pps"],
            "pdr": g[1]["conditional_throughput_pps"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", choices=DEVICES, default="police")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--wirerate", default="build/app/wirerate")
    ap.add_argument("--json")
    a = ap.parse_args()
    out = {m: [] for m in METHODS}
    if a.device == "tbf":
        tbf_up()
    try:
        with tempfile.TemporaryDirectory() as d:
            for i in range(a.repeats):
                for m in METHODS:
                    out[m].append(one(a.wirerate, a.device, m, d))
                    print("repeat %d %s: %r" % (i + 1, m, out[m][-1]), file=sys.stderr)
    finally:
        if a.device == "tbf":
            tbf_down()
    print("| %s | trials | traffic s | wall s | NDR kpps (median, sd) | PDR kpps (median, sd) |"
          % a.device)
    print("|---|---:|---:|---:|---:|---:|")
    for m, runs in out.items():
        cells = [median_sd(runs, k) for k in ("trials", "traffic_s", "wall_s", "ndr", "pdr")]
        print("| %s | %.0f | %.1f | %.1f | %.1f (%.1f) | %.1f (%.1f) |" % (
            m, cells[0][0], cells[1][0], cells[2][0], cells[3][0] / 1e3,
            cells[3][1] / 1e3, cells[4][0] / 1e3, cells[4][1] / 1e3))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
