# SPDX-License-Identifier: BSD-3-Clause
"""A connection run's result (docs/results.md, "connections") through
`wirerate report`, `compare` and `history`. The files are whole result
documents whose "connections" object the result writer made from crafted
books (tests/unit/conn_doc_tool.c, no EAL); the figures expected here are
computed from the books in the file, not read from wirerate's rates.
Usage: test_conn.py CASE (see CASES)."""
import json
import os
import re
import shutil
import subprocess
import tempfile

import cases
import wrtest
from wrtest import Checker
from test_results import tool

TOOL = os.environ.get("WR_CONN_DOC_TOOL", "")


def crafted(c, d, name, role="client", scale=1.0, label=None):
    """d/name.json written by the tool, checked against the schema: (path, doc)."""
    path = os.path.join(d, name + ".json")
    argv = [TOOL, path, role, "%g" % scale] + ([label] if label else [])
    p = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    c.eq(p.returncode, 0, "conn_doc_tool %s: %s" % (name, p.stderr.strip()))
    with open(path) as f:
        doc = json.load(f)
    wrtest.validate(doc, path)
    return path, doc


def expect(doc):
    """The figures of a client's result, from its books and duration."""
    cn = doc["connections"]
    b, dur = cn["books"], cn["duration_s"]
    failed = sum(b["failed"].values())
    return {"cps": b["completed"] / dur, "rps": b["resps"] / dur,
            "goodput_gbps": b["l7_rx_bytes"] * 8 / dur / 1e9,
            "failed_pct": 100.0 * failed / b["attempted"],
            "closes": b["attempted"] == b["completed"] + failed + b["open"]}


def md_row(md, first):
    """The cells of the Markdown table row whose first cell is first."""
    for line in md.splitlines():
        line = line.strip()
        if not line.startswith("|"):
            continue
        cells = [re.sub(r"\\(.)", r"\1", x.strip())
                 for x in re.split(r"(?<!\\)\|", line[1:-1])]
        if cells and cells[0] == first:
            return cells
    return None


def conn_report():
    """report: the connection runs' table (CPS, requests/s, goodput, failed
    %) and the books of each file with their check, in Markdown and HTML."""
    c = Checker("conn_report")
    d = tempfile.mkdtemp()
    try:
        path, doc = crafted(c, d, "client", label="cli")
        spath, sdoc = crafted(c, d, "server", role="server", label="srv")
        e = expect(doc)
        c.true(e["closes"], "the crafted books close")
        p = tool(["report", path, spath])
        c.eq(p.returncode, 0, "report exit 0: %s" % p.stderr.strip())
        md = p.stdout
        c.true("## Connection runs, client" in md, "client table titled")
        c.true("## Connection runs, server" in md, "server table titled")
        row = md_row(md, "cli")
        c.true(row is not None and "%.3f" % e["cps"] in row,
               "client CPS %.3f in %r" % (e["cps"], row))
        c.true(row is not None and "%.3f" % e["rps"] in row, "requests/s in the row")
        c.true(row is not None and "%.4f" % e["failed_pct"] in row,
               "failed %% %.4f in %r" % (e["failed_pct"], row))
        srow = md_row(md, "srv")
        sb = sdoc["connections"]["books"]
        want = "%.3f" % (sb["accepted"] / sdoc["connections"]["duration_s"])
        c.true(srow is not None and want in srow, "server CPS %s in %r" % (want, srow))
        # the books: every class of failure and the check, both sides
        b = doc["connections"]["books"]
        for k, v in b["failed"].items():
            r = md_row(md, "failed: " + k)
            c.true(r is not None and r[1] == str(v), "failed %s = %d: %r" % (k, v, r))
        r = md_row(md, "attempted = completed + failed + open")
        failed = sum(b["failed"].values())
        c.true(r is not None and r[1:4] == [str(b["attempted"]),
               str(b["completed"] + failed + b["open"]), "yes"],
               "the connections' equation closes: %r" % r)
        r = md_row(md, "accepted = closed + open")
        c.true(r is not None and r[3] == "yes", "the server's equation: %r" % r)
        r = md_row(md, "connect")
        c.true(r is not None and len(r) >= 8, "connect latency row: %r" % r)
        # the books off by one: the report says they do not close
        doc["connections"]["books"]["completed"] += 1
        doc["connections"]["books_check"]["equations"][0]["ok"] = False
        doc["connections"]["books_check"]["closed"] = False
        bad = os.path.join(d, "bad.json")
        with open(bad, "w") as f:
            json.dump(doc, f)
        p = tool(["report", bad])
        c.true("do NOT close" in p.stdout, "a file whose books do not close says so")
        out = os.path.join(d, "rep")
        p = tool(["report", "--no-plots", "--out", out, path, spath])
        c.eq(p.returncode, 0, "report --out exit 0: %s" % p.stderr.strip())
        with open(os.path.join(out, "report.html")) as f:
            html = f.read()
        c.true("Connection runs, client" in html and "Books of cli" in html,
               "HTML has the tables")
        with open(os.path.join(out, "report.csv")) as f:
            head = f.readline()
        c.true("conn_cps" in head and "conn_connect_p99_us" in head, "CSV columns")
    finally:
        shutil.rmtree(d)
    c.done()


def conn_compare():
    """compare: a CPS drop of 20% is a regression naming conn_cps; the same
    figures pass; a client is not judged against a server (exit 2)."""
    c = Checker("conn_compare")
    d = tempfile.mkdtemp()
    try:
        base, bdoc = crafted(c, d, "base")
        same, _ = crafted(c, d, "same")
        worse, wdoc = crafted(c, d, "worse", scale=0.8)
        srv, _ = crafted(c, d, "srv", role="server")
        p = tool(["compare", base, same])
        c.eq(p.returncode, 0, "same figures: exit 0 (%s)" % p.stdout[-300:])
        p = tool(["compare", base, worse])
        c.eq(p.returncode, 1, "CPS -20%: exit 1")
        eb, ew = expect(bdoc), expect(wdoc)
        pct = 100.0 * (ew["cps"] - eb["cps"]) / eb["cps"]
        c.true(re.search(r"REGRESSION.*conn_cps \(%+.2f%%\)" % pct, p.stdout) is not None,
               "verdict names conn_cps %.2f%%: %r" % (pct, p.stdout[-400:]))
        c.true("conn_requests_per_s" in p.stdout and "conn_goodput_gbps" in p.stdout,
               "requests/s and goodput judged")
        p = tool(["compare", "--json", os.path.join(d, "v.json"), base, worse])
        with open(os.path.join(d, "v.json")) as f:
            v = json.load(f)
        names = json.dumps(v)
        for m in ("conn_cps", "conn_requests_per_s", "conn_goodput_gbps",
                  "conn_failed_pct", "conn_connect_p99_us"):
            c.true(m in names, "%s judged in the JSON verdict" % m)
        # 30 failures of fewer attempts: failed % rises too
        p = tool(["compare", "--tolerance", "connections=25%", "--tolerance",
                  "conn_failed_pct=0.1", base, worse])
        c.eq(p.returncode, 0, "connections=25%%: exit 0 (%s)" % p.stdout[-300:])
        # another rate asked: refused, naming the key that allows it
        bdoc2 = json.loads(json.dumps(bdoc))
        bdoc2["connections"]["asked"]["cps"] = 20000
        fast = os.path.join(d, "fast.json")
        with open(fast, "w") as f:
            json.dump(bdoc2, f)
        p = tool(["compare", base, fast])
        c.eq(p.returncode, 2, "another asked rate: exit 2")
        c.true("--allow-diff conn_asked" in p.stderr, "names conn_asked: %r" % p.stderr)
        p = tool(["compare", "--allow-diff", "conn_asked", base, fast])
        c.eq(p.returncode, 0, "--allow-diff conn_asked: exit 0")
        p = tool(["compare", base, srv])
        c.eq(p.returncode, 2, "client against server: exit 2")
        c.true("conn_client" in p.stderr and "conn_server" in p.stderr,
               "names both kinds: %r" % p.stderr)
        del bdoc["connections"]["role"]
        nr = os.path.join(d, "norole.json")
        with open(nr, "w") as f:
            json.dump(bdoc, f)
        p = tool(["compare", nr, same])
        c.eq(p.returncode, 2, "no role: exit 2")
        c.true("connections.role" in p.stderr, "names the field: %r" % p.stderr)
    finally:
        shutil.rmtree(d)
    c.done()


def conn_history():
    """history add / show: a connection run's series, its points the files'
    figures."""
    c = Checker("conn_history")
    d = tempfile.mkdtemp()
    try:
        db = os.path.join(d, "h.db")
        docs = []
        for i, s in enumerate((1.0, 1.01, 0.9)):   # distinct files: each is stored once
            path, doc = crafted(c, d, "r%d" % i, scale=s)
            docs.append(doc)
            p = tool(["history", "add", "--commit", "c%d" % i, db, path])
            c.eq(p.returncode, 0, "add r%d: %s" % (i, p.stderr.strip()))
        p = tool(["history", "show", db, "--metric", "conn_cps"])
        c.eq(p.returncode, 0, "show exit 0: %s" % p.stderr.strip())
        c.true("conn_cps" in p.stdout and "connections" in p.stdout,
               "a conn_cps series at point 'connections': %r" % p.stdout[-400:])
        import sqlite3
        con = sqlite3.connect(db)
        try:
            rows = con.execute(
                "SELECT r.commit_id, r.kind, s.point, p.value FROM points p "
                "JOIN series s ON s.id = p.series_id JOIN results r ON "
                "r.id = p.result_id WHERE s.metric = 'conn_cps' "
                "ORDER BY r.commit_id").fetchall()
            c.eq(len(rows), 3, "three conn_cps points: %r" % rows)
            for i, (commit, kind, point, value) in enumerate(rows):
                want = expect(docs[i])["cps"]
                c.true(commit == "c%d" % i and kind == "conn_client" and
                       point == "connections" and abs(value - want) < 1e-6,
                       "point %d: %r, want CPS %g" % (i, rows[i], want))
            metrics = {r[0] for r in con.execute("SELECT metric FROM series")}
            for m in ("conn_requests_per_s", "conn_goodput_gbps",
                      "conn_failed_pct", "conn_connect_p99_us"):
                c.true(m in metrics, "a %s series" % m)
        finally:
            con.close()
    finally:
        shutil.rmtree(d)
    c.done()


def capacity_doc(c, d, name, held, answered, failed, running=False):
    """A client's crafted result with the "capacity" object of a
    conn-capacity run (docs/conncap.md): held, answered, failed as given;
    running: as written during the fill (stop_reason running, found
    false, held_now held). (path, doc)"""
    path, doc = crafted(c, d, name)
    doc["capacity"] = {
        "rfc": "RFC 9693 7", "phase": "fill" if running else "done",
        "ended_by": "none" if running else "failure", "found": not running,
        "connections": None if running else held, "settled": not running,
        "ceiling": 20000, "rate_cps": 1000, "syn_timeout_s": 2.5,
        "fill_s": 0.0 if running else 4.6, "attempted": held + failed,
        "failed": failed, "failed_syn": failed, "held_peak": held,
        "check": {"held": 0 if running else held, "answered": answered,
                  "all_answered": not running and answered == held}}
    if running:
        doc["capacity"]["held_now"] = held
        doc["stop_reason"] = "running"
        doc["complete"] = False
    with open(path, "w") as f:
        json.dump(doc, f)
    wrtest.validate(doc, path)
    return path, doc


def conncap_report():
    """report: a capacity run's table (capacity, checks answered, failed
    as in the file's "capacity"); a file written during the fill shows
    the count held so far, marked INCOMPLETE."""
    c = Checker("conncap_report")
    d = tempfile.mkdtemp()
    try:
        path, _ = capacity_doc(c, d, "cap", 1987, 1985, 2613)
        part, _ = capacity_doc(c, d, "part", 1234, 0, 0, running=True)
        p = tool(["report", path, part])
        c.eq(p.returncode, 0, "report exit 0: %s" % p.stderr.strip())
        md = p.stdout
        c.true("Connection table capacity" in md, "the capacity table: %r"
               % md[-800:])
        row = md_row(md, "net_ring@lab1")
        c.true(row is not None and [float(x) for x in row[3:6]] ==
               [1987, 1985, 2613], "capacity, checks answered, failed as "
               "in the file: %r" % row)
        prow = md_row(md, "net_ring@lab1 (INCOMPLETE)")
        c.true(prow is not None and float(prow[3]) == 1234 and
               prow[4] == "-", "the partial file: held so far, no check, "
               "INCOMPLETE: %r" % prow)
    finally:
        shutil.rmtree(d)
    c.done()


def conncap_compare():
    """compare: a capacity 5 % lower is a regression naming conn_capacity;
    0.5 % lower passes (1 %); fewer checks answered names
    conn_capacity_answered; a capacity run is not judged against a plain
    client run (exit 2)."""
    c = Checker("conncap_compare")
    d = tempfile.mkdtemp()
    try:
        base, _ = capacity_doc(c, d, "base", 2000, 2000, 600)
        near, _ = capacity_doc(c, d, "near", 1990, 1990, 610)
        low, _ = capacity_doc(c, d, "low", 1900, 1900, 700)
        evict, _ = capacity_doc(c, d, "evict", 2000, 1500, 600)
        plain, _ = crafted(c, d, "plain")
        p = tool(["compare", base, near])
        c.eq(p.returncode, 0, "-0.5 %%: exit 0 (%s)" % p.stdout[-400:])
        p = tool(["compare", base, low])
        c.eq(p.returncode, 1, "-5 %%: exit 1 (%s)" % p.stdout[-400:])
        c.true(re.search(r"REGRESSION.*conn_capacity \(-5\.00%\)", p.stdout)
               is not None, "names conn_capacity -5.00%%: %r" % p.stdout[-400:])
        p = tool(["compare", base, evict])
        c.eq(p.returncode, 1, "fewer answered: exit 1")
        c.true("conn_capacity_answered" in p.stdout,
               "names conn_capacity_answered: %r" % p.stdout[-400:])
        p = tool(["compare", "--tolerance", "connections=6%", base, low])
        c.eq(p.returncode, 0, "connections=6%%: exit 0 (%s)" % p.stdout[-300:])
        p = tool(["compare", base, plain])
        c.eq(p.returncode, 2, "capacity against a plain client run: exit 2")
    finally:
        shutil.rmtree(d)
    c.done()


CASES = cases.by_name(conn_report, conn_compare, conn_history,
                      conncap_report, conncap_compare)

if __name__ == "__main__":
    cases.main(CASES)
