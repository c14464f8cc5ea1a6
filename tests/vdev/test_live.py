# SPDX-License-Identifier: BSD-3-Clause
"""The live view as a person sees it: captured under tmux at 80 and 160
columns (in place, fits the width, port and plan lines kept above it,
elapsed and remaining time or frames), and piped (--plain: every frame
with its headers and the latency block); the progress of a test mode on a
terminal and piped; the summary's stream table. Usage: test_live.py CASE."""
import os
import re
import shutil
import subprocess
import tempfile
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


PROGRESS = re.compile(r"^progress: size (\d)/(\d) \(?(\d+) B\)?, trial (\d+)"
                      r"(?:/<=| of at most )(\d+) .*elapsed \d+(?:s|m\d\ds), "
                      r"(?:left <=|at most )\d+(?:s|m\d\ds)(?: left)?$")
TRIAL_LINE = re.compile(r"^trial +(\d+) (\S+) +(\d+) B ")
# One latency-under-load level: its table must fit 80 columns too.
THROUGHPUT = ["--mode", "throughput", "--sizes", "64,128", "--trial", "0.2",
              "--lat-loads", "50"]


def progress_plain():
    """Piped, a throughput search over two sizes: a plain progress line
    before every trial (size i of 2, trial k counting up, elapsed, a bound
    of the time left), never a control character; the trial lines and
    every other line fit 80 columns and keep the reason words where the
    JSON says the rate was not reached; the bound of trials holds: the
    first line's total plus the trials run again for a stalled generator
    covers every trial the JSON records."""
    c = Checker("progress_plain")
    r = wrtest.run([], RING + THROUGHPUT, timeout=170)
    c.eq(r.rc, 0, "exit code")
    lines = r.out.splitlines()
    prog = [PROGRESS.match(ln) for ln in lines if ln.startswith("progress:")]
    trials = [TRIAL_LINE.match(ln) for ln in lines if ln.startswith("trial ")]
    c.true(len(prog) > 2 and all(prog), "progress lines as documented: %r" %
           [ln for ln in lines if ln.startswith("progress:")][:3])
    c.true("\r" not in r.out and "\033" not in r.out, "no control characters piped")
    c.eq([ln for ln in lines if len(ln) > 80], [], "every line fits 80 columns")
    if r.doc is None or not prog or not all(prog) or not all(trials):
        c.done(r)
    recorded = r.doc["trials"]
    c.eq(len(prog), len(recorded), "a progress line per trial the JSON records")
    c.eq([int(m.group(4)) for m in prog], list(range(1, len(recorded) + 1)),
         "trial numbers count up from 1")
    c.eq([int(m.group(3)) for m in prog], [t["frame_size"] for t in recorded],
         "each progress line names its trial's frame size")
    c.eq([int(m.group(1)) for m in prog],
         [1 + (t["frame_size"] == 128) for t in recorded], "size i of 2")
    stalled = sum(1 for t in recorded if not t["rate_reached"])
    c.true(int(prog[0].group(5)) + stalled >= len(recorded),
           "first bound %s + %d run again >= %d trials" % (prog[0].group(5),
                                                           stalled, len(recorded)))
    for i, t in enumerate(recorded):
        at = lines.index(next(ln for ln in lines if ln.startswith("trial %3d " % (i + 1))))
        said = "rate not reached: " in " ".join(lines[at:at + 2])
        c.eq(said, not t["rate_reached"], "trial %d: the reason words" % (i + 1))
    repeat_plain(c)
    c.done(r)


def repeat_plain(c):
    """--repeat 3 piped: a progress line before each trial, k of 3."""
    r = wrtest.run([], RING + ["--repeat", "3", "--duration", "0.3"])
    c.eq(r.rc, 0, "--repeat: exit code")
    got = re.findall(r"^progress: trial (\d)(?:/| of )3, elapsed \d+s, "
                     r"(?:left <=|at most )\d+s(?: left)?\n"
                     r"(?:.*\n)*?trial (\d) of 3: TX", r.out, re.M)
    c.eq(got, [("1", "1"), ("2", "2"), ("3", "3")],
         "--repeat: progress k/3 before trial k's line")


def progress_terminal():
    """On a terminal (tmux, 80 columns), a sweep of two sizes: one progress
    line redrawn in place (never two on screen), naming size 2 of 2 and
    the time left while the second trial runs; gone when the table comes;
    every line of the session fits 80 columns."""
    c = Checker("progress_terminal")
    if shutil.which("tmux") is None:
        c.skip("no tmux (Debian package tmux)")
        c.done()
    t = Tmux(80)
    try:
        t.start(eal() + ["--"] + RING + ["--mode", "sweep", "--sizes", "64,128",
                                         "--duration", "2", "--interval", "250ms"])
        mid = t.wait("progress: size 2/2")
        c.true(mid is not None, "the progress line reaches size 2/2")
        if mid is not None:
            time.sleep(0.6)
            shown = [ln for ln in t.screen(history=True).splitlines()
                     if "progress:" in ln]
            c.eq(len(shown), 1, "one progress line, redrawn in place: %r" % shown)
            c.true(bool(shown) and PROGRESS.match(shown[-1]) is not None,
                   "it says size, trial, elapsed and time left: %r" % shown)
        end = t.wait("EXIT=", timeout=90)
        c.true(end is not None and "EXIT=0" in end, "exit 0")
        final = t.screen(history=True)
        c.true("sweep results" in final, "the table")
        c.true("progress:" not in final, "the progress line is gone at the end")
        c.true(len(re.findall(r"^trial +\d sweep", final, re.M)) == 2,
               "a trial line per size")
        c.eq([ln for ln in final.splitlines() if len(ln) > 80], [],
             "no line wider than 80 columns")
    finally:
        t.close()
    wide_trial_lines(c)
    c.done()


def wide_trial_lines(c):
    """At 160 columns the trial lines have every count in full."""
    t = Tmux(160)
    try:
        t.start(eal() + ["--"] + RING + ["--mode", "sweep", "--sizes", "64",
                                         "--duration", "0.5"])
        end = t.wait("EXIT=", timeout=90)
        c.true(end is not None and "EXIT=0" in end, "160 cols: exit 0")
        c.true(re.search(r"^trial +1 sweep +64 B  offered +[0-9.]+ Mpps  sent +\d+  "
                         r"lost +\d+ ", end or "", re.M) is not None,
               "160 cols: the trial line in full: %r" % (end or "")[-600:])
    finally:
        t.close()


def summary_rx_port():
    """The summary's stream table and streams[].rx_port name the port that
    received each stream: a ring pair sending one way, then the other; the
    expected port is the one whose PMD counted frames (nic_ipackets), not
    wirerate's stream accounting; both ways at once, each stream on the
    other port."""
    c = Checker("summary_rx_port")
    r = None
    for tx in (0, 1):
        r = wrtest.run([], RING + ["--tx-ports", str(tx), "--duration", "0.3"])
        c.eq(r.rc, 0, "tx port %d: exit code" % tx)
        if r.doc is None:
            continue
        nic = {t["port_id"]: t["nic_ipackets"] for t in r.doc["totals"]}
        got = [p for p, n in nic.items() if n > 0]
        c.eq(len(got), 1, "tx port %d: one port's PMD received: %r" % (tx, nic))
        s = r.doc["streams"]
        c.eq(len(s), 1, "tx port %d: one stream" % tx)
        if len(got) != 1 or len(s) != 1:
            continue
        c.eq(s[0]["rx_port"], got[0], "tx port %d: rx_port is the receiving PMD's" % tx)
        c.eq([p["port_id"] for p in s[0]["rx_ports"]], got, "tx port %d: rx_ports" % tx)
        c.true(re.search(r"^stream +rx port ", r.out, re.M) is not None,
               "the column says it is a port")
        c.true(re.search(r"^tx%d\.0 +%d +%d " % (tx, got[0], s[0]["sent_pkts"]),
                         r.out, re.M) is not None,
               "tx port %d: the table's row names port %d: %r" % (
                   tx, got[0], r.out[r.out.find("stream "):][:300]))
    r = wrtest.run([], RING + ["--duration", "0.3"])
    c.eq(r.rc, 0, "both ways: exit code")
    if r.doc is not None:
        c.eq(sorted((s["tx_port"], s["rx_port"]) for s in r.doc["streams"]),
             [(0, 1), (1, 0)], "both ways: each stream on the other port")
        for tx, rx in ((0, 1), (1, 0)):
            c.true(re.search(r"^tx%d\.0 +%d " % (tx, rx), r.out, re.M) is not None,
                   "both ways: the row of tx%d.0 names port %d" % (tx, rx))
    c.done(r)


def no_wire_label():
    """Ports with no wire (a ring pair, net_null) have their Gb/s labelled
    under the port table of the summary and of the live view, once per
    port, with the driver EAL was given; a pcap file port (not a memory
    port) is not labelled. Lines fit 80 columns."""
    c = Checker("no_wire_label")
    r = wrtest.run([], RING + ["--size", "1518", "--duration", "0.5", "--plain",
                               "--interval", "200ms"])
    c.eq(r.rc, 0, "ring: exit code")
    summary = r.out[r.out.find("summary over"):]
    for p in (0, 1):
        label = "port %d (net_ring): no wire, Gb/s is bytes passed in memory" % p
        c.eq(summary.count(label), 1, "summary labels ring port %d" % p)
        c.true(r.out.count(label) > 1, "the live view labels ring port %d too" % p)
    c.eq([ln for ln in r.out.splitlines() if len(ln) > 80], [], "lines fit 80 columns")
    r = wrtest.run(["net_null0"], ["--rx-ports", "none", "--duration", "0.3"])
    c.true("port 0 (net_null): no wire" in r.out, "net_null labelled: %r" % r.out[-600:])
    with tempfile.TemporaryDirectory() as d:
        r = wrtest.run(["net_pcap0,tx_pcap=" + os.path.join(d, "t.pcap")],
                       ["--rx-ports", "none", "--duration", "0.3", "--rate", "1kpps"])
    c.eq(r.rc, 0, "pcap: exit code")
    c.true("no wire" not in r.out, "a pcap port is not labelled: %r" % r.out[-600:])
    c.done()


CASES = cases.by_name(live_terminal, live_plain, live_streams, progress_plain,
                      progress_terminal, summary_rx_port, no_wire_label)

if __name__ == "__main__":
    cases.main(CASES)
