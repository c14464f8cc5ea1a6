# SPDX-License-Identifier: BSD-3-Clause
"""The 'replay' case of bench.py: wirerate TX cost per frame on net_null of
--replay as fast as possible (--replay-speed max, looped until --duration)
against fixed test frames of the same size, alternating runs.

  fixed64     --size 64: test frames, the reference for replay64
  replay64    a capture of 1024 frames of 60 B (64 with FCS)
  fixed1518   --size 1518: the reference for replay1518
  replay1518  a capture of 1024 frames of 1514 B
  stamp1518   the same with --replay-stamp: the test header and UDP
              checksum written into every frame, as test frames get them

The captures are written by tests/lib/pcapgen.py (the vdev tests' writer).
Cost = cycles per frame / the reference's - 1."""
import os
import sys
import tempfile

from bench_traffic import alternate, markdown, summarise

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tests", "lib"))
import pcapgen  # noqa: E402

SIZES = (64, 1518)
# replay within 20 % of fixed frames' cycles per frame, stamped too
GOALS = {"replay%d" % s: ("fixed%d" % s, 0.20) for s in SIZES}
GOALS["stamp1518"] = ("fixed1518", 0.20)


def variants(d):
    """{name: wirerate options}, the captures written into folder d."""
    out = {}
    for size in SIZES:
        path = os.path.join(d, "replay%d.pcap" % size)
        pcapgen.write_pcap(path, pcapgen.frames(1024, (1000,), sizes=(size - 4,)))
        out["fixed%d" % size] = ["--size", str(size)]
        out["replay%d" % size] = ["--replay", path, "--replay-loop", "0",
                                  "--replay-speed", "max"]
    out["stamp1518"] = out["replay1518"] + ["--replay-stamp"]
    return out


def replay_cost(args, log, steady, run_wirerate, fmt_run):
    with tempfile.TemporaryDirectory() as d:
        return alternate("replay", variants(d), args, log, steady, run_wirerate,
                         fmt_run)


def summarise_replay(t):
    summarise(t, GOALS)


def markdown_replay(t):
    return markdown(t, GOALS)
