# SPDX-License-Identifier: BSD-3-Clause
"""Every kind of result wirerate writes (run, repeat, sweep, throughput,
loss, b2b, mlr with latency under load), made by short real runs, fed to `wirerate report` and
`wirerate compare`; the report rendered by headless Chromium.
Usage: test_kinds.py CASE (see CASES)."""
import copy
import csv
import json
import os
import re
import shutil
import subprocess
import tempfile

import cases
from wrtest import Checker, rx_matches_pmd
from test_results import png_size, real_run, tool, write

RING = ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1", "--quiet"]
KINDS = {
    "run": ["--count", "200k"],
    "repeat": ["--count", "100k", "--repeat", "2"],
    "sweep": ["--mode", "sweep", "--sizes", "64,512", "--duration", "0.2"],
    "throughput": ["--mode", "throughput", "--sizes", "64,512", "--rate", "2Mpps",
                   "--trial", "0.1s", "--max-trials", "4", "--impair",
                   "police=1Mpps", "--pdr", "0.01", "--lat-loads", "none"],
    "loss": ["--mode", "loss", "--sizes", "64", "--rate", "1Mpps", "--trial", "0.1s"],
    "b2b": ["--mode", "b2b", "--sizes", "64", "--rate", "2Mpps", "--trial", "0.1s",
            "--b2b-trials", "2"],
    "mlr": ["--mode", "mlr", "--sizes", "64,512", "--rate", "400kpps", "--trial",
            "0.3s", "--mlr-initial", "0.1s", "--goals",
            "0:0.5:0.3s:0.05,0.01:0.5:0.3s:0.05", "--impair", "police=200kpps",
            "--lat-loads", "0,50", "--lat-trial", "0.1s"],
}
TITLES = {"run": "## Runs", "repeat": "## Repeated runs", "sweep": "## Frame-size sweeps",
          "throughput": "## RFC 2544 throughput", "loss": "## RFC 2544 frame loss rate",
          "b2b": "## RFC 2544 back-to-back", "mlr": "## MLRsearch"}
PLOTS = {"run": "throughput", "repeat": "throughput", "sweep": "throughput",
         "throughput": "ndr", "loss": "loss", "b2b": "b2b", "mlr": "mlr"}


def points(kind, doc):
    """The points of a result, read from its JSON here, not by wirerate:
    [(frame_size, load or '', {csv column: value})]."""
    if kind in ("run", "repeat"):
        return [(doc["config"]["frame_size"], "", {})]
    pts = []
    for r in doc["results"]:
        if kind == "sweep":
            pts.append((r["frame_size"], "", {"tx_mpps": r["achieved_pps"] / 1e6,
                                              "loss_pct": 100 * r["loss_ratio"]}))
        elif kind == "throughput":
            v = {"ndr_mpps": r["ndr_mpps"]} if r["ndr_found"] else {}
            if r["pdr_found"]:
                v["pdr_mpps"] = r["pdr_pps"] / 1e6
            pts.append((r["frame_size"], "", v))
        elif kind == "mlr":
            g = r["goals"]
            v = {"ndr_mpps": g[0]["conditional_throughput_pps"] / 1e6,
                 "pdr_mpps": g[-1]["conditional_throughput_pps"] / 1e6}
            levels = r["latency_under_load"].get("levels")
            if levels:   # none when the search found no rate: a check fails
                lv = max(levels, key=lambda lv: lv["pct"])
                v["latency_p50_ns"] = lv["latency"]["percentiles_ns"]["p50"]
            pts.append((r["frame_size"], "", v))
        elif kind == "loss":
            for s in sorted(r["steps"], key=lambda s: -s["pct_of_max"]):
                pts.append((r["frame_size"], "%g" % s["pct_of_max"],
                            {"loss_pct": s["loss_pct"],
                             "tx_mpps": s["achieved_pps"] / 1e6}))
        else:
            pts.append((r["frame_size"], "", {"b2b_pkts": r["mean_pkts"],
                                              "b2b_pkts_min": r["min_pkts"],
                                              "b2b_pkts_max": r["max_pkts"]}))
    return sorted(pts, key=lambda p: p[0])


def make_all(c, d):
    docs, outs = {}, {}
    for kind, opts in KINDS.items():
        rc, doc, out, err = real_run(d, kind, [], RING + opts + ["--label", kind])
        c.eq(rc, 0, "%s run exit code (%s)" % (kind, err[-300:]))
        c.true(doc is not None, "%s result written" % kind)
        if doc is not None:
            docs[kind] = doc
            rx_matches_pmd(c, doc, kind)
        outs[kind] = out
    check_labels(c, d, docs, outs)
    return docs


def check_labels(c, d, docs, outs):
    """What the screen and the JSON say is what ran."""
    sweep = docs.get("sweep", {})
    c.eq(sweep.get("trial_s"), 0.2, "sweep: trial_s is its --duration")
    c.true("sweep results (trials of 0.2 s, shorter than RFC 2544's 60 s)" in
           outs["sweep"], "sweep: the table says what ran: %r" % outs["sweep"][-400:])
    tput = outs["throughput"].split("throughput results")[-1].split("\n\n")[0]
    c.true(" PDR Mpps " in tput, "--pdr: a PDR column")
    # Rows start with the size; the notes under the table do not.
    rows = [ln.split() for ln in tput.splitlines()[2:] if ln.split()[:1] and
            ln.split()[0].isdigit()]
    c.true(rows and all(r[4] == "-" for r in rows),
           "%% line is '-' without a trusted link speed: %r" % tput)
    rc, doc, out, err = real_run(d, "tput-nopdr", [], RING + [
        "--mode", "throughput", "--sizes", "64", "--rate", "2Mpps", "--trial",
        "0.1s", "--max-trials", "2", "--lat-loads", "none"])
    c.eq(rc, 0, "throughput without --pdr: exit code")
    c.true("PDR" not in out.split("throughput results")[-1],
           "no PDR column without --pdr: %r" % out[-300:])
    c.true("last trial's summary over" in outs["repeat"],
           "--repeat: the summary says it is the last trial's")


def check_report_one(c, d, kind, doc):
    """report on one file: its kind's table, one CSV row per point, each
    figure as the JSON has it, its plot."""
    out = os.path.join(d, "rep-" + kind)
    p = tool(["report", "--out", out, os.path.join(d, kind + ".json")], timeout=120)
    c.eq(p.returncode, 0, "report %s: exit code (%s)" % (kind, p.stderr[-300:]))
    with open(os.path.join(out, "report.md")) as f:
        md = f.read()
    c.true(TITLES[kind] in md, "report %s: its table %r" % (kind, TITLES[kind]))
    with open(os.path.join(out, "report.csv")) as f:
        rows = list(csv.DictReader(f))
    want = points(kind, doc)
    c.eq([(int(r["frame_size"]), r["load_pct"]) for r in rows],
         [(p[0], p[1]) for p in want], "report %s: a CSV row per point" % kind)
    c.eq({r["kind"] for r in rows}, {kind}, "report %s: kind column" % kind)
    for r, (size, load, vals) in zip(rows, want):
        for col, v in vals.items():
            c.true(r[col] != "" and abs(float(r[col]) - v) <= 1e-6 * max(1, abs(v)),
                   "report %s %s %s: CSV %s = %r, JSON %r" % (kind, size, load, col,
                                                             r[col], v))
    png = os.path.join(out, PLOTS[kind] + ".png")
    c.true(os.path.exists(png) and png_size(png) is not None,
           "report %s: %s.png drawn" % (kind, PLOTS[kind]))
    c.true('<img src="%s.png"' % PLOTS[kind] in open(os.path.join(out, "report.html")).read(),
           "report %s: HTML shows %s.png" % (kind, PLOTS[kind]))
    if kind == "mlr":
        check_latency_plot(c, out, doc)


def check_latency_plot(c, out, doc):
    """The latency-under-load plot: a curve per size and load level, its
    points the JSON's percentiles on a 'nines' axis."""
    c.true(png_size(os.path.join(out, "latency.png")) is not None, "latency.png drawn")
    with open(os.path.join(out, "latency.dat")) as f:
        blocks = [b.strip().splitlines() for b in f.read().split("\n\n\n") if b.strip()]
    want = [(r["frame_size"], lv) for r in doc["results"]
            for lv in r["latency_under_load"].get("levels", [])]
    c.eq(len(want), 2 * len(doc["results"]), "two load levels per size")
    c.eq(len(blocks), len(want), "a curve per size and load level")
    for b, (size, lv) in zip(blocks, want):
        c.true(b[0].endswith("%d B %g%%" % (size, lv["pct"])), "curve %r" % b[0])
        p50 = float(b[1].split()[1])
        c.true(abs(p50 - lv["latency"]["percentiles_ns"]["p50"]) <= 1e-6 * p50,
               "p50 of %d B at %g%%" % (size, lv["pct"]))
        c.true(abs(float(b[1].split()[0]) - 0.30103) < 1e-4, "p50 at x = -log10(0.5)")


def doctor(kind, doc):
    """A copy of doc made worse at its last point (a throughput search's
    last with a rate found: a search on a busy machine may find none at
    a size, and a figure the baseline lacks cannot regress): (copy, what
    regressed)."""
    bad = copy.deepcopy(doc)
    if kind in ("run", "repeat"):
        for t in bad["totals"]:
            for k in ("tx_mpps", "rx_mpps"):
                t[k] /= 2
        if kind == "repeat":
            for fig in ("tx_mpps", "rx_mpps"):
                f = bad["summary"]["figures"][fig]
                for q in ("median", "min", "max", "mean", "ci95_low", "ci95_high"):
                    f[q] /= 4
        return bad, "tx_mpps"
    r = bad["results"][-1]
    if kind == "throughput":
        r = next((x for x in reversed(bad["results"])
                  if x["ndr_found"] or x["pdr_found"]), r)
    size = r["frame_size"]
    if kind == "sweep":
        r["achieved_pps"] /= 2
        return bad, "tx_mpps at %d B" % size
    if kind == "mlr":
        r["goals"][0]["conditional_throughput_pps"] /= 2
        return bad, "ndr_mpps at %d B" % size
    if kind == "throughput" and r["ndr_found"]:
        r["ndr_mpps"] /= 2
        return bad, "ndr_mpps at %d B" % size
    if kind == "throughput":
        r["pdr_found"], r["pdr_pps"] = True, r["pdr_pps"] / 2 if r["pdr_found"] else 0
        return bad, "pdr_mpps at %d B" % size
    if kind == "loss":
        s = max(r["steps"], key=lambda s: s["pct_of_max"])
        s["loss_pct"] = 5.0
        return bad, "loss_pct"
    r["mean_pkts"], r["min_pkts"], r["max_pkts"] = 10, 10, 10
    return bad, "b2b_pkts"


def check_compare_one(c, d, kind, doc):
    path = os.path.join(d, kind + ".json")
    jx = os.path.join(d, kind + "-junit.xml")
    p = tool(["compare", "--junit", jx, path, path])
    c.eq(p.returncode, 0, "compare %s with itself: exit 0 (%s)" % (kind, p.stderr[-300:]))
    c.true("verdict: PASS" in p.stdout, "compare %s: PASS" % kind)
    for size, load, _ in points(kind, doc):
        head = "%d B at %s%% load" % (size, load) if load else "%d-byte frames" % size
        c.true(head + "\n" in p.stdout, "compare %s: a table for %s" % (kind, head))
    if kind not in ("run", "repeat"):
        c.true("%s results, %d point(s)" % (kind, len(points(kind, doc))) in p.stdout,
               "compare %s: says its kind and points" % kind)
    xml = open(jx).read() if os.path.exists(jx) else ""
    for size, load, _ in points(kind, doc):
        cls = "wirerate.compare.%dB" % size + (".%spct" % load if load else "")
        c.true('classname="%s"' % cls in xml, "compare %s: JUnit class %s" % (kind, cls))
    bad, what = doctor(kind, doc)
    p = tool(["compare", path, write(d, kind + "-bad.json", bad)])
    c.eq(p.returncode, 1, "compare %s against a worse copy: exit 1" % kind)
    c.true("verdict: REGRESSION" in p.stdout and what in p.stdout,
           "compare %s: names %r: %r" % (kind, what, p.stdout[-400:]))


def tx_only_matrix(c, d):
    """The label matrix shows what a TX-only run sent, marked, as the plot
    does, never 0 [0..0]; fixed decimals per unit."""
    rc, doc, out, err = real_run(d, "txonly", ["net_null0"], [
        "--rx-ports", "none", "--duration", "0.3", "--quiet", "--label", "null/tx"])
    c.eq(rc, 0, "TX-only run: exit code")
    if doc is None:
        return
    tx = sum(t["tx_gbps_l2"] for t in doc["totals"])
    p = tool(["report", os.path.join(d, "txonly.json")])
    sec = p.stdout.split("## RX Gb/s L2 at 64-byte frames (label ROW/COLUMN)")[-1]
    c.true("| null | %.3f (TX) |" % tx in sec,
           "matrix cell is the TX rate %.3f, marked: %r" % (tx, sec[:300]))
    c.true("| null/tx | 64 | 1 | %.4f |" % sum(t["tx_mpps"] for t in doc["totals"])
           in p.stdout, "runs table: TX Mpps with 4 decimals")


def stream_compare(c, d, doc):
    """A run is also compared stream by stream: one stream losing frames is
    named, though the run's loss stays inside its tolerance."""
    path = os.path.join(d, "run.json")
    streams = [s for s in doc["streams"] if s["sender_in_run"]]
    c.true(len(streams) >= 1, "the run has streams")
    p = tool(["compare", path, path])
    for s in streams:
        head = "64 B, stream tx%d.%d\n" % (s["tx_port"], s["tx_queue"])
        c.true(head in p.stdout, "a table for %r" % head)
    bad = copy.deepcopy(doc)
    s = [x for x in bad["streams"] if x["sender_in_run"]][0]
    s["lost_pkts"] = s["sent_pkts"] // 1000          # 0.1% of one stream
    p = tool(["compare", "--tolerance", "loss_pct=0.05", path,
              write(d, "run-stream.json", bad)])
    c.eq(p.returncode, 1, "a stream's loss: exit 1")
    c.true("loss_pct at 64 B, stream tx%d.%d" % (s["tx_port"], s["tx_queue"])
           in p.stdout.splitlines()[-1], "the verdict names the stream: %r"
           % p.stdout[-300:])


def check_at_ndr(c, doc):
    """Latency "at the NDR" is the trial at the reported NDR rate, with no
    loss, and there is none without an NDR; read against
    the search's own trials[]. (The unit test test_search
    test_ndr_trial_pdr holds the case of a clean PDR-stage trial above the
    NDR, which no fixture here makes on demand.)"""
    search = [t for t in doc["trials"] if t["what"] == "search"]
    for r in doc["results"]:
        at = r.get("at_ndr")
        if not r["ndr_found"]:
            c.eq(at, None, "%d B: no NDR, no at_ndr" % r["frame_size"])
            continue
        c.true(at is not None, "%d B: at_ndr with the NDR" % r["frame_size"])
        if at is None:
            continue
        c.eq(at["requested_pps"], r["ndr_pps"], "%d B: at_ndr at the NDR rate"
             % r["frame_size"])
        c.eq(at["lost_pkts"], 0, "%d B: at_ndr without loss" % r["frame_size"])
        c.true(any(t["frame_size"] == r["frame_size"] and t["requested_pps"] ==
                   r["ndr_pps"] and t["sent_pkts"] == at["sent_pkts"] and
                   t["received_pkts"] == at["received_pkts"] for t in search),
               "%d B: at_ndr is one of the search's trials" % r["frame_size"])


def all_kinds():
    """report and compare take every kind of result the suites produce."""
    c = Checker("all_kinds")
    d = tempfile.mkdtemp()
    try:
        docs = make_all(c, d)
        for kind, doc in docs.items():
            check_report_one(c, d, kind, doc)
            check_compare_one(c, d, kind, doc)
        out = os.path.join(d, "rep-all")
        p = tool(["report", "--out", out] + [os.path.join(d, k + ".json") for k in docs],
                 timeout=120)
        c.eq(p.returncode, 0, "report of every kind at once: exit 0 (%s)" % p.stderr[-300:])
        md = open(os.path.join(out, "report.md")).read()
        for kind in docs:
            c.true(TITLES[kind] in md, "all at once: %s table" % kind)
        for name in set(PLOTS.values()):
            c.true(png_size(os.path.join(out, name + ".png")) is not None,
                   "all at once: %s.png" % name)
        # Results of different kinds, or of other frame sizes, are refused.
        run, sweep = os.path.join(d, "run.json"), os.path.join(d, "sweep.json")
        p = tool(["compare", run, sweep])
        c.eq(p.returncode, 2, "run against sweep: exit 2")
        c.true("incomparable results: %s is a run result (64 B), %s a sweep result "
               "(64, 512 B)" % (run, sweep) in p.stderr, repr(p.stderr))
        other = copy.deepcopy(docs["sweep"])
        other["results"][1]["frame_size"] = 1518
        p = tool(["compare", sweep, write(d, "sweep-1518.json", other)])
        c.eq(p.returncode, 2, "sweeps of other sizes: exit 2")
        c.true("frame sizes 64, 512 B in %s, 64, 1518 B in" % sweep in p.stderr,
               repr(p.stderr))
        c.true(re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$",
                        docs["run"]["env"]["date_utc"]) is not None,
               "a result says when it ran: %r" % docs["run"]["env"]["date_utc"])
        tx_only_matrix(c, d)
        stream_compare(c, d, docs["run"])
        check_at_ndr(c, docs["throughput"])
    finally:
        shutil.rmtree(d)
    c.done()


CHECK_HTML = """<!DOCTYPE html><html><body><pre id="out">pending</pre>
<iframe id="f" src="report.html" width="1400" height="900"></iframe>
<script>
document.getElementById("f").addEventListener("load", function () {
  var d = this.contentDocument, res = {tables: [], images: []};
  d.querySelectorAll("table").forEach(function (t) {
    var h = t.previousElementSibling;
    res.tables.push({title: h ? h.textContent : "", rows: t.rows.length,
                     cols: t.rows.length ? t.rows[0].cells.length : 0});
  });
  d.querySelectorAll("img").forEach(function (i) {
    var r = i.getBoundingClientRect();
    res.images.push({src: i.getAttribute("src"), complete: i.complete,
                     w: i.naturalWidth, h: i.naturalHeight, shown: r.width * r.height});
  });
  document.getElementById("out").textContent = JSON.stringify(res);
});
</script></body></html>
"""


def chromium():
    for name in ("chromium", "chromium-browser"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def render(browser, page, profile):
    """The report as headless Chromium loads it: tables and images."""
    p = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-quic", "--no-first-run",
                        "--disable-background-networking",
                        "--disable-component-update", "--disable-sync",
                        "--user-data-dir=" + profile, "--allow-file-access-from-files",
                        "--virtual-time-budget=10000", "--dump-dom",
                        "file://" + page], capture_output=True, text=True, timeout=120)
    start = p.stdout.find('<pre id="out">')
    end = p.stdout.find("</pre>", start)
    if start < 0 or end < 0:
        return None, p.stderr[-500:]
    try:
        return json.loads(p.stdout[start + len('<pre id="out">'):end]), ""
    except ValueError:
        return None, p.stdout[start:end][:300]


def report_browser():
    """report.html in a real browser: every table with its rows, every
    plot loaded at the size of its PNG."""
    c = Checker("report_browser")
    browser = chromium()
    if shutil.which("chromium") is None and shutil.which("chromium-browser") is None:
        c.skip("no chromium binary (Debian package chromium)")
        c.done()
    d = tempfile.mkdtemp()
    try:
        for kind in ("run", "sweep", "b2b"):
            rc, doc, out, err = real_run(d, kind, [], RING + KINDS[kind] + ["--label", kind])
            c.eq(rc, 0, "%s exit code" % kind)
        out = os.path.join(d, "rep")
        p = tool(["report", "--out", out] + [os.path.join(d, k + ".json")
                                             for k in ("run", "sweep", "b2b")], timeout=120)
        c.eq(p.returncode, 0, "report exit code (%s)" % p.stderr[-300:])
        with open(os.path.join(out, "report.csv")) as f:
            rows = list(csv.DictReader(f))
        md = open(os.path.join(out, "report.md")).read()
        # Markdown escapes its marks with a backslash; the browser shows text.
        titles = [re.sub(r"\\(.)", r"\1", ln[3:]) for ln in md.splitlines()
                  if ln.startswith("## ")]
        page = write(out, "check.html", CHECK_HTML)
        res, why = render(browser, page, os.path.join(d, "profile"))
        c.true(res is not None, "the browser ran the check page: %r" % why)
        if res is None:
            c.done()
        tables = res["tables"]
        c.eq([t["title"] for t in tables], [t for t in titles if "against" not in t],
             "the browser shows the report's tables, in order")
        per_kind = {k: sum(1 for r in rows if r["kind"] == k) for k in ("run", "sweep", "b2b")}
        for t in tables:
            for k, title in (("run", "Runs"), ("sweep", "Frame-size sweeps"),
                             ("b2b", "RFC 2544 back-to-back")):
                if t["title"].startswith(title):
                    c.eq(t["rows"], per_kind[k] + 1, "%s table: header and a row per point" % k)
            if t["title"] == "Environment":
                c.eq(t["rows"], 4, "environment: a row per file")
        imgs = [ln.split("](")[1][:-1] for ln in md.splitlines() if ln.startswith("![")]
        c.true("b2b.png" in imgs and "throughput.png" in imgs, "plots: %r" % imgs)
        c.eq([i["src"] for i in res["images"]], imgs, "the browser shows every plot")
        for i in res["images"]:
            c.true(i["complete"], "%s loaded" % i["src"])
            c.eq((i["w"], i["h"]), png_size(os.path.join(out, i["src"])),
                 "%s rendered at its PNG size" % i["src"])
            c.true(i["shown"] > 0, "%s visible on the page" % i["src"])
    finally:
        shutil.rmtree(d)
    c.done()


CASES = cases.by_name(all_kinds, report_browser)

if __name__ == "__main__":
    cases.main(CASES)
