# SPDX-License-Identifier: BSD-3-Clause
"""Initial sequence numbers (RFC 6528) against the kernel's TIME_WAIT
(docs/tcp.md, "Sequence numbers and TIME_WAIT"): two client runs back to
back from the same source ports to nginx (the bed of test_conn.py).
nginx closes first, so the kernel keeps each 4-tuple in TIME_WAIT when
the second run starts; it takes a new SYN on such a tuple only if the
SYN's sequence number is above what it received (RFC 9293 3.10.7.4,
RFC 6191), and answers any other by an ACK, which the client resets.
tcpdump on the namespace's end gives each run's SYN and FIN sequence
numbers per source port, not wirerate.
Usage: test_conn_isn.py CASE (see CASES)."""
import os
import shutil
import tempfile
import time

import cases
import test_conn as tc
import wrtest
from wrtest import Checker

N = 100
SPORTS = "30000-30099"


def frames(path):
    """The capture's frames as (source, destination, flags, seq): tcpdump
    -S prints absolute sequence numbers."""
    p = wrtest.sh("tcpdump", "-S", "-nr", path, timeout=60)
    rows = []
    for line in p.stdout.splitlines():
        r = line.split()
        if "Flags" not in r or "seq" not in r:
            continue
        flags = r[r.index("Flags") + 1].strip("[],")
        seq = r[r.index("seq") + 1].rstrip(",").split(":")[0]
        rows.append((r[2], r[4].rstrip(":"), flags, int(seq)))
    return rows


def one_run(c, d, tag):
    pcap = os.path.join(d, "%s.pcap" % tag)
    td = tc.start_tcpdump(pcap)
    try:
        r = wrtest.run(tc.vdevs(), [
            "--port-ip", "0=%s/24" % tc.ME, "--conn", "client",
            "--conn-server", tc.KERNEL + ":80", "--conn-count", str(N),
            "--conn-rate", "500", "--conn-sport", SPORTS,
            "--conn-concurrency", str(N),
            "--duration", "20", "--plain"], timeout=90)
        time.sleep(0.3)
    finally:
        tc.stop_tcpdump(td)
    c.eq(r.rc, 0, "%s: exit code (%r)" % (tag, r.err[-300:]))
    b = tc.books(r.doc)
    c.eq(b.get("attempted"), N, "%s: attempted" % tag)
    c.eq(b.get("completed"), N, "%s: completed" % tag)
    c.eq(sum(b.get("failed", {"missing": 1}).values()), 0,
         "%s: failed, all classes" % tag)
    return b, frames(pcap)


def ours(rows, flag):
    """Per source port, the sequence number of wirerate's first frame
    with flag (and no ACK for a SYN)."""
    got = {}
    for src, _dst, flags, seq in rows:
        if not src.startswith(tc.ME + ".") or flag not in flags:
            continue
        if flag == "S" and "." in flags:
            continue
        got.setdefault(src.rsplit(".", 1)[1], seq)
    return got


def after(a, b):
    """RFC 9293 3.4: a after b modulo 2^32."""
    return 0 < (a - b) % (1 << 32) < (1 << 31)


def conn_isn_reuse():
    """Two runs of 100 connections from the same 100 source ports to
    nginx, back to back: on every port the second run's SYN is above the
    first run's FIN (tcpdump's numbers), nginx takes it at once (no RST
    from wirerate, no SYN sent again), every connection of both runs
    completes, and nginx's access log has a line for each."""
    c = Checker("conn_isn_reuse")
    tc.probe(c, "nginx", "tcpdump", "ethtool")
    d = tempfile.mkdtemp(prefix="wrci")
    tc.make_bed()
    try:
        with open(os.path.join(d, "nginx.conf"), "w") as f:
            f.write(tc.NGINX_CONF.format(d=d, addr=tc.KERNEL))
        tc.nsexec("nginx", "-c", os.path.join(d, "nginx.conf"))
        _b1, rows1 = one_run(c, d, "first")
        b2, rows2 = one_run(c, d, "second")
        tc.nsexec("nginx", "-c", os.path.join(d, "nginx.conf"), "-s", "stop",
                  check=False)
        fin1, syn2 = ours(rows1, "F"), ours(rows2, "S")
        c.eq(len(fin1), N, "ports with a FIN of ours in the first run")
        c.eq(len(syn2), N, "ports with a SYN of ours in the second run")
        below = sorted(p for p in syn2 if p in fin1 and
                       not after(syn2[p], fin1[p]))
        c.eq(below, [], "ports whose second SYN is not above the first FIN")
        rst2 = [r for r in rows2 if r[0].startswith(tc.ME + ".") and "R" in r[2]]
        c.eq(len(rst2), 0, "RSTs wirerate sent in the second run")
        syns2 = [r for r in rows2 if r[0].startswith(tc.ME + ".") and
                 r[2] == "S"]
        c.eq(len(syns2), N, "SYNs in the second run (none sent again)")
        c.eq(b2.get("rtx_rto_segs"), 0, "second run: RTO retransmits")
        with open(os.path.join(d, "access.log")) as f:
            c.eq(len([l for l in f if '" 200 ' in l]), 2 * N,
                 "lines with 200 in nginx's access log")
        ahead = [(syn2[p] - fin1[p]) % (1 << 32) for p in syn2 if p in fin1]
        if ahead:
            print("second SYN - first FIN, per port: min %d, max %d" % (
                min(ahead), max(ahead)))
        c.done()
    finally:
        tc.nsexec("nginx", "-c", os.path.join(d, "nginx.conf"), "-s", "stop",
                  check=False)
        tc.drop_bed()
        shutil.rmtree(d, ignore_errors=True)


CASES = cases.by_name(conn_isn_reuse)

if __name__ == "__main__":
    cases.main(CASES)
