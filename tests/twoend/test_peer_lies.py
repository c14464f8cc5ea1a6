# SPDX-License-Identifier: BSD-3-Clause
"""A far end that does not play by the rules: a fake `wirerate serve`
(this script, on a UNIX socket) speaks the same JSON-RPC as the real one
and the sender (net_null ports, no traffic reaches it) is a real run with
--peer. What the sender says and its exit code are checked against what
the fake end sent, which the sender did not make."""
import json
import os
import re
import socket
import sqlite3
import subprocess
import tempfile
import threading

import cases
import twoend
from wrtest import Checker


class FakeServe:
    """One connection; answer(req) returns the lines to send for req."""

    def __init__(self, answer):
        self.dir = tempfile.mkdtemp(prefix="wr-lies-%d-" % os.getpid())
        self.path = os.path.join(self.dir, "serve.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(self.path)
        self.sock.listen(1)
        self.sock.settimeout(30)
        self.answer, self.seen = answer, []
        self.t = threading.Thread(target=self.serve, daemon=True)
        self.t.start()

    def serve(self):
        try:
            conn, _ = self.sock.accept()
        except OSError:
            return
        with conn:
            f = conn.makefile("r")
            for line in f:
                req = json.loads(line)
                self.seen.append(req)
                for rep in self.answer(req):
                    conn.sendall((json.dumps(rep) + "\n").encode())

    def close(self):
        self.sock.close()
        self.t.join(5)
        try:
            os.unlink(self.path)
            os.rmdir(self.dir)
        except OSError:
            pass


def sender(path, name, extra=()):
    pfx = "wr-lies-%s-%d" % (name, os.getpid())
    argv = [twoend.WIRERATE, "-l", "0,1", "--no-pci", "--in-memory",
            "--file-prefix", pfx, "--vdev", "net_null0", "--", "--rx-ports",
            "none", "--duration", "0.5", "--rate", "1kpps", "--quiet",
            "--peer", "unix:" + path, "--peer-timeout", "5s"] + list(extra)
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


def peer_stale_answer():
    """An answer with another id (a late answer to an earlier request)
    comes before the answer to peer_open: the sender drops it and takes
    the one with its request's id (here a refusal naming FRESH), never
    the stale one (naming STALE)."""
    c = Checker("peer_stale_answer")

    def answer(req):
        rid = req.get("id")
        stale = {"jsonrpc": "2.0", "id": rid - 1 if isinstance(rid, int) else 0,
                 "error": {"code": -32004, "message": "STALE answer"}}
        fresh = {"jsonrpc": "2.0", "id": rid,
                 "error": {"code": -32004, "message": "FRESH answer"}}
        return [stale, fresh]

    srv = FakeServe(answer)
    try:
        p = sender(srv.path, "stale")
        txt = p.stdout + p.stderr
        c.true(len(srv.seen) >= 1 and srv.seen[0].get("method") == "peer_open",
               "the sender asked peer_open: %r" % srv.seen[:1])
        c.true("FRESH" in txt, "the answer with the request's id taken: %s" %
               txt.strip()[-300:])
        c.true("STALE" not in txt, "the stale answer dropped: %s" % txt.strip()[-300:])
        c.true(p.returncode != 0, "the refusal fails the run: exit %d" % p.returncode)
    finally:
        srv.close()
    c.done()


def liar(forge, trial_answer=None):
    """A far end that plays along until peer_end, then answers with the
    counts forge(trial, streams) makes of an honest, empty answer."""
    mine = subprocess.run([twoend.WIRERATE, "--version"], capture_output=True,
                          text=True).stdout.split()[1]

    def answer(req):
        m, p, rid = req.get("method"), req.get("params") or {}, req.get("id")
        if m == "peer_open":
            res = {"version": mine, "schema": "wirerate-result/1", "env": {},
                   "ports": [{"port": 0}]}
        elif m == "peer_trial":
            res = {"trial": p.get("trial") if trial_answer is None else
                   trial_answer(p.get("trial")), "counting": True}
        elif m == "peer_end":
            res = forge(p.get("trial"))
        else:
            res = {"trials": 1, "mbufs_missing": 0}
        return [{"jsonrpc": "2.0", "id": rid, "result": res}]
    return answer


def stream(**kw):
    s = {"stream_id": 0, "rx_pkts": 0, "dup_pkts": 0, "reordered_pkts": 0,
         "prev_pkts": [0, 0, 0], "stray_pkts": 0}
    s.update(kw)
    return s


LIES = [
    ("rx -1", lambda t: {"trial": t, "streams": [stream(rx_pkts=-1)]},
     '"rx_pkts" is -1'),
    ("wrong trial", lambda t: {"trial": t + 7, "streams": [stream()]},
     '"trial" is %d'),
    ("more than sent", lambda t: {"trial": t, "streams": [stream(rx_pkts=10**9)]},
     '"rx_pkts" is 1000000000'),
    ("a string", lambda t: {"trial": t, "streams": [stream(rx_pkts="500")]},
     '"rx_pkts" is "500"'),
    ("a stream not sent", lambda t: {"trial": t, "streams": [stream(stream_id=99)]},
     '"stream_id" is 99'),
    ("late counts forged", lambda t: {"trial": t, "streams": [stream(prev_pkts=[-5, 0, 0])]},
     '"prev_pkts" is [-5,0,0]'),
]


def peer_forged_counts():
    """A far end that forges peer_end's counts (-1, another trial id, more
    than was sent, a string for a number, a stream never sent): the run
    stops with exit 2 naming the field and the value, never a result built
    on them; its result is marked invalid (top-level "invalid" naming the
    field) and `wirerate history add` refuses it, storing nothing."""
    c = Checker("peer_forged_counts")
    tmp = tempfile.mkdtemp(prefix="wr-lies-")
    db = os.path.join(tmp, "h.sqlite")
    for k, (what, forge, words) in enumerate(LIES):
        trial = []

        def f(t, forge=forge, trial=trial):
            trial.append(t)
            return forge(t)
        srv = FakeServe(liar(f))
        out = os.path.join(tmp, "r%d.json" % k)
        try:
            p = sender(srv.path, "forged", ["--json", out])
            txt = p.stdout + p.stderr
            want = words % (trial[0] + 7) if "%d" in words and trial else words
            c.eq(p.returncode, 2, "%s: exit 2 (%s)" % (what, txt.strip()[-300:]))
            c.true(want in txt, "%s: %r named: %s" % (what, want, txt.strip()[-300:]))
        finally:
            srv.close()
        field = want.split('"')[1]
        try:
            bad = json.load(open(out)).get("invalid")
        except (OSError, ValueError) as e:
            bad = "no result file: %s" % e
        c.true(isinstance(bad, dict) and bad.get("field") == field,
               "%s: the result is marked invalid, naming %r: %r" % (what, field, bad))
        h = subprocess.run([twoend.WIRERATE, "history", "add", db, out],
                           capture_output=True, text=True, timeout=60)
        c.eq(h.returncode, 2, "%s: history add refuses it (%s)"
             % (what, (h.stdout + h.stderr).strip()[-200:]))
    stored = 0
    if os.path.exists(db):
        con = sqlite3.connect(db)
        try:
            stored = con.execute("SELECT count(*) FROM results").fetchone()[0]
        except sqlite3.Error:
            stored = 0      # no table: nothing was ever stored
        con.close()
    c.eq(stored, 0, "results stored from the forged runs")
    c.done()


def peer_trial_other_id():
    """peer_trial answered for another trial than the one told: the far
    end does not count the trial the sender is about to send; exit 2
    naming the field, and the result marked invalid."""
    c = Checker("peer_trial_other_id")
    tmp = tempfile.mkdtemp(prefix="wr-lies-")
    out = os.path.join(tmp, "r.json")
    srv = FakeServe(liar(lambda t: {"trial": t, "streams": []},
                         trial_answer=lambda t: t + 3))
    try:
        p = sender(srv.path, "trialid", ["--json", out])
    finally:
        srv.close()
    txt = (p.stdout + p.stderr).strip()[-300:]
    c.eq(p.returncode, 2, "exit 2 (%s)" % txt)
    c.true('"trial" is ' in p.stderr and "another trial" in p.stderr,
           "the field named: %s" % txt)
    try:
        bad = json.load(open(out)).get("invalid")
    except (OSError, ValueError) as e:
        bad = "no result file: %s" % e
    c.true(isinstance(bad, dict) and bad.get("field") == "trial",
           "the result marked invalid: %r" % (bad,))
    c.done()


def peer_received_nothing():
    """--repeat with a far end that received none of the frames (as one
    on a wrong path answers: no stream of ours): each trial says what the
    far end received (0 of what was sent, 100 % lost), never "loss n/a 0%",
    and the run fails (exit 1) saying the far end received nothing."""
    c = Checker("peer_received_nothing")
    srv = FakeServe(liar(lambda t: {"trial": t, "streams": []}))
    try:
        p = sender(srv.path, "nothing", ["--repeat", "2"])
    finally:
        srv.close()
    txt = p.stdout + p.stderr
    c.eq(p.returncode, 1, "exit 1 (%s)" % txt.strip()[-300:])
    c.true("received none of the frames sent" in p.stderr,
           "the reason is said: %s" % p.stderr.strip()[-300:])
    lines = re.findall(r"far end: received (\d+) of (\d+) frames sent, lost "
                       r"(\d+) \(([\d.]+)%\)", p.stdout)
    c.eq(len(lines), 2, "one far-end line per trial")
    for rx, sent, lost, pct in lines:
        c.true(rx == "0" and sent == lost and int(sent) > 0 and pct == "100",
               "0 received, all %s lost, 100 %%: %s %s %s %s" % (sent, rx, sent, lost, pct))
    c.true("loss n/a 0%" not in p.stdout, "no 'loss n/a 0%'")
    c.done()


def peer_timeout_grace():
    """--peer-timeout counts from when the far end may answer: peer_end's
    answer comes after the far end's RX grace (--grace), so a far end that
    takes 1.6 s (its grace of 1.5 s) is within --peer-timeout 1s plus
    --grace; the run completes with the far end's counts (exit 0)."""
    import time
    c = Checker("peer_timeout_grace")

    def honest(t):
        time.sleep(1.6)
        return {"trial": t, "streams": [stream(rx_pkts=100)]}
    srv = FakeServe(liar(honest))
    pfx = "wr-lies-grace-%d" % os.getpid()
    argv = [twoend.WIRERATE, "-l", "0,1", "--no-pci", "--in-memory",
            "--file-prefix", pfx, "--vdev", "net_null0", "--", "--rx-ports",
            "none", "--count", "100", "--rate", "1kpps", "--quiet",
            "--peer", "unix:" + srv.path, "--peer-timeout", "1s",
            "--grace", "1500ms"]
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    finally:
        srv.close()
    txt = (p.stdout + p.stderr).strip()[-400:]
    c.eq(p.returncode, 0, "exit 0 (%s)" % txt)
    c.true("no answer within" not in p.stderr, "no timeout: %s" % txt)
    c.true("far end: received 100 of 100 frames sent, lost 0 (0%)" in p.stdout,
           "the far end's counts taken: %s" % txt)
    c.done()
def peer_settle_failed():
    """The far end refuses the settle pass after the last trial (as one
    that cannot count without sending did): the run fails (exit 1) saying
    the last trial's late frames are not counted and why (the far end's
    own words), the result's far.settle holds the error, and the settle
    trial asked the far end to send nothing (count_only)."""
    c = Checker("peer_settle_failed")
    inner = liar(lambda t: {"trial": t, "streams": [stream(rx_pkts=100)]})
    trials = []

    def answer(req):
        p = req.get("params") or {}
        if req.get("method") == "peer_trial":
            trials.append(p)
            if len(trials) == 2:
                return [{"jsonrpc": "2.0", "id": req.get("id"), "error": {
                    "code": -32602, "message": "SETTLE refused"}}]
        return inner(req)
    srv = FakeServe(answer)
    out = os.path.join(srv.dir, "settle.json")
    pfx = "wr-lies-settle-%d" % os.getpid()
    argv = [twoend.WIRERATE, "-l", "0,1", "--no-pci", "--in-memory",
            "--file-prefix", pfx, "--vdev", "net_null0", "--", "--rx-ports",
            "none", "--count", "100", "--rate", "1kpps", "--quiet",
            "--peer", "unix:" + srv.path, "--json", out]
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        with open(out) as f:
            doc = json.load(f)
    finally:
        srv.close()
    txt = (p.stdout + p.stderr).strip()[-400:]
    c.eq(p.returncode, 1, "exit 1 (%s)" % txt)
    c.true("settle pass" in p.stderr and "SETTLE refused" in p.stderr,
           "the reason is said: %s" % p.stderr.strip()[-300:])
    c.true("SETTLE refused" in doc.get("far", {}).get("settle", {}).get("error", ""),
           "far.settle.error: %r" % doc.get("far", {}).get("settle"))
    c.eq(len(trials), 2, "one trial and the settle pass asked")
    c.eq([t.get("count_only", False) for t in trials], [False, True],
         "only the settle pass is count_only")
    c.done()


CASES = cases.by_name(peer_stale_answer, peer_forged_counts, peer_trial_other_id,
                      peer_received_nothing, peer_timeout_grace, peer_settle_failed)

if __name__ == "__main__":
    try:
        cases.main(CASES)
    finally:
        twoend.close_all()
