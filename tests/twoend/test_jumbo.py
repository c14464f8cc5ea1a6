# SPDX-License-Identifier: BSD-3-Clause
"""Jumbo frames and shapers through Linux interfaces: a Linux router in a
network namespace made for the test, joined to wirerate's two ports by
veth pairs of MTU 9000 (af_packet on the host ends; tap ports wired to
them by tc mirred). 9018-byte frames are counted against the router's own counters
(/proc/net/snmp ForwDatagrams, its interfaces' packets and bytes). A
port whose interface or ring cannot carry the frame is exit 2 naming the
command or --vdev argument that fixes it. A tbf root qdisc on a sending
af_packet interface: exit 2 unless qdisc_bypass= is given; with
qdisc_bypass=0 tc's own counters show every frame went through it.
memif: two processes, frames that fit one ring buffer (bsize=).
vhost / virtio-user: two processes, each way, receivers with buffers
smaller than the frame.
af_xdp: the largest frames a veth's XDP takes, and the two refusals
beyond them.
Usage: test_jumbo.py CASE (see CASES)."""
import json
import os
import re
import threading
import time

import cases
import twoend
import wrtest
from twoend import Bed, wait_path
from wrtest import Checker

PID = os.getpid() % 10000
NS = "wrjb%d" % os.getpid()
HOST = ["wjbh%d_%d" % (i, PID) for i in (0, 1)]
ROUTER = ["wjbr%d_%d" % (i, PID) for i in (0, 1)]
TAP = ["wjbt%d_%d" % (i, PID) for i in (0, 1)]
NETS = [("198.18.0.1", "198.18.0.254"), ("198.19.0.1", "198.19.0.254")]
AFP_JUMBO = ",framesz=12288,blocksz=12288"
COUNT = 2000


def ip(*args, check=True):
    return wrtest.sh("ip", *args, check=check)


def nsexec(*argv, check=True):
    return wrtest.sh("ip", "netns", "exec", NS, *argv, check=check)


def probe(c):
    """Skip (and end) the case when the machine cannot make namespaces."""
    if not wrtest.have_netns():
        c.skip("this process cannot create a network namespace")
        c.done()


def make_bed(mtu=9000, host_mtu=9000):
    """The router: two veth pairs of MTU mtu (host_mtu on the host ends),
    forwarding on, IPv6 off on the host ends."""
    ip("netns", "add", NS)
    for h, r in zip(HOST, ROUTER):
        ip("link", "add", h, "mtu", str(host_mtu), "type", "veth", "peer", "name", r,
           "mtu", str(mtu))
        ip("link", "set", r, "netns", NS)
        wrtest.sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % h)
        ip("link", "set", h, "up")
        ip("-n", NS, "link", "set", r, "up")
    for r, (_, gw) in zip(ROUTER, NETS):
        ip("-n", NS, "addr", "add", gw + "/24", "dev", r)
    nsexec("sysctl", "-qw", "net.ipv4.ip_forward=1")
    # The router knows the receiver's MAC from the start: while it asks,
    # it holds only ~200 kB of frames (unres_qlen_bytes), some 13 jumbo
    # frames, and a loaded machine can take longer than that to answer.
    # This case is about frame sizes; ARP is l3's (test_l3.py).
    with open("/sys/class/net/%s/address" % HOST[1]) as f:
        mac = f.read().strip()
    ip("-n", NS, "neigh", "replace", NETS[1][0], "lladdr", mac, "dev", ROUTER[1],
       "nud", "permanent")


def drop_bed():
    ip("netns", "del", NS, check=False)
    for dev in HOST + TAP:
        ip("link", "del", dev, check=False)


def afp(extra=""):
    return ["net_af_packet%d,iface=%s%s" % (i, h, extra) for i, h in enumerate(HOST)]


def opts(size=9018, count=COUNT):
    out = ["--tx-ports", "0", "--rx-ports", "1", "--rate", "2kpps", "--count",
           str(count), "--size", str(size), "--plain"]
    for i, ((a, gw), r) in enumerate(zip(NETS, ROUTER)):
        out += ["--port-ip", "%d=%s/24,gw=%s" % (i, a, gw)]
    return out


def forwarded():
    """The router's count of forwarded datagrams (its own, not wirerate's)."""
    lines = [l.split() for l in nsexec("cat", "/proc/net/snmp").stdout.splitlines()
             if l.startswith("Ip:")]
    return int(lines[1][lines[0].index("ForwDatagrams")])


def link_stats(dev):
    """(rx packets, rx bytes, tx packets, tx bytes) of the router's dev."""
    s = json.loads(nsexec("ip", "-s", "-j", "link", "show", dev).stdout)[0]["stats64"]
    return (s["rx"]["packets"], s["rx"]["bytes"], s["tx"]["packets"], s["tx"]["bytes"])


def check_counts(c, r, before, stats0, size):
    """wirerate's counts against the router's: every frame forwarded, and
    the router's interfaces moved that many frames of size - 4 bytes
    (the few others, ARP, are under 100 bytes each)."""
    c.eq(r.rc, 0, "exit code")
    if not r.doc:
        c.true(False, "a result")
        return
    s = r.doc["streams"][0]
    c.eq(s["sent_pkts"], COUNT, "frames sent")
    c.eq(s["rx_pkts"], COUNT, "frames received")
    c.eq(forwarded() - before, COUNT, "the router forwarded every frame")
    wrtest.stream_balance(c, r.doc)
    for dev, (pk, by), what in ((ROUTER[0], (0, 1), "received"),
                                (ROUTER[1], (2, 3), "sent")):
        now = link_stats(dev)
        pkts = now[pk] - stats0[dev][pk]
        nbytes = now[by] - stats0[dev][by]
        other = pkts - COUNT
        c.true(0 <= other <= 10, "router %s %s %d frames, %d of them others"
               % (dev, what, pkts, other))
        c.true(COUNT * (size - 4) <= nbytes <= COUNT * (size - 4) + 100 * other,
               "router %s %s %d bytes for %d frames of %d" % (dev, what, nbytes, COUNT,
                                                             size - 4))


def snapshot():
    return forwarded(), {d: link_stats(d) for d in ROUTER}


def jumbo_af_packet():
    """9018-byte frames over af_packet (framesz=9216) through the router
    on MTU 9000 links: every frame sent, forwarded and received, the
    router's byte counters matching."""
    c = Checker("jumbo_af_packet")
    probe(c)
    make_bed()
    try:
        before, stats0 = snapshot()
        r = wrtest.run(afp(AFP_JUMBO), opts())
        check_counts(c, r, before, stats0, 9018)
        print("af_packet: %d frames of 9018 bytes forwarded by the router" % COUNT)
    finally:
        drop_bed()
    c.done(r)


def jumbo_af_packet_errors():
    """What stands in the way, named: the ring's default framesz (the
    exact arguments to add), a blocksz that is not a multiple of framesz,
    an interface of MTU 1500 (the command that raises it). framesz=16384 with 1518-byte frames runs (RX mbufs
    sized for the ring's slots)."""
    c = Checker("jumbo_af_packet_errors")
    probe(c)
    make_bed(host_mtu=1500)
    try:
        r = wrtest.run(afp(AFP_JUMBO), opts())
        c.eq(r.rc, 2, "MTU 1500: exit code")
        want = "ip link set dev %s mtu 9000" % HOST[0]
        c.true(want in r.err and "has MTU 1500" in r.err,
               "MTU 1500: the message names %r: %r" % (want, r.err[-400:]))
        for h in HOST:
            ip("link", "set", h, "mtu", "9000")
        r = wrtest.run(afp(), opts())
        c.eq(r.rc, 2, "default framesz: exit code")
        c.true("add framesz=12288,blocksz=12288 to its --vdev" in r.err,
               "default framesz: the arguments to add: %r" % r.err[-400:])
        c.true("65535" not in r.err, "no MTU the port does not allow")
        # The PMD reads slot i at i * framesz: blocks of whole slots only.
        r = wrtest.run(afp(",framesz=9216,blocksz=16384"), opts())
        c.eq(r.rc, 2, "blocksz not a multiple of framesz: exit code")
        c.true("give framesz=12288,blocksz=12288" in r.err,
               "blocksz not a multiple of framesz: the arguments: %r" % r.err[-400:])
        before, stats0 = snapshot()
        r = wrtest.run(afp(",framesz=16384,blocksz=16384"), opts(size=1518))
        check_counts(c, r, before, stats0, 1518)
    finally:
        drop_bed()
    c.done(r)


def redirect(src, dst):
    """Every frame src receives leaves through dst (tc mirred): a wire."""
    wrtest.sh("tc", "qdisc", "add", "dev", src, "ingress")
    wrtest.sh("tc", "filter", "add", "dev", src, "ingress", "protocol", "all", "u32",
              "match", "u32", "0", "0", "action", "mirred", "egress", "redirect",
              "dev", dst)


def wire_taps(stop):
    """Join each tap wirerate makes to its host veth, once it exists, by
    tc mirred both ways (a bridge would take frames to the tap's MAC,
    which net_tap gives the kernel interface too, as its own)."""
    done = set()
    while not stop.is_set() and len(done) < 2:
        for i, t in enumerate(TAP):
            if i in done or ip("link", "set", t, "up", check=False).returncode != 0:
                continue
            redirect(t, HOST[i])
            redirect(HOST[i], t)
            done.add(i)
        time.sleep(0.02)


def jumbo_tap():
    """9018-byte frames over tap (wirerate raises its taps' MTU) wired to
    the router's MTU 9000 links: every frame forwarded and received.
    DPDK 22.11's net_tap cannot send them: exit 2 saying what it allows."""
    c = Checker("jumbo_tap")
    probe(c)
    make_bed()
    stop = threading.Event()
    try:
        before, stats0 = snapshot()
        t = threading.Thread(target=wire_taps, args=(stop,))
        t.start()
        r = wrtest.run(["net_tap%d,iface=%s" % (i, n) for i, n in enumerate(TAP)],
                       opts())
        stop.set()
        t.join()
        if os.environ.get("WR_DPDK_VERSION", "").startswith("22."):
            # net_tap of 22.11 drops frames over its ethdev MTU when
            # sending and allows that MTU 1504 (max_rx_pktlen 1522).
            c.eq(r.rc, 2, "DPDK 22.11: exit code")
            c.true("needs MTU 9000; the port allows MTU 1504 (frames of 1522 bytes)"
                   in r.err, "DPDK 22.11: what net_tap allows: %r" % r.err[-300:])
        else:
            check_counts(c, r, before, stats0, 9018)
            c.true("MTU of interface %s raised from 1500 to 9000" % TAP[0]
                   in r.out + r.err, "the note says the tap's MTU was raised")
    finally:
        stop.set()
        drop_bed()
    c.done(r)


def tbf_sent():
    """Packets the tbf on HOST[0] has sent (tc's own counter)."""
    rows = json.loads(wrtest.sh("tc", "-s", "-j", "qdisc", "show", "dev", HOST[0],
                                "root").stdout)
    return rows[0]["packets"] if rows and rows[0]["kind"] == "tbf" else None


def afp_shaper():
    """A tbf root qdisc on the sending interface: exit 2 naming
    qdisc_bypass=0 when the vdev leaves the bypass at its default; with
    qdisc_bypass=0 tc counts every frame; qdisc_bypass=1 runs and says
    the qdisc was bypassed (tc counts none)."""
    c = Checker("afp_shaper")
    probe(c)
    make_bed(mtu=1500, host_mtu=1500)
    try:
        wrtest.sh("tc", "qdisc", "add", "dev", HOST[0], "root", "tbf", "rate", "100mbit",
                  "burst", "64kb", "latency", "200ms")
        r = wrtest.run(afp(), opts(size=512))
        c.eq(r.rc, 2, "bypass by default: exit code")
        c.true("root qdisc tbf" in r.err and "qdisc_bypass=0" in r.err,
               "the message names the qdisc and the argument: %r" % r.err[-400:])
        c.eq(tbf_sent(), 0, "nothing sent before the refusal")
        before, stats0 = snapshot()
        r = wrtest.run(afp(",qdisc_bypass=0"), opts(size=512))
        check_counts(c, r, before, stats0, 512)
        got = tbf_sent()
        c.true(got is not None and got >= COUNT, "tc's tbf sent %r packets" % got)
        r = wrtest.run(afp(",qdisc_bypass=1"), opts(size=512))
        c.eq(r.rc, 0, "qdisc_bypass=1: exit code")
        c.true("root qdisc tbf of %s is bypassed" % HOST[0] in r.out + r.err,
               "qdisc_bypass=1: the note says so")
        c.true(tbf_sent() - got < 10, "qdisc_bypass=1: tc counted (almost) none")
    finally:
        drop_bed()
    c.done(r)


def memif_vdev(sock, role, extra=",bsize=16384"):
    return "net_memif0,role=%s,socket=%s,socket-abstract=no%s" % (role, sock, extra)


def jumbo_memif():
    """9018-byte frames between two processes over memif (sender the
    server, receiver the client, as test_twoend.py's memif). With the
    ring's default bsize (2048) the sender exits 2 before traffic naming
    the bsize= to add (a frame over several buffers arrives split: DPDK
    22.11 counted 14275 of 20000 frames, and 73 more than were sent).
    With bsize=16384 on both ends every frame is counted by the
    receiver, by its PMD and by `wirerate merge`."""
    c, bed = Checker("jumbo_memif"), Bed("jumbo_memif")
    sock = bed.path("memif.sock")
    r = wrtest.run([memif_vdev(sock, "server", "")],
                   ["--rx-ports", "none", "--size", "9018", "--count", "10", "--quiet"])
    c.eq(r.rc, 2, "default bsize: exit code")
    c.true("(--size) does not fit one buffer of its ring (bsize=2048, the default"
           in r.err and "add bsize=16384 to the --vdev of both ends" in r.err,
           "default bsize: the argument to add: %r" % r.err[-300:])
    n = COUNT * 10
    snd = bed.wirerate("a", [memif_vdev(sock, "server")], [
        "--rx-ports", "none", "--quiet", "--grace", "4s", "--size", "9018",
        "--rate", "20kpps", "--count", str(n), "--json", bed.path("snd.json")])
    c.true(wait_path(sock, 30), "memif server socket created")
    rcv = bed.wirerate("b", [memif_vdev(sock, "client")], [
        "--tx-ports", "none", "--start-on-rx", "--idle-timeout", "1500ms", "--quiet",
        "--size", "9018", "--json", bed.path("rcv.json")])
    m = twoend.check_pair(c, bed, snd, rcv, exact=True)
    if m:
        c.eq(m["totals"]["sent_pkts"], n, "sender sent its --count")
        c.eq(m["totals"]["rx_pkts"], n, "receiver got every frame")
    sdoc = twoend.load_json(bed.path("snd.json"))
    notes = sdoc["ports"][0]["notes"] if sdoc else []
    c.true(any("frames of 9014 bytes fit its 16384-byte buffers" in n for n in notes),
           "the sender's note says the ring holds the frame: %r" % notes)
    if c.failed:
        bed.dump()
    bed.close()
    c.done()


def vhost_leg(c, name, rcv_side, rcv_extra, rcv_size):
    """One pair of processes, 9018-byte frames from the sender; the
    receiver is rcv_side ("vhost" or "virtio"), with rcv_extra on its
    --vdev and --size rcv_size (None: the default, 1518, so its RX
    buffers are smaller than the frames). Returns the receiver's JSON."""
    bed = Bed(name)
    sock, n = bed.path("vhost.sock"), COUNT
    vh, vu = "net_vhost0,iface=%s" % sock, "net_virtio_user0,path=%s" % sock
    if rcv_side == "vhost":
        rv, sv, real, seal = vh + rcv_extra, vu, [], ["--single-file-segments"]
    else:
        rv, sv = vu + ",server=1" + rcv_extra, vh + ",client=1"
        real, seal = ["--single-file-segments"], []
    size = ["--size", str(rcv_size)] if rcv_size else []
    # virtio-user gets SIGPIPE when vhost leaves first: a vhost sender
    # lingers past the receiver's idle timeout.
    grace = "2500ms" if rcv_side == "virtio" else "500ms"
    rcv = bed.wirerate("b", [rv], [
        "--tx-ports", "none", "--start-on-rx", "--idle-timeout", "1500ms", "--quiet",
        "--json", bed.path("rcv.json")] + size, eal_extra=real)
    c.true(rcv.wait_text("waiting for the first frame", 30) if rcv_side == "vhost"
           else wait_path(sock, 30), "%s: receiver ready" % name)
    snd = bed.wirerate("a", [sv], [
        "--rx-ports", "none", "--quiet", "--grace", grace, "--size", "9018",
        "--rate", "20kpps", "--count", str(n), "--json", bed.path("snd.json")],
        eal_extra=seal)
    m = twoend.check_pair(c, bed, snd, rcv, exact=True)
    rdoc = twoend.load_json(bed.path("rcv.json"))
    sdoc = twoend.load_json(bed.path("snd.json"))
    if m and rdoc and sdoc:
        t, st = rdoc["totals"][0], sdoc["totals"][0]
        c.eq(m["totals"]["rx_pkts"], n, "%s: receiver got every frame" % name)
        c.eq(st["nic_opackets"], n, "%s: the sender's PMD sent %d" % (name, n))
        c.eq(t["rx_own_pkts"], n, "%s: every frame own (none malformed: %d)"
             % (name, t["rx_malformed_pkts"]))
        c.eq(t["rx_bytes"], n * 9018, "%s: received bytes" % name)
    if c.failed:
        bed.dump()
    bed.close()
    return rdoc


def jumbo_vhost():
    """9018-byte frames between net_vhost and net_virtio_user, each way,
    counted exactly by the receiver, its PMD, the sender's PMD and
    `wirerate merge`. Receivers left at the default --size get the frames
    over several RX buffers (vhost chains mbufs; virtio-user's mergeable
    buffers, its default) and count each one whole; with mrg_rxbuf=0
    virtio-user's buffers follow --size 9018 and a note says a frame must
    fit one."""
    c = Checker("jumbo_vhost")
    if twoend.hugepages_free() < 128:
        c.skip("virtio-user needs hugepages to share its memory with vhost")
        c.done()
    vhost_leg(c, "jumbo_vhost_rx", "vhost", "", None)
    vhost_leg(c, "jumbo_virtio_rx", "virtio", "", None)
    rdoc = vhost_leg(c, "jumbo_virtio_nomrg", "virtio", ",mrg_rxbuf=0", 9018)
    notes = rdoc["ports"][0]["notes"] if rdoc else []
    c.true(any("mrg_rxbuf=0: a received frame must fit one RX buffer of 9034 bytes"
               in x for x in notes), "mrg_rxbuf=0: the note: %r" % notes)
    c.done()


# A veth takes XDP only while its peer's MTU leaves a page for the frame
# and its headroom: 3506 with 4 KiB pages (the kernel's veth_xdp_set).
XDP_VETH_MTU = 3506


def xdp(n=2):
    return ["net_af_xdp%d,iface=%s,start_queue=0,queue_count=1" % (i, h)
            for i, h in enumerate(HOST[:n])]


def jumbo_af_xdp():
    """af_xdp on veths of the largest MTU a veth's XDP takes (3506): a
    9018-byte frame is refused (exit 2) naming the largest frame an XDP
    buffer holds here; frames of that size go through the router, counted
    against its own counters; one byte more is refused naming the same
    size; one byte of MTU more and the kernel refuses the XDP socket: exit
    1 naming the socket and the MTU, not the descriptors."""
    c = Checker("jumbo_af_xdp")
    probe(c)
    if twoend.hugepages_free() < 128:
        c.skip("af_xdp zero copy needs hugepage-backed pools")
        c.done()
    if not wrtest.have_af_xdp():
        c.skip("the kernel opens no AF_XDP socket (address family 44)")
        c.done()
    make_bed(mtu=XDP_VETH_MTU, host_mtu=XDP_VETH_MTU)
    r = None
    try:
        r = wrtest.run(xdp(), opts())
        c.eq(r.rc, 2, "9018-byte frames: exit code")
        m = re.search(r"frames of (\d+) bytes at most", r.err)
        c.true(m is not None and "af_packet" in r.err and "MTU %d" % XDP_VETH_MTU in r.err,
               "9018-byte frames: the largest frame, the veth's MTU and af_packet "
               "named: %r" % r.err[-500:])
        size = int(m.group(1)) if m else XDP_VETH_MTU + 18
        c.true(1518 < size <= XDP_VETH_MTU + 18, "the largest frame %d: a jumbo frame "
               "the veth's MTU carries" % size)
        before, stats0 = snapshot()
        r = wrtest.run(xdp(), opts(size=size))
        c.eq(r.rc, 0, "%d-byte frames: exit code (%s)" % (size, r.err[-300:]))
        s = r.doc["streams"][0] if r.doc else {}
        c.eq((s.get("sent_pkts"), s.get("rx_pkts")), (COUNT, COUNT),
             "%d-byte frames: sent and received" % size)
        c.eq(forwarded() - before, COUNT, "the router forwarded every frame")
        rx = link_stats(ROUTER[0])
        other = rx[0] - stats0[ROUTER[0]][0] - COUNT
        c.true(0 <= other <= 10 and COUNT * (size - 4) <= rx[1] - stats0[ROUTER[0]][1]
               <= COUNT * (size - 4) + 100 * other,
               "the router received %d frames of %d bytes (and %d others)"
               % (COUNT, size - 4, other))
        c.true(link_stats(ROUTER[1])[2] - stats0[ROUTER[1]][2] >= COUNT,
               "the router sent every frame on")
        r = wrtest.run(xdp(), opts(size=size + 1))
        c.true(r.rc == 2 and "frames of %d bytes at most" % size in r.err,
               "%d-byte frames: exit 2 naming %d: %r" % (size + 1, size, r.err[-300:]))
        for d in ROUTER:
            nsexec("ip", "link", "set", d, "mtu", str(XDP_VETH_MTU + 1))
        for h in HOST:
            ip("link", "set", h, "mtu", str(XDP_VETH_MTU + 1))
        r = wrtest.run(xdp(), opts(size=size))
        c.eq(r.rc, 1, "MTU %d: exit code" % (XDP_VETH_MTU + 1))
        c.true("got no XDP socket" in r.err and "MTU" in r.err and "--rxd" not in r.err,
               "MTU %d: the XDP socket named, not the descriptors: %r"
               % (XDP_VETH_MTU + 1, r.err[-400:]))
    finally:
        drop_bed()
    c.done(r)

CASES = cases.by_name(jumbo_af_packet, jumbo_af_packet_errors, jumbo_tap, afp_shaper,
                      jumbo_memif, jumbo_vhost, jumbo_af_xdp)

if __name__ == "__main__":
    cases.main(CASES)
