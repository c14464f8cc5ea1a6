# SPDX-License-Identifier: BSD-3-Clause
"""--mode conn-rate (docs/tcp.md "Connection modes") against a device
whose connection rate is known by construction: a router namespace
between two veth pairs, wirerate's client on the host end (af_packet),
nginx in a server namespace behind the router, and in the router an
nftables rule that accepts TCP SYNs of new connections (ct state new) at
`limit rate N/second` with a small burst and drops the rest. The search
must find N within 2 %; the rule's own counters (nft list ruleset) are
the count of SYNs that passed, and nginx's access log the requests it
answered. With --pdr the search finds a rate the token bucket bounds
from both sides. A search SIGKILLed or stopped (SIGINT) after a finished trial
keeps its finished trials in the --json file. Bad input is refused with
exit 2 before any traffic.
Usage: test_connrate.py CASE (see CASES)."""
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

BED = connbed.Bed("cr", http="    access_log {d}/access.log;\n",
                  sv_sysctls=("net.ipv4.tcp_max_syn_backlog=4096",
                              "net.core.somaxconn=4096"))
RT = BED.rt                        # the router
# The device's rate: low enough for a shared 2-CPU machine to keep up.
# A token bucket of BURST lets LIMIT * T + BURST SYNs through in a trial
# of T s: evenly paced, no SYN is dropped up to LIMIT + BURST / T, 2 %
# above LIMIT with the 4 s trials of connrate_limit. The burst absorbs
# 80 ms of a loaded machine's jitter (a worker or a softirq held up).
LIMIT = 250
BURST = 20

# New connections' SYNs at LIMIT a second, the rest dropped; counters on
# both rules.
NFT = """table inet wrcr {{
    chain syns {{
        type filter hook forward priority 0; policy accept;
        tcp dport 80 tcp flags & (syn | ack) == syn ct state new limit rate {n}/second burst {b} packets counter accept
        tcp dport 80 tcp flags & (syn | ack) == syn ct state new counter drop
    }}
}}
"""


def make_bed(d, nft=None):
    """The bed (connbed.Bed) with the rule in the router: NFT at LIMIT,
    or the rules nft. nginx's side: no SYN cookies, a queue that holds a
    burst."""
    BED.make(d, NFT.format(n=LIMIT, b=BURST) if nft is None else nft)


def drop_bed(d):
    BED.drop(d)


def vdevs():
    return BED.vdevs()


def nft_counts():
    """(SYNs the limit accepted, SYNs it dropped), by the rule's counters."""
    out = ns(RT, "nft", "list", "ruleset").stdout
    acc = re.search(r"limit rate.*counter packets (\d+)", out)
    drop = re.search(r"counter packets (\d+) bytes \d+ drop", out)
    return (int(acc.group(1)) if acc else -1, int(drop.group(1)) if drop else -1)


def search_opts(top, trial="2s"):
    return ["--port-ip", "0=%s/24,gw=%s" % (ME, GW), "--conn", "client",
            "--conn-server", SERVER + ":80", "--conn-rate", str(top),
            "--mode", "conn-rate", "--trial", trial, "--grace", "500ms",
            "--resolution", "1", "--conn-concurrency", "20000",
            "--conn-time-wait", "2s", "--plain"]


def tool(*argv):
    p = subprocess.run([wrtest.WIRERATE] + list(argv), capture_output=True,
                       text=True, timeout=60)
    return p.returncode, p.stdout + p.stderr


def connrate_limit():
    """The search finds the rule's rate: LIMIT within 2 %. Every trial's
    attempted connections are SYNs the rule saw (its two counters), and
    what the rule let through is at least what completed; nginx answered
    every completed connection (its access log)."""
    c = Checker("connrate_limit")
    probe(c, "nginx", "nft", "ethtool")
    d = tempfile.mkdtemp(prefix="wrcr")
    try:
        make_bed(d)
        path = os.path.join(d, "r.json")
        r = wrtest.run(vdevs(), search_opts(2 * LIMIT, "4s") + ["--json", path],
                       timeout=170, want_json=False)
        acc, drop = nft_counts()
        c.eq(r.rc, 0, "exit code (%r)" % (r.err[-300:] + r.out[-600:]))
        doc = load_json(path) or {}
        cr = doc.get("conn_rate", {})
        trials = doc.get("trials", [])
        found = cr.get("max_cps") or 0
        print(r.out[-1500:])
        c.true(abs(found - LIMIT) <= 0.02 * LIMIT, "maximum connection rate "
               "%.1f/s within 2 %% of the rule's %d/s" % (found, LIMIT))
        c.eq(cr.get("limit"), "device", "the verdict names the device")
        c.true(len(trials) >= 2, "trials run: %d" % len(trials))
        c.eq(sum(t["unsent"]["total"] for t in trials), 0,
             "no connection left unstarted (the generator kept up)")
        attempted = sum(t["attempted"] for t in trials)
        completed = sum(t["completed"] for t in trials)
        rtx = sum(t["rtx_rto"] for t in trials)
        # A SYN sent again after a drop meets the rule again.
        c.true(attempted <= acc + drop <= attempted + rtx, "SYNs the rule "
               "saw (%d accepted + %d dropped) = attempted %d plus SYNs sent "
               "again (<= %d RTO retransmits)" % (acc, drop, attempted, rtx))
        c.true(completed <= acc, "completed %d <= SYNs the rule accepted %d"
               % (completed, acc))
        c.true(all(t["failed"] > 0 for t in trials if not t["pass"]),
               "every failed trial counted failed connections")
        with open(os.path.join(d, "access.log")) as f:
            lines = len([l for l in f if '" 200 ' in l])
        # A connection nginx answered may still fail: not closed by the
        # end of its trial's grace.
        c.true(completed <= lines <= acc, "nginx answered every completed "
               "connection: completed %d <= access log lines with 200 %d <= "
               "SYNs the rule accepted %d" % (completed, lines, acc))
        print("nft: %d SYNs accepted, %d dropped; wirerate: %d attempted, %d "
              "completed, %d RTO retransmits; nginx: %d answers" % (
                  acc, drop, attempted, completed, rtx, lines))
        rc, out = tool("report", path)
        c.eq(rc, 0, "report takes it: %s" % out[-300:])
        c.true("max CPS" in out and ("%.1f" % found)[:-2] in out,
               "report shows the maximum rate: %s" % out[-600:])
        rc, out = tool("compare", path, path)
        c.eq(rc, 0, "compare of the result with itself: %s" % out[-300:])
        c.true("conn_max_cps" in out or "max CPS" in out,
               "compare judges conn_max_cps: %s" % out[-600:])
        c.done(r)
    finally:
        drop_bed(d)
        shutil.rmtree(d, ignore_errors=True)


def connrate_pdr():
    """--pdr 0.2: the highest rate at which at most a fifth of the
    connections fail, bounded by the rule's token bucket alone. In a trial
    of T s at R/s above the limit, the rule lets through LIMIT x T + BURST
    SYNs at least (every one a completed connection) and LIMIT x (T +
    grace) + BURST at most (a SYN sent again in the grace): a pass needs R
    <= (LIMIT (T + grace) + BURST) / (0.8 T), and every R <= (LIMIT T +
    BURST) / (0.8 T) passes. The rate found lies between (less the
    resolution), above the no-failure rate the plain search finds; the
    failed connections are no more than the SYNs the rule dropped."""
    c = Checker("connrate_pdr")
    probe(c, "nginx", "nft", "ethtool")
    d = tempfile.mkdtemp(prefix="wrcr")
    trial, grace, pdr, res = 2.0, 0.5, 0.2, 10
    try:
        make_bed(d)
        path = os.path.join(d, "r.json")
        opts = search_opts(2 * LIMIT, "2s") + ["--pdr", str(pdr), "--json", path]
        opts[opts.index("--resolution") + 1] = str(res)
        # Both searches to their resolution (none cut short by the count).
        opts += ["--max-trials", "16"]
        r = wrtest.run(vdevs(), opts, timeout=170, want_json=False)
        acc, drop = nft_counts()
        c.eq(r.rc, 0, "exit code (%r)" % (r.err[-300:] + r.out[-600:]))
        doc = load_json(path) or {}
        cr = doc.get("conn_rate", {})
        trials = doc.get("trials", [])
        found = cr.get("pdr_cps") or 0
        print(r.out[-1500:])
        low = (LIMIT * trial + BURST) / ((1 - pdr) * trial)
        high = (LIMIT * (trial + grace) + BURST) / ((1 - pdr) * trial)
        c.true(low - res <= found <= high, "PDR rate %.1f/s within the token "
               "bucket's bounds %.1f-%.1f/s (resolution %d)" % (found, low, high, res))
        c.eq(sum(t["unsent"]["total"] for t in trials), 0,
             "no connection left unstarted (the generator kept up)")
        attempted = sum(t["attempted"] for t in trials)
        failed = sum(t["failed"] for t in trials)
        c.true(0 < failed <= drop, "failed connections %d <= SYNs the rule "
               "dropped %d" % (failed, drop))
        c.true(attempted <= acc + drop, "every attempt a SYN the rule saw: "
               "%d <= %d + %d" % (attempted, acc, drop))
        # A trial over the ratio never passes; one without a failure
        # always does (the no-failure search and the PDR one alike).
        for t in trials:
            if t["attempted"] and t["failed"] > pdr * t["attempted"]:
                c.true(not t["pass"], "trial at %.0f/s: %d of %d failed, not a "
                       "pass" % (t["cps"], t["failed"], t["attempted"]))
            elif t["failed"] == 0 and t["unsent"]["total"] == 0:
                c.true(t["pass"], "trial at %.0f/s: none failed, a pass" % t["cps"])
        c.done(r)
    finally:
        drop_bed(d)
        shutil.rmtree(d, ignore_errors=True)


def connrate_killed():
    """SIGKILL, then SIGINT, after the first finished trial: the --json
    file keeps the finished trials (the trials nginx saw), not the one
    cut short, labelled running (report says INCOMPLETE), then signal
    (exit 0, as every stopped search)."""
    c = Checker("connrate_killed")
    probe(c, "nginx", "nft", "ethtool")
    d = tempfile.mkdtemp(prefix="wrcr")
    try:
        make_bed(d)
        for sig in (signal.SIGKILL, signal.SIGINT):
            name = signal.Signals(sig).name
            path = os.path.join(d, "%s.json" % name)
            argv = [wrtest.WIRERATE] + wrtest.eal_args(vdevs()) + ["--"] + \
                search_opts(2 * LIMIT, "1s") + ["--checkpoint", "1s",
                                                "--json", path]
            # The log of this run only.
            open(os.path.join(d, "access.log"), "w").close()
            rc, _ = connbed.signal_after(argv, path, sig,
                                         connbed.trials_done())
            doc = connbed.check_stopped(c, path, sig, rc, "conn-rate")
            trials = doc.get("trials", [])
            # A whole trial of 1 s measures at least 1 s (from the
            # trial's own clock); one cut short by the signal sent as the
            # next starts, a few ms.
            c.true(all(t["duration_s"] >= 0.9 for t in trials),
                   "%s: no trial cut short kept: %r" % (
                       name, [t["duration_s"] for t in trials]))
            with open(os.path.join(d, "access.log")) as f:
                lines = len([ln for ln in f if '" 200 ' in ln])
            kept = sum(t["completed"] for t in trials)
            # nginx may have answered connections of the trial cut short.
            c.true(0 < kept <= lines, "%s: completed in the kept trials "
                   "(%d) <= nginx's answers (%d)" % (name, kept, lines))
        c.done()
    finally:
        drop_bed(d)
        shutil.rmtree(d, ignore_errors=True)


def connrate_bad():
    """Bad input: exit 2 naming the option, before any port starts."""
    c = Checker("connrate_bad")
    base = ["--port-ip", "0=%s/24" % ME]
    client = base + ["--conn", "client", "--conn-server", SERVER + ":80"]
    bad = [
        (base + ["--mode", "conn-rate"], "needs --conn client"),
        (base + ["--conn", "server", "--mode", "conn-rate"], "--conn server"),
        (client + ["--mode", "conn-rate"], "needs --conn-rate"),
        (client + ["--mode", "conn-rate", "--conn-rate", "0"], "--conn-rate"),
        (client + ["--mode", "conn-rate", "--conn-rate", "0.5"], "--conn-rate"),
        (client + ["--mode", "throughput", "--conn-rate", "100"],
         "not a mode of connections"),
        (client + ["--mode", "conn-rate", "--conn-rate", "100",
                   "--conn-count", "10"], "--conn-count"),
    ]
    connbed.refused(c, bad)
    c.done()


CASES = cases.by_name(connrate_limit, connrate_pdr, connrate_killed, connrate_bad)

if __name__ == "__main__":
    cases.main(CASES)
