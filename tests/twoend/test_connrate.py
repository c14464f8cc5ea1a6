# SPDX-License-Identifier: BSD-3-Clause
"""--mode conn-rate (docs/tcp.md "Connection modes") against a device
whose connection rate is known by construction: a router namespace
between two veth pairs, wirerate's client on the host end (af_packet),
nginx in a server namespace behind the router, and in the router an
nftables rule that accepts TCP SYNs of new connections (ct state new) at
`limit rate N/second` with a small burst and drops the rest. The search
must find N within 2 %; the rule's own counters (nft list ruleset) are
the count of SYNs that passed, and nginx's access log the requests it
answered. A search SIGKILLed or stopped (SIGINT) after a finished trial
keeps its finished trials in the --json file. Bad input is refused with
exit 2 before any traffic.
Usage: test_connrate.py CASE (see CASES)."""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

import cases
import wrtest
from wrtest import Checker, load_json

PID = os.getpid() % 10000
RT = "wrcrr%d" % os.getpid()      # the router
SV = "wrcrs%d" % os.getpid()      # the server (nginx)
HOST, PEER = "wcrh_%d" % PID, "wcrp_%d" % PID    # wirerate <-> router
RT2, SRV = "wcrq_%d" % PID, "wcrs_%d" % PID      # router <-> server
ME, GW = "198.18.0.1", "198.18.0.254"
RT_S, SERVER = "198.19.0.254", "198.19.0.1"
# The device's rate: low enough for a shared 2-CPU machine to keep up.
# A token bucket of BURST lets LIMIT * T + BURST SYNs through in a trial
# of T s: evenly paced, no SYN is dropped up to LIMIT + BURST / T, 2 %
# above LIMIT with the 4 s trials of connrate_limit. The burst absorbs
# 80 ms of a loaded machine's jitter (a worker or a softirq held up).
LIMIT = 250
BURST = 20

NGINX_CONF = """worker_processes 1;
daemon on;
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{ worker_connections 4096; }}
http {{
    access_log {d}/access.log;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    server {{
        listen {addr}:80 backlog=4096;
        location / {{ return 200 "wirerate\\n"; }}
    }}
}}
"""

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


def ip(*args, check=True):
    return wrtest.sh("ip", *args, check=check)


def ns(name, *argv, check=True, timeout=30):
    return wrtest.sh("ip", "netns", "exec", name, *argv, check=check,
                     timeout=timeout)


def probe(c, *tools):
    """Skip (and end) the case when the machine cannot make namespaces or
    lacks a tool the case drives."""
    if not wrtest.have_netns():
        c.skip("this process cannot create a network namespace")
        c.done()
    for t in tools:
        if shutil.which(t) is None:
            c.skip("not installed: %s" % t)
            c.done()


def make_bed(d):
    """wirerate | HOST=PEER (router RT) RT2=SRV (server SV, nginx); the
    rule in RT. TX checksum offload off on the kernel's ends (af_packet
    would hand wirerate segments whose checksum was never filled)."""
    for n in (RT, SV):
        ip("netns", "add", n)
    ip("link", "add", HOST, "type", "veth", "peer", "name", PEER)
    ip("link", "add", RT2, "type", "veth", "peer", "name", SRV)
    ip("link", "set", PEER, "netns", RT)
    ip("link", "set", RT2, "netns", RT)
    ip("link", "set", SRV, "netns", SV)
    wrtest.sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % HOST)
    for n in (RT, SV):
        ns(n, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1")
        ip("-n", n, "link", "set", "lo", "up")
    ip("link", "set", HOST, "up")
    for n, dev, addr in ((RT, PEER, GW + "/24"), (RT, RT2, RT_S + "/24"),
                         (SV, SRV, SERVER + "/24")):
        ip("-n", n, "addr", "add", addr, "dev", dev)
        ip("-n", n, "link", "set", dev, "up")
        ns(n, "ethtool", "-K", dev, "tx", "off")
    ip("-n", SV, "route", "add", "default", "via", RT_S)
    ns(RT, "sysctl", "-qw", "net.ipv4.ip_forward=1")
    # nginx's side: no SYN cookies, a queue that holds a burst.
    ns(SV, "sysctl", "-qw", "net.ipv4.tcp_max_syn_backlog=4096")
    ns(SV, "sysctl", "-qw", "net.core.somaxconn=4096")
    with open(os.path.join(d, "nft.conf"), "w") as f:
        f.write(NFT.format(n=LIMIT, b=BURST))
    ns(RT, "nft", "-f", os.path.join(d, "nft.conf"))
    with open(os.path.join(d, "nginx.conf"), "w") as f:
        f.write(NGINX_CONF.format(d=d, addr=SERVER))
    ns(SV, "nginx", "-c", os.path.join(d, "nginx.conf"))


def drop_bed(d):
    ns(SV, "nginx", "-c", os.path.join(d, "nginx.conf"), "-s", "stop",
       check=False)
    for n in (RT, SV):
        ip("netns", "del", n, check=False)
    ip("link", "del", HOST, check=False)


def vdevs():
    return ["net_af_packet0,iface=%s,qdisc_bypass=0" % HOST]


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
        for sig, label in ((signal.SIGKILL, "running"),
                           (signal.SIGINT, "signal")):
            name = signal.Signals(sig).name
            path = os.path.join(d, "%s.json" % name)
            argv = [wrtest.WIRERATE] + wrtest.eal_args(vdevs()) + ["--"] + \
                search_opts(2 * LIMIT, "1s") + ["--checkpoint", "1s",
                                                "--json", path]
            # The log of this run only.
            open(os.path.join(d, "access.log"), "w").close()
            p = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL,
                                 stdin=subprocess.DEVNULL)
            end = time.monotonic() + 60
            doc = None
            while time.monotonic() < end and p.poll() is None:
                doc = load_json(path)
                if doc and len(doc.get("trials", [])) >= 1:
                    break
                time.sleep(0.05)
            p.send_signal(sig)
            try:
                rc = p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
                rc = p.wait()
            if sig == signal.SIGKILL:
                wrtest.eal.remove_runtime_dir(wrtest.PREFIX)
            else:
                c.eq(rc, 0, "%s: exit code" % name)
            doc = load_json(path)
            c.true(doc is not None, "%s: the --json file is there and a "
                   "valid result" % name)
            doc = doc or {}
            c.eq(doc.get("stop_reason"), label, "%s: labelled" % name)
            c.eq(doc.get("mode"), "conn-rate", "%s: mode" % name)
            trials = doc.get("trials", [])
            c.true(len(trials) >= 1, "%s: finished trials kept: %d" % (
                name, len(trials)))
            # A whole trial of 1 s measures 0.998 s; one cut short by
            # the signal sent as the next starts, a few ms.
            c.true(all(t["duration_s"] >= 0.9 for t in trials),
                   "%s: no trial cut short kept: %r" % (
                       name, [t["duration_s"] for t in trials]))
            with open(os.path.join(d, "access.log")) as f:
                lines = len([ln for ln in f if '" 200 ' in ln])
            kept = sum(t["completed"] for t in trials)
            # nginx may have answered connections of the trial cut short.
            c.true(0 < kept <= lines, "%s: completed in the kept trials "
                   "(%d) <= nginx's answers (%d)" % (name, kept, lines))
            rc, out = tool("report", path)
            c.eq(rc, 0, "%s: report accepts it: %s" % (name, out[-300:]))
            c.eq("(INCOMPLETE)" in out, sig == signal.SIGKILL,
                 "%s: report labels the file written during the run only "
                 "INCOMPLETE" % name)
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
    for opts, want in bad:
        r = wrtest.run(["net_null0"], opts, timeout=30, want_json=False)
        what = " ".join(opts[2:])
        c.eq(r.rc, 2, "%s: exit 2" % what)
        c.true(want in r.err, "%s: the message names %r: %r" % (
            what, want, r.err.strip()[-200:]))
        c.true("EAL" not in r.out + r.err, "%s: refused before EAL" % what)
    c.done()


CASES = cases.by_name(connrate_limit, connrate_killed, connrate_bad)

if __name__ == "__main__":
    cases.main(CASES)
