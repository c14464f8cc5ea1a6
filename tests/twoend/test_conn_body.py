# SPDX-License-Identifier: BSD-3-Clause
"""Requests with bodies (--conn-req-body, docs/tcp.md) against the Linux
kernel, on test_conn.py's bed (wirerate's port on a veth's host end,
af_packet; the kernel in a namespace).
- conn_nginx_post: wirerate's client POSTs to nginx, which reads each
  whole body before it answers (it passes the request on to a second
  server of its own, proxy_pass) and logs, for each request, its status,
  $request_length (head and body, as nginx read them), $content_length
  and its connection's serial: figures wirerate did not make.
- conn_post_server: kernel clients POST to wirerate's server: h2load a
  file on each of its requests, curl a chunked body and a large one; each
  request answered, the server's count equal to theirs.
Usage: test_conn_body.py CASE (see CASES)."""
import json
import os
import re
import shutil
import signal
import tempfile

import cases
import wrtest
from wrtest import Checker
from test_conn import (KERNEL, ME, NGINX_TEMPS, NGINX_TOP, books, drop_bed,
                       make_bed, nginx_run, nginx_stop, nsexec, probe, serve,
                       served_doc)

# nginx reads a body whole only where it hands it on: the front server
# proxies to a back one on the namespace's loopback, which answers. The
# bodies stay in memory: nginx's workers (nobody) cannot write into the
# test's directory, and a body they cannot buffer is a 500.
NGINX_POST_CONF = NGINX_TOP + """http {{
    log_format wr '$status $request_length $content_length $connection '
                  '$request_method';
    client_max_body_size 0;
    client_body_buffer_size 16m;
""" + NGINX_TEMPS + """    server {{
        listen {addr}:80;
        access_log {d}/access.log wr;
        location / {{ proxy_pass http://127.0.0.1:8081; }}
        location /early {{ return 200 "wirerate\\n"; }}
    }}
    server {{
        listen 127.0.0.1:8081;
        access_log off;
        location / {{ return 200 "wirerate\\n"; }}
    }}
}}
"""


def post_run(c, n, reqs, body, rate, path="/"):
    """n connections of reqs POSTs of body bytes to nginx at rate a
    second, to path; every check named by its sizes. nginx answers
    /early at once and then reads the body only to skip it, which it
    does not count in request_length."""
    tag = "%d x %d x %d B to %s" % (n, reqs, body, path)
    d = tempfile.mkdtemp(prefix="wrcb")
    try:
        r, _, lines = nginx_run(d, KERNEL, conf=NGINX_POST_CONF, opts=[
            "--port-ip", "0=%s/24" % ME, "--conn-server", KERNEL + ":80",
            "--conn-count", str(n), "--conn-rate", str(rate),
            "--conn-requests", str(reqs), "--conn-req-body", str(body),
            "--conn-timeout", "20s", "--conn-path", path])
        nginx_stop(d)
        c.eq(r.rc, 0, "%s: exit code (%r)" % (tag, r.err[-300:]))
        b = books(r.doc)
        c.eq((b.get("attempted"), b.get("completed"), b.get("open")), (n, n, 0),
             "%s: attempted, completed, open" % tag)
        c.eq((b.get("reqs_sent"), b.get("resps")), (n * reqs, n * reqs),
             "%s: requests sent, answered" % tag)
        c.eq(r.doc and r.doc["connections"]["asked"].get("req_body_bytes"), body,
             "%s: the result's asked req_body_bytes" % tag)
        rows = [l.split() for l in lines]
        c.eq(len(rows), n * reqs, "%s: lines in nginx's access log" % tag)
        c.eq(sorted(set((x[0], x[2], x[4]) for x in rows)), [("200", str(body), "POST")],
             "%s: every line a POST with status 200 and Content-Length %d" % (tag, body))
        conns = {}
        for x in rows:
            conns[x[3]] = conns.get(x[3], 0) + 1
        c.eq((len(conns), set(conns.values())), (n, {reqs}),
             "%s: nginx's connections, requests on each" % tag)
        read = sum(int(x[1]) for x in rows)
        c.eq(read + (n * reqs * body if path == "/early" else 0), b.get("l7_tx_bytes"),
             "%s: bytes nginx read (request_length, heads and bodies; the "
             "bodies it skipped added) = wirerate's L7 bytes sent" % tag)
        print("nginx POST %s: %d requests logged, %d bytes read by nginx, "
              "wirerate sent %s" % (tag, len(rows), read, b.get("l7_tx_bytes")))
        return r
    finally:
        nginx_stop(d)
        shutil.rmtree(d, ignore_errors=True)


def conn_nginx_post():
    """wirerate's client to nginx: 500 connections of 2 POSTs of 10 kB
    (keep-alive, then Connection: close), then 6 connections of one POST
    of 4 MB: all completed, each request in nginx's access log with
    status 200 and its Content-Length, on as many connections as wirerate
    opened, and the bytes nginx read (request_length summed) equal
    wirerate's L7 bytes sent. Then 200 connections of 3 POSTs of 100 kB
    to a location nginx answers before it has the body: each next
    request follows the rest of the body before it (sent after its
    answer), and nginx finds every request where its length says."""
    c = Checker("conn_nginx_post")
    probe(c, "nginx", "tcpdump", "ethtool")
    make_bed()
    try:
        post_run(c, 500, 2, 10000, 1000)
        post_run(c, 6, 1, 4000000, 10)
        c.done(post_run(c, 200, 3, 100000, 500, path="/early"))
    finally:
        drop_bed()


def conn_post_server():
    """wirerate's server (answers of 100 bytes): h2load POSTs a 20 kB file
    on each of exactly 2,000 requests on 4 connections, all succeed; curl
    sends 3 chunked bodies of 50 kB on one connection, then one body of
    8 MB by Content-Length (without waiting for a 100 Continue), each
    answered 200 with the 100 bytes. The server served h2load's and
    curl's requests, no more, and took in at least their bodies."""
    c = Checker("conn_post_server")
    probe(c, "h2load", "curl", "ethtool")
    n, body = 2000, 20000
    d = tempfile.mkdtemp(prefix="wrcb")
    make_bed()
    try:
        for name, size in (("b20k", body), ("b50k", 50000), ("b8m", 8000000)):
            with open(os.path.join(d, name), "wb") as f:
                f.write(bytes(range(256)) * (size // 256) + b"x" * (size % 256))
        p, path = serve(d, 60, ["--conn-body", "100"])
        h = nsexec("h2load", "--h1", "-n", str(n), "-c", "4", "-t", "1", "-d",
                   os.path.join(d, "b20k"), "http://%s/" % ME, check=False, timeout=60)
        url = "http://%s/" % ME
        cu = nsexec("curl", "-s", "-o", "/dev/null", "-o", "/dev/null", "-o", "/dev/null",
                    "-w", "%{http_code} %{size_download}\\n",
                    "-H", "Transfer-Encoding: chunked", "--data-binary",
                    "@" + os.path.join(d, "b50k"), url, url, url, check=False, timeout=60)
        big = nsexec("curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{size_download}",
                     "-H", "Expect:", "--data-binary", "@" + os.path.join(d, "b8m"), url,
                     check=False, timeout=60)
        p.send_signal(signal.SIGINT)    # the clients are done: end the run
        rc, out, doc = served_doc(p, path, d)
        m = re.search(r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) "
                      r"succeeded, (\d+) failed, (\d+) errored", h.stdout)
        c.true(m is not None, "h2load's summary: %r" % (h.stdout + h.stderr)[-500:])
        if m:
            c.eq((int(m.group(4)), int(m.group(5)), int(m.group(6))), (n, 0, 0),
                 "h2load: succeeded, failed, errored")
        c.eq(cu.stdout.split("\n")[:3], ["200 100"] * 3,
             "curl, chunked: three answers of 200 with 100 bytes (%r)" % cu.stderr[-300:])
        c.eq(big.stdout, "200 100", "curl, 8 MB: 200 with 100 bytes (%r)" % big.stderr[-300:])
        c.eq(rc, 0, "wirerate's exit code (%r)" % out[-300:])
        b = books(doc)
        c.eq(b.get("reqs_served"), n + 4, "served = h2load's + curl's requests")
        least = n * body + 3 * 50000 + 8000000
        c.true(least < b.get("l7_rx_bytes", 0) < least + 400 * (n + 4),
               "bytes the server took in (%s): the bodies and a head each" % b.get(
                   "l7_rx_bytes"))
        c.eq((b.get("accepted"), b.get("open")), (6, 0),
             "connections accepted (h2load's 4, curl's 2), open at the end")
        print("POST to wirerate: %s; curl %r %r; served %s, took in %s bytes" % (
            m and m.group(0), cu.stdout.split(), big.stdout, b.get("reqs_served"),
            b.get("l7_rx_bytes")))
        c.done(wrtest.Result(rc, out, "", doc))
    finally:
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


# A client of raw sockets in the namespace (argv: address, connections,
# requests a connection, body bytes, pipelined GETs after each body):
# each request a POST with "Expect: 100-continue" and its head alone; the
# bytes that come back must be exactly "HTTP/1.1 100 Continue" and its
# empty line before it sends the body (and the GETs behind it); then an
# answer for each (tests/lib/rawhttp.py: the body by Content-Length, the
# next answer's head where it ends), and nothing after. Every other request does
# not wait: the body and the GETs follow the head at once, so that the
# answers can be sent while the interim is not yet acked (a resend of
# it then comes after theirs). Then one connection pipelines: a POST
# with its body and, in the same send, the head of a POST that expects a
# 100 Continue: that one must get none (an answer was due before it), so
# the body goes after 0.5 s of silence, as a client's own wait would send
# it; and so must a POST of HTTP/1.0 that sends the expectation (a server
# ignores it). Prints its counts as JSON.
EXPECT_CLIENT = r"""
import json, socket, sys
from rawhttp import Answers
addr, conns, reqs, body, gets = sys.argv[1], *map(int, sys.argv[2:6])
CONT = b"HTTP/1.1 100 Continue\r\n\r\n"
got = {"continues": 0, "answers": 0, "ok": 0, "bytes": 0, "bad": []}
def answer(a):
    status, _ = a.answer()
    got["answers"] += 1
    got["ok"] += status.startswith(b"HTTP/1.1 200 ")
for k in range(conns):
    s = socket.create_connection((addr, 80), timeout=20)
    a = Answers(s)
    for r in range(reqs):
        last = r == reqs - 1 and gets == 0
        s.sendall(b"POST /%d/%d HTTP/1.1\r\nHost: x\r\nExpect: 100-continue"
                  b"\r\nContent-Length: %d\r\nConnection: %s\r\n\r\n" % (
                      k, r, body, b"close" if last else b"keep-alive"))
        tail = b"".join(b"GET /g HTTP/1.1\r\nHost: x\r\n\r\n"
                        for _ in range(gets))
        rest = bytes(range(256)) * (body // 256) + b"x" * (body % 256) + tail
        if r % 2:
            s.sendall(rest)
        head = a.head()
        if head != CONT:
            got["bad"].append("%d/%d: %r" % (k, r, head[:80]))
            break
        got["continues"] += 1
        if r % 2 == 0:
            s.sendall(rest)
        for _ in range(1 + gets):
            answer(a)
        if a.buf:
            got["bad"].append("%d/%d: %d bytes after the answers" % (k, r, len(a.buf)))
            break
    got["bytes"] += a.nb_bytes
    s.close()
def no_interim(s, a, what):
    if a.quiet(0.5):
        s.sendall(data)
        answer(a)
    else:
        got["bad"].append("%s: %r before the body" % (what, a.buf[:80]))
    got["bytes"] += a.nb_bytes
    s.close()
data = bytes(range(256)) * (body // 256) + b"x" * (body % 256)
head = b"POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n" % body
s = socket.create_connection((addr, 80), timeout=20)
a = Answers(s)
s.sendall(head + b"\r\n" + data + head + b"Expect: 100-continue\r\n"
          b"Connection: close\r\n\r\n")
answer(a)
no_interim(s, a, "pipelined")
s = socket.create_connection((addr, 80), timeout=20)
a = Answers(s)
s.sendall(head.replace(b"HTTP/1.1", b"HTTP/1.0") +
          b"Expect: 100-continue\r\n\r\n")
no_interim(s, a, "HTTP/1.0")
print(json.dumps(got))
"""

# Every 2nd of the server's segments whose payload starts with
# "HTTP/1.1 100" (an interim, alone or with answers behind it), and every
# 25th of its others with a payload, dropped in the namespace's input:
# counted by nft, resent by wirerate's TCP.
CONT_NFT = """table inet wrcont {{
    chain in {{
        type filter hook input priority 0;
        ip saddr {me} tcp sport 80 @ih,0,96 {cont} numgen inc mod 2 == 0 counter drop comment "cont"
        ip saddr {me} tcp sport 80 @ih,0,96 != {cont} numgen inc mod 25 == 0 counter drop comment "other"
    }}
}}
"""


def conn_post_continue():
    """wirerate's server (answers of 3,000 bytes) to clients that send
    "Expect: 100-continue": curl, on one connection, 3 POSTs of 50 kB
    with its own wait for the interim set to 60 s: its verbose output
    shows a 100 Continue for each, and 200 with the body. Then a client
    of raw sockets, through nftables dropping every 2nd segment that
    starts with an interim and every 25th other: 4 connections of 8 POSTs of 2
    kB, each followed by 2 pipelined GETs; each interim arrives exactly
    before the body is sent, each answer where the one before ends; then
    a POST pipelined behind another gets no interim, nor one of
    HTTP/1.0. The
    server's count of interims equals what the clients saw, its requests
    theirs, and its L7 bytes sent what the raw client received plus
    curl's."""
    c = Checker("conn_post_continue")
    probe(c, "curl", "ethtool", "nft")
    d = tempfile.mkdtemp(prefix="wrcb")
    make_bed()
    try:
        with open(os.path.join(d, "b50k"), "wb") as f:
            f.write(bytes(range(256)) * 195 + b"x" * 80)
        with open(os.path.join(d, "drop.nft"), "w") as f:
            f.write(CONT_NFT.format(me=ME, cont="0x" + b"HTTP/1.1 100".hex()))
        nsexec("nft", "-f", os.path.join(d, "drop.nft"))
        p, path = serve(d, 90, ["--conn-body", "3000"])
        url = "http://%s/" % ME
        cu = nsexec("curl", "-v", "-s", "-o", "/dev/null", "-o", "/dev/null", "-o",
                    "/dev/null", "-w", "%{http_code} %{size_header} %{size_download}\\n",
                    "-H", "Expect: 100-continue", "--expect100-timeout", "60",
                    "--data-binary", "@" + os.path.join(d, "b50k"), url, url, url,
                    check=False, timeout=120)
        conns, reqs, gets = 4, 8, 2
        raw = nsexec("python3", "-c", EXPECT_CLIENT, ME, str(conns), str(reqs), "2000",
                     str(gets), check=False, timeout=120)
        out = nsexec("nft", "list", "table", "inet", "wrcont").stdout
        drops = {k: int(n) for n, k in re.findall(
            r'counter packets (\d+) bytes \d+ drop comment "(\w+)"', out)}
        p.send_signal(signal.SIGINT)
        rc, sout, doc = served_doc(p, path, d)
        interims = cu.stderr.count("< HTTP/1.1 100 Continue")
        rows = [l.split() for l in cu.stdout.split("\n") if l]
        c.eq((interims, [x[0] for x in rows], [x[2] for x in rows]),
             (3, ["200"] * 3, ["3000"] * 3),
             "curl: a 100 Continue for each POST, each answered 200 with "
             "3,000 bytes (%r)" % cu.stderr[-300:])
        try:
            got = json.loads(raw.stdout)
        except ValueError:
            got = {}
        n = conns * reqs
        c.eq((got.get("continues"), got.get("answers"), got.get("ok"), got.get("bad")),
             (n, n * (1 + gets) + 3, n * (1 + gets) + 3, []),
             "raw client: interims, answers, 200s, misplaced bytes (%r)" % (
                 raw.stderr[-500:]))
        c.true(drops.get("cont", 0) > 0 and drops.get("other", 0) > 0,
               "nft dropped interims and other segments (%r)" % drops)
        c.eq(rc, 0, "wirerate's exit code (%r)" % sout[-300:])
        b = books(doc)
        c.eq(b.get("continues"), 3 + n, "the server's interims = the clients'")
        c.eq(b.get("reqs_served"), 3 + n * (1 + gets) + 3,
             "served = curl's requests + the raw client's")
        rep = wrtest.sh(wrtest.WIRERATE, "report", path, check=False)
        c.true("| continues | %d |" % (3 + n) in rep.stdout,
               "report: the server's continues row (%r)" % rep.stdout[-400:])
        curl_bytes = sum(int(x[1]) + int(x[2]) for x in rows)
        c.eq(b.get("l7_tx_bytes"), got.get("bytes", 0) + curl_bytes,
             "the server's L7 bytes sent = bytes the raw client read + curl's "
             "heads and bodies")
        print("100 Continue: curl saw %d, the raw client %s, the server sent %s; "
              "nft dropped %r; L7 bytes sent %s" % (
                  interims, got.get("continues"), b.get("continues"), drops,
                  b.get("l7_tx_bytes")))
        c.done(wrtest.Result(rc, sout, "", doc))
    finally:
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


CASES = cases.by_name(conn_nginx_post, conn_post_server, conn_post_continue)

if __name__ == "__main__":
    cases.main(CASES)
