# SPDX-License-Identifier: BSD-3-Clause
"""A connection run's live figures and its far end (docs/tcp.md, docs/api.md,
docs/metrics.md): wirerate serve runs a connection server on the host end
of a veth pair (af_packet; the bed of test_conn.py), started, watched and
stopped through its JSON-RPC socket, while h2load in the namespace sends
a known number of requests. The figures the server's status and DPDK
telemetry's /wirerate/conn show, during the run and after h2load ended,
are compared with h2load's own counts, and the result's books with both.
And a client with --peer: the far end's wirerate serve (in the namespace,
on its veth end) runs the server; its own books against the client's.
Usage: test_conn_live.py CASE (see CASES)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import cases
import test_conn as tc
import wrtest
from wrtest import Checker

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python"))
import wirerate  # noqa: E402

TELEMETRY_PY = shutil.which("dpdk-telemetry.py") or "/usr/bin/dpdk-telemetry.py"
N_REQS, N_CONNS = 30000, 4


def telemetry(prefix, cmd):
    """One telemetry command's reply through dpdk-telemetry.py, or None."""
    p = subprocess.run([sys.executable, TELEMETRY_PY, "-f", prefix],
                       input=cmd + "\n", capture_output=True, text=True, timeout=30)
    for line in p.stdout.splitlines():
        if line.strip().startswith("{"):
            return list(json.loads(line).values())[0]
    return None


def serve(d, prefix):
    """wirerate serve on the veth's host end, not in memory (so that its
    telemetry socket exists); returns (process, socket path)."""
    sock = os.path.join(d, "s.sock")
    argv = ([wrtest.WIRERATE, "serve"] +
            wrtest.eal_args(tc.vdevs(), prefix=prefix, in_memory=False) +
            ["--", "--control", sock, "--quiet"])
    p = subprocess.Popen(argv, stdout=open(os.path.join(d, "out"), "w"),
                         stderr=open(os.path.join(d, "err"), "w"))
    end = time.monotonic() + 60
    while not os.path.exists(sock) and p.poll() is None and time.monotonic() < end:
        time.sleep(0.05)
    return p, sock


def conn_serve_live():
    """A connection server started through the socket: status's live.conn
    (and telemetry's /wirerate/conn) count requests while h2load runs,
    end equal to h2load's succeeded and accepted = its connections; stop
    gives a result whose books agree."""
    c = Checker("conn_serve_live")
    tc.probe(c, "h2load", "ethtool")
    if not os.path.exists(TELEMETRY_PY):
        c.skip("dpdk-telemetry.py is not installed (dpdk package)")
        c.done()
    d = tempfile.mkdtemp(prefix="wrcl")
    prefix = "%s_cl" % wrtest.PREFIX
    tc.make_bed()
    p = None
    try:
        p, sock = serve(d, prefix)
        c.true(os.path.exists(sock), "serve's socket appears")
        cl = wirerate.Client(sock)
        cl.start({"conn": "server", "port-ip": "0=%s/24" % tc.ME,
                  "conn-listen": "80", "duration": "0", "interval": "100ms"})
        end = time.monotonic() + 30
        while cl.status()["state"] != "running" and time.monotonic() < end:
            time.sleep(0.05)
        h2 = subprocess.Popen(["ip", "netns", "exec", tc.NS, "h2load", "--h1",
                               "-n", str(N_REQS), "-c", str(N_CONNS), "-t", "1",
                               "http://%s/" % tc.ME], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        seen = []
        while h2.poll() is None:
            conn = (cl.status().get("live") or {}).get("conn") or {}
            seen.append(conn.get("reqs_served", -1))
            time.sleep(0.05)
        h_out = h2.communicate()[0]
        m = re.search(r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) "
                      r"succeeded, (\d+) failed, (\d+) errored", h_out)
        c.true(m is not None, "h2load's summary: %r" % h_out[-500:])
        ok = int(m.group(4)) if m else -1
        c.eq(ok, N_REQS, "h2load: succeeded")
        c.true(any(0 < v < N_REQS for v in seen),
               "status showed requests served while h2load ran: %s" % seen[:40])
        c.eq([a for a, b in zip(seen, seen[1:]) if b < a], [],
             "served never went back")
        time.sleep(0.4)    # a few intervals: the last copies published
        live = cl.status()["live"]["conn"]
        c.eq(live.get("role"), "server", "live.conn.role")
        c.eq(live.get("reqs_served"), ok, "live.conn.reqs_served = h2load's succeeded")
        c.eq(live.get("accepted"), N_CONNS, "live.conn.accepted = h2load's -c")
        c.eq(live.get("closed"), N_CONNS, "live.conn.closed: h2load closed them")
        c.eq(live.get("open"), 0, "live.conn.open")
        tel = telemetry(prefix, "/wirerate/conn") or {}
        c.eq(tel.get("reqs_served"), ok, "telemetry /wirerate/conn reqs_served")
        c.eq(tel.get("accepted"), N_CONNS, "telemetry /wirerate/conn accepted")
        cl.stop()
        end = time.monotonic() + 30
        while cl.status()["state"] not in ("done", "failed") and time.monotonic() < end:
            time.sleep(0.1)
        r = cl.result()
        b = tc.books(r["result"])
        c.eq(r["exit_code"], 0, "the run's exit code")
        c.eq(b.get("reqs_served"), ok, "result: served = h2load's succeeded")
        c.eq(b.get("accepted"), N_CONNS, "result: accepted")
        done = cl.status()["live"]["conn"]
        c.eq(done.get("reqs_served"), ok, "live.conn once done")
        c.true(done.get("requests_per_s", 0) > 0, "a rate over the run once done")
        cl.shutdown()
        cl.close()
        p.wait(timeout=30)
        c.done()
    finally:
        if p is not None and p.poll() is None:
            p.kill()
            p.wait()
        tc.drop_bed()
        shutil.rmtree(d, ignore_errors=True)


FAR = "198.18.0.254"


def far_serve(d, prefix, port_ip=True):
    """wirerate serve in the namespace on its veth end (the kernel's
    address removed: it would answer our segments by RST), with or
    without a --port-ip; returns (process, socket path)."""
    sock = os.path.join(d, "far.sock")
    argv = (["ip", "netns", "exec", tc.NS, wrtest.WIRERATE, "serve"] +
            wrtest.eal_args(["net_af_packet0,iface=%s" % tc.PEER], prefix=prefix) +
            ["--", "--control", sock, "--quiet"] +
            (["--port-ip", "0=%s/24" % FAR] if port_ip else []))
    p = subprocess.Popen(argv, stdout=open(os.path.join(d, "far.out"), "w"),
                         stderr=subprocess.STDOUT)
    end = time.monotonic() + 60
    while not os.path.exists(sock) and p.poll() is None and time.monotonic() < end:
        time.sleep(0.05)
    return p, sock


def far_run(c, d, extra, port_ip=True):
    """A client on the host end with --peer to a far serve; returns
    (exit code, output, result document or None)."""
    tc.make_bed()
    tc.ip("-n", tc.NS, "addr", "flush", "dev", tc.PEER)
    fp = None
    try:
        fp, sock = far_serve(d, "%s_far" % wrtest.PREFIX, port_ip)
        c.true(os.path.exists(sock), "the far serve's socket appears")
        path = os.path.join(d, "c.json")
        argv = ([wrtest.WIRERATE] + wrtest.eal_args(["net_af_packet0,iface=%s" % tc.HOST]) +
                ["--", "--conn", "client", "--port-ip", "0=%s/24" % tc.ME,
                 "--conn-server", "%s:80" % FAR, "--peer", "unix:" + sock,
                 "--json", path] + extra)
        p = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        doc = wrtest.read_result(path) if os.path.exists(path) else None
        return p.returncode, p.stdout + p.stderr, doc
    finally:
        if fp is not None:
            fp.terminate()
            try:
                fp.wait(timeout=30)
            except subprocess.TimeoutExpired:
                fp.kill()
                fp.wait()
        tc.drop_bed()


def far_books_check(c, doc, n):
    far = ((doc or {}).get("connections") or {}).get("far") or {}
    fb = (far.get("connections") or {}).get("books") or {}
    b = tc.books(doc)
    c.eq(b.get("completed"), n, "completed here")
    c.eq(fb.get("accepted"), n, "the far end's own count: accepted")
    c.eq(fb.get("closed"), n, "the far end's own count: closed")
    c.eq(far.get("judged"), True, "far.judged")
    c.eq([k["name"] for k in far.get("checks", []) if not k["ok"]], [],
         "far.checks all hold")
    return b, fb


def conn_peer_http():
    """--conn client --peer: the far end's wirerate serve runs the HTTP
    server (started, stopped and read through its socket); 2,000
    connections, each accepted, closed and served there by the far end's
    own books, the result's "far" object judged."""
    c = Checker("conn_peer_http")
    tc.probe(c)
    d = tempfile.mkdtemp(prefix="wrcp")
    try:
        rc, out, doc = far_run(c, d, ["--conn-count", "2000", "--conn-rate", "2000"])
        c.eq(rc, 0, "exit code (%s)" % out[-600:])
        b, fb = far_books_check(c, doc, 2000)
        c.eq(fb.get("reqs_served"), b.get("resps"), "served there = answers here")
        c.eq(b.get("resps"), 2000, "answers here")
        c.true("both ends' books agree" in out, "the summary says so")
        c.done(wrtest.Result(rc, out, "", doc))
    finally:
        shutil.rmtree(d, ignore_errors=True)


def conn_peer_bulk():
    """--conn client --conn-app bulk --peer: 4 connections of 20 MB to
    the far end's bulk server: every byte delivered there by its count."""
    c = Checker("conn_peer_bulk")
    tc.probe(c)
    d = tempfile.mkdtemp(prefix="wrcp")
    try:
        rc, out, doc = far_run(c, d, ["--conn-app", "bulk", "--conn-count", "4",
                                      "--conn-concurrency", "4", "--conn-bulk", "20M"])
        c.eq(rc, 0, "exit code (%s)" % out[-600:])
        b, fb = far_books_check(c, doc, 4)
        c.eq(fb.get("l7_rx_bytes"), 4 * 20000000, "bytes delivered there")
        c.eq(b.get("l7_tx_bytes"), 4 * 20000000, "bytes sent here")
        c.done(wrtest.Result(rc, out, "", doc))
    finally:
        shutil.rmtree(d, ignore_errors=True)


def conn_peer_refused():
    """A far serve with no --port-ip cannot run the server: the client
    exits 2 with the far end's reason, before any traffic; and --peer
    with --conn server is refused before EAL."""
    c = Checker("conn_peer_refused")
    tc.probe(c)
    d = tempfile.mkdtemp(prefix="wrcp")
    try:
        rc, out, doc = far_run(c, d, ["--conn-count", "10"], port_ip=False)
        c.eq(rc, 2, "exit code (%s)" % out[-600:])
        c.true("the far end refused the server's options" in out and
               "no IPv4 address" in out, "the far end's reason: %r" % out[-600:])
        c.eq(doc, None, "no result written")
        p = subprocess.run([wrtest.WIRERATE, "check", "--", "--conn", "server",
                            "--port-ip", "0=%s/24" % FAR, "--peer", "unix:/nonexistent"],
                           capture_output=True, text=True)
        c.eq(p.returncode, 2, "--peer with --conn server: exit code")
        c.true("--peer (a client's" in p.stderr, "says why: %r" % p.stderr)
        c.done()
    finally:
        shutil.rmtree(d, ignore_errors=True)


CASES = cases.by_name(conn_serve_live, conn_peer_http, conn_peer_bulk,
                      conn_peer_refused)

if __name__ == "__main__":
    cases.main(CASES)
