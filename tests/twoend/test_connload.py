# SPDX-License-Identifier: BSD-3-Clause
"""--mode conn-load (docs/connload.md): requests/s at fixed concurrencies
against nginx in a server namespace behind a router namespace (wirerate's
client on the host end of a veth pair, af_packet), each trial's answers
counted against nginx's access log lines of its time span; bulk goodput
per connection count against wirerate's own server port in the same run
(a net_ring pair), each trial's bytes against the bytes the server
delivered; a run killed (SIGKILL) or stopped (SIGINT) after its first
trial keeps the finished trials, each still equal to nginx's log; bad
input refused with exit 2 naming the option.
Usage: test_connload.py CASE (see CASES)."""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile

import cases
import connbed
import wrtest
from connbed import GW, ME, SERVER, ns, probe
from wrtest import Checker, load_json

CONCS = [1, 4, 16]
# Each answer's time ($msec) and status: a trial's lines are those
# between its start and end (the result's start_unix_s, end_unix_s).
BED = connbed.Bed("cl", http="    log_format t '$msec $status "
                  "$connection_requests';\n"
                  "    access_log {d}/access.log t;\n"
                  "    keepalive_requests 100000;\n")
SV = BED.sv                        # the server (nginx)


def make_bed(d):
    BED.make(d)


def drop_bed(d):
    BED.drop(d)


def access_times(d):
    """(time, status) of each line of nginx's access log."""
    out = []
    with open(os.path.join(d, "access.log")) as f:
        for line in f:
            w = line.split()
            if len(w) >= 2:
                out.append((float(w[0]), w[1]))
    return out


def connload_nginx():
    """Keep-alive GETs at concurrencies 1, 4 and 16 (2 s each): each
    trial passes, its books close (sent = answered + failed, nothing
    open), and its answers equal nginx's access log lines with 200 in its
    time span; nothing else in the log."""
    c = Checker("connload_nginx")
    probe(c, "nginx", "ethtool")
    d = tempfile.mkdtemp(prefix="wrcl")
    try:
        make_bed(d)
        path = os.path.join(d, "r.json")
        opts = ["--port-ip", "0=%s/24,gw=%s" % (ME, GW), "--conn", "client",
                "--conn-server", SERVER + ":80", "--mode", "conn-load",
                "--conn-concurrency", ",".join(str(k) for k in CONCS),
                "--conn-requests", "1000", "--trial", "2s", "--grace",
                "1s", "--plain", "--json", path]
        r = wrtest.run(BED.vdevs(),
                       opts, timeout=60, want_json=False)
        c.eq(r.rc, 0, "exit code (%r)" % (r.err[-300:] + r.out[-600:]))
        print(r.out[-1500:])
        doc = load_json(path) or {}
        cells = doc.get("conn_load", {}).get("cells", [])
        c.eq([x.get("concurrency") for x in cells], CONCS, "a trial each")
        log = access_times(d)
        c.true(all(s == "200" for _, s in log), "nginx answered 200 only")
        inside = 0
        for x in cells:
            k = x["concurrency"]
            # nginx's $msec is whole milliseconds, truncated.
            lines = sum(1 for t, _ in log
                        if x["start_unix_us"] // 1000 <= round(t * 1000) <=
                        x["end_unix_us"] // 1000)
            inside += lines
            c.true(x["pass"], "concurrency %d passes" % k)
            c.eq(x["reqs_sent"], x["resps"] + x["reqs_failed"],
                 "concurrency %d: sent = answered + failed" % k)
            c.eq(x["open"], 0, "concurrency %d: nothing open" % k)
            c.true(x["resps"] > 0, "concurrency %d: answers" % k)
            c.eq(x["resps"], lines, "concurrency %d: answers = nginx's "
                 "access log lines of the trial's span" % k)
            print("concurrency %d: %d answers, nginx %d lines, %.0f req/s, "
                  "TTLB p50 %s us" % (k, x["resps"], lines,
                                      x["requests_per_s"],
                                      (x.get("ttlb") or {}).get("p50_us")))
        c.eq(inside, len(log), "every line of the log in one trial's span")
        c.done(r)
    finally:
        drop_bed(d)
        shutil.rmtree(d, ignore_errors=True)


def signal_after_first(d, path, sig):
    """Run conn-load at 1, 4 and 16 against nginx (2 s trials, a
    checkpoint a second); send sig once the --json file holds a finished
    trial; return (exit code, stdout) once it ended."""
    opts = ["--port-ip", "0=%s/24,gw=%s" % (ME, GW), "--conn", "client",
            "--conn-server", SERVER + ":80", "--mode", "conn-load",
            "--conn-concurrency", ",".join(str(k) for k in CONCS),
            "--conn-requests", "1000", "--trial", "2s", "--grace", "1s",
            "--checkpoint", "1s", "--plain", "--json", path]
    argv = [wrtest.WIRERATE] + wrtest.eal_args(BED.vdevs()) + ["--"] + opts
    return connbed.signal_after(argv, path, sig, connbed.trials_done(),
                                timeout=30)


def connload_killed():
    """Killed (SIGKILL) and stopped (SIGINT) once the first trial (of
    three) is written: the --json file is a valid result (schema), the
    killed one labelled running, the stopped one labelled signal and not
    passed; both hold the finished trials (not the one cut short), fewer
    than three, each with answers equal to nginx's access log lines of
    its span; report reads both, the killed one as INCOMPLETE."""
    c = Checker("connload_killed")
    probe(c, "nginx", "ethtool")
    d = tempfile.mkdtemp(prefix="wrcl")
    try:
        make_bed(d)
        for sig in (signal.SIGKILL, signal.SIGINT):
            name = signal.Signals(sig).name
            path = os.path.join(d, "%s.json" % name)
            rc, out = signal_after_first(d, path, sig)
            print(out[-800:])
            doc = connbed.check_stopped(c, path, sig, rc, "conn-load")
            load = doc.get("conn_load") or {}
            trials = doc.get("trials", [])
            cells = load.get("cells", [])
            c.true(1 <= len(trials) < len(CONCS), "%s: finished trials "
                   "kept, not all: %d" % (name, len(trials)))
            c.eq([x.get("concurrency") for x in cells],
                 CONCS[:len(trials)], "%s: a cell per finished trial, in "
                 "order" % name)
            c.eq(load.get("complete"), False, "%s: not complete" % name)
            c.eq(load.get("pass"), False, "%s: does not pass" % name)
            if sig == signal.SIGINT:
                c.true(all(x["total_s"] >= 2.0 for x in cells),
                       "%s: no trial cut short kept: %r" % (
                           name, [x["total_s"] for x in cells]))
            log = access_times(d)
            for x in cells:
                lines = sum(1 for t, _ in log
                            if x["start_unix_us"] // 1000 <=
                            round(t * 1000) <= x["end_unix_us"] // 1000)
                c.true(x["resps"] > 0, "%s: concurrency %d answered" % (
                    name, x["concurrency"]))
                c.eq(x["resps"], lines, "%s: concurrency %d: answers = "
                     "nginx's lines of its span" % (name, x["concurrency"]))
            # The next run's log starts empty.
            open(os.path.join(d, "access.log"), "w").close()
            ns(SV, "nginx", "-c", os.path.join(d, "nginx.conf"), "-s",
               "reopen")
        c.done()
    finally:
        drop_bed(d)
        shutil.rmtree(d, ignore_errors=True)


def bulk_both(path, concs):
    """Bulk conn-load at concs (1 s trials), client on port 0 and
    wirerate's server on port 1 of a net_ring pair, --json path; the
    completed process."""
    eal = wrtest.eal_args([])
    eal = ["--lcores", "0@0,1@1,2@%d" % min(2, os.cpu_count() - 1)] + eal[2:]
    argv = [wrtest.WIRERATE] + eal + [
        "--", "--ring-pairs", "1", "--conn", "0=client,1=server",
        "--port-ip", "0=198.18.0.2/15", "--port-ip", "1=198.19.0.1/15",
        "--conn-server", "198.19.0.1:80", "--conn-app", "bulk",
        "--mode", "conn-load", "--conn-concurrency",
        ",".join(str(k) for k in concs), "--trial", "1s", "--grace", "3s",
        "--plain", "--json", path]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                       stdin=subprocess.DEVNULL)
    wrtest.eal.remove_runtime_dir(eal[eal.index("--file-prefix") + 1])
    return p


def connload_bulk_both():
    """Bulk at 1, 4 and 16 connections (1 s each), client on port 0 and
    wirerate's server on port 1 of a net_ring pair: in each trial the
    bytes the client sent equal those the server delivered, the
    connections the client completed those the server accepted, and
    none failed."""
    c = Checker("connload_bulk_both")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        p = bulk_both(path, CONCS)
        print(p.stdout[-1200:])
        c.eq(p.returncode, 0, "exit code (%r)" % p.stderr[-400:])
        doc = load_json(path) or {}
    cells = doc.get("conn_load", {}).get("cells", [])
    c.eq([x.get("concurrency") for x in cells], CONCS, "a trial each")
    for x in cells:
        k, s = x["concurrency"], x.get("server") or {}
        c.true(x["l7_tx_bytes"] > 0, "%d connections: bytes sent" % k)
        c.eq(s.get("l7_rx_bytes"), x["l7_tx_bytes"], "%d connections: "
             "bytes the server delivered = bytes sent" % k)
        c.eq(s.get("accepted"), x["completed"], "%d connections: server "
             "accepted = client completed" % k)
        c.eq(x["attempted"], k, "%d connections opened, no more" % k)
        c.eq(x["failed"]["total"], 0, "%d connections: none failed" % k)
        c.true(x["pass"], "%d connections: passes" % k)
    c.done()


def connload_report():
    """A real bulk conn-load run (1 and 4 connections, both roles in one
    run) in report and compare: report has a row per concurrency with
    the goodput the JSON holds; compare with itself passes; a copy with
    the goodput halved is a regression (exit 1) naming the concurrency;
    a copy with another concurrency list is refused (exit 2)."""
    c = Checker("connload_report")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        p = bulk_both(path, [1, 4])
        c.eq(p.returncode, 0, "exit code (%r)" % p.stderr[-400:])
        doc = load_json(path) or {}
        cells = doc.get("conn_load", {}).get("cells", [])
        c.eq([x.get("concurrency") for x in cells], [1, 4], "a trial each")
        r = subprocess.run([wrtest.WIRERATE, "report", path],
                           capture_output=True, text=True, timeout=30)
        c.eq(r.returncode, 0, "report exit (%r)" % r.stderr[-300:])
        rows = [ln for ln in r.stdout.splitlines() if ln.startswith("| ")]
        c.true("| concurrency |" in r.stdout, "report: a concurrency column")
        for x in cells:
            want = "| %.3f |" % (x["goodput_bps"] / 1e9)
            c.true(any(("| %d | 1 |" % x["concurrency"]) in ln and want in ln
                       for ln in rows), "report: concurrency %d row with "
                   "goodput %s" % (x["concurrency"], want))
        q = subprocess.run([wrtest.WIRERATE, "compare", path, path],
                           capture_output=True, text=True, timeout=30)
        c.eq(q.returncode, 0, "compare with itself (%r)" % q.stdout[-300:])
        slow = json.loads(json.dumps(doc))
        for x in slow["conn_load"]["cells"]:
            x["goodput_bps"] *= 0.5
        other = json.loads(json.dumps(doc))
        other["conn_load"]["cells"][1]["concurrency"] = 16
        for name, dd in (("slow", slow), ("other", other)):
            with open(os.path.join(d, name + ".json"), "w") as f:
                json.dump(dd, f)
        q = subprocess.run([wrtest.WIRERATE, "compare", path,
                            os.path.join(d, "slow.json")],
                           capture_output=True, text=True, timeout=30)
        c.eq(q.returncode, 1, "planted regression: exit 1")
        c.true("conn_goodput_gbps at concurrency 4" in q.stdout,
               "regression named: %r" % q.stdout[-300:])
        q = subprocess.run([wrtest.WIRERATE, "compare", path,
                            os.path.join(d, "other.json")],
                           capture_output=True, text=True, timeout=30)
        c.eq(q.returncode, 2, "other concurrencies refused: exit 2 (%r)"
             % q.stderr[-300:])
        c.true("concurrency list" in q.stderr and "frame size" not in q.stderr,
               "the refusal names the concurrency list, not frame sizes (%r)"
               % q.stderr[-300:])
    c.done()


def connload_history():
    """Two real bulk conn-load runs (1 and 4 connections) into wirerate
    history (SQLite): a series per figure and concurrency, each with the
    two runs' figures as the files hold them (goodput, CPS, failed %,
    connect p99); no requests/s series (bulk sends none); history check
    passes; show names each series at its concurrency."""
    import sqlite3
    c = Checker("connload_history")
    with tempfile.TemporaryDirectory() as d:
        db = os.path.join(d, "h.db")
        docs = []
        for i in range(2):
            path = os.path.join(d, "r%d.json" % i)
            p = bulk_both(path, [1, 4])
            c.eq(p.returncode, 0, "run %d exit (%r)" % (i, p.stderr[-300:]))
            docs.append(load_json(path) or {})
            q = subprocess.run([wrtest.WIRERATE, "history", "add", "--commit",
                                "c%d" % i, db, path], capture_output=True,
                               text=True, timeout=30)
            c.eq(q.returncode, 0, "add r%d (%r)" % (i, q.stderr[-300:]))
        con = sqlite3.connect(db)
        try:
            rows = con.execute(
                "SELECT s.metric, s.point, r.commit_id, r.kind, p.value "
                "FROM points p JOIN series s ON s.id = p.series_id JOIN "
                "results r ON r.id = p.result_id").fetchall()
        finally:
            con.close()
        got = {(m, pt, cm): (kind, v) for m, pt, cm, kind, v in rows}
        c.eq({k[0] for k in got}, {"conn_goodput_gbps", "conn_cps",
                                   "conn_failed_pct", "conn_connect_p99_us"},
             "the metrics stored (no conn_requests_per_s of bulk)")
        c.eq(len(got), len(rows), "one point per metric, point and run")
        for i, doc in enumerate(docs):
            for x in doc.get("conn_load", {}).get("cells", []):
                k = x["concurrency"]
                want = {"conn_goodput_gbps": x["goodput_bps"] / 1e9,
                        "conn_cps": x["cps"],
                        "conn_failed_pct": 100.0 * x["failed"]["total"] /
                        x["attempted"],
                        "conn_connect_p99_us": x["connect"]["p99_us"]}
                for m, v in want.items():
                    kind, have = got.get((m, "concurrency %d" % k,
                                          "c%d" % i), (None, None))
                    c.true(kind == "conn-load" and have is not None and
                           abs(have - v) <= 1e-9 * max(1.0, abs(v)),
                           "run %d: %s at concurrency %d: %r, the file %r"
                           % (i, m, k, have, v))
        q = subprocess.run([wrtest.WIRERATE, "history", "check", db],
                           capture_output=True, text=True, timeout=30)
        c.eq(q.returncode, 0, "check: two alike runs (%r)" % q.stdout[-300:])
        q = subprocess.run([wrtest.WIRERATE, "history", "show", db, "--metric",
                            "conn_goodput_gbps"], capture_output=True,
                           text=True, timeout=30)
        for k in (1, 4):
            c.true(re.search(r"conn_goodput_gbps at concurrency %d, series "
                             r"\d+: 2 run" % k, q.stdout) is not None,
                   "show: a series of 2 runs at concurrency %d: %r" % (
                       k, q.stdout[-400:]))
    c.done()


def connload_bad():
    """Bad input: exit 2 naming the option, before EAL."""
    c = Checker("connload_bad")
    base = ["--port-ip", "0=%s/24" % ME]
    client = base + ["--conn", "client", "--conn-server", SERVER + ":80"]
    load = client + ["--mode", "conn-load"]
    bad = [
        (base + ["--mode", "conn-load"], "needs --conn client"),
        (base + ["--conn", "server", "--mode", "conn-load"], "--conn server"),
        (load + ["--conn-rate", "100"], "--conn-rate with --mode conn-load"),
        (load + ["--conn-count", "10"], "--conn-count with --mode conn-load"),
        (load + ["--conn-concurrency", "1,0"], "--conn-concurrency"),
        (load + ["--conn-concurrency", "1,,4"], "--conn-concurrency"),
        (load + ["--conn-concurrency", ",".join(["1"] * 17)],
         "--conn-concurrency"),
        (client + ["--conn-concurrency", "1,4"], "a list is for --mode "
         "conn-load only"),
    ]
    connbed.refused(c, bad)
    c.done()


CASES = cases.by_name(connload_nginx, connload_killed, connload_bulk_both,
                      connload_report, connload_history, connload_bad)

if __name__ == "__main__":
    cases.main(CASES)
