# SPDX-License-Identifier: BSD-3-Clause
"""The 'replay' case of bench.py: wirerate TX cost per frame on net_null of
--replay as fast as possible (--replay-speed max, looped until --duration)
against fixed test frames of the same size, alternating runs.

  fixed64     --size 64: test frames, the reference for replay64
  replay64    a capture of 1024 frames of 60 B (64 with FCS)
  fixed1518   --size 1518: the reference for replay1518
  replay1518  a capture of 1024 frames of 1514 B

The captures are written by tests/lib/pcapgen.py (the vdev tests' writer).
Cost = cycles per frame / the reference's - 1."""
import os
import sys
import tempfile

from stats import median_of

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tests", "lib"))
import pcapgen  # noqa: E402

SIZES = (64, 1518)
GOAL = 0.20   # replay within 20 % of fixed frames' cycles per frame


def variants(d):
    """{name: wirerate options}, the captures written into folder d."""
    out = {}
    for size in SIZES:
        path = os.path.join(d, "replay%d.pcap" % size)
        pcapgen.write_pcap(path, pcapgen.frames(1024, (1000,), sizes=(size - 4,)))
        out["fixed%d" % size] = ["--size", str(size)]
        out["replay%d" % size] = ["--replay", path, "--replay-loop", "0",
                                  "--replay-speed", "max"]
    return out


def replay_cost(args, log, steady, run_wirerate, fmt_run):
    """Each variant once per round, the order reversed every other round."""
    tsc_hz = 0
    with tempfile.TemporaryDirectory() as d:
        var = variants(d)
        runs = {k: [] for k in var}
        order = list(var)
        for i in range(args.runs):
            for k in (order if i % 2 == 0 else order[::-1]):
                w, doc = steady(args, run_wirerate, "net_null0",
                                ["--rx-ports", "none"] + var[k], "tx_pkts")
                tsc_hz = doc["env"]["tsc_hz"]
                runs[k].append(w.as_dict())
            log("replay run %d: %s" % (i + 1, "; ".join(
                "%s %s" % (k, fmt_run(runs[k][-1])) for k in order)))
    return {"case": "replay", "tsc_hz": tsc_hz, "runs": runs}


def summarise_replay(t):
    """Medians per CPU-second, cycles per frame and the costs, in place."""
    pps = {k: median_of(v, "cpu_pps") for k, v in t["runs"].items()}
    t["mpps"] = {k: v / 1e6 for k, v in pps.items()}
    t["cycles_per_pkt"] = {k: t["tsc_hz"] / v for k, v in pps.items()}
    t["cost"] = {"replay%d" % s: t["cycles_per_pkt"]["replay%d" % s] /
                 t["cycles_per_pkt"]["fixed%d" % s] - 1 for s in SIZES}
    t["met"] = {k: c <= GOAL for k, c in t["cost"].items()}


def markdown_replay(t):
    out = ["", "| wirerate TX on net_null | Mpps | cyc/frame | cost | goal |",
           "|---|---|---|---|---|"]
    for k in t["runs"]:
        cost = goal = ""
        if k in t["cost"]:
            cost = "%+.1f %% vs fixed%s" % (100 * t["cost"][k], k[6:])
            goal = "<= %.0f %%: %s" % (100 * GOAL, "met" if t["met"][k] else "MISSED")
        out.append("| %s | %.1f | %.1f | %s | %s |" % (
            k, t["mpps"][k], t["cycles_per_pkt"][k], cost, goal))
    return out
