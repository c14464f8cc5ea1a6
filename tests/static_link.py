#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""-Ddpdk_link=static: a build of the program with DPDK's static libraries
(every driver in it, no plugin loaded) in a folder of its own, then on
real packets: TX on net_null and a net_ring loopback, each frame counted
by the PMD as well as by wirerate. The static program needs no librte
shared library (ldd), where this build's program does (the check can
disagree). About a minute of two CPUs for the build: suite long.

usage: static_link.py SOURCE_ROOT WIRERATE
Exit 1 naming each miss."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import wrtest  # noqa: E402
from wrtest import Checker  # noqa: E402


def rte_libs(program):
    """The librte shared libraries the loader would map for program."""
    p = subprocess.run(["ldd", program], capture_output=True, text=True)
    return [ln.split()[0] for ln in p.stdout.splitlines() if "librte_" in ln]


def build(root, d):
    """The static program in d; (path, None) or (None, the build's tail)."""
    b = os.path.join(d, "build")
    for argv in (["meson", "setup", b, root, "-Ddpdk_link=static",
                  "-Dbuildtype=debugoptimized", "-Dfuzz=disabled"],
                 ["ninja", "-C", b, "app/wirerate"]):
        p = subprocess.run(argv, capture_output=True, text=True, timeout=900)
        if p.returncode != 0:
            return None, "%s: exit %d\n%s" % (" ".join(argv), p.returncode,
                                             (p.stdout + p.stderr)[-3000:])
    return os.path.join(b, "app", "wirerate"), None


def port(doc, pid=0):
    return next(t for t in doc["totals"] if t["port_id"] == pid)


def check_runs(c, program):
    """TX on net_null and the ring loopback of the static program, each
    against the PMD's own counters."""
    wrtest.WIRERATE = program
    r = wrtest.run(["net_null0"], ["--rx-ports", "none", "--size", "64",
                                   "--duration", "1"])
    c.eq(r.rc, 0, "net_null TX exit (%s)" % r.err.strip()[-300:])
    if r.doc is not None:
        t = port(r.doc)
        c.true(t["tx_pkts"] > 0, "net_null: frames sent")
        c.eq(t["tx_pkts"], t["nic_opackets"], "net_null: sent = the PMD's frames out")
    r = wrtest.run(["net_ring0"], ["--size", "64", "--duration", "1"])
    c.eq(r.rc, 0, "ring loopback exit (%s)" % r.err.strip()[-300:])
    if r.doc is not None:
        t = port(r.doc)
        c.true(t["tx_pkts"] > 0, "ring: frames sent")
        c.eq(t["nic_opackets"], t["tx_pkts"], "ring: sent = the PMD's frames out")
        c.eq(t["nic_ipackets"], t["nic_opackets"], "ring: the PMD's in = out")
        c.eq(t["rx_own_pkts"], t["tx_pkts"], "ring: own frames received = sent")


def main():
    root, shared = sys.argv[1], sys.argv[2]
    c = Checker("static_link")
    try:
        c.true(rte_libs(shared) != [], "this build's program maps librte "
               "shared libraries (ldd), so the check below can fail")
        with tempfile.TemporaryDirectory() as d:
            program, err = build(root, d)
            c.true(program is not None, "the static build: %s" % err)
            if program is not None:
                c.eq(rte_libs(program), [], "librte shared libraries of the "
                     "static program")
                check_runs(c, program)
    finally:
        c.done()


if __name__ == "__main__":
    main()
