#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""`wirerate history`'s store (docs/history.md): readers write nothing, a
PostgreSQL password is never shown, invalid and non-finite results are
refused at add. Run by test_history.py, whose helpers it uses."""
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile

import cases
from wrtest import Checker
from test_results import tool, write


def helpers():
    """test_history's run and server helpers (imported late: it imports
    this module)."""
    import test_history
    return test_history


def plant(doc, key, value):
    """doc with every number under key replaced by value (a marker)."""
    if isinstance(doc, dict):
        return {k: (value if k == key and isinstance(v, (int, float)) else
                    plant(v, key, value)) for k, v in doc.items()}
    if isinstance(doc, list):
        return [plant(v, key, value) for v in doc]
    return doc


def history_refused():
    """A result marked invalid (a far end's reply that failed its checks)
    and one with a non-finite figure (Infinity, NaN, 1e999 in a cycle
    count): each refused at add, exit 2 naming the file and why, nothing
    stored (counted by sqlite3, not by wirerate); check and show still
    work on the good results."""
    c = Checker("history_refused")
    d = tempfile.mkdtemp(prefix="history-refused-")
    try:
        rc, good, _ = helpers().measured_run(d, "good", helpers().RING)
        c.eq(rc, 0, "run exit code")
        db = os.path.join(d, "h.db")
        bad = dict(good, invalid={"field": "far_end.seq", "reason": "sequence gap"})
        inv = write(d, "invalid.json", bad)
        p = tool(["history", "add", db, inv])
        c.eq(p.returncode, 2, "invalid: exit 2")
        c.true(inv in p.stderr and "sequence gap" in p.stderr and "far_end.seq" in p.stderr,
               "names the file, field and reason: %r" % p.stderr[-300:])
        text = json.dumps(plant(good, "tsc_per_pkt", "@MARK@"))
        c.true("@MARK@" in text, "the result has a per-lcore cost to spoil")
        for lit in ("Infinity", "NaN", "1e999", "-1e999"):
            f = write(d, "nf-%s.json" % lit, text.replace('"@MARK@"', lit))
            p = tool(["history", "add", db, f])
            c.eq(p.returncode, 2, "%s: exit 2" % lit)
            c.true(f in p.stderr, "%s: names the file: %r" % (lit, p.stderr[-300:]))
        if os.path.exists(db):
            con = sqlite3.connect(db)
            c.eq(con.execute("SELECT count(*) FROM results").fetchone()[0], 0,
                 "nothing stored")
            con.close()
        for i, f in enumerate(helpers().variants(d, good, 3, "good")):
            p = tool(["history", "add", db, f])
            c.eq(p.returncode, 0, "good %d added: %r" % (i, p.stderr[-200:]))
        con = sqlite3.connect(db)
        c.eq(con.execute("SELECT count(*) FROM results").fetchone()[0], 3,
             "the good results stored")
        con.close()
        for sub in ("check", "show"):
            p = tool(["history", sub, db])
            c.eq(p.returncode, 0, "%s after the refusals: %r" % (sub, p.stderr[-200:]))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    c.done()


def history_read_only():
    """show, check, plot and html write nothing: a mistyped path exits 2
    naming it and no file appears; a foreign SQLite file is byte for byte
    the same after each (still not WAL, no table added) and exits 2; a DB
    that add left in WAL mode (its -wal and -shm gone) reads fine."""
    c = Checker("history_read_only")
    d = tempfile.mkdtemp(prefix="history-ro-")
    try:
        missing = os.path.join(d, "mistyped.db")
        foreign = os.path.join(d, "foreign.db")
        con = sqlite3.connect(foreign)
        con.execute("CREATE TABLE mine (a INTEGER)")
        con.execute("INSERT INTO mine VALUES (1)")
        con.commit()
        con.close()
        with open(foreign, "rb") as f:
            before = f.read()
        for sub in ("check", "show", "plot", "html"):
            extra = ["--out", os.path.join(d, "o-" + sub)] if sub in ("plot", "html") else []
            p = tool(["history", sub, missing] + extra)
            c.eq(p.returncode, 2, "%s on a missing DB: exit 2" % sub)
            c.true(missing in p.stderr, "%s names the path: %r" % (sub, p.stderr[-200:]))
            c.true(not os.path.exists(missing), "%s created no file" % sub)
            p = tool(["history", sub, foreign] + extra)
            c.eq(p.returncode, 2, "%s on a foreign DB: exit 2" % sub)
            c.true(foreign in p.stderr and "not a wirerate history" in p.stderr,
                   "%s names it: %r" % (sub, p.stderr[-200:]))
            with open(foreign, "rb") as f:
                c.true(f.read() == before, "%s: the foreign file byte-identical" % sub)
        con = sqlite3.connect(foreign)
        c.eq(con.execute("PRAGMA journal_mode").fetchone()[0], "delete", "still not WAL")
        c.eq([r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")],
             ["mine"], "no table added")
        con.close()
        rc, good, _ = helpers().measured_run(d, "good", helpers().RING)
        c.eq(rc, 0, "run exit code")
        db = os.path.join(d, "h.db")
        for f in helpers().variants(d, good, 3, "good"):
            c.eq(tool(["history", "add", db, f]).returncode, 0, "add")
        c.true(not os.path.exists(db + "-wal") and not os.path.exists(db + "-shm"),
               "add closed: no -wal, -shm left")
        with open(db, "rb") as f:
            c.eq(f.read()[18:20], b"\x02\x02", "the DB in WAL mode (header bytes 18-19)")
        for sub in ("check", "show"):
            p = tool(["history", sub, db])
            c.eq(p.returncode, 0, "%s reads the WAL DB: %r" % (sub, p.stderr[-200:]))
            c.true("rx_mpps" in p.stdout or "series" in p.stdout,
                   "%s prints the series: %r" % (sub, p.stdout[:200]))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    c.done()


def history_pg_password():
    """A PostgreSQL server with password authentication: the password in
    the URL (user:PW@) and in a password= parameter never appears in
    stdout, stderr, --json or --junit, whether the login works, the
    password is wrong or the host is not there; nor in what is stored."""
    c = Checker("history_pg_password")
    d = tempfile.mkdtemp(prefix="history-pw-")
    pgd = tempfile.mkdtemp(prefix="history-pwpg-")
    pw, wrong = "Pw%dGood" % os.getpid(), "Pw%dWrong" % os.getpid()
    try:
        rc, good, _ = helpers().measured_run(d, "good", helpers().RING)
        c.eq(rc, 0, "run exit code")
        url = helpers().pg_start(pgd, pw)
        sock = url.split("host=")[1]
        ok = "postgresql://wr:%s@/postgres?host=%s" % (pw, sock)
        urls = [(ok, 0, pw), ("postgresql://wr@/postgres?host=%s&password=%s" % (sock, pw), 0, pw),
                ("postgresql://wr:%s@/postgres?host=%s" % (wrong, sock), 1, wrong),
                ("postgresql://wr@/postgres?password=%s&host=%s" % (wrong, sock), 1, wrong),
                ("postgresql://wr:%s@/postgres?host=/nonexistent-%d" % (pw, os.getpid()), 1, pw)]
        p = tool(["history", "add", ok, os.path.join(d, "good.json")])
        c.eq(p.returncode, 0, "add with the password: %r" % p.stderr[-200:])
        c.true(pw not in p.stdout + p.stderr, "add prints no password")
        for i, (u, want, secret) in enumerate(urls):
            cj, ju = os.path.join(d, "c%d.json" % i), os.path.join(d, "c%d.xml" % i)
            p = tool(["history", "check", u, "--json", cj, "--junit", ju])
            c.eq(p.returncode, want, "url %d: exit %d: %r" % (i, want, p.stderr[-200:]))
            files = ""
            for f in (cj, ju):
                if os.path.exists(f):
                    with open(f) as fh:
                        files += fh.read()
            c.true(os.path.exists(cj), "url %d: --json written" % i)
            c.true(secret not in p.stdout + p.stderr + files,
                   "url %d: no password in any output: %r" % (i, (p.stderr + files)[-300:]))
            c.true("***" in files or want == 1, "url %d: the JSON shows *** for it" % i)
        env = dict(os.environ, PGPASSWORD=pw)
        dump = subprocess.run(["runuser", "-u", "postgres", "--", helpers().PG_BIN + "/pg_dump",
                               "-h", sock, "-U", "wr", "postgres"], env=env,
                              capture_output=True, text=True, timeout=60)
        c.eq(dump.returncode, 0, "pg_dump of the store: %r" % dump.stderr[-200:])
        c.true("results" in dump.stdout and pw not in dump.stdout, "nothing stored names it")
    finally:
        helpers().pg_stop(pgd)
        shutil.rmtree(pgd, ignore_errors=True)
        shutil.rmtree(d, ignore_errors=True)
    c.done()


def history_inert():
    """A history DB from elsewhere whose strings (metric, point, setup,
    commit, time) carry backquotes, $(...), quotes, a newline, <script>
    and </svg>: history plot and html run no command (the marker file
    stays absent), gnuplot draws the series, the page escapes every
    string and holds no markup but its own."""
    import re
    c = Checker("history_inert")
    d = tempfile.mkdtemp(prefix="history-inert-")
    try:
        mark = os.path.join(d, "pwned")
        markup = "<script>alert(1)</script></svg>&'\"\n"
        cmd = "`touch %s`" % mark
        evil = markup + cmd + "$(touch %s)" % mark
        rc, good, _ = helpers().measured_run(d, "good", helpers().RING)
        c.eq(rc, 0, "run exit code")
        db = os.path.join(d, "h.db")
        for f in helpers().variants(d, good, 12, "inert"):
            c.eq(tool(["history", "add", db, f]).returncode, 0, "add")
        con = sqlite3.connect(db)
        sid = con.execute("SELECT series_id FROM points GROUP BY series_id "
                          "ORDER BY series_id LIMIT 1").fetchone()[0]
        con.execute("UPDATE series SET metric = ?, point = ?, setup = ? WHERE id = ?",
                    # the store keeps 63 bytes of a metric or point
                    ("m" + cmd, "p" + markup, "s" + evil, sid))
        con.execute("UPDATE results SET commit_id = ?, time_utc = "
                    "'2026-01-01T00:00:' || printf('%02d', id) || 'Z' || ?",
                    ("c" + evil, evil))
        # a step in the values, so the change point's row (commits, time)
        # is on the page
        ids = [r[0] for r in con.execute("SELECT result_id FROM points WHERE "
                                        "series_id = ? ORDER BY result_id", (sid,))]
        for k, rid in enumerate(ids):
            con.execute("UPDATE points SET value = ? WHERE series_id = ? AND "
                        "result_id = ?", (100.0 if k < 6 else 50.0, sid, rid))
        con.commit()
        con.close()
        plots, page = os.path.join(d, "plots"), os.path.join(d, "page")
        p = tool(["history", "plot", db, "--out", plots], timeout=120)
        c.eq(p.returncode, 0, "plot exit code (%s)" % p.stderr[-300:])
        c.true(os.path.exists(os.path.join(plots, "series-%d.png" % sid)),
               "the crafted series drawn")
        p = tool(["history", "html", db, "--out", page], timeout=120)
        c.eq(p.returncode, 0, "html exit code (%s)" % p.stderr[-300:])
        c.true(not os.path.exists(mark), "no marker file made")
        html = open(os.path.join(page, "history.html")).read() if p.returncode == 0 else ""
        c.true("<script" not in html, "no <script> on the page")
        c.eq(len(re.findall(r"</svg>", html)), len(re.findall(r"<svg\b", html)),
             "every </svg> closes an <svg> of a chart")
        c.true("&lt;script&gt;alert(1)&lt;/script&gt;&lt;/svg&gt;&amp;" in html,
               "the strings shown escaped")
        c.true(html.count("&lt;script&gt;") >= 4, "point, setup and commits "
               "escaped: %d" % html.count("&lt;script&gt;"))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    c.done()


CASES = cases.by_name(history_refused, history_read_only, history_pg_password,
                      history_inert)
