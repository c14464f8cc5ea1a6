# SPDX-License-Identifier: BSD-3-Clause
"""The benchmark's conn_tbf case (scripts/lib/bench_tbf.py) on one round:
wirerate's bulk client and the kernel's, each through its own tbf link
into the receiver namespace; the figures against the receiver's own
counts. Usage: test_bench_tbf.py CASE."""
import os
import subprocess
import sys
import types

import cases
import wrtest
from connbed import probe
from wrtest import Checker

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts", "lib"))
import bench_tbf  # noqa: E402
from tbfbed import SHAPER_BPS  # noqa: E402


def bench_conn_tbf():
    """One round of each sender (2 connections of 2 MB through a tbf of
    100 Mbit/s): the receiver read every byte of both runs; each goodput
    is above 0 and at most the shaper's line rate (what the receiver saw
    cannot pass the shaper); the RTO counts are numbers; both rows in the
    Markdown; nothing of the bed is left."""
    c = Checker("bench_conn_tbf")
    probe(c, "tc", "ethtool", "nstat")
    if not wrtest.have_qdisc(bench_tbf.TBF) or not wrtest.have_link_kind(["type", "ifb"]):
        c.skip("the kernel has no tbf qdisc or no ifb device")
        c.done()
    bench_tbf.RUNS = 1
    t = bench_tbf.conn_tbf(types.SimpleNamespace(wirerate=wrtest.WIRERATE),
                           lambda m: print(m))
    for k in ("wirerate", "kernel"):
        r = t["runs"][k][0]
        c.eq((r["error"], r["bytes"]), (None, 2 * 2000000),
             "%s: no error, the receiver read every byte" % k)
        c.true(0 < r["goodput_bps"] <= SHAPER_BPS,
               "%s: goodput %.2f Mbit/s, above 0 and within the shaper's rate" % (
                   k, r["goodput_bps"] / 1e6))
        c.true(isinstance(r["rto"], int) and r["rto"] >= 0, "%s: RTOs %r" % (k, r["rto"]))
        c.eq(t[k]["whole"], 1, "%s: the run counted whole" % k)
    md = "\n".join(bench_tbf.markdown_tbf(t))
    c.true("| wirerate | " in md and "| kernel | " in md and
           "congestion control: %s, Linux %s." % (t["kernel_cc"], os.uname().release)
           in md and t["kernel_cc"], md)
    left = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    c.true(bench_tbf.NS_R not in left and bench_tbf.NS_S not in left,
           "the namespaces are gone: %r" % left)
    c.done()


CASES = cases.by_name(bench_conn_tbf)

if __name__ == "__main__":
    cases.main(CASES)
