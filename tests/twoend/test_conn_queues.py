# SPDX-License-Identifier: BSD-3-Clause
"""A connection port on two queue pairs and two workers (docs/tcp.md "On
the wire"): wirerate's port is net_tap on a tap device made for the test
(multi-queue) in a network namespace made for the test, the kernel's end
of that device with its own address; wirerate runs in the namespace too.
Server: h2load (the kernel's TCP) against wirerate's server on both
queues; its request count, and the kernel's own count of the
connections it opened (nstat), against the books of each worker and
their sum; net_tap computing the server's checksums, or not with
--conn-csum software. Refusals: a client on net_tap with two queue pairs, and a
server on af_packet with two, exit 2 before traffic naming the PMD.
Usage: test_conn_queues.py CASE (see CASES)."""
import json
import os
import re
import shutil
import subprocess
import tempfile

import cases
import wrtest
from connbed import ip, ns, probe, wait_started
from wrtest import Checker

PID = os.getpid() % 10000
NS = "wrcq%d" % os.getpid()
TAP = "wcqt_%d" % PID
HOST, PEER = "wcqh_%d" % PID, "wcqp_%d" % PID
ME, KERNEL = "198.18.0.1", "198.18.0.254"


def lcores():
    """Three lcores (the main one, two workers) on the CPUs this process
    may run on: the workers on different CPUs when there are two."""
    cpus = sorted(os.sched_getaffinity(0))
    a, b = cpus[0], cpus[1 % len(cpus)]
    return "0@%d,1@%d,2@%d" % (a, b, a if b == a or len(cpus) < 3 else cpus[2])


def wirerate_argv(vdevs, opts, path):
    """wirerate in the namespace: EAL options with three lcores."""
    eal = wrtest.eal_args(vdevs)
    i = eal.index("-l")
    eal[i:i + 2] = ["--lcores", lcores()]
    return ["ip", "netns", "exec", NS, wrtest.WIRERATE] + eal + ["--"] + opts + [
        "--json", path]


def make_tap_bed():
    """The namespace and a multi-queue tap device in it, which net_tap
    takes over (iface=); the kernel's address on it, IPv6 off."""
    ip("netns", "add", NS)
    ip("-n", NS, "link", "set", "lo", "up")
    ns(NS, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1")
    ns(NS, "sysctl", "-qw", "net.ipv6.conf.default.disable_ipv6=1")
    ip("-n", NS, "tuntap", "add", "dev", TAP, "mode", "tap", "multi_queue")
    ip("-n", NS, "addr", "add", KERNEL + "/24", "dev", TAP)
    ip("-n", NS, "link", "set", TAP, "up")


def drop_bed():
    ip("netns", "del", NS, check=False)


def nstat():
    """The kernel's TCP counters in the namespace (nstat, absolute)."""
    p = ns(NS, "nstat", "-az", "--json", check=False)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        return {}
    return doc.get("kernel", {})


def result(path):
    return wrtest.read_result(path) if os.path.exists(path) else None


H2LOAD_SUMMARY = (r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) "
                  r"succeeded, (\d+) failed, (\d+) errored")
CSUM_FIELDS = ("tcp_csum_tx_offload", "ipv4_csum_tx_offload", "tcp_csum_rx_offload")


def serve_h2load(d, opts, n, conns, seconds):
    """wirerate's server on net_tap (the bed made) with opts for seconds,
    h2load's n requests on conns connections against it: (h2load's
    summary match or None, its stdout, nstat before and after, the
    result, wirerate's output). The server is killed if it outlives
    this."""
    path, log = os.path.join(d, "s.json"), os.path.join(d, "s.out")
    with open(log, "w") as out:
        p = subprocess.Popen(wirerate_argv(["net_tap0,iface=" + TAP], [
            "--port-ip", "0=%s/24" % ME, "--conn", "server", "--conn-listen",
            "80", "--duration", str(seconds), "--plain"] + opts, path),
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        wait_started(p, log)
        before = nstat()
        h = ns(NS, "h2load", "--h1", "-n", str(n), "-c", str(conns), "-t", "1",
               "http://%s/" % ME, check=False, timeout=60)
        after = nstat()
        p.wait(timeout=seconds + 80)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    with open(log) as f:
        text = f.read()
    return (re.search(H2LOAD_SUMMARY, h.stdout), h.stdout, before, after,
            result(path), text)


def conn_queues_tap_h2load():
    """h2load (exactly 20,000 requests on 16 connections) against
    wirerate's server on net_tap with two queue pairs: all succeeded;
    both workers accepted connections; the workers' accepted add up to
    the connections the kernel opened (nstat TcpActiveOpens) and their
    requests served to h2load's succeeded, exactly; no segment reached a
    worker that did not own its connection; each worker's books add up
    to the run's. The server's TCP and IPv4 checksums are net_tap's
    offload (the kernel counts no checksum error; a wrong one would fail
    h2load's requests)."""
    c = Checker("conn_queues_tap_h2load")
    probe(c, "h2load", "nstat")
    if not wrtest.have_tun():
        c.skip("no /dev/net/tun")
        c.done()
    n, conns = 20000, 16
    d = tempfile.mkdtemp(prefix="wrcq")
    make_tap_bed()
    try:
        m, h2out, before, after, doc, text = serve_h2load(
            d, ["--txq", "2", "--rxq", "2"], n, conns, 10)
        c.true(m is not None, "h2load's summary: %r" % h2out[-500:])
        c.true("lcore 1: tx0.0 rx0.0" in text and "lcore 2: tx0.1 rx0.1" in text,
               "the plan: queue pair n on worker n (%r)" % text[:600])
        conn = doc["connections"] if doc else {}
        b = conn.get("books", {})
        qs = conn.get("queues", [])
        c.eq(sorted((q["port"], q["queue"]) for q in qs), [(0, 0), (0, 1)],
             "the result's queues")
        opened = after.get("TcpActiveOpens", 0) - before.get("TcpActiveOpens", 0)
        c.eq(opened, conns, "connections the kernel opened (h2load's -c)")
        port = (doc or {}).get("ports", [{}])[0]
        c.eq([port.get(k) for k in CSUM_FIELDS], [True] * 3,
             "net_tap's checksum offloads in use, both ways")
        c.eq(after.get("TcpInCsumErrors", 0) - before.get("TcpInCsumErrors", 0), 0,
             "segments the kernel found a bad checksum in (the PMD's sums)")
        if m:
            c.eq(int(m.group(4)), n, "h2load: succeeded")
            c.eq((int(m.group(5)), int(m.group(6))), (0, 0), "h2load: failed, errored")
            c.eq(sum(q["books"]["reqs_served"] for q in qs), int(m.group(4)),
                 "requests the workers served = h2load's succeeded")
        for q in qs:
            qb = q["books"]
            c.true(qb["accepted"] > 0, "queue %d accepted some (%d)" % (
                q["queue"], qb["accepted"]))
            c.eq(qb["rx_no_conn_segs"], 0, "queue %d: segments for no "
                 "connection of its worker" % q["queue"])
            c.eq(qb["accepted"], qb["closed"] + qb["open"], "queue %d: "
                 "accepted = closed + open" % q["queue"])
        c.eq(sum(q["books"]["accepted"] for q in qs), opened,
             "the workers' accepted = the kernel's opened")
        for k in ("accepted", "closed", "open", "reqs_served", "rx_segs", "tx_segs"):
            c.eq(sum(q["books"][k] for q in qs), b.get(k), "the workers' %s add "
                 "up to the run's" % k)
        c.eq(b.get("open"), 0, "open at the end")
        shown = re.findall(r"queue 0\.(\d) \(lcore \d+\): accepted (\d+), closed "
                           r"(\d+), failed 0, open 0; requests served (\d+)", text)
        c.eq(sorted((int(a), int(x), int(y), int(z)) for a, x, y, z in shown),
             sorted((q["queue"], q["books"]["accepted"], q["books"]["closed"],
                     q["books"]["reqs_served"]) for q in qs),
             "the summary's line per queue = the result's queues")
        print("h2load: %s; the kernel opened %d; per queue (accepted, served): "
              "%s" % (m and m.group(0), opened, [
                  (q["books"]["accepted"], q["books"]["reqs_served"]) for q in qs]))
        c.done(wrtest.Result(0 if doc else 1, text, "", doc))
    finally:
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


def conn_csum_software():
    """--conn-csum software on net_tap, whose PMD offers the checksums:
    the result's port says none was left to it, and h2load's requests
    (2,000 on 4 connections) all succeed, as many as the server served,
    the kernel counting no checksum error."""
    c = Checker("conn_csum_software")
    probe(c, "h2load", "nstat")
    if not wrtest.have_tun():
        c.skip("no /dev/net/tun")
        c.done()
    n, conns = 2000, 4
    d = tempfile.mkdtemp(prefix="wrcs")
    make_tap_bed()
    try:
        m, h2out, before, after, doc, text = serve_h2load(
            d, ["--conn-csum", "software"], n, conns, 5)
        port = (doc or {}).get("ports", [{}])[0]
        c.eq([port.get(k) for k in CSUM_FIELDS], [False] * 3,
             "no checksum left to net_tap")
        c.true(m is not None, "h2load's summary: %r" % h2out[-500:])
        served = ((doc or {}).get("connections_server") or
                  (doc or {}).get("connections") or {}).get("books", {})
        if m:
            c.eq([int(x) for x in m.group(4, 5, 6)], [n, 0, 0], "h2load: "
                 "succeeded, failed, errored")
            c.eq(served.get("reqs_served"), n, "requests the server served")
        c.eq(after.get("TcpInCsumErrors", 0) - before.get("TcpInCsumErrors", 0), 0,
             "segments the kernel found a bad checksum in")
        c.done(wrtest.Result(0 if doc else 1, text, "", doc))
    finally:
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


def refused(vdevs, opts):
    """wirerate in the namespace with opts; (exit code, stderr, result)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        r = subprocess.run(wirerate_argv(vdevs, opts, path), capture_output=True,
                           text=True, timeout=60, stdin=subprocess.DEVNULL)
        return r.returncode, r.stderr, result(path)


def conn_queues_refused():
    """Two queue pairs where the frames of a connection would not all
    reach its worker: a client on net_tap, a server on af_packet (its
    fanout hashes by a key of the kernel's). Each exits 2 before traffic
    naming the PMD and why; the kernel's end received no TCP segment
    (nstat TcpInSegs)."""
    c = Checker("conn_queues_refused")
    probe(c, "nstat")
    if not wrtest.have_tun():
        c.skip("no /dev/net/tun")
        c.done()
    make_tap_bed()
    try:
        ip("-n", NS, "link", "add", HOST, "type", "veth", "peer", "name", PEER)
        ip("-n", NS, "link", "set", HOST, "up")
        ip("-n", NS, "link", "set", PEER, "up")
        before = nstat()
        rc, err, doc = refused(["net_tap0,iface=" + TAP], [
            "--port-ip", "0=%s/24" % ME, "--conn", "client", "--conn-server",
            KERNEL + ":80", "--conn-count", "100", "--txq", "2", "--rxq", "2",
            "--duration", "5", "--plain"])
        c.eq(rc, 2, "client on net_tap: exit code (%r)" % err[-400:])
        c.true("port 0 (net_tap): a client on 2 queue pairs" in err and
               "--txq 1 --rxq 1" in err, "names the PMD, why and what to "
               "do: %r" % err[-400:])
        c.true(doc is None or not doc.get("connections"), "no connection run")
        rc, err, doc = refused(["net_af_packet0,iface=%s,qpairs=2" % HOST], [
            "--port-ip", "0=%s/24" % ME, "--conn", "server", "--conn-listen",
            "80", "--txq", "2", "--rxq", "2", "--duration", "5", "--plain"])
        c.eq(rc, 2, "server on af_packet: exit code (%r)" % err[-400:])
        c.true("port 0 (net_af_packet): a connection run on 2 queue pairs" in err,
               "names the PMD and why: %r" % err[-400:])
        c.true(doc is None or not doc.get("connections"), "no connection run")
        after = nstat()
        c.eq(after.get("TcpInSegs", 0) - before.get("TcpInSegs", 0), 0,
             "TCP segments the kernel's end received")
        c.done()
    finally:
        drop_bed()


CASES = cases.by_name(conn_queues_tap_h2load, conn_csum_software, conn_queues_refused)

if __name__ == "__main__":
    cases.main(CASES)
