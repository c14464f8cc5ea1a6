# SPDX-License-Identifier: BSD-3-Clause
"""Connections against real TCP stacks (docs/tcp.md): wirerate's port on
the host end of a veth pair (af_packet), the Linux kernel in a network
namespace made for the test at the other end, with its own address.
Client: nginx (Debian) in the namespace, its own config and access log
in a temporary directory, one worker; every connection of wirerate's
must be in nginx's access log, and tcpdump on the namespace's end counts
the SYNs wirerate sent. Server: kernel clients (h2load, wrk) in the
namespace against wirerate's server; their request counts against the
server's. Checksum offload is off on the namespace's end: af_packet
hands the host end the kernel's frames with the TCP checksum not yet
filled in, which the engine would count as bad. The IPv6 cases
(conn_nginx6, conn_h2load6) give the namespace's end an IPv6 address as
well; each end finds the other by neighbour discovery.
Usage: test_conn.py CASE (see CASES)."""
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

import cases
import wrtest
from connbed import ip, probe, wait_started
from wrtest import Checker

PID = os.getpid() % 10000
NS = "wrcn%d" % os.getpid()
HOST = "wcnh_%d" % PID
PEER = "wcnp_%d" % PID
ME, KERNEL = "198.18.0.1", "198.18.0.254"
SYN_FILTER = "tcp[tcpflags] & tcp-syn != 0 and tcp[tcpflags] & tcp-ack == 0"

# What every nginx of these cases has (formatted with d, the case's
# directory): one worker, its pid, logs and temporary files in d.
NGINX_TOP = """worker_processes 1;
daemon on;
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{ worker_connections 4096; }}
"""
NGINX_TEMPS = """    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
"""
NGINX_CONF = NGINX_TOP + """http {{
    access_log {d}/access.log;
""" + NGINX_TEMPS + """    server {{
        listen {addr}:80;
        location / {{ return 200 "wirerate\\n"; }}
    }}
}}
"""


def nsexec(*argv, check=True, timeout=30):
    return wrtest.sh("ip", "netns", "exec", NS, *argv, check=check, timeout=timeout)


def make_bed():
    """One veth pair; the namespace's end has the kernel's address, IPv6
    off on both ends, TX checksum offload off on the kernel's end."""
    ip("netns", "add", NS)
    ip("link", "add", HOST, "type", "veth", "peer", "name", PEER)
    ip("link", "set", PEER, "netns", NS)
    wrtest.sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % HOST)
    nsexec("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1")
    ip("link", "set", HOST, "up")
    ip("-n", NS, "link", "set", "lo", "up")
    ip("-n", NS, "link", "set", PEER, "up")
    ip("-n", NS, "addr", "add", KERNEL + "/24", "dev", PEER)
    nsexec("ethtool", "-K", PEER, "tx", "off")


def drop_bed():
    ip("netns", "del", NS, check=False)
    ip("link", "del", HOST, check=False)


def vdevs():
    return ["net_af_packet0,iface=%s,qdisc_bypass=0" % HOST]


def start_tcpdump(path):
    """tcpdump writing every TCP frame of the namespace's end to path;
    returns the process once it listens. Its kernel buffer (-B, KiB)
    holds a whole bulk run's frames: on a machine whose CPUs wirerate's
    polling worker keeps busy, tcpdump may get no CPU until the run
    ends, and the default 2 MB then overflows ("dropped by kernel")."""
    p = subprocess.Popen(["ip", "netns", "exec", NS, "tcpdump", "-i", PEER, "-U",
                          "-B", "65536", "-w", path, "tcp"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 10
    while time.monotonic() < end and not os.path.exists(path):
        time.sleep(0.05)
    time.sleep(0.5)
    p.wr_path = path
    return p


def stop_tcpdump(p, quiet_s=1.2, limit_s=15):
    """Stop tcpdump once its file has not grown for quiet_s: libpcap hands
    the frames of its ring over a block at a time, a block at least once
    a second, and a SIGTERM loses those still in the ring. (A run that
    ends as soon as its connections have ended leaves tcpdump less time
    than the next interval's end did.) Without the file's path, quiet_s
    of waiting."""
    path = getattr(p, "wr_path", None)
    end = time.monotonic() + limit_s
    last, since = -1, time.monotonic()
    while path is not None and time.monotonic() < end:
        size = os.path.getsize(path) if os.path.exists(path) else 0
        if size != last:
            last, since = size, time.monotonic()
        elif time.monotonic() - since >= quiet_s:
            break
        time.sleep(0.1)
    if path is None:
        time.sleep(quiet_s)
    p.terminate()
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


def syns(path, filt=SYN_FILTER):
    """SYNs without ACK (filt: tcpdump's filter for them) in the capture
    at path, as tcpdump reads them: (all of them, distinct ones). A SYN
    sent again (RFC 6298: no answer in time, e.g. a kernel that dropped
    it under load) has the same addresses, ports and sequence number as
    the first."""
    p = wrtest.sh("tcpdump", "-nr", path, filt, timeout=60)
    rows = [l.split() for l in p.stdout.splitlines() if l.strip()]
    keys = set()
    for r in rows:
        seq = [r[i + 1] for i in range(len(r) - 1) if r[i] == "seq"]
        keys.add((r[2], r[4], seq[0] if seq else None))
    return len(rows), len(keys)


def books(doc):
    return doc["connections"]["books"] if doc and "connections" in doc else {}


def nginx_run(d, listen, opts, conf=NGINX_CONF):
    """nginx in the namespace listening on listen (conf, formatted with
    d and addr; its logs and pid in d), tcpdump on the namespace's end
    into d/syn.pcap, and wirerate's client (options opts) against it;
    nginx stays up. Returns (wirerate.Result, the capture's path, nginx's
    access log lines)."""
    with open(os.path.join(d, "nginx.conf"), "w") as f:
        f.write(conf.format(d=d, addr=listen))
    nsexec("nginx", "-c", os.path.join(d, "nginx.conf"))
    pcap = os.path.join(d, "syn.pcap")
    td = start_tcpdump(pcap)
    try:
        r = wrtest.run(vdevs(), ["--conn", "client", "--duration", "60", "--plain"] +
                       opts, timeout=150)
        time.sleep(0.5)
    finally:
        stop_tcpdump(td)
    with open(os.path.join(d, "access.log")) as f:
        lines = [l for l in f if l.strip()]
    return r, pcap, lines


def nginx_stop(d):
    nsexec("nginx", "-c", os.path.join(d, "nginx.conf"), "-s", "stop", check=False)


def conn_nginx():
    """10,000 connections of one request each to nginx: all completed;
    nginx's access log has a line for each; tcpdump counts as many SYNs
    as wirerate attempted."""
    c = Checker("conn_nginx")
    probe(c, "nginx", "tcpdump", "ethtool")
    n = 10000
    d = tempfile.mkdtemp(prefix="wrcn")
    make_bed()
    try:
        r, pcap, lines = nginx_run(d, KERNEL, [
            "--port-ip", "0=%s/24" % ME, "--conn-server", KERNEL + ":80",
            "--conn-count", str(n), "--conn-rate", "3000"])
        nginx_stop(d)
        c.eq(r.rc, 0, "exit code (%r)" % r.err[-300:])
        b = books(r.doc)
        c.eq(b.get("attempted"), n, "attempted")
        c.eq(b.get("completed"), n, "completed")
        c.eq(b.get("open"), 0, "open at the end")
        c.eq(r.doc and r.doc["connections"]["books_check"].get("closed"), True,
             "the books close")
        c.eq(len(lines), n, "lines in nginx's access log")
        c.eq(len([l for l in lines if '" 200 ' in l]), n, "of them, status 200")
        got, distinct = syns(pcap)
        c.eq(distinct, b.get("attempted"), "distinct SYNs tcpdump counted = "
             "attempted")
        c.true(0 <= got - distinct <= b.get("rtx_rto_segs", 0), "SYNs sent again "
               "(%d) are among the RTO retransmits wirerate counted (%s)" % (
                   got - distinct, b.get("rtx_rto_segs")))
        print("nginx: attempted %s, completed %s, access log %d lines, SYNs %d "
              "(%d distinct), RTO retransmits %s" % (
                  b.get("attempted"), b.get("completed"), len(lines), got,
                  distinct, b.get("rtx_rto_segs")))
        c.done(r)
    finally:
        nginx_stop(d)
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


ME6, KERNEL6 = "2001:db8:18::1", "2001:db8:18::fe"
# SYN without ACK in an IPv6 packet with no extension header (tcpdump's
# tcp[] does not reach past an IPv6 header): TCP's flags at 40 + 13.
SYN6_FILTER = "ip6 and tcp and (ip6[53] & 0x12) == 0x02"


def make_bed6():
    """make_bed's veth pair with IPv6 on the namespace's end: the kernel's
    address without duplicate detection, IPv4 and the host end as there."""
    make_bed()
    nsexec("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=0")
    nsexec("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=0" % PEER)
    ip("-n", NS, "addr", "add", KERNEL6 + "/64", "dev", PEER, "nodad")


def conn_nginx6():
    """IPv6: 2,000 connections of one request each to nginx listening on
    the namespace's IPv6 address, wirerate's port finding it by neighbour
    discovery and answering the kernel's: all completed; nginx's access
    log has a line for each, from wirerate's IPv6 address; tcpdump counts
    as many IPv6 SYNs as wirerate attempted; the kernel's neighbour table
    holds wirerate's address with the port's MAC."""
    c = Checker("conn_nginx6")
    probe(c, "nginx", "tcpdump", "ethtool")
    n = 2000
    d = tempfile.mkdtemp(prefix="wrcn")
    make_bed6()
    try:
        r, pcap, lines = nginx_run(d, "[%s]" % KERNEL6, [
            "--port-ip", "0=%s/64" % ME6, "--conn-server", "[%s]:80" % KERNEL6,
            "--conn-count", str(n), "--conn-rate", "2000"])
        neigh = wrtest.sh("ip", "-n", NS, "-6", "neigh", "show", "dev", PEER).stdout
        mac = wrtest.sh("cat", "/sys/class/net/%s/address" % HOST).stdout.strip()
        nginx_stop(d)
        c.eq(r.rc, 0, "exit code (%r)" % r.err[-300:])
        b = books(r.doc)
        c.eq((b.get("attempted"), b.get("completed"), b.get("open")), (n, n, 0),
             "attempted, completed, open at the end")
        c.eq(r.doc and r.doc["connections"].get("family"), 6, "the run's family")
        c.eq(len(lines), n, "lines in nginx's access log")
        c.eq(len([l for l in lines if l.startswith(ME6 + " ") and '" 200 ' in l]), n,
             "of them, from %s with status 200" % ME6)
        got, distinct = syns(pcap, SYN6_FILTER)
        c.eq(distinct, b.get("attempted"), "distinct IPv6 SYNs tcpdump counted = "
             "attempted")
        c.true(re.search(r"^%s lladdr %s " % (re.escape(ME6), re.escape(mac)), neigh, re.M)
               is not None, "the kernel's neighbour entry for %s is the port's MAC %s: %r"
               % (ME6, mac, neigh))
        print("nginx over IPv6: attempted %s, completed %s, access log %d lines, "
              "SYNs %d (%d distinct)" % (b.get("attempted"), b.get("completed"),
                                         len(lines), got, distinct))
        c.done(r)
    finally:
        nginx_stop(d)
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


def conn_jumbo_mss():
    """A jumbo --conn-mss sets the port up for jumbo frames, as --size
    would: the kernel interface's MTU 1500 refused naming the command
    that raises it; at MTU 9000, af_packet's default ring slots refused
    naming the framesz and blocksz to add; both exit 2 before traffic."""
    c = Checker("conn_jumbo_mss")
    probe(c, "ethtool")
    make_bed()
    try:
        opts = ["--port-ip", "0=%s/24" % ME, "--conn", "client", "--conn-server",
                KERNEL + ":80", "--conn-count", "1", "--conn-mss", "8960",
                "--duration", "1", "--plain"]
        r = wrtest.run(vdevs(), opts, timeout=60)
        c.eq(r.rc, 2, "MTU 1500: exit code (%r)" % r.err[-300:])
        c.true("has MTU 1500" in r.err and "ip link set dev %s mtu 9000" % HOST in r.err,
               "names the interface's MTU and the command: %r" % r.err[-300:])
        c.true(r.doc is None or not books(r.doc).get("attempted"), "no connection tried")
        ip("link", "set", HOST, "mtu", "9000")
        ip("-n", NS, "link", "set", PEER, "mtu", "9000")
        r = wrtest.run(vdevs(), opts, timeout=60)
        c.eq(r.rc, 2, "default ring: exit code (%r)" % r.err[-300:])
        c.true("framesz=12288,blocksz=12288" in r.err,
               "names the ring's arguments: %r" % r.err[-300:])
        c.done(r)
    finally:
        drop_bed()


def serve(d, seconds, extra=(), addr=ME + "/24"):
    """wirerate's server on the host end, at addr, for seconds (and
    options extra), in the background; returns the process once its
    first interval row is out."""
    path = os.path.join(d, "s.json")
    argv = [wrtest.WIRERATE] + wrtest.eal_args(vdevs()) + [
        "--", "--port-ip", "0=%s" % addr, "--conn", "server", "--conn-listen",
        "80", "--duration", str(seconds), "--plain", "--json", path] + list(extra)
    with open(os.path.join(d, "s.out"), "w") as out:
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL)
    wait_started(p, os.path.join(d, "s.out"))
    return p, path


def served_doc(p, path, d):
    try:
        p.wait(timeout=90)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    with open(os.path.join(d, "s.out")) as f:
        out = f.read()
    doc = wrtest.read_result(path) if os.path.exists(path) else None
    return p.returncode, out, doc


def conn_h2load():
    """h2load (HTTP/1.1, exactly 20,000 requests on 8 connections) to
    wirerate's server: all succeeded, and the server served exactly that
    many."""
    c = Checker("conn_h2load")
    probe(c, "h2load", "ethtool")
    n = 20000
    d = tempfile.mkdtemp(prefix="wrcn")
    make_bed()
    try:
        p, path = serve(d, 12)
        h = nsexec("h2load", "--h1", "-n", str(n), "-c", "8", "-t", "1",
                   "http://%s/" % ME, check=False, timeout=60)
        rc, out, doc = served_doc(p, path, d)
        m = re.search(r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) "
                      r"succeeded, (\d+) failed, (\d+) errored", h.stdout)
        c.true(m is not None, "h2load's summary: %r" % h.stdout[-500:])
        c.eq(rc, 0, "wirerate's exit code (%r)" % out[-300:])
        b = books(doc)
        if m:
            c.eq(int(m.group(4)), n, "h2load: succeeded")
            c.eq((int(m.group(5)), int(m.group(6))), (0, 0), "h2load: failed, errored")
            c.eq(b.get("reqs_served"), int(m.group(4)),
                 "served by wirerate = succeeded in h2load")
        c.eq(b.get("accepted"), 8, "connections accepted (h2load's -c)")
        c.eq(b.get("open"), 0, "open at the end")
        print("h2load: %s; wirerate served %s" % (m and m.group(0), b.get("reqs_served")))
        c.done(wrtest.Result(rc, out, "", doc))
    finally:
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


def conn_h2load6():
    """IPv6: h2load in the namespace (HTTP/1.1, exactly 5,000 requests on
    4 connections) to wirerate's server at its IPv6 address, which the
    kernel finds by neighbour discovery: all succeeded, the server served
    exactly that many, on IPv6 connections."""
    c = Checker("conn_h2load6")
    probe(c, "h2load", "ethtool")
    n = 5000
    d = tempfile.mkdtemp(prefix="wrcn")
    make_bed6()
    try:
        p, path = serve(d, 8, addr=ME6 + "/64")
        h = nsexec("h2load", "--h1", "-n", str(n), "-c", "4", "-t", "1",
                   "http://[%s]/" % ME6, check=False, timeout=60)
        rc, out, doc = served_doc(p, path, d)
        m = re.search(r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) "
                      r"succeeded, (\d+) failed, (\d+) errored", h.stdout)
        c.true(m is not None, "h2load's summary: %r" % (h.stdout + h.stderr)[-500:])
        c.eq(rc, 0, "wirerate's exit code (%r)" % out[-300:])
        b = books(doc)
        if m:
            c.eq((int(m.group(4)), int(m.group(5)), int(m.group(6))), (n, 0, 0),
                 "h2load: succeeded, failed, errored")
            c.eq(b.get("reqs_served"), int(m.group(4)),
                 "served by wirerate = succeeded in h2load")
        c.eq((b.get("accepted"), b.get("open")), (4, 0),
             "connections accepted (h2load's -c), open at the end")
        c.eq(doc and doc["connections"].get("family"), 6, "the server's family")
        print("h2load over IPv6: %s; wirerate served %s" % (
            m and m.group(0), b.get("reqs_served")))
        c.done(wrtest.Result(rc, out, "", doc))
    finally:
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


def conn_wrk():
    """wrk (3 s, 8 connections) to wirerate's server: no socket error, no
    non-2xx; wrk counts the answers it read, so the server served those
    and at most one more a connection (requests in flight when wrk
    stopped reading)."""
    c = Checker("conn_wrk")
    probe(c, "wrk", "ethtool")
    d = tempfile.mkdtemp(prefix="wrcn")
    make_bed()
    try:
        p, path = serve(d, 10)
        w = nsexec("wrk", "-t1", "-c8", "-d3s", "http://%s/" % ME, check=False,
                   timeout=60)
        rc, out, doc = served_doc(p, path, d)
        m = re.search(r"(\d+) requests in", w.stdout)
        c.true(m is not None, "wrk's summary: %r" % w.stdout[-500:])
        c.true("Socket errors" not in w.stdout, "wrk: no socket error")
        c.true("Non-2xx" not in w.stdout, "wrk: no non-2xx answer")
        c.eq(rc, 0, "wirerate's exit code (%r)" % out[-300:])
        b = books(doc)
        served = b.get("reqs_served", -1)
        if m:
            got = int(m.group(1))
            c.true(got > 0, "wrk read answers")
            c.true(got <= served <= got + 8, "served %d: wrk's %d plus at most one "
                   "in flight per connection" % (served, got))
        c.eq(b.get("open"), 0, "open at the end")
        print("wrk: %s requests; wirerate served %s" % (m and m.group(1), served))
        c.done(wrtest.Result(rc, out, "", doc))
    finally:
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


# The kernel client of conn_idle_restart: ROUND1 requests pipelined and
# their answers read (tests/lib/rawhttp.py), "round1 BYTES"; then, once a line comes on stdin
# (the shaper is in place), 1 s idle and one request more, "round2 BYTES".
IDLE_CLIENT = r"""
import socket, sys, time
from rawhttp import Answers
s = socket.create_connection((sys.argv[1], 80), timeout=20)
a = Answers(s)
req = b"GET / HTTP/1.1\r\nHost: wirerate\r\n\r\n"
def answers(n):
    total = 0
    for _ in range(n):
        status, length = a.answer()
        if b" 200 " not in status:
            sys.exit("status: %r" % status[:40])
        total += length
    return total
s.sendall(req * int(sys.argv[2]))
print("round1", answers(int(sys.argv[2])), flush=True)
sys.stdin.readline()
time.sleep(1.0)
s.sendall(req)
print("round2", answers(1), flush=True)
s.close()
"""


def first_flight(path):
    """From a capture of one connection (tcpdump -S: absolute sequence
    numbers): the data segments wirerate sent after the client's request,
    up to the first client segment that acknowledges any of that answer;
    and whether such an ACK came."""
    p = wrtest.sh("tcpdump", "-S", "-nr", path, timeout=60)
    req = False
    start = None
    n = 0
    for line in p.stdout.splitlines():
        src = re.search(r" IP ([\d.]+)\.\d+ > ", line)
        length = re.search(r"length (\d+)", line)
        if src is None or length is None:
            continue
        seq = re.search(r" seq (\d+):", line)
        ack = re.search(r" ack (\d+),", line)
        if src.group(1) != ME:
            if int(length.group(1)) > 0:
                req = True
            elif start is not None and ack is not None and \
                    0 < (int(ack.group(1)) - start) % 2**32 < 2**31:
                return n, True
        elif req and seq is not None:
            if start is None:
                start = int(seq.group(1))
            n += 1
    return n, False


def conn_idle_restart():
    """The restart window after an idle time (RFC 5681 4.1) on a kernel
    client's keep-alive connection: 30 answers of 32 segments pipelined
    grow wirerate's window; then the client's ACKs are slowed (a tbf
    shaper on the namespace's end: 8 kbit/s, a bucket of 120 bytes that
    passes the 88-byte request and holds the first 54-byte ACK back
    22 ms), the client idles 1 s (over wirerate's RTO) and asks once
    more. In tcpdump's capture, the data segments wirerate sent before
    the first ACK of the answer came back are at most the restart window
    (3 segments at MSS 1460) and one tail loss probe (its 2 ms timer may
    fire first); the old window would send all 32. The client must read
    every byte."""
    c = Checker("conn_idle_restart")
    probe(c, "tc", "tcpdump", "ethtool")
    d = tempfile.mkdtemp(prefix="wrcn")
    make_bed()
    cl = td = None
    try:
        # an answer of 32 segments at MSS 1460, the last one short; the
        # server stopped by SIGINT once the client is done
        p, path = serve(d, 30, ["--conn-body", str(32 * 1460 - 200)])
        cl = subprocess.Popen(["ip", "netns", "exec", NS, "python3", "-c",
                               IDLE_CLIENT, ME, "30"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        r1 = cl.stdout.readline().split()
        pcap = os.path.join(d, "idle.pcap")
        td = start_tcpdump(pcap)
        nsexec("tc", "qdisc", "add", "dev", PEER, "root", "tbf", "rate", "8kbit",
               "burst", "120", "limit", "30000")
        cl.stdin.write("go\n")
        cl.stdin.flush()
        try:
            rest, err = cl.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            cl.kill()
            rest, err = cl.communicate()
        r2 = rest.split()
        stop_tcpdump(td)
        td = None
        p.send_signal(signal.SIGINT)     # the client is done: stop early
        rc, sout, doc = served_doc(p, path, d)
        c.eq(cl.returncode, 0, "the client's exit code (%r)" % err[-300:])
        c.true(len(r1) == 2 and r1[0] == "round1" and len(r2) == 2 and
               r2[0] == "round2", "the client's lines: %r %r" % (r1, r2))
        n, acked = first_flight(pcap)
        c.true(acked, "the capture holds the client's first ACK of the last answer")
        c.true(1 <= n <= 4, "data segments before that ACK: %d, at most the "
               "restart window (3) and one probe" % n)
        c.eq(rc, 0, "wirerate's exit code (%r)" % sout[-300:])
        b = books(doc)
        if len(r1) == 2 and len(r2) == 2:
            c.eq(int(r2[1]) * 30, int(r1[1]), "the last answer as long as each "
                 "of the first 30")
        c.eq(b.get("reqs_served"), 31, "requests served")
        print("after 1 s idle: %d data segments before the first ACK; client "
              "read %s then %s bytes" % (n, r1[1:], r2[1:]))
        c.done(wrtest.Result(rc, sout, "", doc))
    finally:
        if cl is not None and cl.poll() is None:
            cl.kill()
        if td is not None:
            stop_tcpdump(td)
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


CASES = cases.by_name(conn_nginx, conn_nginx6, conn_h2load, conn_h2load6, conn_wrk, conn_jumbo_mss,
                      conn_idle_restart)

if __name__ == "__main__":
    cases.main(CASES)
