# SPDX-License-Identifier: BSD-3-Clause
"""The live view as a person sees it: captured under tmux at 80 and 160
columns (in place, fits the width, port and plan lines kept above it,
elapsed and remaining time or frames), and piped (--plain: every frame
with its headers and the latency block). Usage: test_live.py CASE."""
import os
import re
import shutil
import subprocess
import time

import cases
import wrtest
from wrtest import Checker

RING = ["--ring-pairs", "1"]


class Tmux:
    """A private tmux server (its own socket) with one window of a size."""

    def __init__(self, cols, rows=60):
        self.sock = "wrlive%d_%d" % (os.getpid(), cols)
        self.cols = cols
        self.base = ["tmux", "-L", self.sock, "-f", "/dev/null"]
        self.rows = rows

    def start(self, argv):
        cmd = " ".join("'%s'" % a for a in argv) + "; echo EXIT=$?; sleep 120"
        subprocess.run(self.base + ["new-session", "-d", "-x", str(self.cols),
                                    "-y", str(self.rows), "-s", "live", cmd],
                       check=True, env=dict(os.environ, TERM="xterm"))

    def screen(self, history=False, joined=False):
        args = ["capture-pane", "-p", "-t", "live"]
        if joined:
            args.append("-J")
        if history:
            args += ["-S", "-"]
        return subprocess.run(self.base + args, capture_output=True,
                              text=True).stdout

    def wait(self, text, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            s = self.screen(history=True, joined=True)
            if text in s:
                return s
            time.sleep(0.1)
        return None

    def close(self):
        subprocess.run(self.base + ["kill-server"], capture_output=True)


def eal():
    return [wrtest.WIRERATE] + wrtest.eal_args([])


def check_terminal(c, cols, opts, left_re):
    t = Tmux(cols)
    try:
        t.start(eal() + ["--"] + RING + opts)
        mid = t.wait("t=1.0s")
        c.true(mid is not None, "%d cols: the live view started" % cols)
        if mid is None:
            return None
        time.sleep(0.3)
        shown = t.screen()
        hist = t.screen(history=True, joined=True)
        for want in ("port 0 net_ring_wr_pair0_a", "port 1 net_ring_wr_pair0_b",
                     "plan (automatic): main lcore", "  lcore 1: tx0.0"):
            c.true(want in shown, "%d cols: %r still on screen mid-run" % (cols, want))
        c.eq(len(re.findall(r"^t=\d", hist, re.M)), 1,
             "%d cols: one frame, redrawn in place" % cols)
        c.true(re.search(left_re, shown) is not None,
               "%d cols: elapsed and what is left (%s): %r" % (cols, left_re, shown[-1500:]))
        c.true("counts: since start" in shown and "rates: last" in shown,
               "%d cols: per interval and cumulative said" % cols)
        c.true("received frames by sequence number since start; latency of "
               "this interval" in shown,
               "%d cols: the latency block" % cols)
        end = t.wait("EXIT=", timeout=90)
        c.true(end is not None and "EXIT=0" in end, "%d cols: exit 0" % cols)
        final = t.screen(history=True, joined=True)
        long = [ln for ln in final.splitlines() if len(ln) > cols]
        c.eq(long, [], "%d cols: no line wider than the terminal" % cols)
        c.true("summary over" in final, "%d cols: the summary" % cols)
        return final
    finally:
        t.close()


def live_terminal():
    """At 80 columns: the narrow table; at 160: L1 and L2; both in place
    below the port lines and the plan."""
    c = Checker("live_terminal")
    if shutil.which("tmux") is None:
        c.skip("no tmux (Debian package tmux)")
        c.done()
    narrow = check_terminal(c, 80, ["--duration", "3"],
                            r"t=\d\.\ds of 3\.0s, \d\.\ds left")
    if narrow is not None:
        c.true("Gb/s L2" not in narrow, "80 cols: no L2 columns")
        c.true("Gb/s L1" in narrow, "80 cols: says the Gb/s are L1")
    wide = check_terminal(c, 160, ["--count", "40M", "--rate", "10Mpps"],
                          r"frames sent per TX port, [0-9.]+[kM ] left")
    if wide is not None:
        c.true(re.search(r"TX Mpps +Gb/s L1 +Gb/s L2", wide) is not None,
               "160 cols: L1 and L2 columns")
    narrower(c)
    c.done()


def narrower(c):
    """A terminal narrower than the table: lines wrap, the frame is still
    redrawn in place (the view counts wrapped rows)."""
    t = Tmux(60)
    try:
        t.start(eal() + ["--"] + RING + ["--duration", "2.5"])
        mid = t.wait("t=2.0s")
        c.true(mid is not None, "60 cols: the live view started")
        if mid is not None:
            time.sleep(0.2)
            hist = t.screen(history=True, joined=True)
            c.eq(len(re.findall(r"^t=\d", hist, re.M)), 1,
                 "60 cols: one frame, redrawn in place over its wrapped rows")
            c.true("plan (automatic)" in t.screen(), "60 cols: the plan on screen")
        t.wait("EXIT=", timeout=60)
    finally:
        t.close()


def live_plain():
    """Piped: every frame has its headers and the latency block."""
    c = Checker("live_plain")
    r = wrtest.run([], RING + ["--duration", "0.6", "--interval", "100ms"],
                   want_json=False)
    c.eq(r.rc, 0, "exit code")
    live = r.out.split("\nsummary over")[0]
    frames = re.split(r"\n(?=t=\d)", live)[1:]
    c.true(len(frames) >= 4, "a frame per interval: %d" % len(frames))
    for i, fr in enumerate(frames):
        for h in ("port   TX Mpps", "lcore busy %", "port  cyc/frame",
                  "port    own frames"):
            c.true(h in fr, "frame %d has %r" % (i + 1, h))
        c.eq(len(re.findall(r"^ +\d+ ", fr, re.M)), 2 + 1 + 2 + 2,
             "frame %d: 2 port rows, 1 lcore row, 2 port-cycle rows, 2 latency rows"
             % (i + 1))
    c.true(all(len(ln) <= 80 for ln in r.out.splitlines()),
           "piped output fits 80 columns")
    c.done(r)


TWO_STREAMS = ["--tx-ports", "0", "--rx-ports", "1", "--rxq", "2",
               "--stream", "name=fast;size=128;rate=20kpps",
               "--stream", "name=slow;size=300;rate=5kpps;dport=9"]
STREAM_ROW = re.compile(r"^(fast|slow) +tx0\.([01]) +1 +(\d+) +(\d+) +(\d+) +(\d+) "
                        r"+(\d+) +([0-9.]+)$", re.M)


def stream_rows(fr):
    """{name: (queue, sent, received, gaps)} of a frame's stream block."""
    return {m.group(1): tuple(int(m.group(k)) for k in (2, 3, 4, 5))
            for m in STREAM_ROW.finditer(fr)}


def live_streams():
    """Two streams on a ring pair: a per-stream block in every frame, piped
    and at 80 columns under tmux; each stream's received count against its
    sent count and, summed, the receiving port's own frames of the same
    frame; the last frame against the final JSON (sent, the PMD's count)."""
    c = Checker("live_streams")
    r = wrtest.run([], RING + TWO_STREAMS + ["--duration", "1", "--interval", "200ms"])
    c.eq(r.rc, 0, "exit code")
    frames = re.split(r"\n(?=t=\d)", r.out.split("\nsummary over")[0])[1:]
    c.true(len(frames) >= 3, "a frame per interval: %d" % len(frames))
    for i, fr in enumerate(frames):
        rows = stream_rows(fr)
        c.eq(sorted(rows), ["fast", "slow"], "frame %d: a row per stream" % (i + 1))
        own = re.search(r"^ +1 +(\d+) ", fr.split("own frames")[-1], re.M)
        c.true(own is not None and all(x[2] <= x[1] for x in rows.values()) and
               sum(x[2] for x in rows.values()) <= int(own.group(1)),
               "frame %d: received <= sent per stream, sum <= port 1's own "
               "frames (%r)" % (i + 1, rows))
    last = stream_rows(frames[-1]) if frames else {}
    if r.doc and sorted(last) == ["fast", "slow"]:
        tx = {t["queue"]: t["sent_pkts"] for t in r.doc["tx_streams"]}
        for name, (q, sent, rx, gaps) in last.items():
            c.true(0 < sent <= tx[q], "%s: live sent %d <= final %d" % (name, sent, tx[q]))
            c.eq(gaps, 0, "%s: no gap" % name)
        c.true(sum(x[2] for x in last.values()) <= r.doc["totals"][1]["nic_ipackets"],
               "live received <= the receiving PMD's final count")
        ratio = last["fast"][1] / max(1, last["slow"][1])
        c.true(3.0 < ratio < 5.0, "fast sent %.2fx slow (20 vs 5 kpps)" % ratio)
    c.true(all(len(ln) <= 80 for fr in frames for ln in fr.splitlines()),
           "piped frames fit 80 columns")
    if shutil.which("tmux") is not None:
        streams_terminal(c)
    c.done(r)


def streams_terminal(c):
    t = Tmux(80)
    try:
        t.start(eal() + ["--"] + RING + TWO_STREAMS + ["--duration", "2"])
        mid = t.wait("t=1.0s")
        c.true(mid is not None, "80 cols: the live view started")
        if mid is not None:
            time.sleep(0.3)
            c.eq(sorted(stream_rows(t.screen())), ["fast", "slow"],
                 "80 cols: the stream block on screen mid-run")
        end = t.wait("EXIT=", timeout=60)
        c.true(end is not None and "EXIT=0" in end, "80 cols: exit 0")
        hist = t.screen(history=True, joined=True)
        live = hist[hist.find("\nt="):hist.find("summary over")]
        c.eq([ln for ln in live.splitlines() if len(ln) > 80], [],
             "80 cols: no line of the live frame wider than the terminal")
    finally:
        t.close()


CASES = cases.by_name(live_terminal, live_plain, live_streams)

if __name__ == "__main__":
    cases.main(CASES)
