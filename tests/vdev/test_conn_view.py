# SPDX-License-Identifier: BSD-3-Clause
"""The live view of a connection run (docs/tcp.md, "Watching a
connection run"): a client port and a server port on a net_ring pair
(test_conn_both.py's bed), rows every interval, piped and on an
80-column terminal (tmux); the rows' counts against the result's books
(the JSON), and every line within 80 columns; a --conn-count run that
ends with its last connection, not at its interval's end.
Usage: test_conn_view.py CASE."""
import re
import shutil
import subprocess
import time

import cases
import test_conn_both as tb
import wrtest
from wrtest import Checker

N = 3000
OPTS = ["--conn-count", str(N), "--conn-concurrency", "4000",
        "--conn-rate", "2000", "--conn-body", "100", "--interval", "200ms"]
ROW = re.compile(r"^ *(\d+\.\d) (client|server) +(\d+) +(\d+) +(\d+) +(\d+) "
                 r"+(\d+) +(\d+\.\d\d) +(\d+)$", re.M)


def rows(text):
    """[(t, role, cps, open, completed, failed, req/s, Mb/s, rtx)]."""
    return [(float(m.group(1)), m.group(2)) + tuple(
        float(m.group(k)) if k == 8 else int(m.group(k)) for k in range(3, 10))
        for m in ROW.finditer(text)]


def check_books(c, r, final):
    """The whole run's rows: the result's books, each side."""
    b, s = r.doc["connections"]["books"], r.doc["connections_server"]["books"]
    want = {
        "client": (b["open"], b["completed"], sum(b["failed"].values()),
                   b["rtx_rto_segs"] + b["rtx_fast_segs"] + b["rtx_probe_segs"]),
        "server": (s["open"], s["closed"], sum(s["failed"].values()),
                   s["rtx_rto_segs"] + s["rtx_fast_segs"] + s["rtx_probe_segs"]),
    }
    for row in final:
        c.eq((row[3], row[4], row[5], row[8]), want[row[1]],
             "%s, the whole run's row: open, completed, failed, rtx = the "
             "result's books" % row[1])
    return want


def conn_live_plain():
    """Piped: a client and a server row each 200 ms, under a header; the
    whole run's rows equal the result's books, the client's last live row
    (the run ends once the count is done, between two rows) holds no
    more; cumulative counts never go back; the completed per interval
    over its length is the CPS shown; every line fits 80 columns."""
    c = Checker("conn_live_plain")
    r = tb.run_both(OPTS + ["--plain"])
    c.eq(r.rc, 0, "exit code: %r" % r.err[-2000:])
    if r.doc is None:
        c.done(r)
    live, _, after = r.out.partition("conn: the whole run, after the drain")
    got = rows(live)
    cl = [x for x in got if x[1] == "client"]
    sv = [x for x in got if x[1] == "server"]
    c.true(len(cl) >= 4 and len(sv) == len(cl),
           "a client and a server row per interval: %d, %d" % (len(cl), len(sv)))
    c.true("rates over the interval, counts since start" in live,
           "the header says rates per interval, counts since start")
    for side in (cl, sv):
        c.true(all(a[4] <= b[4] and a[5] <= b[5] and a[8] <= b[8]
                   for a, b in zip(side, side[1:])),
               "completed, failed and rtx never go back")
        for a, b in zip(side, side[1:]):
            dt = b[0] - a[0]
            if dt >= 0.15:
                # t is shown to 0.1 s: the CPS's own interval is within 0.05 s
                lo, hi = (b[4] - a[4]) / (dt + 0.1), (b[4] - a[4]) / max(0.05, dt - 0.1)
                c.true(lo - 1 <= b[2] <= hi + 1, "%s at %.1f s: CPS %d within "
                       "completed per interval [%.0f, %.0f]" % (b[1], b[0], b[2], lo, hi))
    final = rows(after)
    c.eq(sorted(x[1] for x in final), ["client", "server"], "the whole run's rows")
    want = check_books(c, r, final)
    if cl:
        # The run ends when the count is done, between two rows.
        c.true(cl[-1][4] <= want["client"][1] and cl[-1][5] <= want["client"][2],
               "the client's last live row %r: completed and failed up to the "
               "result's books %r" % (cl[-1][3:9], want["client"]))
    c.eq(r.doc["connections"]["books"]["completed"], N, "completed")
    c.true("attempted = completed + failed + open: yes" in after,
           "the summary says the books close")
    long = [ln for ln in r.out.splitlines() if len(ln) > 80]
    c.eq(long, [], "lines wider than 80 columns")
    c.done(r)


def conn_live_terminal():
    """On an 80-column terminal (tmux): one header, the rows redrawn in
    place (one client and one server row on screen mid-run), the whole
    run's rows and the books after, no line wider than the terminal."""
    c = Checker("conn_live_terminal")
    if shutil.which("tmux") is None:
        c.skip("no tmux (Debian package tmux)")
        c.done()
    import test_live as tl
    t = tl.Tmux(80)
    try:
        eal = wrtest.eal_args([])
        eal = [wrtest.WIRERATE, "--lcores", "0@0,1@1,2@1"] + eal[2:]
        t.start(eal + ["--"] + tb.BOTH + ["--conn-count", "6000",
                                          "--conn-concurrency", "8000",
                                          "--conn-rate", "2000", "--interval",
                                          "200ms"])
        mid = t.wait(" client ")
        c.true(mid is not None, "the rows started")
        time.sleep(1.0)
        hist = t.screen(history=True, joined=True)
        if "after the drain" not in hist:
            got = rows(hist)
            c.eq(sorted(x[1] for x in got), ["client", "server"],
                 "mid-run: one row a side, redrawn in place")
            c.eq(hist.count("counts since start"), 1, "mid-run: one header")
        end = t.wait("EXIT=", timeout=60)
        c.true(end is not None and "EXIT=0" in end, "exit 0")
        final = t.screen(history=True, joined=True)
        c.true("attempted = completed + failed + open: yes" in final,
               "the books after the run")
        c.eq(len(rows(final.partition("after the drain")[2])), 2,
             "the whole run's rows")
        long = [ln for ln in final.splitlines() if len(ln) > 80]
        c.eq(long, [], "80 cols: no line wider than the terminal")
    finally:
        t.close()
        wrtest.eal.remove_runtime_dir(eal[eal.index("--file-prefix") + 1])
    c.done()


def conn_count_end():
    """One bulk connection of 2 MB with --interval 20s: the run ends
    when the connection has ended, before the first interval's end
    (it lasted to that end before, and its goodput was 2 MB over 20 s);
    stop reason "count", no live row; the server delivered every byte,
    and the goodput is the client's bytes over the run's time."""
    c = Checker("conn_count_end")
    size, iv = 2000000, 20
    r = tb.run_both(["--conn-app", "bulk", "--conn-count", "1",
                     "--conn-concurrency", "1", "--conn-bulk", str(size),
                     "--interval", "%ds" % iv, "--duration", "60s", "--plain"])
    c.eq(r.rc, 0, "exit code: %r" % r.err[-2000:])
    if r.doc is None:
        c.done(r)
    conn, srv = r.doc["connections"], r.doc["connections_server"]
    c.eq(r.doc.get("stop_reason"), "count", "stop reason")
    c.eq((conn["books"]["completed"], conn["books"]["failed_total"]), (1, 0),
         "completed, failed")
    c.eq(srv["books"]["l7_rx_bytes"], size, "the server delivered every byte")
    c.true(r.doc["duration_s"] < iv / 2, "the run took %.3f s, less than "
           "half the %d s interval" % (r.doc["duration_s"], iv))
    c.eq(rows(r.out.partition("conn: the whole run, after the drain")[0]), [],
         "no live row: no interval ended")
    gp = conn["rates"]["goodput_bytes_per_s"] * conn["duration_s"]
    c.true(abs(gp - size) <= size * 0.01, "goodput %.0f B/s x %.3f s = the "
           "%d B sent (%.0f)" % (conn["rates"]["goodput_bytes_per_s"],
                                 conn["duration_s"], size, gp))
    c.done(r)


CASES = cases.by_name(conn_live_plain, conn_live_terminal, conn_count_end)

if __name__ == "__main__":
    cases.main(CASES)
