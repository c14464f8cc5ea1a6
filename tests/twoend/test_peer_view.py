# SPDX-License-Identifier: BSD-3-Clause
"""Two ends, the verdict where people look (docs/twoended.md): a sender
with --peer and no receive port of its own, a `wirerate serve` on the
far end, a router namespace with a tbf shaper between them so that the
far end loses frames. What the sender prints per trial, in its summary
and in its --repeat figures, and what `wirerate report` and `wirerate
compare` make of its file, must be the far end's own answers (each
trial's far.trials[].peer: the far end's ports' totals) and its books
(received, lost), never this end's RX (nothing). The far end's received
frames are also checked against the router's own counters (ip -s link),
and its live RX rate (the live view's far end line) against the
shaper's configured rate, which wirerate did not make."""
import re
import statistics
import subprocess

import cases
import twoend
import test_peer
from test_peer import PeerBed, SHAPER_BPS
from twoend import load_json
from wrtest import Checker

# Above the shaper (20833 frames/s of 64 bytes): about 30 % lost.
RATE = "30000pps"
FAR_TRIAL = re.compile(r"^  far end: RX ([0-9.]+) Mpps ([0-9.]+) Gb/s L1, "
                       r"received (\d+) of (\d+) frames sent, lost (\d+)", re.M)
REPEAT_LINE = re.compile(r"^trial (\d+) of \d+: TX [0-9.]+ Mpps [0-9.]+ Gb/s L1, "
                         r"far end: RX ([0-9.]+) Mpps [0-9.]+ Gb/s L1, loss ([0-9.e+-]+)%",
                         re.M)


def far_figures(t):
    """RX Mpps, RX Gb/s L1 (the far end's own totals) and loss % of one
    far trial, as the far end answered it."""
    ports = t["peer"]["totals"]
    return (sum(p["rx_mpps"] for p in ports), sum(p["rx_gbps_l1"] for p in ports),
            100.0 * t["lost_pkts"] / t["sent_pkts"])


def check_trial_lines(c, text, trials, where):
    """Each "  far end:" line against the far end's answer of its trial."""
    lines = FAR_TRIAL.findall(text)
    c.eq(len(lines), len(trials), "%s: one far end line per trial" % where)
    for (mpps, gbps, rx, sent, lost), t in zip(lines, trials):
        fm, fg, _ = far_figures(t)
        own = sum(p["rx_pkts"] for p in t["peer"]["totals"])
        c.eq((int(rx), int(sent), int(lost)),
             (t["rx_pkts"], t["sent_pkts"], t["lost_pkts"]),
             "%s: trial %d: received, sent, lost as the far end counted" % (where, t["trial"]))
        c.eq(int(rx), own, "%s: trial %d: received = the far end's own port total"
             % (where, t["trial"]))
        c.eq((mpps, gbps), ("%.3f" % fm, "%.3f" % fg),
             "%s: trial %d: RX rate = the far end's own" % (where, t["trial"]))
        c.true(int(lost) > 0, "%s: trial %d: the shaper dropped frames" % (where, t["trial"]))


def check_summary(c, text, far, where):
    """The summary's far end block: the last trial by the far end's counts."""
    t = far["trials"][-1]
    m = re.search(r"^far end \((.*)\), trial (\d+) by its own counts:\n"
                  r"far port +RX Mpps +RX Gb/s +RX frames\n +0 +([0-9.]+) +([0-9.]+) +(\d+)\n"
                  r"far end's books: received (\d+) of (\d+) frames sent, lost (\d+) \([^)]*\); "
                  r"books balance", text, re.M)
    c.true(m is not None, "%s: the summary has the far end's block" % where)
    if m is None:
        return
    p = t["peer"]["totals"][0]
    c.eq(m.group(1), far["peer"], "%s: the far end named" % where)
    c.eq(int(m.group(2)), t["trial"], "%s: its last trial" % where)
    c.eq((m.group(3), m.group(4), int(m.group(5))),
         ("%.3f" % p["rx_mpps"], "%.3f" % p["rx_gbps_l1"], p["rx_pkts"]),
         "%s: the far port's own RX rate and frames" % where)
    c.eq((int(m.group(6)), int(m.group(7)), int(m.group(8))),
         (t["rx_pkts"], t["sent_pkts"], t["lost_pkts"]), "%s: its books" % where)


def check_report(c, path, rx, loss, where):
    """wirerate report's row: RX Mpps and loss % are the far end's."""
    out = subprocess.run([twoend.WIRERATE, "report", path], capture_output=True,
                         text=True, timeout=30)
    c.eq(out.returncode, 0, "%s: report exit code" % where)
    c.true("RX and loss are the far end's counts" in out.stdout,
           "%s: report says whose RX and loss" % where)
    rows = [ln for ln in out.stdout.splitlines() if ln.startswith("| ")]
    if len(rows) < 2:
        c.true(False, "%s: report has a table:\n%s" % (where, out.stdout))
        return
    head = [x.strip() for x in rows[0].strip("|").split("|")]
    cells = [x.strip() for x in rows[1].strip("|").split("|")]
    got = dict(zip(head, cells))
    c.eq(got.get("RX Mpps", "").split(" ")[0], "%.4f" % rx,
         "%s: report RX Mpps = the far end's" % where)
    c.eq(got.get("loss %", "").split(" ")[0], "%.4f" % loss,
         "%s: report loss %% = the far end's" % where)


def check_compare(c, path, rx, loss, where):
    """wirerate compare of the file with itself: its figures are the far end's."""
    out = subprocess.run([twoend.WIRERATE, "compare", path, path],
                         capture_output=True, text=True, timeout=30)
    c.eq(out.returncode, 0, "%s: compare exit code" % where)
    c.true("rx_* and loss_pct are the far end's counts" in out.stdout,
           "%s: compare says whose RX and loss" % where)
    vals = {}
    for ln in out.stdout.splitlines():
        f = ln.split()
        if len(f) > 2 and f[0] in ("rx_mpps", "loss_pct"):
            vals[f[0]] = f[1]
    c.true(vals.get("rx_mpps") not in (None, "-") and
           abs(float(vals["rx_mpps"]) - rx) <= 1e-5 * max(rx, 1e-9) + 1e-9,
           "%s: compare rx_mpps %s = the far end's %.6g" % (where, vals.get("rx_mpps"), rx))
    c.true(vals.get("loss_pct") not in (None, "-") and
           abs(float(vals["loss_pct"]) - loss) <= 1e-5 * loss + 1e-9,
           "%s: compare loss_pct %s = the far end's %.6g" % (where, vals.get("loss_pct"), loss))


def run_sender(c, bed, opts, out, where):
    """One sender run; its output and document (None when it failed)."""
    base = bed.router_counts()
    p = bed.sender(["--rate", RATE, "--burst", "64", "--grace", "100ms",
                    "--json", out] + opts, name=where)
    rc = p.wait(90)
    c.eq(rc, 0, "%s: exit code" % where)
    doc = load_json(out)
    if doc is None:
        c.true(False, "%s: result written" % where)
        return p.text(), None
    _, tx = bed.router_counts()
    far = doc["far"]["trials"]
    c.eq(sum(t["rx_pkts"] for t in far), tx - base[1],
         "%s: the far end received what the router sent towards it" % where)
    c.true(all(t["totals"][0]["rx_pkts"] == 0 for t in doc.get("trials", [doc])),
           "%s: this end received nothing (no RX port)" % where)
    return p.text(), doc


def repeat_figures(c, text, doc):
    """A --repeat run's trial lines and summary against the far end's."""
    far = doc["far"]
    figs = [far_figures(t) for t in far["trials"]]
    lines = REPEAT_LINE.findall(text)
    c.eq([(int(k), m) for k, m, _ in lines],
         [(i + 1, "%.3f" % f[0]) for i, f in enumerate(figs)],
         "repeat: each trial line's RX is the far end's")
    c.eq([float(x) for _, _, x in lines], [float("%.4g" % f[2]) for f in figs],
         "repeat: each trial line's loss is the far end's")
    c.true("rx_* and loss_pct are the far end's counts" in text,
           "repeat: the figures say whose RX and loss")
    med_rx = statistics.median(f[0] for f in figs)
    med_loss = statistics.median(f[2] for f in figs)
    summ = doc["summary"]["figures"]
    # The file keeps 10 significant digits.
    c.true(abs(summ["rx_mpps"]["median"] / med_rx - 1) <= 1e-8 and
           abs(summ["loss_pct"]["median"] / med_loss - 1) <= 1e-8,
           "repeat: summary medians (%.6g Mpps, %.4g %%) = the far end's "
           "(%.6g, %.4g)" % (summ["rx_mpps"]["median"], summ["loss_pct"]["median"],
                             med_rx, med_loss))
    m = re.search(r"^rx_mpps +([0-9.e+-]+) ", text, re.M)
    c.true(m is not None and float(m.group(1)) == float("%.6g" % med_rx),
           "repeat: printed rx_mpps median = the far end's")
    return med_rx, med_loss


def one_run(c, bed, what, opts):
    """One sender run, all it shows checked against the far end's answers."""
    out = bed.path(what + ".json")
    text, doc = run_sender(c, bed, ["--duration", "1s"] + opts, out, what)
    print(text)
    if doc is None:
        return
    far = doc["far"]
    check_trial_lines(c, text, far["trials"], what)
    check_summary(c, text, far, what)
    if "summary" in doc:
        rx, loss = repeat_figures(c, text, doc)
    else:
        rx, _, loss = far_figures(far["trials"][-1])
    check_report(c, out, rx, loss, what)
    check_compare(c, out, rx, loss, what)


LIVE = re.compile(r"^far end \(live, its last interval\): RX ([0-9.]+) Mpps "
                  r"[0-9.]+ Gb/s L1; (\d+) frames received so far in this trial$", re.M)


def live_run(c, bed):
    """The live view (--plain, not --quiet) of a 3 s run: a far end line
    each interval, its rate the shaper's (wirerate did not make it: tc's
    configured rate) and its count rising to at most the trial's final."""
    out = bed.path("live.json")
    po = ["--peer", "tcp:%s:%d" % (test_peer.MGMT_B, test_peer.PORT),
          "--peer-token", bed.token]
    p = bed.wirerate("b", [test_peer.AF % (0, bed.va)], [
        "--rx-ports", "none", "--plain"] + bed.frames() + po + [
        "--rate", RATE, "--burst", "64", "--duration", "3s", "--json", out],
        netns=bed.na, name="live")
    c.eq(p.wait(90), 0, "live: exit code")
    text, doc = p.text(), load_json(out)
    print(text)
    lines = [(float(r), int(n)) for r, n in LIVE.findall(text)]
    c.true(len(lines) >= 2, "live: a far end line each interval (%d)" % len(lines))
    if doc is None or not lines:
        return
    final = doc["far"]["trials"][-1]["rx_pkts"]
    counts = [n for _, n in lines]
    c.true(counts == sorted(counts) and counts[-1] <= final,
           "live: received so far %s rises to at most the trial's %d" % (counts, final))
    ref = test_peer.shaper_pps(SHAPER_BPS) / 1e6
    c.true(all(abs(r / ref - 1) <= 0.1 for r, _ in lines[1:]),
           "live: the far end's RX %s Mpps within 10 %% of the shaper's %.4f" % (
               [r for r, _ in lines], ref))


def peer_view():
    """A plain run and a --repeat run with --peer through a lossy shaper:
    screen, summary, --repeat figures, report and compare show the far
    end's RX rate, loss and balance, equal to its own answers."""
    c, bed = Checker("peer_view"), PeerBed("peer_view")
    try:
        bed.shape(bed.rb, SHAPER_BPS)
        bed.serve()
        one_run(c, bed, "plain", [])
        one_run(c, bed, "repeat", ["--repeat", "3"])
        live_run(c, bed)
        if c.failed:
            bed.dump()
    finally:
        bed.close()
    c.done()


def before(name):
    if not twoend.wrtest.have_netns():
        twoend.skip("no network namespaces (have_netns)")


CASES = cases.by_name(peer_view)

if __name__ == "__main__":
    try:
        cases.main(CASES, before=before)
    finally:
        twoend.close_all()
