# SPDX-License-Identifier: BSD-3-Clause
"""Port leases in wirerate serve (docs/api.md "Leases"), against what the
clients themselves saw, on their own clock: client processes racing
acquire, renew, release, force and expiry never hold one port at the same
time; a lease ends within one second of its TTL (a waiter's grant and a
poller, timed from the acquire's round trip); a killed holder's lease
expires, a killed waiter leaves the queue; waiters are served in the
order they came; a restarted server holds no lease; runs on held ports
are refused, runs under a lease stop when it ends; bad requests are
answered and the server keeps serving. The audit log (--lease-log) is
compared with the clients' records. Usage: test_leases.py CASE."""
import json
import multiprocessing
import os
import random
import shutil
import signal
import subprocess
import tempfile
import time

import cases
import wrtest
from wrtest import Checker
from test_server import ONE_WAY, Server, code_of, wirerate

HELD = wirerate.client.HELD
GONE = wirerate.client.LEASE_GONE
BAD = wirerate.client.BAD_PARAMS
NB_PORTS = 3   # the race's ports: ids 0..2 (leases need no such port)


def logged(path):
    """The audit log's lines, parsed."""
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def lease_server(extra=()):
    """A server with an audit log in a directory of its own (it outlives
    the server: a restart appends to it); (server, log)."""
    log = os.path.join(tempfile.mkdtemp(prefix="wrlease"), "audit.jsonl")
    return Server(extra=["--lease-log", log] + list(extra)), log


def drop_log(log):
    shutil.rmtree(os.path.dirname(log), ignore_errors=True)


def port_set(ports):
    return set(range(NB_PORTS)) if ports == "all" else set(ports)


# --- the race ---------------------------------------------------------------

def race_worker(sock, name, seed, stop, out):
    """One client's turns until the event stop; its records to the file out:
    per lease the interval it surely held it, [reply of acquire, send of
    the last call that succeeded with it], and the leases it was told
    were taken by force."""
    rnd = random.Random(seed)
    held, told, refused = [], [], 0
    with wirerate.Client(sock, timeout=30) as c:
        while not stop.is_set():
            ports = sorted(rnd.sample(range(NB_PORTS), rnd.choice([1, 1, 2, 3])))
            try:
                r = c.acquire(ports, name, reason="race", ttl_s=rnd.choice(
                    [0.3, 0.6, 1.0]), wait_s=rnd.choice([None, None, 0.5, 2]),
                    force=rnd.random() < 0.12)
            except wirerate.ServerError as e:
                refused += e.code == HELD
                time.sleep(rnd.uniform(0.01, 0.05))
                continue
            rec = {"id": r["id"], "ports": r["ports"], "start": time.monotonic()}
            rec["end"] = rec["start"]
            for k in range(rnd.randint(0, 3) + 1):
                time.sleep(rnd.uniform(0.02, 0.15))
                last = k == 0 or rnd.random() < 0.2
                sent = time.monotonic()
                try:
                    if last and rnd.random() < 0.3:
                        break                       # let it expire
                    if last:
                        c.release(r["lease"])
                    else:
                        c.renew(r["lease"])
                    rec["end"] = sent
                except wirerate.ServerError as e:
                    if e.code == GONE and "taken by force" in e.message:
                        told.append(r["id"])
                    break
                if last:
                    break
            held.append(rec)
    with open(out, "w") as f:
        json.dump({"held": held, "told": told, "refused": refused}, f)


def overlaps(records):
    """Pairs of surely-held intervals of two leases on one port."""
    bad = []
    for i, a in enumerate(records):
        for b in records[i + 1:]:
            if a["id"] == b["id"] or not (port_set(a["ports"]) &
                                          port_set(b["ports"])):
                continue
            if max(a["start"], b["start"]) < min(a["end"], b["end"]):
                bad.append((a, b))
    return bad


def replay_audit(lines):
    """Holders over time as the log tells them: the ports of two live
    leases never meet. Returns the findings."""
    live, bad = {}, []
    for ln in lines:
        ev = ln["event"]
        if ev == "force":
            for t in ln["taken_from"]:
                live.pop(t["id"], None)
        if ev in ("acquire", "grant", "force"):
            mine = port_set(ln["ports"])
            for k, p in live.items():
                if p & mine:
                    bad.append("%s %d on %s while %d holds %s" % (
                        ev, ln["id"], mine, k, p))
            live[ln["id"]] = mine
        elif ev in ("release", "expire"):
            live.pop(ln["id"], None)
    return bad


def race_enough(log):
    """Whether the audit log holds what the race's checks need: 90 leases
    begun, a holder told of a force, an expiry and a waiter's grant."""
    try:
        ev = [ln["event"] for ln in logged(log)]
    except (OSError, ValueError):
        return False     # not yet written, or a line half-written
    begun = sum(e in ("acquire", "grant", "force") for e in ev)
    return begun >= 90 and all(e in ev for e in ("told", "expire", "grant"))


def race_run(s, log, d, c):
    """The 8 clients, from 8 s until the log holds enough events (the
    clients' pace follows the machine's load, not the clock), at most
    45 s; their records."""
    stop = multiprocessing.Event()
    t0 = time.monotonic()
    procs = []
    for i in range(8):
        p = multiprocessing.Process(target=race_worker, args=(
            s.sock, "u%d" % i, 1000 + i, stop, os.path.join(d, "r%d" % i)))
        p.start()
        procs.append(p)
    while time.monotonic() - t0 < 45 and not (
            time.monotonic() - t0 >= 8 and race_enough(log)):
        time.sleep(0.5)
    stop.set()
    for p in procs:
        p.join(60)
    c.eq([p.exitcode for p in procs], [0] * 8, "every client ended well")
    print("race: %.1f s" % (time.monotonic() - t0))
    recs = {}
    for i in range(8):
        with open(os.path.join(d, "r%d" % i)) as f:
            recs["u%d" % i] = json.load(f)
    return recs


def lease_race():
    """8 client processes (8 s, longer on a slow machine until 90 leases
    have begun) on 3 ports, at random: acquire (some
    waiting in the queue, some by force), renew, release, or walk away
    and let the lease expire. No two leases are ever surely held on one
    port at once (each client's own clock: from the acquire's reply to
    the sending of its last successful call); every lease a client held
    is in the audit log under its owner; every lease a client was told
    was taken by force is in a force line's taken_from and a told line;
    the log replayed never has two holders of one port."""
    c = Checker("lease_race")
    s, log = lease_server()
    try:
        recs = race_run(s, log, s.dir, c)
        every = [dict(r, owner=o) for o, v in recs.items() for r in v["held"]]
        spans = [r for r in every if r["end"] > r["start"]]
        told = [(o, t) for o, v in recs.items() for t in v["told"]]
        bad = overlaps(spans)
        c.eq(bad[:3], [], "no port surely held by two leases at once")
        c.true(len(spans) >= 40, "%d leases surely held for a while (of %d)"
               % (len(spans), len(every)))
        c.true(sum(v["refused"] for v in recs.values()) > 0,
               "some requests were refused as held")
        lines = logged(log)
        owner = {ln["id"]: ln["owner"] for ln in lines
                 if ln["event"] in ("acquire", "grant", "force")}
        c.eq([r["id"] for r in every if owner.get(r["id"]) != r["owner"]], [],
             "every lease a client held is in the log under its owner")
        taken = {t["id"]: ln["owner"] for ln in lines if ln["event"] == "force"
                 for t in ln["taken_from"]}
        toldlog = {ln["id"] for ln in lines if ln["event"] == "told"}
        c.eq([t for o, t in told if t not in taken or t not in toldlog], [],
             "every lease told 'taken by force' has its force and told lines")
        c.true(len(told) > 0, "some holders were told of a force (%d)" % len(told))
        c.true(any(ln["event"] == "expire" for ln in lines), "some leases expired")
        c.true(any(ln["event"] == "grant" for ln in lines), "some waiters granted")
        c.eq(replay_audit(lines)[:3], [], "the log never has two holders of a port")
        c.eq(s.p.poll(), None, "the server is up")
        print("race: %d leases, %d held a while, %d told of a force, %d log lines"
              % (len(every), len(spans), len(told), len(lines)))
    finally:
        s.close()
        drop_log(log)
    c.done()


# --- expiry -----------------------------------------------------------------

def timed_acquire(cl, *a, **kw):
    """acquire, with the send and reply times: (reply, sent, got)."""
    t0 = time.monotonic()
    r = cl.acquire(*a, **kw)
    return r, t0, time.monotonic()


def lease_expiry():
    """A lease of TTL 0.5, 1 and 2 s not renewed: a waiter queued behind
    it is granted no earlier than TTL after the acquire was sent and no
    later than one second after TTL from its reply; with nobody waiting,
    leases stops listing it within the same bounds (polled every 20 ms)."""
    c = Checker("lease_expiry")
    s, log = lease_server()
    try:
        with s.client() as a, s.client() as b:
            for ttl in (0.5, 1.0, 2.0):
                r, sent, got = timed_acquire(a, [0], "holder", ttl_s=ttl)
                w = b.acquire([0], "waiter", ttl_s=0.2, wait_s=ttl + 5)
                t = time.monotonic()
                c.true(sent + ttl <= t <= got + ttl + 1.0,
                       "TTL %g: the waiter got the port %.3f s after the "
                       "acquire's reply (round trip %.3f s)" % (ttl, t - got,
                                                                got - sent))
                c.true(w["waited_ms"] >= 0, "the grant says how long it waited")
                time.sleep(0.4)
            for ttl in (0.5, 1.0, 2.0):
                r, sent, got = timed_acquire(a, "1", "alone", ttl_s=ttl)
                while any(x["id"] == r["id"] for x in b.leases()["leases"]):
                    time.sleep(0.02)
                t = time.monotonic()
                c.true(sent + ttl <= t <= got + ttl + 1.0,
                       "TTL %g: leases stops listing it %.3f s after the reply"
                       % (ttl, t - got))
        late = [ln["late_ms"] for ln in logged(log) if ln["event"] == "expire"]
        c.eq(len(late), 9, "nine expire lines")
        print("expire late_ms (the server's own figure): %s" % late)
    finally:
        s.close()
        drop_log(log)
    c.done()


def hold_and_hang(sock, conn, ports, wait_s):
    """A client that acquires and then hangs until killed: the reply's
    times (or that it is waiting) through conn."""
    with wirerate.Client(sock, timeout=60) as cl:
        t0 = time.monotonic()
        if wait_s:
            conn.send(("waiting", t0, t0))
        r = cl.acquire(ports, "doomed", reason="killed", ttl_s=1.5,
                       wait_s=wait_s)
        conn.send((r["id"], t0, time.monotonic()))
        time.sleep(600)


def lease_killed_client():
    """A client killed (SIGKILL) while it holds a lease of TTL 1.5 s: the
    lease stays listed after the kill and ends within a second of its TTL
    (a waiter is granted). A client killed while it waits in the queue
    leaves it within a second, logged as give_up 'client gone'."""
    c = Checker("lease_killed_client")
    s, log = lease_server()
    try:
        mine, theirs = multiprocessing.Pipe()
        p = multiprocessing.Process(target=hold_and_hang,
                                    args=(s.sock, theirs, [0, 1], None))
        p.start()
        lid, sent, got = mine.recv()
        os.kill(p.pid, signal.SIGKILL)
        p.join(10)
        with s.client() as b:
            c.true(any(x["id"] == lid and x["owner"] == "doomed"
                       for x in b.leases()["leases"]),
                   "the killed client's lease is still listed")
            b.acquire([1], "next", ttl_s=5, wait_s=10)
            t = time.monotonic()
            c.true(sent + 1.5 <= t <= got + 1.5 + 1.0,
                   "granted %.3f s after the killed client's reply" % (t - got))
            p = multiprocessing.Process(target=hold_and_hang,
                                        args=(s.sock, theirs, [1], 30))
            p.start()
            mine.recv()
            end = time.monotonic() + 10
            while not b.leases()["queue"] and time.monotonic() < end:
                time.sleep(0.02)
            c.eq([q["owner"] for q in b.leases()["queue"]], ["doomed"],
                 "the second client waits in the queue")
            os.kill(p.pid, signal.SIGKILL)
            p.join(10)
            t0 = time.monotonic()
            while b.leases()["queue"] and time.monotonic() < t0 + 5:
                time.sleep(0.02)
            c.true(not b.leases()["queue"] and time.monotonic() - t0 < 1.0,
                   "the killed waiter left the queue in %.3f s" %
                   (time.monotonic() - t0))
        c.true(any(ln["event"] == "give_up" and ln["why"] == "client gone"
                   for ln in logged(log)), "give_up 'client gone' logged")
    finally:
        s.close()
        drop_log(log)
    c.done()


def waiter(sock, name, conn):
    """Wait for port 0; once granted, report the time, hold 0.2 s, release."""
    with wirerate.Client(sock, timeout=60) as cl:
        conn.send(("asked", name, time.monotonic()))
        r = cl.acquire("0", name, ttl_s=10, wait_s=30)
        conn.send(("got", name, time.monotonic()))
        time.sleep(0.2)
        cl.release(r["lease"])


def lease_queue_order():
    """Five client processes queue for port 0 (its holder away), one after
    another: leases lists them in that order, and each is granted, on its
    own clock, in that order once the holder releases."""
    c = Checker("lease_queue_order")
    s, log = lease_server()
    procs = []
    try:
        with s.client() as a:
            r = a.acquire([0], "holder", ttl_s=60)
            mine, theirs = multiprocessing.Pipe()
            names = ["w%d" % i for i in range(5)]
            for n in names:
                p = multiprocessing.Process(target=waiter, args=(s.sock, n, theirs))
                p.start()
                procs.append(p)
                mine.recv()
                end = time.monotonic() + 10
                while n not in [q["owner"] for q in a.leases()["queue"]] and \
                        time.monotonic() < end:
                    time.sleep(0.01)
            c.eq([q["owner"] for q in a.leases()["queue"]], names,
                 "leases lists the queue in order")
            a.release(r["lease"])
            got = [mine.recv() for _ in names]
            c.eq([g[1] for g in got], names, "granted in the order they came")
        for p in procs:
            p.join(20)
        c.eq([p.exitcode for p in procs], [0] * 5, "every waiter ended well")
        grants = [ln["owner"] for ln in logged(log) if ln["event"] == "grant"]
        c.eq(grants, names, "the log's grants, in order")
    finally:
        for p in procs:
            if p.is_alive():
                p.kill()
        s.close()
        drop_log(log)
    c.done()


def lease_restart():
    """A server killed (SIGKILL) while it holds a lease, then started again
    on the same audit log: no lease restored (leases is empty, the old
    secret is 'unknown lease'), the ports free at once, and the log's
    new server_start says leases 0."""
    c = Checker("lease_restart")
    s, log = lease_server()
    try:
        with s.client() as cl:
            old = cl.acquire("all", "before", ttl_s=3600)
        s.p.kill()
        s.p.wait()
    finally:
        s.close()
    s2 = Server(n=1, extra=["--lease-log", log])
    try:
        with s2.client() as cl:
            c.eq(cl.leases()["leases"], [], "no lease after the restart")
            code, msg = code_of(lambda: cl.renew(old["lease"]))
            c.true(code == GONE and "unknown lease" in msg,
                   "the old secret: %s %r" % (code, msg))
            c.eq(cl.acquire([0, 1], "after", ttl_s=5)["ports"], [0, 1],
                 "the ports are free")
        starts = [ln for ln in logged(log) if ln["event"] == "server_start"]
        c.eq([(ln["leases"]) for ln in starts], [0, 0], "two server_start lines, "
             "no lease restored")
    finally:
        s2.close()
        drop_log(log)
    c.done()


# --- runs and bad input -----------------------------------------------------

def wait_state(cl, states, limit_s):
    end = time.monotonic() + limit_s
    while cl.status()["state"] not in states and time.monotonic() < end:
        time.sleep(0.05)
    return cl.status()["state"]


def lease_runs():
    """A run on a port another lease holds is refused naming the holder,
    nothing started (the run id stays); under the lease it runs and
    balances (the PMD's counts); stop without the lease is refused while
    it runs; a force stops it and the log says run_stopped; a run whose
    lease expires is stopped within a second of the TTL; a run without a
    lease holds its ports against acquire, and a force stops it too."""
    c = Checker("lease_runs")
    s, log = lease_server()
    try:
        with s.client() as a, s.client() as b:
            la = a.acquire([0, 1], "alice", reason="runs", ttl_s=60)
            code, msg = code_of(lambda: b.start(dict(ONE_WAY, count=100)))
            c.true(code == HELD and "held by alice" in msg,
                   "a run on alice's ports: %s %r" % (code, msg))
            c.eq(b.status()["run"], 0, "nothing started")
            doc = a.run(dict(ONE_WAY, rate="20kpps", count=2000,
                             lease=la["lease"]))
            c.eq([(t["port_id"], t["nic_opackets"], t["nic_ipackets"])
                  for t in doc["totals"]], [(0, 2000, 0), (1, 0, 2000)],
                 "the run under the lease: the PMD's counts")
            c.true("lease" not in json.dumps(doc.get("command_line", "")),
                   "the secret is not in the result's command line")
            a.start(dict(ONE_WAY, rate="10kpps", duration="30s",
                         lease=la["lease"]))
            wait_state(a, ("running",), 20)
            code, msg = code_of(lambda: b.stop())
            c.true(code == HELD and "lease" in msg, "stop without the lease: "
                   "%s %r" % (code, msg))
            b.acquire([0], "carol", reason="urgent", force=True)
            t0 = time.monotonic()
            st = wait_state(a, ("done", "failed"), 20)
            c.true(st in ("done", "failed") and time.monotonic() - t0 < 10,
                   "the forced run ended (%s) in %.1f s" % (st, time.monotonic() - t0))
            code, msg = code_of(lambda: a.renew(la["lease"]))
            c.true(code == GONE and "taken by force by carol" in msg,
                   "alice is told: %r" % msg)
            lb = b.leases()["leases"][0]
            c.eq((lb["owner"], lb["ports"]), ("carol", [0]), "carol holds port 0")
            code, msg = code_of(lambda: a.start(dict(ONE_WAY, count=10,
                                                     lease=la["lease"])))
            c.eq(code, GONE, "a start with the lost lease: %r" % msg)
            ld = a.acquire([2, 3], "dave", ttl_s=1.5)
            code, msg = code_of(lambda: a.start(dict(ONE_WAY, count=10,
                                                     lease=ld["lease"])))
            c.true(code == HELD and "carol" in msg, "a lease on other ports "
                   "does not open port 0: %r" % msg)
        with s.client() as a:
            le = a.acquire([0, 1], "erin", ttl_s=2, force=True)
            t0 = time.monotonic()
            a.start(dict(ONE_WAY, rate="10kpps", duration="30s",
                         lease=le["lease"]))
            st = wait_state(a, ("done", "failed"), 20)
            t = time.monotonic() - t0
            c.true(st in ("done", "failed") and t < 2 + 1.0 + 1.5,
                   "the run under a lease of 2 s ended in %.1f s" % t)
            a.start(dict(ONE_WAY, rate="10kpps", duration="30s"))
            wait_state(a, ("running",), 20)
            code, msg = code_of(lambda: a.acquire([1], "frank"))
            c.true(code == HELD and "without a lease" in msg,
                   "acquire while a run without a lease uses the port: %r" % msg)
            a.acquire([1], "frank", force=True)
            st = wait_state(a, ("done", "failed"), 20)
            c.true(st in ("done", "failed"), "force stopped the run without "
                   "a lease (%s)" % st)
        stopped = [(ln["owner"], ln["id"] == 0, ln["why"]) for ln in logged(log)
                   if ln["event"] == "run_stopped"]
        c.eq(stopped, [("alice", False, "force"), ("erin", False, "expire"),
                       ("", True, "force")], "run_stopped lines")
    finally:
        s.close()
        drop_log(log)
    c.done()


def lease_bad_input():
    """Bad lease requests through the API and ctl: each a clear error
    naming the field, nothing held or started, the server still serving."""
    c = Checker("lease_bad_input")
    s, log = lease_server()
    try:
        with s.client() as cl:
            for params, field in (
                    ({"owner": "x"}, '"ports"'),
                    ({"ports": [0, 99], "owner": "x"}, '"ports"'),
                    ({"ports": "0,a", "owner": "x"}, '"ports"'),
                    ({"ports": [], "owner": "x"}, '"ports"'),
                    ({"ports": "all"}, '"owner"'),
                    ({"ports": "all", "owner": ""}, '"owner"'),
                    ({"ports": "all", "owner": "o" * 65}, '"owner"'),
                    ({"ports": "all", "owner": "x", "ttl_s": 0}, '"ttl_s"'),
                    ({"ports": "all", "owner": "x", "ttl_s": "1h"}, '"ttl_s"'),
                    ({"ports": "all", "owner": "x", "wait_s": -1}, '"wait_s"'),
                    ({"ports": "all", "owner": "x", "force": "yes"}, '"force"'),
                    ({"ports": "all", "owner": "x", "tll_s": 5}, '"tll_s"')):
                code, msg = code_of(lambda: cl.call("acquire", **params))
                c.true(code == BAD and msg.startswith(field),
                       "acquire %s: %s %r" % (params, code, msg))
            for m, params in (("renew", {}), ("renew", {"lease": 5}),
                              ("release", {"lease": "x" * 40})):
                code, msg = code_of(lambda: cl.call(m, **params))
                c.true(code == BAD and '"lease"' in msg, "%s %s: %r" % (m, params, msg))
            code, msg = code_of(lambda: cl.renew("0" * 32))
            c.true(code == GONE and "unknown lease" in msg, "an unknown secret")
            code, msg = code_of(lambda: cl.start(dict(ONE_WAY, lease="0" * 32)))
            c.true(code == GONE, "start with an unknown lease: %r" % msg)
            code, msg = code_of(lambda: cl.start({"lease-log": "/tmp/x"}))
            c.eq(code, BAD, "lease-log per run")
            # A notification cannot wait: its reply has nowhere to go.
            raw = cl.send_raw(b'{"jsonrpc": "2.0", "method": "acquire", "params": '
                              b'{"ports": "all", "owner": "n", "wait_s": 5}}\n'
                              b'{"jsonrpc": "2.0", "id": 99, "method": "leases"}\n')
            c.eq(raw.get("result", {}).get("leases"), [], "nothing held")
            c.eq(cl.status()["run"], 0, "nothing started")
        for argv, want in ((["--wait", "5", s.sock, "status"], "--wait goes with acquire"),
                           (["--wait", "soon", s.sock, "acquire"], "--wait soon:")):
            r = subprocess.run([wrtest.WIRERATE, "ctl"] + argv,
                               capture_output=True, text=True, timeout=30)
            c.true(r.returncode == 2 and want in r.stderr,
                   "ctl %s: exit %d %r" % (argv, r.returncode, r.stderr))
        r = subprocess.run([wrtest.WIRERATE, "ctl", "--wait", "1", s.sock,
                            "acquire", "ports=0,1", "owner=ci"],
                           capture_output=True, text=True, timeout=30)
        c.eq(r.returncode, 0, "ctl --wait acquire on free ports: %r" % r.stderr)
        r = subprocess.run([wrtest.WIRERATE, "ctl", "--wait", "1", s.sock,
                            "acquire", "ports=1", "owner=ci2"],
                           capture_output=True, text=True, timeout=30)
        c.true(r.returncode == 1 and "waited 1 s" in r.stderr and
               "held by ci" in r.stderr, "ctl --wait 1 on a held port: %r" % r.stderr)
        c.eq(s.p.poll(), None, "the server is up")
    finally:
        s.close()
        drop_log(log)
    c.done()


CASES = cases.by_name(lease_race, lease_expiry, lease_killed_client,
                      lease_queue_order, lease_restart, lease_runs,
                      lease_bad_input)

if __name__ == "__main__":
    multiprocessing.set_start_method("fork")
    cases.main(CASES)
