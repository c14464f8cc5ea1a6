# SPDX-License-Identifier: BSD-3-Clause
"""The 'nginx' case of bench.py: connections per second to one nginx
(one worker process, in a network namespace made for the case, across a
veth pair), from wirerate's client (af_packet on the host end) and from
wrk (the host's kernel TCP, "Connection: close": one request a
connection), alternating runs of the same length. nginx is the limit
here, not either client: the ratio says how close wirerate's client
comes to a kernel client against the same server on the same machine,
not what wirerate's engine can do (bench_conn, two engines back to back,
says that)."""
import json
import os
import re
import statistics
import subprocess
import tempfile

from eal import eal_args

NS = "wrbn%d" % os.getpid()
HOST, PEER = "wbnh_%d" % (os.getpid() % 10000), "wbnp_%d" % (os.getpid() % 10000)
ME, KERNEL = "198.18.0.1", "198.18.0.254"
CONF = """worker_processes 1;
daemon on;
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {d}/b; proxy_temp_path {d}/p; fastcgi_temp_path {d}/f;
    uwsgi_temp_path {d}/u; scgi_temp_path {d}/s;
    server {{ listen {addr}:80 backlog=4096; location / {{ return 200 "wirerate\\n"; }} }}
}}
"""


def sh(*argv, check=True):
    return subprocess.run(list(argv), check=check, capture_output=True, text=True)


def bed_up(d):
    sh("ip", "netns", "add", NS)
    sh("ip", "link", "add", HOST, "type", "veth", "peer", "name", PEER)
    sh("ip", "link", "set", PEER, "netns", NS)
    sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % HOST)
    sh("ip", "netns", "exec", NS, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1")
    sh("ip", "link", "set", HOST, "up")
    sh("ip", "-n", NS, "link", "set", PEER, "up")
    sh("ip", "-n", NS, "addr", "add", KERNEL + "/24", "dev", PEER)
    sh("ip", "netns", "exec", NS, "ethtool", "-K", PEER, "tx", "off")
    with open(os.path.join(d, "nginx.conf"), "w") as f:
        f.write(CONF.format(d=d, addr=KERNEL))
    sh("ip", "netns", "exec", NS, "nginx", "-c", os.path.join(d, "nginx.conf"))


def bed_down(d):
    sh("ip", "netns", "exec", NS, "nginx", "-c", os.path.join(d, "nginx.conf"),
       "-s", "stop", check=False)
    sh("ip", "netns", "del", NS, check=False)
    sh("ip", "link", "del", HOST, check=False)


# Source ports of wirerate's client: each 4-tuple once per run, since
# nginx closes first and keeps each in TIME_WAIT for 60 s.
SPORTS = (20000, 65535)


def client_rate(args):
    """wirerate's rate: as many connections as there are source ports over
    the run (its pool keeps a slot in TIME_WAIT for 60 s), 20,000 a second
    at most; the Markdown says which, so a ratio near it reads as ours."""
    return int(min(20000, 0.9 * (SPORTS[1] - SPORTS[0] + 1) / args.seconds))


def run_wirerate(args, d):
    """Connections completed per second by wirerate's client."""
    path = os.path.join(d, "w.json")
    sh(args.wirerate, *eal_args(["net_af_packet0,iface=%s,qdisc_bypass=0" % HOST],
                                prefix="wrbenchn%d" % os.getpid()),
       "--", "--port-ip", "0=%s/24" % ME, "--conn", "client", "--conn-server",
       KERNEL + ":80", "--conn-concurrency", str(SPORTS[1] - SPORTS[0] + 1),
       "--conn-rate", str(client_rate(args)), "--conn-sport", "%d-%d" % SPORTS,
       "--duration", "%g" % args.seconds, "--plain", "--json", path)
    with open(path) as f:
        c = json.load(f)["connections"]
    return c["books"]["completed"] / c["duration_s"], c["books"]["failed_total"]


def run_wrk(args):
    """Requests (= connections: Connection: close) per second of wrk."""
    sh("ip", "addr", "add", ME + "/24", "dev", HOST)
    try:
        p = sh("wrk", "-t1", "-c64", "-d%ds" % max(1, int(args.seconds)), "-H",
               "Connection: close", "http://%s/" % KERNEL)
    finally:
        sh("ip", "addr", "del", ME + "/24", "dev", HOST, check=False)
    m = re.search(r"Requests/sec:\s+([\d.]+)", p.stdout)
    errs = re.search(r"Socket errors: (.*)", p.stdout)
    return float(m.group(1)) if m else 0.0, errs.group(1) if errs else ""


def nginx_cps(args, log):
    """Alternating runs; medians and their ratio."""
    d = tempfile.mkdtemp(prefix="wrbn")
    runs = {"wirerate": [], "wrk": []}
    bed_up(d)
    try:
        for i in range(args.runs):
            order = ["wirerate", "wrk"] if i % 2 == 0 else ["wrk", "wirerate"]
            for k in order:
                cps, bad = run_wirerate(args, d) if k == "wirerate" else run_wrk(args)
                runs[k].append({"cps": cps, "failed": bad})
            log("nginx run %d: wirerate %.0f CPS, wrk %.0f CPS" % (
                i + 1, runs["wirerate"][-1]["cps"], runs["wrk"][-1]["cps"]))
    finally:
        bed_down(d)
    med = {k: statistics.median(r["cps"] for r in v) for k, v in runs.items()}
    return {"case": "nginx", "runs": runs, "median_cps": med,
            "wirerate_rate": client_rate(args),
            "ratio": med["wirerate"] / med["wrk"] if med["wrk"] else None}


def markdown_nginx(t):
    return ["", "### Connections per second to nginx (one worker; nginx is the "
            "limit)", "", "| client | median CPS | runs |", "|---|---|---|"] + [
        "| %s | %.0f | %d |" % (k, t["median_cps"][k], len(t["runs"][k]))
        for k in ("wirerate", "wrk")] + [
        "", "wirerate / wrk: %s (wirerate's client paced at %d connections a "
        "second, wrk as fast as it can on 64 connections)" % (
            "%.2f" % t["ratio"] if t["ratio"] else "n/a", t["wirerate_rate"]), ""]
