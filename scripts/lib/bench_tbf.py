# SPDX-License-Identifier: BSD-3-Clause
"""The conn_tbf case of bench.py: TCP bulk through a shaper with a small
queue, wirerate's TCP beside the kernel's, alternating runs. A receiver
namespace has two veth links, each shaped alike on its way in (an ifb
device whose root qdisc is a tbf of 100 Mbit/s, burst 4 kB, a queue of
eight full frames), and a small Python receiver that writes, for each
connection, the bytes it read and the times of its first and last read.
wirerate's bulk client sends on one link (af_packet on its host end); the
kernel sends on the other, from a third namespace (a Python sender, TCP
timestamps and segmentation offloads off there, so that both send frames
of 1514 bytes: 1460 of payload). A run is 2 connections of 2 MB at once.
Per sender: each run's goodput (the bytes over the receiver's span, first
read to last), the median, the runs within 5 % of the payload rate the
shaper lets through (96.43 Mbit/s), and retransmission timeouts
(wirerate's books; the kernel's TcpExtTCPTimeouts in its namespace). The
kernel's congestion control is its namespace's default, recorded."""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

from eal import eal_args, remove_runtime_dir
from tbfbed import GOODPUT_BPS, RECEIVER, TBF

TAG = os.getpid() % 10000
NS_R, NS_S = "wrbtr%d" % TAG, "wrbts%d" % TAG
HOST, PEER = "wbth_%d" % TAG, "wbtp_%d" % TAG      # wirerate's link
KS, KR = "wbks_%d" % TAG, "wbkr_%d" % TAG          # the kernel's link
ME, RCV, KME, KRCV = "198.18.0.1", "198.18.0.254", "198.20.0.1", "198.20.0.254"
PORT, CONNS, NBYTES, RUNS = 5201, 2, 2000000, 20

SENDER = r"""
import socket, sys, threading
addr, port, n, nbytes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
def one():
    s = socket.create_connection((addr, port))
    s.sendall(bytes(nbytes))
    s.shutdown(socket.SHUT_WR)
    while s.recv(1 << 16):
        pass
    s.close()
ts = [threading.Thread(target=one) for _ in range(n)]
for t in ts:
    t.start()
for t in ts:
    t.join()
"""


def sh(*argv, check=True):
    return subprocess.run(list(argv), check=check, capture_output=True, text=True)


def ns(name, *argv, check=True):
    return sh("ip", "netns", "exec", name, *argv, check=check)


def shape(dev, ifb):
    """TBF on what the receiver namespace's dev receives (through ifb)."""
    sh("ip", "-n", NS_R, "link", "add", ifb, "type", "ifb")
    sh("ip", "-n", NS_R, "link", "set", ifb, "up")
    ns(NS_R, "tc", "qdisc", "add", "dev", dev, "handle", "ffff:", "ingress")
    ns(NS_R, "tc", "filter", "add", "dev", dev, "parent", "ffff:", "protocol", "ip",
       "u32", "match", "u32", "0", "0", "action", "mirred", "egress", "redirect",
       "dev", ifb)
    ns(NS_R, "tc", "qdisc", "add", "dev", ifb, "root", *TBF)


def bed_up():
    for n in (NS_R, NS_S):
        sh("ip", "netns", "add", n)
        ns(n, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1")
        sh("ip", "-n", n, "link", "set", "lo", "up")
    sh("ip", "link", "add", HOST, "type", "veth", "peer", "name", PEER)
    sh("ip", "link", "set", PEER, "netns", NS_R)
    sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % HOST)
    sh("ip", "link", "set", HOST, "up")
    sh("ip", "-n", NS_R, "link", "add", KR, "type", "veth", "peer", "name", KS)
    sh("ip", "-n", NS_R, "link", "set", KS, "netns", NS_S)
    for n, dev, addr in ((NS_R, PEER, RCV), (NS_R, KR, KRCV), (NS_S, KS, KME)):
        sh("ip", "-n", n, "link", "set", dev, "up")
        sh("ip", "-n", n, "addr", "add", addr + "/24", "dev", dev)
        ns(n, "ethtool", "-K", dev, "tx", "off", "tso", "off", "gso", "off",
           "gro", "off", check=False)
    ns(NS_S, "sysctl", "-qw", "net.ipv4.tcp_timestamps=0")
    shape(PEER, "wbti_%d" % TAG)
    shape(KR, "wbtk_%d" % TAG)


def bed_down():
    for n in (NS_R, NS_S):
        sh("ip", "netns", "del", n, check=False)
    sh("ip", "link", "del", HOST, check=False)


def new_rows(path, seen, n, addr):
    """The receiver's lines after the first seen, once n more from addr
    are there (10 s at most): (those from addr, how many lines in all,
    those from another address: a run before this one ended late)."""
    end = time.monotonic() + 10
    rows = []
    while time.monotonic() < end:
        with open(path) as f:
            rows = [json.loads(l) for l in f if l.strip()][seen:]
        if sum(r["addr"] == addr for r in rows) >= n:
            break
        time.sleep(0.05)
    return ([r for r in rows if r["addr"] == addr], len(rows),
            sum(r["addr"] != addr for r in rows))


def goodput_bps(rows):
    if len(rows) < CONNS or any(r["first"] is None for r in rows):
        return 0.0
    span = max(r["last"] for r in rows) - min(r["first"] for r in rows)
    return sum(r["bytes"] for r in rows) * 8 / span if span > 0 else 0.0


def run_wirerate(args, d):
    """(rows, RTO expiries) of one wirerate run."""
    path, prefix = os.path.join(d, "w.json"), "wrbtbf%d" % os.getpid()
    p = sh(args.wirerate, *eal_args(["net_af_packet0,iface=%s,qdisc_bypass=0" % HOST],
                                     prefix=prefix),
           "--", "--port-ip", "0=%s/24" % ME, "--conn", "client", "--conn-app", "bulk",
           "--conn-server", "%s:%d" % (RCV, PORT), "--conn-count", str(CONNS),
           "--conn-concurrency", str(CONNS), "--conn-bulk", str(NBYTES),
           "--duration", "30", "--plain", "--json", path, check=False)
    remove_runtime_dir(prefix)
    if p.returncode != 0 or not os.path.exists(path):
        return None, p.stderr[-300:]
    with open(path) as f:
        b = json.load(f)["connections"]["books"]
    return b.get("rtx_rto_segs", 0), None


def kernel_timeouts():
    out = ns(NS_S, "nstat", "-az", "TcpExtTCPTimeouts").stdout
    m = re.search(r"TcpExtTCPTimeouts\s+(\d+)", out)
    return int(m.group(1)) if m else 0


def run_kernel(args, d):
    """(RTO expiries, error) of one kernel run."""
    t0 = kernel_timeouts()
    p = ns(NS_S, sys.executable, "-c", SENDER, KRCV, str(PORT), str(CONNS),
           str(NBYTES), check=False)
    if p.returncode != 0:
        return None, p.stderr[-300:]
    return kernel_timeouts() - t0, None


def conn_tbf(args, log):
    """Alternating runs of both senders; per sender its runs and figures."""
    d = tempfile.mkdtemp(prefix="wrbt")
    path = os.path.join(d, "recv.jsonl")
    runs = {"wirerate": [], "kernel": []}
    rp = None
    bed_up()
    try:
        rp = subprocess.Popen(["ip", "netns", "exec", NS_R, sys.executable, "-c",
                               RECEIVER, "0.0.0.0", str(PORT), path], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
        end = time.monotonic() + 10
        while time.monotonic() < end and not os.path.exists(path + ".ready"):
            time.sleep(0.05)
        seen = 0
        cc = ns(NS_S, "sysctl", "-n", "net.ipv4.tcp_congestion_control").stdout.strip()
        for i in range(RUNS):
            order = ["wirerate", "kernel"] if i % 2 == 0 else ["kernel", "wirerate"]
            for k in order:
                rto, err = (run_wirerate if k == "wirerate" else run_kernel)(args, d)
                # a failed run's lines too (its connections may end late),
                # so that none lands in the next run's
                rows, nb, stray = new_rows(path, seen, CONNS,
                                           ME if k == "wirerate" else KME)
                seen += nb
                if stray:
                    err = (err or "") + " %d lines of the other sender's" % stray
                if err is not None:
                    rows = []
                runs[k].append({"goodput_bps": goodput_bps(rows), "rto": rto,
                                "bytes": sum(r["bytes"] for r in rows), "error": err})
            log("tbf run %d: wirerate %.1f Mbit/s (RTO %s), kernel %.1f Mbit/s "
                "(RTO %s)" % (i + 1, runs["wirerate"][-1]["goodput_bps"] / 1e6,
                              runs["wirerate"][-1]["rto"],
                              runs["kernel"][-1]["goodput_bps"] / 1e6,
                              runs["kernel"][-1]["rto"]))
    finally:
        if rp is not None:
            rp.kill()
            rp.wait()
        bed_down()
    out = {"case": "conn_tbf", "runs": runs, "shaper_payload_bps": GOODPUT_BPS,
           "conns": CONNS, "bytes": NBYTES, "kernel_cc": cc, "kernel_release": os.uname().release}
    for k, v in runs.items():
        g = [r["goodput_bps"] for r in v]
        out[k] = {"median_bps": statistics.median(g),
                  "within_5pct": sum(x >= 0.95 * GOODPUT_BPS for x in g),
                  "whole": sum(r["bytes"] == CONNS * NBYTES for r in v),
                  "rto_runs": sum((r["rto"] or 0) > 0 for r in v), "runs": len(v)}
    return out


def markdown_tbf(t):
    cc = "%s, Linux %s" % (t["kernel_cc"], t["kernel_release"])
    rows = ["", "### Bulk through a tbf shaper (100 Mbit/s, a queue of 8 frames): "
            "wirerate's TCP beside the kernel's", "",
            "| sender | median goodput | runs within 5 %% of %.2f Mbit/s | runs "
            "with an RTO | runs with every byte | runs |" % (
                t["shaper_payload_bps"] / 1e6), "|---|---|---|---|---|---|"]
    for k in ("wirerate", "kernel"):
        s = t[k]
        rows.append("| %s | %.2f Mbit/s | %d | %d | %d | %d |" % (
            k, s["median_bps"] / 1e6, s["within_5pct"], s["rto_runs"], s["whole"],
            s["runs"]))
    return rows + ["", "Each run: %d connections of %d bytes at once; goodput = "
                   "bytes over the receiver's span (first read to last). The "
                   "kernel's congestion control: %s." % (t["conns"], t["bytes"], cc), ""]
