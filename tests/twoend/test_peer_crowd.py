# SPDX-License-Identifier: BSD-3-Clause
"""A two-ended search while strangers crowd the far end's control port
(docs/api.md, Robustness): the bed of test_peer.py (a sender with --peer
in host A, a `wirerate serve` in host B, a tbf shaper between them), and,
once the sender holds its session, 300 connections at once to the far
end's TCP control port from host A (ctl_crowd.py): 100 idle, 100 that
authenticate and send status requests without reading, 100 that send
garbage; and one more authenticated client timing its status calls. The
checks are the sender's own result (the same NDR within 2 % of the
shaper as peer_ndr, the far end's books closed) and what the clients saw
by their own clocks: every monitor call answered within 1 s, every
garbage connection closed by the server at once, every idle one at the
auth deadline (5 s) or when evicted, every slow reader dropped."""
import json
import os
import subprocess
import sys

import cases
import twoend
from test_peer import (MGMT_B, PORT, SHAPER_BPS, PeerBed, check_far, finish,
                       ndr_of, search_opts, shaper_pps)
from twoend import load_json
from wrtest import Checker

CROWD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ctl_crowd.py")
# Every monitor call answered within this, in seconds.
CALL_MAX_S = 1.0
# The auth deadline (docs/api.md) and the slack a loaded machine gets.
AUTH_S, SLACK_S = 5.0, 2.0


def token_of(bed):
    with open(bed.token) as f:
        return f.read().strip()


def crowd_run(bed, out, stop):
    """One search with the crowd on the far end's port: (exit code, the
    crowd's report or None)."""
    s = bed.sender(search_opts("throughput", out))
    # The sender holds the session once the far end counted a trial.
    if not twoend.wait_path(out, 60):
        return s.wait(120), None
    log = bed.path(os.path.basename(stop) + ".crowd")
    with open(log, "w") as f:
        # On CPU 1, away from the sender's worker (test_peer.py).
        crowd = subprocess.Popen(["ip", "netns", "exec", bed.na, "taskset", "-c", "1",
                                  sys.executable,
                                  CROWD, MGMT_B, str(PORT), token_of(bed), stop,
                                  "150"], stdout=f, stderr=subprocess.STDOUT)
        rc = s.wait(120)
        open(stop, "w").close()
        try:
            crowd.wait(60)
        except subprocess.TimeoutExpired:
            crowd.kill()
            crowd.wait()
    report = None
    with open(log) as f:
        text = f.read()
    for ln in text.splitlines():
        if ln.startswith("{"):
            report = json.loads(ln)
    if report is None:
        print("the crowd's output:\n" + text[-3000:])
    return rc, report


def check_crowd(c, rep):
    lat = rep["latencies_s"]
    print("monitor: %d calls, slowest %.3f s" % (len(lat), max(lat or [0])))
    c.eq(rep["monitor_errors"], [], "the monitor's calls all answered")
    c.true(len(lat) >= 20, "the monitor called throughout: %d calls" % len(lat))
    c.true(max(lat or [99]) < CALL_MAX_S, "every monitor call within %.1f s: "
           "slowest %.3f s" % (CALL_MAX_S, max(lat or [99])))
    c.true(isinstance(rep["after_s"], float) and rep["after_s"] < CALL_MAX_S,
           "status after the crowd: %r" % rep["after_s"])
    by = {}
    for o in rep["clients"]:
        by.setdefault(o.get("kind"), []).append(o)
    c.eq(sorted((k, len(v)) for k, v in by.items()),
         [("garbage", 100), ("idle", 100), ("slow", 100)], "300 clients reported")
    for o in rep["clients"]:
        if o.get("closed_s") is None and "error" not in o:
            print("still open: %r" % o)
    for kind, limit in (("garbage", SLACK_S), ("idle", AUTH_S + SLACK_S),
                        ("slow", 30.0)):
        got = by.get(kind, [])
        errs = [o["error"] for o in got if "error" in o]
        late = [o.get("closed_s") for o in got if "error" not in o and
                (o.get("closed_s") is None or o["closed_s"] > limit)]
        print("%s: %d connected, %d refused before connecting, closed in at most "
              "%.2f s" % (kind, len(got) - len(errs), len(errs), max(
                  [o["closed_s"] for o in got if o.get("closed_s")] or [0])))
        c.eq(late, [], "every %s connection closed by the server within %.0f s"
             % (kind, limit))
        c.true(len(errs) <= 10, "%s: at most 10 connects failed: %r" % (
            kind, errs[:3]))
    told = [o.get("told", "") for o in by.get("idle", []) if "error" not in o]
    why = [t for t in told if "auth" not in t and "too many" not in t]
    c.eq(why[:2], [], "each idle one told why (no auth, or every slot authenticated)")


def peer_crowd():
    """The search completes with its normal verdict while 300 strangers
    and misbehaving clients crowd the far end's control port."""
    c, bed = Checker("peer_crowd"), PeerBed("peer_crowd")
    try:
        bed.shape(bed.rb, SHAPER_BPS)
        ref = shaper_pps(SHAPER_BPS)
        serve = bed.serve()
        for attempt in range(2):
            out, stop = bed.path("crowd%d.json" % attempt), bed.path("stop%d" % attempt)
            bed.base = bed.router_counts()
            rc, rep = crowd_run(bed, out, stop)
            doc = load_json(out)
            if doc is None or rc != 0 or rep is None:
                break
            limited = doc["results"][0].get("generator_limited_trials", 0)
            if limited == 0:
                break
            print("note: attempt %d: %d generator-limited trials, again" % (
                attempt, limited))
        c.eq(rc, 0, "the sender's exit code")
        c.true(serve.p.poll() is None, "the far end still serves")
        if rep is None:
            c.true(False, "the crowd's report written")
        else:
            check_crowd(c, rep)
        if doc is None or rc != 0:
            c.true(False, "the search's result: %s" % bed.procs[-1].text()[-600:])
            return finish(c, bed)
        n = ndr_of(doc)
        print("shaper %.0f pps, two-ended NDR %.0f (%.2f %%) under the crowd" % (
            ref, n, 100 * n / ref))
        c.true(abs(n / ref - 1) <= 0.02, "two-ended NDR within 2 %% of the shaper "
               "(%.0f vs %.0f)" % (n, ref))
        check_far(c, doc, "under the crowd")
    finally:
        bed.close()
    c.done()


def before(name):
    if not twoend.wrtest.have_netns():
        twoend.skip("no network namespaces (have_netns)")


CASES = cases.by_name(peer_crowd)

if __name__ == "__main__":
    try:
        cases.main(CASES, before=before)
    finally:
        twoend.close_all()
