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


CASES = cases.by_name(conn_nginx_post, conn_post_server)

if __name__ == "__main__":
    cases.main(CASES)
