# SPDX-License-Identifier: BSD-3-Clause
"""A connection run's live figures (docs/tcp.md, docs/api.md,
docs/metrics.md): wirerate serve runs a connection server on the host end
of a veth pair (af_packet; the bed of test_conn.py), started, watched and
stopped through its JSON-RPC socket, while h2load in the namespace sends
a known number of requests. The figures the server's status and DPDK
telemetry's /wirerate/conn show, during the run and after h2load ended,
are compared with h2load's own counts, and the result's books with both.
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


CASES = cases.by_name(conn_serve_live)

if __name__ == "__main__":
    cases.main(CASES)
