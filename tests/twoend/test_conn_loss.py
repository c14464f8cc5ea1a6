# SPDX-License-Identifier: BSD-3-Clause
"""Connections against the Linux kernel when the path loses segments or
the server goes away (docs/tcp.md, "Against the kernel under loss"). The
bed of test_conn.py: wirerate's port on the host end of a veth pair
(af_packet, through the host end's qdisc), the kernel in a namespace.
The receiver of bulk runs is a small Python server in the namespace
(RECEIVER) that writes, for each connection it closes, the bytes it read,
the times of its first and last read and the longest wait between two
reads: figures wirerate did not make.
- conn_bulk_tbf: a tbf of 100 Mbit/s with a queue of eight frames shapes
  wirerate's segments on their way into the namespace (the namespace's
  end redirects what it receives to an ifb device, whose root qdisc is
  the tbf). Not on the host end's egress: there the tbf's drops stop the
  kernel's walk of af_packet's TX ring (docs/tcp.md).
- conn_bulk_drop: nftables drops 1 % of wirerate's segments at random
  (numgen) in the namespace's input chain;
- conn_server_killed: nginx killed (SIGKILL) in the middle of an HTTP run;
- conn_sack_kernel_tx: the kernel sends (nginx's large answers) through a
  router whose nftables drops 2 % of its segments at random (connbed's
  bed: a drop on the sending host's own egress is a local drop, which
  TCP sends again at once and never recovers from).
Usage: test_conn_loss.py CASE (see CASES)."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import cases
import connbed
import wrtest
from wrtest import Checker
from test_conn import (KERNEL, ME, NGINX_CONF, NS, PEER, books, drop_bed, ip,
                       make_bed, nsexec, probe, start_tcpdump, stop_tcpdump,
                       vdevs)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts", "lib"))
from tbfbed import GOODPUT_BPS, RECEIVER, TBF  # noqa: E402

BULK_PORT = 5201


def start_receiver(d):
    """The receiver in the namespace, listening on KERNEL:BULK_PORT;
    returns (process, path of its per-connection lines)."""
    path = os.path.join(d, "recv.jsonl")
    p = subprocess.Popen(["ip", "netns", "exec", NS, sys.executable, "-c", RECEIVER,
                          KERNEL, str(BULK_PORT), path], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 10
    while time.monotonic() < end and not os.path.exists(path + ".ready"):
        time.sleep(0.05)
    return p, path


def stop(p):
    """End a process this case started, by its PID."""
    if p.poll() is None:
        p.kill()
    p.wait()


def received(path):
    """The receiver's lines: one dict per connection it closed."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def bulk(n, nbytes, timeout=60):
    """wirerate's bulk client: n connections of nbytes, all at once."""
    return wrtest.run(vdevs(), [
        "--port-ip", "0=%s/24" % ME, "--conn", "client", "--conn-app", "bulk",
        "--conn-server", "%s:%d" % (KERNEL, BULK_PORT), "--conn-count", str(n),
        "--conn-concurrency", str(n), "--conn-bulk", str(nbytes),
        "--duration", "30", "--plain"], timeout=timeout)


def check_books(c, b):
    """attempted = completed + failed + open, and the result says so."""
    c.eq(b.get("attempted"), b.get("completed", 0) + b.get("failed_total", 0) +
         b.get("open", 0), "attempted = completed + failed + open")


IFB = "wcni_%d" % (os.getpid() % 10000)


def shape(argv):
    """The qdisc argv on what the namespace's end receives: its ingress
    redirected (tc mirred) to an ifb device whose root qdisc is argv."""
    ip("-n", NS, "link", "add", IFB, "type", "ifb")
    ip("-n", NS, "link", "set", IFB, "up")
    nsexec("tc", "qdisc", "add", "dev", PEER, "handle", "ffff:", "ingress")
    nsexec("tc", "filter", "add", "dev", PEER, "parent", "ffff:", "protocol", "ip",
           "u32", "match", "u32", "0", "0", "action", "mirred", "egress",
           "redirect", "dev", IFB)
    nsexec("tc", "qdisc", "add", "dev", IFB, "root", *argv)


def shaper_counts():
    """(bytes sent, frames sent, frames dropped) of the shaper, as
    tc -s qdisc reads them."""
    out = nsexec("tc", "-s", "qdisc", "show", "dev", IFB).stdout
    m = re.search(r"Sent (\d+) bytes (\d+) pkt \(dropped (\d+),", out)
    if m is None:
        raise RuntimeError("tc -s qdisc: no counters in %r" % out)
    return tuple(int(x) for x in m.groups())


def wire_segments(path):
    """wirerate's segments in the capture at path, as tcpdump reads them:
    (frames, data segments, segments sent again). A data segment is sent
    again when its data ends at or below the highest sequence its
    connection had already sent (modulo 2^32); a SYN or a FIN without
    data when the same one (connection, flag, sequence) came before."""
    p = wrtest.sh("tcpdump", "-nr", path, "-S", "src host %s and dst port %d" % (
        ME, BULK_PORT), timeout=60)
    frames, data, again, top, ctl = 0, 0, 0, {}, set()
    for l in p.stdout.splitlines():
        m = re.search(r" IP (\S+) > .*? seq (\d+):(\d+),", l)
        frames += 1 if " IP " in l else 0
        if m is None:
            m = re.search(r" IP (\S+) > .*? Flags \[([^\]]*)\], seq (\d+),", l)
            if m and ("S" in m.group(2) or "F" in m.group(2)):
                key = (m.group(1), "S" in m.group(2), m.group(3))
                again += key in ctl
                ctl.add(key)
            continue
        conn, end = m.group(1), int(m.group(3))
        data += 1
        if conn in top and (top[conn] - end) % (1 << 32) < (1 << 31):
            again += 1
        else:
            top[conn] = end
    return frames, data, again


def sender_late(path, bound_s=0.001, timer_s=0.15):
    """Seconds of the capture at path in which wirerate held an answer
    from the kernel for longer than bound_s and sent nothing: from the
    first frame of the kernel's after wirerate's last frame to
    wirerate's next one, summed over the waits longer than bound_s and
    shorter than timer_s (a longer one is a retransmission timer's: its
    floor is 200 ms). Returns (that sum, the span from wirerate's first
    data segment to its last). Time the sender lost, as tcpdump's clock
    saw it."""
    p = wrtest.sh("tcpdump", "-nr", path, "-tt", "tcp port %d" % BULK_PORT,
                  timeout=60)
    late, first, last, heard = 0.0, None, None, None
    for l in p.stdout.splitlines():
        f = l.split()
        if len(f) < 3:
            continue
        t, mine = float(f[0]), f[2].startswith(ME + ".")
        if not mine:
            heard = t if heard is None else heard
            continue
        if heard is not None and bound_s < t - heard < timer_s:
            late += t - heard
        heard = None
        if " seq " in l:
            first = t if first is None else first
            last = t
    return late, (last - first) if first is not None else 0.0


def tcpdump_lost(p):
    """Frames tcpdump said the kernel dropped before it read them (its
    summary on stderr, once it has ended)."""
    err = p.stderr.read() if p.stderr else ""
    m = re.search(r"(\d+) packets? dropped by kernel", err)
    return int(m.group(1)) if m else None


def conn_bulk_tbf():
    """2 bulk connections of 2 MB through a tbf of 100 Mbit/s with a
    queue of 8 frames: every connection completes, every byte arrives
    (the receiver's count per connection, wirerate's total), the books
    close, wirerate's retransmits are the segments tcpdump saw sent
    again (on the namespace's end, before the shaper), and what tcpdump
    saw wirerate send is what the tbf sent plus what it dropped
    (tc -s qdisc). The goodput the receiver saw, the shaper's own rate
    over the same span and the receiver's longest wait between two
    reads are printed against what the shaper lets through as payload
    (docs/tcp.md says why they are not asserted)."""
    c = Checker("conn_bulk_tbf")
    probe(c, "ethtool", "tc", "tcpdump")
    if not wrtest.have_qdisc(TBF) or not wrtest.have_link_kind(["type", "ifb"]):
        c.skip("the kernel has no tbf qdisc or no ifb device")
        c.done()
    n, nbytes = 2, 2000000
    d = tempfile.mkdtemp(prefix="wrcl")
    pcap = os.path.join(d, "wire.pcap")
    make_bed()
    rp = td = None
    try:
        shape(TBF)
        rp, path = start_receiver(d)
        td = start_tcpdump(pcap)
        r = bulk(n, nbytes)
        time.sleep(0.3)
        stop_tcpdump(td)
        tc_bytes, tc_pkts, drops = shaper_counts()
        rows = received(path)
        c.eq(r.rc, 0, "exit code (%r)" % r.err[-300:])
        b = books(r.doc)
        c.eq((b.get("attempted"), b.get("completed"), b.get("open")), (n, n, 0),
             "attempted, completed, open")
        check_books(c, b)
        c.eq(sorted(x["bytes"] for x in rows), [nbytes] * n,
             "bytes the receiver read on each connection")
        c.eq(sorted(x["end"] for x in rows), ["fin"] * n, "each ended by a FIN")
        c.eq(b.get("l7_tx_bytes"), n * nbytes, "bytes wirerate sent, once each")
        rtx = (b.get("rtx_rto_segs", 0) + b.get("rtx_fast_segs", 0) +
               b.get("rtx_probe_segs", 0))
        c.true(drops > 0, "the tbf dropped frames (%d): the queue was the limit" %
               drops)
        c.true(rtx >= drops, "retransmits (%d) cover the tbf's drops (%d)" % (
            rtx, drops))
        lost = tcpdump_lost(td)
        c.eq(lost, 0, "frames tcpdump lost")
        frames, data, again = wire_segments(pcap)
        c.eq(rtx, again, "retransmits: wirerate's count against the segments "
             "tcpdump saw sent again")
        c.eq(frames, tc_pkts + drops, "frames tcpdump saw wirerate send against "
             "the tbf's sent and dropped")
        if rows and all(x["first"] is not None for x in rows):
            span = max(x["last"] for x in rows) - min(x["first"] for x in rows)
            bps = sum(x["bytes"] for x in rows) * 8 / span
            late, sending = sender_late(pcap)
            print("tbf: goodput %.2f Mbit/s (payload at the shaper: %.2f), "
                  "the shaper sent %.2f Mbit/s over the same span, longest "
                  "wait between two reads %.3f s, tbf drops %d, data segments "
                  "%d, retransmits %d (RTO %s, fast %s, probe %s); wirerate "
                  "sat on an answer over 1 ms for %.3f s of its %.3f s of "
                  "sending" % (
                      bps / 1e6, GOODPUT_BPS / 1e6, tc_bytes * 8 / span / 1e6,
                      max(x["gap"] for x in rows), drops, data, rtx,
                      b.get("rtx_rto_segs"), b.get("rtx_fast_segs"),
                      b.get("rtx_probe_segs"), late, sending))
        c.done(r)
    finally:
        if td is not None and td.poll() is None:
            stop_tcpdump(td)
        if rp is not None:
            stop(rp)
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


NFT_RULES = """table inet {t} {{
    chain in {{
        type filter hook input priority 0;
        ip saddr {me} tcp dport {port} ip length > 100 numgen random mod 100 < 1 counter drop comment "data"
        ip saddr {me} tcp dport {port} ip length <= 100 numgen random mod 100 < 1 counter drop comment "control"
    }}
}}
"""


def nft_drops(table):
    """Packets the numgen rules dropped, by their own counters (nft list):
    {"data": segments with a payload, "control": SYN, pure ACK, FIN}.
    A dropped pure ACK is never sent again (the next segment covers it),
    so only data drops must be among the retransmits."""
    out = nsexec("nft", "list", "table", "inet", table).stdout
    got = {k: int(n) for n, k in re.findall(
        r'counter packets (\d+) bytes \d+ drop comment "(\w+)"', out)}
    if set(got) != {"data", "control"}:
        raise RuntimeError("nft: no counters in %r" % out)
    return got


def conn_bulk_drop():
    """4 bulk connections of 2 MB while nftables drops 1 % of wirerate's
    segments at random in the namespace's input chain: every connection
    ends, completed or failed with a class, none open at the end; the
    books close; each connection the receiver saw end by a FIN read
    exactly 2 MB, and they are as many as wirerate completed; every
    segment nft dropped is among wirerate's retransmits, and those are the
    segments tcpdump saw sent again on the namespace's end (before the
    input chain), SYNs and FINs included; they are within a fifth of
    nft's drops (plus 4), at most 8 of them by the RTO; the kernel
    agreed to SACK, so fast recoveries took a scoreboard."""
    c = Checker("conn_bulk_drop")
    probe(c, "ethtool", "nft", "tcpdump")
    n, nbytes = 4, 2000000
    table = "wrcl%d" % (os.getpid() % 10000)
    d = tempfile.mkdtemp(prefix="wrcl")
    pcap = os.path.join(d, "wire.pcap")
    make_bed()
    rp = td = None
    try:
        rules = os.path.join(d, "drop.nft")
        with open(rules, "w") as f:
            f.write(NFT_RULES.format(t=table, me=ME, port=BULK_PORT))
        nsexec("nft", "-f", rules)
        rp, path = start_receiver(d)
        td = start_tcpdump(pcap)
        r = bulk(n, nbytes)
        time.sleep(0.3)
        stop_tcpdump(td)
        drops = nft_drops(table)
        rows = received(path)
        c.eq(r.rc, 0, "exit code (%r)" % r.err[-300:])
        b = books(r.doc)
        c.eq(b.get("attempted"), n, "attempted")
        c.eq(b.get("open"), 0, "open at the end: none hangs")
        check_books(c, b)
        c.eq(r.doc and r.doc["connections"]["books_check"].get("closed"), True,
             "the result says the books close")
        whole = [x for x in rows if x["end"] == "fin"]
        c.eq(len(whole), b.get("completed"), "connections the receiver saw end "
             "by a FIN = completed")
        c.eq([x["bytes"] for x in whole], [nbytes] * len(whole),
             "bytes the receiver read on each")
        rtx = (b.get("rtx_rto_segs", 0) + b.get("rtx_fast_segs", 0) +
               b.get("rtx_probe_segs", 0))
        c.true(drops["data"] > 0, "nft dropped data segments (%d)" % drops["data"])
        c.true(rtx >= drops["data"], "retransmits (%d) cover nft's drops of data "
               "segments (%d)" % (rtx, drops["data"]))
        # Few resent for nothing: the kernel's duplicates (each with a
        # larger window, and SACK blocks) start fast recovery, not the
        # RTO, and a hole goes again only when its resend was lost. Runs
        # resent exactly what nft dropped; the bounds leave room for a
        # tail loss's RTO and a resend overtaken by the TX path's queue.
        bound = drops["data"] * 6 // 5 + drops["control"] + 4
        c.true(rtx <= bound, "retransmits (%d) within %d: nft dropped %d data "
               "segments" % (rtx, bound, drops["data"]))
        c.true(b.get("rtx_rto_segs", 0) <= 8, "segments resent by the RTO (%r): "
               "at most 8" % b.get("rtx_rto_segs"))
        c.eq(tcpdump_lost(td), 0, "frames tcpdump lost")
        frames, data, again = wire_segments(pcap)
        c.eq(rtx, again, "retransmits: wirerate's count against the segments "
             "tcpdump saw sent again (before nft's drops)")
        c.eq(frames, b.get("tx_segs"), "frames tcpdump saw wirerate send "
             "against its count of segments sent")
        # The kernel's SYN,ACK agreed to SACK: recoveries use a scoreboard.
        c.true(b.get("sack_recoveries", 0) > 0 and b.get("sack_refused") == 0,
               "fast recoveries with a SACK scoreboard (%r), none refused (%r)"
               % (b.get("sack_recoveries"), b.get("sack_refused")))
        print("drop: completed %s, failed %s, nft drops %s, retransmits %d (RTO "
              "%s, fast %s, probe %s; tail probes %s, SACK recoveries %s), "
              "longest wait between two reads %.3f s" % (
                  b.get("completed"), b.get("failed"), drops, rtx,
                  b.get("rtx_rto_segs"), b.get("rtx_fast_segs"),
                  b.get("rtx_probe_segs"), b.get("tail_probes"),
                  b.get("sack_recoveries"),
                  max([x["gap"] for x in rows] or [0])))
        c.done(r)
    finally:
        if td is not None and td.poll() is None:
            stop_tcpdump(td)
        if rp is not None:
            stop(rp)
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


SACK_PORT, SACK_BODY = 8080, 3000000
SACK_BED = connbed.Bed(
    "sk", http="""    log_format wrsk '$status $body_bytes_sent $bytes_sent';
    access_log {d}/access.log wrsk;
    server {{ listen %s:%d; root {d}/www; }}
""" % (connbed.SERVER, SACK_PORT))
SACK_NFT = """table inet wrsk {{
    chain drops {{
        type filter hook forward priority 0; policy accept;
        ip saddr {sv} tcp sport {port} ip length > 100 numgen random mod 100 < 2 counter drop
    }}
}}
"""


def sack_acks(path):
    """wirerate's segments in the capture at path, as tcpdump reads them
    (-S: absolute numbers): (all of them, those with SACK blocks, those
    whose blocks all lie above their own ACK number, as RFC 2018 3 says
    they must)."""
    p = wrtest.sh("tcpdump", "-nr", path, "-S", "src host %s" % connbed.ME,
                  timeout=60)
    n, sack, above = 0, 0, 0
    for l in p.stdout.splitlines():
        n += 1
        m = re.search(r"ack (\d+),.*sack \d+ ((?:\{\d+:\d+\})+)", l)
        if m is None:
            continue
        sack += 1
        ack = int(m.group(1))
        blocks = re.findall(r"\{(\d+):(\d+)\}", m.group(2))
        above += all(0 < (int(a) - ack) % (1 << 32) < (1 << 31) and
                     0 < (int(b) - int(a)) % (1 << 32) < (1 << 31)
                     for a, b in blocks)
    return n, sack, above


def nstat(ns, *names):
    """The namespace's own TCP counters (nstat, absolute, history left
    alone): {name: value}."""
    out = connbed.ns(ns, "nstat", "-asz", *names).stdout
    return {f[0]: int(f[1]) for f in (l.split() for l in out.splitlines())
            if len(f) >= 2 and f[0] in names}


def conn_sack_kernel_tx():
    """wirerate's HTTP client fetches a 3 MB file from nginx on 2
    connections while the router drops 2 % of nginx's segments: wirerate
    offers SACK-permitted, and its ACKs of out-of-order data carry SACK
    blocks (tcpdump on the router's side to wirerate: blocks above the
    ACK number); the kernel repairs the losses by SACK recovery (the
    server namespace's TcpExtTCPSackRecovery moves, TcpExtTCPRenoRecovery
    does not); every byte arrives (nginx's bytes sent in its log against
    wirerate's delivered count; each body whole) and the books close."""
    c = Checker("conn_sack_kernel_tx")
    probe(c, "nginx", "nft", "tcpdump", "nstat", "ethtool")
    n, names = 2, ("TcpExtTCPSackRecovery", "TcpExtTCPRenoRecovery",
                   "TcpRetransSegs")
    d = tempfile.mkdtemp(prefix="wrsk")
    bed, pcap, td = SACK_BED, os.path.join(d, "wire.pcap"), None
    try:
        os.makedirs(os.path.join(d, "www"))
        with open(os.path.join(d, "www", "big"), "wb") as f:
            f.write(os.urandom(SACK_BODY))
        for x in (d, os.path.join(d, "www"), os.path.join(d, "www", "big")):
            os.chmod(x, 0o755)   # nginx's worker reads it as its own user
        bed.make(d, SACK_NFT.format(sv=connbed.SERVER, port=SACK_PORT))
        td = subprocess.Popen(["ip", "netns", "exec", bed.rt, "tcpdump", "-i",
                               bed.rh, "-U", "-w", pcap, "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
        time.sleep(1)
        r = wrtest.run(bed.vdevs(), [
            "--port-ip", "0=%s/24,gw=%s" % (connbed.ME, connbed.GW), "--conn",
            "client", "--conn-server", "%s:%d" % (connbed.SERVER, SACK_PORT),
            "--conn-path", "/big", "--conn-count", str(n), "--conn-concurrency",
            str(n), "--conn-timeout", "20s", "--duration", "30", "--plain"],
            timeout=90)
        time.sleep(0.3)
        stop_tcpdump(td)
        drops = int(re.search(r"counter packets (\d+)", connbed.ns(
            bed.rt, "nft", "list", "ruleset").stdout).group(1))
        kern = nstat(bed.sv, *names)
        with open(os.path.join(d, "access.log")) as f:
            log = [l.split() for l in f if l.strip()]
        c.eq(r.rc, 0, "exit code (%r)" % r.err[-300:])
        b = books(r.doc)
        c.eq((b.get("attempted"), b.get("completed"), b.get("open")), (n, n, 0),
             "attempted, completed, open")
        check_books(c, b)
        c.eq([(x[0], int(x[1])) for x in log], [("200", SACK_BODY)] * n,
             "nginx's log: each answer 200 with the whole body")
        c.eq(b.get("l7_rx_bytes"), sum(int(x[2]) for x in log),
             "bytes wirerate delivered against the bytes nginx sent")
        c.true(drops > 0, "the router dropped nginx's segments (%d)" % drops)
        c.true(kern.get("TcpRetransSegs", 0) >= drops, "the kernel's "
               "retransmits (%s) cover the drops (%d)" % (
                   kern.get("TcpRetransSegs"), drops))
        segs, sack, above = sack_acks(pcap)
        c.true(sack > 0, "wirerate's ACKs with SACK blocks (%d of %d)" % (
            sack, segs))
        c.eq(above, sack, "ACKs whose blocks lie above their ACK number")
        c.true(kern.get("TcpExtTCPSackRecovery", 0) > 0,
               "the kernel's SACK recoveries (%s)" % kern)
        c.eq(kern.get("TcpExtTCPRenoRecovery", 0), 0, "the kernel's NewReno "
             "recoveries")
        print("sack: router drops %d, kernel %s, wirerate's segments %d, with "
              "SACK blocks %d" % (drops, kern, segs, sack))
        c.done(r)
    finally:
        if td is not None and td.poll() is None:
            stop_tcpdump(td)
        bed.drop(d)
        shutil.rmtree(d, ignore_errors=True)


def children(pid):
    """The PIDs of pid's children (/proc), nginx's workers for its master."""
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def kill_nginx(p):
    """SIGKILL to nginx's workers, then to its master (p, which this case
    started), by their PIDs."""
    for w in children(p.pid):
        try:
            os.kill(w, signal.SIGKILL)
        except ProcessLookupError:
            pass
    stop(p)


def conn_server_killed():
    """An HTTP run at 400 connections a second to nginx, nginx killed
    (SIGKILL, workers and master) 2 s in: the connections after it fail
    as refused (the kernel answers their SYN by RST), none open at the
    end, the books close exactly (connections and requests), the result
    is written and valid, and the run exits 0 (failures of the device
    are figures, not a failed run)."""
    c = Checker("conn_server_killed")
    probe(c, "nginx", "ethtool")
    d = tempfile.mkdtemp(prefix="wrcl")
    make_bed()
    ng = None
    try:
        conf = os.path.join(d, "nginx.conf")
        with open(conf, "w") as f:
            f.write(NGINX_CONF.format(d=d, addr=KERNEL).replace("daemon on;",
                                                                 "daemon off;"))
        ng = subprocess.Popen(["ip", "netns", "exec", NS, "nginx", "-c", conf],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        path = os.path.join(d, "r.json")
        argv = [wrtest.WIRERATE] + wrtest.eal_args(vdevs()) + [
            "--", "--port-ip", "0=%s/24" % ME, "--conn", "client", "--conn-server",
            KERNEL + ":80", "--conn-rate", "400", "--duration", "5",
            "--conn-timeout", "1s", "--plain", "--json", path]
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, stdin=subprocess.DEVNULL)
        time.sleep(4)
        kill_nginx(ng)
        ng = None
        try:
            out, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
        c.eq(p.returncode, 0, "exit code (%r)" % err[-300:])
        c.true(os.path.exists(path), "the result is written")
        doc = wrtest.read_result(path) if os.path.exists(path) else None
        b = books(doc)
        f = b.get("failed", {})
        with open(os.path.join(d, "access.log")) as lf:
            logged = len([l for l in lf if '" 200 ' in l])
        c.true(b.get("completed", 0) > 0, "completed before the kill")
        c.true(f.get("refused", 0) > 0, "failed as refused after the kill")
        c.eq(b.get("open"), 0, "open at the end")
        check_books(c, b)
        c.eq(b.get("resps"), b.get("completed"), "answers = completed (one GET each)")
        c.true(b.get("completed", 0) <= logged, "completed (%s) among nginx's "
               "logged answers (%d)" % (b.get("completed"), logged))
        c.eq(doc and doc["connections"]["books_check"].get("closed"), True,
             "the result says the books close")
        print("killed: attempted %s, completed %s, failed %s, nginx logged %d" % (
            b.get("attempted"), b.get("completed"), f, logged))
        c.done(wrtest.Result(p.returncode, out, err, doc))
    finally:
        if ng is not None:
            kill_nginx(ng)
        drop_bed()
        shutil.rmtree(d, ignore_errors=True)


CASES = cases.by_name(conn_bulk_tbf, conn_bulk_drop, conn_server_killed,
                      conn_sack_kernel_tx)

if __name__ == "__main__":
    cases.main(CASES)
