# SPDX-License-Identifier: BSD-3-Clause
"""Connection table capacity (--mode conn-capacity, docs/conncap.md)
against Linux conntrack: wirerate's client on the host end of a veth
pair (af_packet), a router namespace that forwards to a server namespace
(nginx, one worker, keep-alive long enough to hold every connection),
nftables in the router dropping what conntrack could not track
(`ct state invalid drop` in forward; the ct rules make conntrack track).
net.netfilter.nf_conntrack_max is a global sysctl: it is saved, set for
the run and restored. The router's conntrack counts (nf_conntrack_count,
`conntrack -S`) are the independent figures.
Usage: test_conncap.py CASE (see CASES)."""
import os
import shutil
import signal
import subprocess
import tempfile
import time

import cases
import connbed
import wrtest
from connbed import GW, ME
from connbed import ns as nsx
from wrtest import Checker

SRV = connbed.SERVER
# TIME_WAIT of 1 s in the router's conntrack, so that closed entries
# leave soon; nginx's keep-alive long enough to hold every connection.
BED = connbed.Bed("cc", http="    access_log {d}/access.log;\n"
                  "    keepalive_timeout 600s;\n"
                  "    keepalive_requests 100000;\n",
                  top="worker_rlimit_nofile 65536;\n", conns=20000,
                  rt_sysctls=(
                      "net.netfilter.nf_conntrack_tcp_timeout_time_wait=1",))
RT = BED.rt                            # the router
CT_MAX = "/proc/sys/net/netfilter/nf_conntrack_max"

NFT = """table inet wrcc {
    chain wrforward {
        type filter hook forward priority 0; policy drop;
        ct state invalid drop
        ct state { new, established, related } accept
    }
}
"""


def probe(c):
    """Skip (and end) the case without namespaces, the tools, or a
    conntrack whose table size this process may set."""
    connbed.probe(c, "nginx", "nft", "conntrack", "ethtool")
    if not os.path.exists(CT_MAX):
        c.skip("no %s: a kernel without conntrack" % CT_MAX)
        c.done()


def make_bed(d):
    """The bed (connbed.Bed), nftables with conntrack in the router."""
    BED.make(d, NFT)


def drop_bed(d):
    BED.drop(d)


def ct_count():
    """The router's conntrack entries now (its own namespace's count),
    after a listing (`conntrack -L` frees the entries whose timeout
    passed, which the kernel's collector may reach only later)."""
    nsx(RT, "conntrack", "-L", check=False)
    return int(nsx(RT, "cat", "/proc/sys/net/netfilter/nf_conntrack_count")
               .stdout.strip())


def ct_stats():
    """`conntrack -S` in the router, summed over its CPUs."""
    out = nsx(RT, "conntrack", "-S").stdout
    tot = {}
    for line in out.splitlines():
        for kv in line.split():
            k, _, v = kv.partition("=")
            if v.isdigit() and k != "cpu":
                tot[k] = tot.get(k, 0) + int(v)
    return tot


class CtMax:
    """nf_conntrack_max set to n while in the block, restored after."""

    def __init__(self, n):
        self.n, self.old = n, None

    def __enter__(self):
        with open(CT_MAX) as f:
            self.old = f.read().strip()
        with open(CT_MAX, "w") as f:
            f.write(str(self.n))
        return self

    def __exit__(self, *exc):
        with open(CT_MAX, "w") as f:
            f.write(self.old)


def vdevs():
    return BED.vdevs()


def opts(extra):
    return ["--port-ip", "0=%s/24,gw=%s" % (ME, GW), "--conn", "client",
            "--conn-server", SRV + ":80", "--mode", "conn-capacity",
            "--conn-concurrency", "20000", "--interval", "0.2", "--plain",
            "--duration", "60"] + extra


def cap_of(doc):
    return doc.get("capacity", {}) if doc else {}


def conncap_conntrack():
    """With nf_conntrack_max N = 2000, the capacity found is N within
    1 %; every held connection answers its check; the SYNs conntrack
    dropped for a full table are the failures wirerate counted, two each
    (the SYN and its one retry); conntrack's count falls back to 0 as
    the checked connections close."""
    c = Checker("conncap_conntrack")
    probe(c)
    n = 2000
    d = tempfile.mkdtemp(prefix="wrcc")
    try:
        make_bed(d)
        before = ct_stats()
        with CtMax(n):
            r = wrtest.run(vdevs(), opts(["--conn-rate", "1000"]), timeout=120)
        after = ct_stats()
        c.eq(r.rc, 0, "exit code (%r)" % r.err[-300:])
        cap = cap_of(r.doc)
        got = cap.get("connections")
        c.eq(cap.get("ended_by"), "failure", "the fill ended at a failure")
        c.true(got is not None and abs(got - n) <= n // 100,
               "capacity %r within 1 %% of nf_conntrack_max %d" % (got, n))
        c.eq(cap.get("check", {}).get("answered"), got,
             "every held connection answered its check")
        failed = cap.get("failed_syn", -1)
        c.eq(cap.get("failed"), failed, "every failure a SYN's")
        drops = sum(after.get(k, 0) - before.get(k, 0)
                    for k in ("drop", "insert_failed", "early_drop"))
        c.eq(drops, 2 * failed, "conntrack's drops (drop, insert_failed, "
             "early_drop) = 2 x the connections wirerate counted failed")
        left = -1
        end = time.monotonic() + 15
        while time.monotonic() < end:
            left = ct_count()
            if left == 0:
                break
            time.sleep(0.5)
        c.eq(left, 0, "conntrack's count after the closes")
        print("conntrack max %d: capacity %r, attempted %r, failed %r; "
              "conntrack drops %d; count after %d" % (
                  n, got, cap.get("attempted"), failed, drops, left))
        c.done(r)
    finally:
        drop_bed(d)
        shutil.rmtree(d, ignore_errors=True)


def conncap_killed():
    """SIGINT during the fill: the result is written, labelled (ended by
    a stop, the run's stop reason), valid, and the connections held by
    then are checked and closed."""
    c = Checker("conncap_killed")
    probe(c)
    d = tempfile.mkdtemp(prefix="wrcc")
    try:
        make_bed(d)
        with CtMax(2000):
            r = wrtest.run_and_signal(vdevs(), opts(["--conn-rate", "500"]),
                                      2.5, sig=signal.SIGINT, timeout=60)
        c.true(r.doc is not None, "a result was written (read_result "
               "checked it against its schema)")
        cap = cap_of(r.doc)
        c.eq(cap.get("ended_by"), "stopped", "ended by the stop")
        c.eq(r.doc and r.doc.get("stop_reason"), "signal", "stop_reason")
        held = cap.get("connections") or 0
        c.true(0 < held < 2000, "held some, fewer than the table: %r" % held)
        c.eq(cap.get("check", {}).get("answered"), held,
             "the held ones answered their check")
        c.done(r)
    finally:
        drop_bed(d)
        shutil.rmtree(d, ignore_errors=True)


def kill_when_held(opts, least, timeout=40):
    """Start wirerate with --json; SIGKILL it once the file it rewrites
    during the fill shows at least `least` connections held; return that
    file's doc (checked against the schema) and its path's text."""
    d = tempfile.mkdtemp(prefix="wrccj")
    path = os.path.join(d, "r.json")
    argv = [wrtest.WIRERATE] + wrtest.eal_args(vdevs()) + ["--"] + opts + [
        "--json", path]
    connbed.signal_after(argv, path, signal.SIGKILL, lambda doc: cap_of(
        doc).get("held_now", 0) >= least, timeout=timeout)
    return d, path


def conncap_checkpoint():
    """SIGKILL during the fill: the file written during the run is a
    valid result labelled running, its "capacity" in phase fill with the
    count held so far; that count is at most the router's conntrack
    entries and nginx's answered first requests (both still counting
    what the killed run held); report and compare read it as an
    INCOMPLETE capacity."""
    c = Checker("conncap_checkpoint")
    probe(c)
    d = tempfile.mkdtemp(prefix="wrcc")
    jd = None
    try:
        make_bed(d)
        with CtMax(2000):
            jd, path = kill_when_held(opts(["--conn-rate", "500",
                                            "--checkpoint", "0.2"]), 200)
            ct = ct_count()
        doc = wrtest.load_json(path)
        c.true(doc is not None, "a valid result was left (schema)")
        cap = cap_of(doc)
        held = cap.get("held_now", -1)
        c.eq(doc and doc.get("stop_reason"), "running", "stop_reason")
        c.eq(cap.get("phase"), "fill", "written during the fill")
        c.eq(cap.get("found"), False, "no capacity found yet")
        c.true(200 <= held <= ct, "held so far %r: at least 200, at most "
               "the router's conntrack entries %d" % (held, ct))
        with open(os.path.join(d, "access.log")) as f:
            gets = sum(1 for _ in f)
        c.true(held <= gets, "held %r <= nginx's answered GETs %d"
               % (held, gets))
        p = subprocess.run([wrtest.WIRERATE, "report", path],
                           capture_output=True, text=True, timeout=30)
        c.eq(p.returncode, 0, "report reads it: %s" % p.stderr[-300:])
        c.true("INCOMPLETE" in p.stdout and str(held) in p.stdout,
               "report: INCOMPLETE, held %d: %r" % (held, p.stdout[-600:]))
        p = subprocess.run([wrtest.WIRERATE, "compare", path, path],
                           capture_output=True, text=True, timeout=30)
        c.eq(p.returncode, 0, "compare reads it: %s" % p.stderr[-300:])
        c.true("conn_capacity" in p.stdout, "compare judges conn_capacity")
        print("killed at %d held; conntrack %d, nginx GETs %d" % (
            held, ct, gets))
        c.done()
    finally:
        drop_bed(d)
        shutil.rmtree(d, ignore_errors=True)
        if jd is not None:
            shutil.rmtree(jd, ignore_errors=True)


def conncap_bad():
    """Bad input, exit 2 before EAL: the capacity mode without a client,
    with a server, with bulk; a rate below 1; a ceiling above the
    concurrency."""
    c = Checker("conncap_bad")
    base = ["--port-ip", "0=%s/24" % ME]
    srv = ["--conn-server", SRV + ":80"]
    bad = [
        (["--mode", "conn-capacity"], "needs --conn client"),
        (["--conn", "server", "--mode", "conn-capacity"], "needs --conn client"),
        (["--conn", "client"] + srv + ["--mode", "conn-capacity",
         "--conn-app", "bulk"], "--conn-app bulk"),
        (["--conn", "client"] + srv + ["--mode", "conn-capacity",
         "--conn-rate", "0"], "conn-rate"),
        (["--conn", "client"] + srv + ["--mode", "conn-capacity",
         "--conn-count", "5000", "--conn-concurrency", "100"],
         "--conn-concurrency 100"),
    ]
    r = connbed.refused(c, [(base + o, want) for o, want in bad])
    c.done(r)


CASES = cases.by_name(conncap_conntrack, conncap_killed, conncap_checkpoint,
                      conncap_bad)

if __name__ == "__main__":
    cases.main(CASES)
