# SPDX-License-Identifier: BSD-3-Clause
"""--mode conn-teardown (docs/connteardown.md) against a device whose
tear-down rate is known by construction: the bed of test_connrate.py (a
router namespace between wirerate's client on af_packet and nginx in a
server namespace), its nftables rule a limit on the client's FINs:
`tcp flags & fin == fin limit rate over N/second drop` in forward. A
close whose FIN the rule dropped is not complete within the close
deadline (150 ms, under the 200 ms first retransmission): it fails. The
search must find N within 2 %; the rule's own counters are the FINs it
let through and dropped, compared with wirerate's completed and failed
closes; nginx's access log the connections held. A search SIGKILLed or
stopped (SIGINT) after a finished trial keeps it. Bad input is refused with exit 2
before EAL.
Usage: test_conntear.py CASE (see CASES)."""
import os
import re
import shutil
import signal
import tempfile

import cases
import connbed
import test_connrate as bed
import wrtest
from wrtest import Checker, load_json

# The device's close rate, FINs a second; a token bucket of BURST lets
# LIMIT * T + BURST FINs through in T s: with CONNS closes evenly paced,
# none is dropped up to LIMIT * CONNS / (CONNS - BURST), 2 % above LIMIT.
LIMIT = 400
BURST = 16
CONNS = 800

# The client's FINs over LIMIT a second dropped, the rest accepted;
# counters on both rules.
NFT = """table inet wrct {{
    chain fins {{
        type filter hook forward priority 0; policy accept;
        ip saddr 198.18.0.0/24 tcp dport 80 tcp flags & fin == fin limit rate over {n}/second burst {b} packets counter drop
        ip saddr 198.18.0.0/24 tcp dport 80 tcp flags & fin == fin counter accept
    }}
}}
"""


def make_bed(d):
    bed.make_bed(d, NFT.format(n=LIMIT, b=BURST))


def fin_counts():
    """(FINs the rule dropped, FINs it accepted), by its counters."""
    out = bed.ns(bed.RT, "nft", "list", "ruleset").stdout
    drop = re.search(r"limit rate over.*counter packets (\d+) bytes \d+ drop",
                     out)
    acc = re.search(r"fin == fin counter packets (\d+) bytes \d+ accept", out)
    return (int(drop.group(1)) if drop else -1, int(acc.group(1)) if acc else -1)


def tear_opts(top, count=CONNS):
    return ["--port-ip", "0=%s/24,gw=%s" % (bed.ME, bed.GW), "--conn",
            "client", "--conn-server", bed.SERVER + ":80", "--conn-rate",
            str(top), "--conn-count", str(count), "--mode", "conn-teardown",
            "--resolution", "1", "--max-trials", "8", "--grace", "200ms",
            "--conn-concurrency", "4096", "--plain"]


def access_200(d):
    with open(os.path.join(d, "access.log")) as f:
        return len([l for l in f if '" 200 ' in l])


def conntear_limit():
    """The search finds the rule's rate: LIMIT within 2 %. Every close
    the pass attempted is a FIN the rule saw once (no FIN is sent again
    within the deadline): dropped = failed closes, accepted = completed;
    every trial held CONNS connections, each of which nginx answered
    (its access log); report and compare take the result."""
    c = Checker("conntear_limit")
    bed.probe(c, "nginx", "nft", "ethtool")
    d = tempfile.mkdtemp(prefix="wrct")
    try:
        make_bed(d)
        path = os.path.join(d, "r.json")
        r = wrtest.run(bed.vdevs(), tear_opts(2 * LIMIT) + ["--json", path],
                       timeout=170, want_json=False)
        drop, acc = fin_counts()
        c.eq(r.rc, 0, "exit code (%r)" % (r.err[-300:] + r.out[-600:]))
        doc = load_json(path) or {}
        ct = doc.get("conn_teardown", {})
        trials = doc.get("trials", [])
        found = ct.get("max_cps") or 0
        print(r.out[-1800:])
        c.true(abs(found - LIMIT) <= 0.02 * LIMIT, "tear-down rate %.1f/s "
               "within 2 %% of the rule's %d/s" % (found, LIMIT))
        c.true(len(trials) >= 2, "trials run: %d" % len(trials))
        c.true(all(t["held"] == CONNS for t in trials), "every fill held %d"
               % CONNS)
        c.true(all(t["attempted"] == t["completed"] + t["failed"] + t["open"]
                   for t in trials), "each trial's books close")
        c.eq(sum(t["unsent"] for t in trials), 0, "no held connection left "
             "unclosed (the generator kept up)")
        att = sum(t["attempted"] for t in trials)
        done = sum(t["completed"] for t in trials)
        failed = sum(t["failed"] for t in trials)
        c.eq((acc + drop, acc, drop), (att, done, failed), "FINs the rule saw, "
             "accepted, dropped = closes attempted, completed, failed")
        c.true(all(t["failed"] > 0 for t in trials if not t["pass"]),
               "every failed trial counted failed closes")
        c.eq(access_200(d), CONNS * len(trials), "nginx answered the first "
             "request of every connection held")
        print("nft: %d FINs accepted, %d dropped; wirerate: %d closes, %d "
              "completed, %d failed" % (acc, drop, att, done, failed))
        rc, out = bed.tool("report", path)
        c.eq(rc, 0, "report takes it: %s" % out[-300:])
        c.true("tear-down/s" in out, "report shows the rate: %s" % out[-600:])
        rc, out = bed.tool("compare", path, path)
        c.eq(rc, 0, "compare of the result with itself: %s" % out[-300:])
        c.true("conn_teardown_cps" in out or "tear-down/s" in out,
               "compare judges conn_teardown_cps: %s" % out[-600:])
        c.done(r)
    finally:
        bed.drop_bed(d)
        shutil.rmtree(d, ignore_errors=True)


def conntear_killed():
    """SIGKILL, then SIGINT (each on a fresh bed), after the first
    finished trial (at the top rate, twice the rule's: it fails): the
    --json file keeps it, not the trial cut short, labelled running
    (report says INCOMPLETE), then signal (exit 0); its closes as the
    rule counted them at that time at most."""
    c = Checker("conntear_killed")
    bed.probe(c, "nginx", "nft", "ethtool")
    for sig in (signal.SIGKILL, signal.SIGINT):
        name = signal.Signals(sig).name
        d = tempfile.mkdtemp(prefix="wrct")
        try:
            make_bed(d)
            path = os.path.join(d, "r.json")
            argv = [wrtest.WIRERATE] + wrtest.eal_args(bed.vdevs()) + \
                ["--"] + tear_opts(2 * LIMIT, 300) + ["--checkpoint", "1s",
                                                      "--json", path]
            rc, _ = connbed.signal_after(argv, path, sig,
                                         connbed.trials_done())
            drop, acc = fin_counts()
            doc = connbed.check_stopped(c, path, sig, rc, "conn-teardown")
            trials = doc.get("trials", [])
            c.true(all(t.get("held") == 300 for t in trials),
                   "%s: every kept trial held 300 (none cut short): %r" % (
                       name, [t.get("held") for t in trials]))
            t = trials[0] if trials else {}
            c.true(t.get("completed", -1) <= acc and
                   t.get("failed", -1) <= drop, "%s: its closes (%r "
                   "completed, %r failed) <= the rule's FINs accepted %d, "
                   "dropped %d" % (name, t.get("completed"), t.get("failed"),
                                   acc, drop))
            c.true(t.get("failed", 0) > 0, "%s: at twice the rule's rate "
                   "closes failed: %r" % (name, t.get("failed")))
        finally:
            bed.drop_bed(d)
            shutil.rmtree(d, ignore_errors=True)
    c.done()


def conntear_bad():
    """Bad input: exit 2 naming the option, before EAL."""
    c = Checker("conntear_bad")
    base = ["--port-ip", "0=%s/24" % bed.ME]
    client = base + ["--conn", "client", "--conn-server", bed.SERVER + ":80",
                     "--mode", "conn-teardown"]
    bad = [
        (base + ["--mode", "conn-teardown", "--conn-rate", "100",
                 "--conn-count", "10"], "needs --conn client"),
        (base + ["--conn", "server", "--mode", "conn-teardown"],
         "needs --conn client"),
        (base + ["--conn", "client", "--mode", "conn-teardown",
                 "--conn-rate", "100", "--conn-count", "10"], "--conn-server"),
        (client + ["--conn-count", "10"], "needs --conn-rate"),
        (client + ["--conn-count", "10", "--conn-rate", "0"], "--conn-rate"),
        (client + ["--conn-count", "10", "--conn-rate", "0.5"], "--conn-rate"),
        (client + ["--conn-rate", "100"], "needs --conn-count"),
        (client + ["--conn-rate", "100", "--conn-count", "0"], "--conn-count"),
        (client + ["--conn-rate", "100", "--conn-count", "5000",
                   "--conn-concurrency", "1000"], "--conn-concurrency"),
        (client + ["--conn-rate", "100", "--conn-count", "10",
                   "--conn-app", "bulk"], "--conn-app bulk"),
    ]
    connbed.refused(c, bad)
    c.done()


CASES = cases.by_name(conntear_limit, conntear_killed, conntear_bad)

if __name__ == "__main__":
    cases.main(CASES)
