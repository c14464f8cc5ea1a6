# SPDX-License-Identifier: BSD-3-Clause
"""Two-ended test beds: sender and receiver (or generator and reflector) in
separate processes over every virtual path this machine offers, checked
exactly with `wirerate merge`. Each case sets up and removes its own files,
namespaces and processes. Usage: test_twoend.py CASE (see CASES)."""
import os
import re
import signal
import struct
import sys
import time

import cases
import pcapgen
import test_pcap_merge
import test_veth_methods
import twoend
import wrtest
from twoend import Bed, check_pair, hugepages_free, sh, skip, wait_path
from wrtest import Checker

# A sender in another process marks its end for the receiver by silence.
RECEIVER = ["--tx-ports", "none", "--start-on-rx", "--idle-timeout", "1500ms",
            "--quiet"]
SENDER = ["--rx-ports", "none", "--quiet", "--grace", "500ms"]
MAC_A, MAC_B = "02:00:00:00:0a:01", "02:00:00:00:0b:01"
READY = "waiting for the first frame"


def finish(c, bed):
    if c.failed:
        bed.dump()
    bed.close()
    c.done()


def memif_vdev(sock, role):
    return "net_memif0,role=%s,socket=%s,socket-abstract=no" % (role, sock)


def memif():
    """memif, two processes: the sender is the server, the receiver the
    client. DPDK 22.11's memif can crash the side still polling RX when its
    peer disconnects, so the receiver leaves first: the TX-only sender
    lingers (--grace) past the receiver's idle timeout, and a server that
    polls no RX queue is safe when the client goes. Lossless shared ring:
    every frame arrives."""
    c, bed = Checker("memif"), Bed("memif")
    sock = bed.path("memif.sock")
    snd = bed.wirerate("a", [memif_vdev(sock, "server")], SENDER + [
        "--grace", "4s", "--count", "1M", "--json", bed.path("snd.json")])
    c.true(wait_path(sock, 30), "memif server socket created")
    # Same host, invariant TSC: the receiver may time another process's frames.
    rcv = bed.wirerate("b", [memif_vdev(sock, "client")], RECEIVER + [
        "--latency", "tsc", "--json", bed.path("rcv.json")])
    m = check_pair(c, bed, snd, rcv, exact=True)
    if m:
        c.eq(m["totals"]["sent_pkts"], 1000000, "sender sent its --count")
        c.true(m["streams"][0].get("latency_mean_ns", 0) > 0,
               "one-way latency (--latency tsc) carried into the merge")
    finish(c, bed)


def check_reflect(c, bed, gen, refl, nb_streams):
    """Generator and reflector both end well and every frame is accounted
    for on the way out and on the way back, over all streams and queues."""
    rc = gen.wait(60)
    c.eq(rc, 0, "generator exit code")
    if rc != 0:
        refl.stop()     # it would wait for a first frame that never comes
    c.eq(refl.wait(60), 0, "reflector exit code")
    gd, rd = twoend.load_json(bed.path("gen.json")), twoend.load_json(bed.path("refl.json"))
    if gd is None or rd is None:
        c.true(False, "both JSON results written")
        return
    c.eq(len(gd["streams"]), nb_streams, "generator streams")
    sent, back, lost = (sum(s[k] for s in gd["streams"])
                        for k in ("sent_pkts", "rx_pkts", "lost_pkts"))
    rx, refl_pkts, unrefl, tx = (sum(t[k] for t in rd["totals"]) for k in
                                 ("rx_pkts", "reflected_pkts", "unreflected_pkts", "tx_pkts"))
    print("generator sent %d, received back %d; reflector received %d, "
          "reflected %d, could not %d" % (sent, back, rx, refl_pkts, unrefl))
    c.eq(rd["stop_reason"], "idle", "reflector stopped by --idle-timeout")
    c.true(rx > 0, "reflector received frames")
    c.eq(rx, sent, "reflector received all that was sent (lossless ring)")
    # The reflector's own PMD counters are not used: memif's counters are
    # reset when the peer leaves, and vhost's reflector leaves last.
    c.eq(rx, sum(t["nic_opackets"] for t in gd["totals"]),
         "reflector received = what the generator's PMD sent")
    c.eq(refl_pkts + unrefl, rx, "reflected + not reflected = received")
    c.eq(tx, refl_pkts, "reflector TX = reflected")
    c.eq(back, refl_pkts, "generator got back every reflected frame")
    c.eq(lost, unrefl, "generator's loss = frames the reflector could not send")
    c.true(all("latency_mean_ns" in s for s in gd["streams"]),
           "round trip latency measured")
    c.eq(rd["streams"], [], "a reflector classifies nothing")
    c.eq(rd["config"].get("rx_clock"), "any", "so any frame is its clock")
    c.eq(rd["tx_streams"], [], "a reflector generates nothing")
    wrtest.stream_balance(c, gd)


def memif_reflect():
    """A generator and a reflector over memif: what goes out comes back.
    Both poll RX, and DPDK 22.11's memif can crash a side whose peer
    disconnects while it polls: the generator stops polling, then lingers
    with its port open (--linger) until the reflector, idle, has left."""
    c, bed = Checker("memif_reflect"), Bed("memif_reflect")
    sock = bed.path("memif.sock")
    gen = bed.wirerate("a", [memif_vdev(sock, "server")], [
        "--count", "500k", "--grace", "1s", "--linger", "30s", "--quiet",
        "--json", bed.path("gen.json")])
    c.true(wait_path(sock, 30), "memif server socket created")
    refl = bed.wirerate("b", [memif_vdev(sock, "client")], [
        "--reflect", "--start-on-rx", "--idle-timeout", "1500ms", "--quiet",
        "--json", bed.path("refl.json")])
    check_reflect(c, bed, gen, refl, 1)
    c.true("--linger" not in gen.text(),
           "the generator closed once the reflector had left, not at --linger's limit")
    finish(c, bed)


def lldp_tlv(kind, value):
    return struct.pack("!H", kind << 9 | len(value)) + value


# A switch's chatter on a receiver's link (--rx-clock, docs/testbeds.md),
# 60 bytes each: an LLDP frame (chassis and port id, TTL, end) and a
# spanning-tree configuration BPDU (IEEE 802.3: a length, 39, where
# Ethernet II has its type; LLC 42 42 03).
LLDP = (bytes.fromhex("0180c200000e" "020000000001" "88cc")
        + lldp_tlv(1, b"\x04" + bytes.fromhex("020000000001"))
        + lldp_tlv(2, b"\x07eth0") + lldp_tlv(3, struct.pack("!H", 120))
        + lldp_tlv(0, b"")).ljust(60, b"\0")
STP_BPDU = (bytes.fromhex("0180c2000000" "020000000001" "0027" "424203")
            + bytes(36)).ljust(60, b"\0")
FOREIGN_PKTS, OWN_PKTS = 20, 1000
CLOCK_RX = ["--tx-ports", "none", "--start-on-rx", "--idle-timeout", "300ms",
            "--quiet"]


def clock_pcaps(bed):
    """foreign.pcap: LLDP frames and BPDUs, FOREIGN_PKTS in all; own.pcap:
    OWN_PKTS frames of stream 0 as a wirerate sender makes them (built
    independently, test_pcap_merge.expected_frame, TX timestamp 0)."""
    pcapgen.write_pcap(bed.path("foreign.pcap"), [
        (i * 10**6, STP_BPDU if i % 2 else LLDP) for i in range(FOREIGN_PKTS)])
    own = (bytes(b or 0 for b in test_pcap_merge.expected_frame(64, i))
           for i in range(OWN_PKTS))
    pcapgen.write_pcap(bed.path("own.pcap"), [(i * 10**6, f) for i, f in enumerate(own)])


def clock_counts(c, doc, port, own, what):
    """Port's frames: own as given, the rest foreign, = the PMD's ipackets."""
    t = doc["totals"][port]
    c.eq(t["rx_own_pkts"], own, "%s: own frames" % what)
    c.eq(t["rx_own_pkts"] + t["rx_foreign_pkts"], t["nic_ipackets"],
         "%s: own + foreign = the PMD's ipackets" % what)
    c.eq((t["rx_pkts"], t["rx_malformed_pkts"]), (t["nic_ipackets"], 0),
         "%s: every frame counted, none malformed" % what)


def rx_clock_start():
    """--start-on-rx on a link where only a switch talks (LLDP and BPDUs
    read by net_pcap): by default (--rx-clock own) they do not start the
    clock, so the receiver still waits for its first frame when it is
    stopped (SIGINT) five idle timeouts later; with --rx-clock any the
    first of them starts it and --idle-timeout then ends the run. Every
    frame is counted foreign, as many as the PMD's ipackets."""
    c, bed = Checker("rx_clock_start"), Bed("rx_clock_start")
    clock_pcaps(bed)
    vdev = ["net_pcap0,rx_pcap=" + bed.path("foreign.pcap")]
    rcv = bed.wirerate("a", vdev, CLOCK_RX + ["--json", bed.path("own.json")],
                       name="own")
    c.true(rcv.wait_text(READY, 30), "receiver waits for its first frame")
    time.sleep(1.5)     # the file is read at once; 300 ms would end a clock
    c.true(rcv.p.poll() is None, "default: still waiting past the idle timeout")
    rcv.p.send_signal(signal.SIGINT)
    c.eq(rcv.wait(30), 0, "default: exit code")
    doc = twoend.load_json(bed.path("own.json"))
    if doc is not None:
        c.eq(doc["config"].get("rx_clock"), "own", "default: --rx-clock own")
        c.eq(doc["stop_reason"], "signal", "default: foreign frames started no "
             "clock, so no idle timeout ended the run")
        clock_counts(c, doc, 0, 0, "default")
        c.eq(doc["totals"][0]["rx_foreign_pkts"], FOREIGN_PKTS, "default: foreign")
    rcv = bed.wirerate("a", vdev, CLOCK_RX + ["--rx-clock", "any", "--json",
                                              bed.path("any.json")], name="any")
    c.eq(rcv.wait(30), 0, "any: exit code, without a signal")
    doc = twoend.load_json(bed.path("any.json"))
    c.true(doc is not None, "both JSON results written")
    if doc is not None:
        c.eq(doc["config"].get("rx_clock"), "any", "--rx-clock any")
        c.eq(doc["stop_reason"], "idle", "any: foreign frames started the clock "
             "and the idle timeout ended the run")
        clock_counts(c, doc, 0, 0, "any")
        c.eq(doc["totals"][0]["rx_foreign_pkts"], FOREIGN_PKTS, "any: foreign")
    finish(c, bed)


def rx_clock_idle():
    """--idle-timeout 300ms with a sender's OWN_PKTS frames on port 0 and a
    switch's frames on port 1 without end (net_pcap infinite_rx), --duration
    3s: by default the timeout ends the run once the own frames stop, and
    the measured window ends at the last of them; with --rx-clock any the
    foreign frames hold the timeout off until --duration. On each port own +
    foreign = the PMD's ipackets."""
    c, bed = Checker("rx_clock_idle"), Bed("rx_clock_idle")
    clock_pcaps(bed)
    vdevs = ["net_pcap0,rx_pcap=" + bed.path("own.pcap"),
             "net_pcap1,rx_pcap=%s,infinite_rx=1" % bed.path("foreign.pcap")]
    for clock, stop in (("own", "idle"), ("any", "duration")):
        rcv = bed.wirerate("a", vdevs, CLOCK_RX + (["--rx-clock", "any"] if clock == "any"
                                                    else []) + [
            "--duration", "3s", "--json", bed.path(clock + ".json")], name=clock)
        c.eq(rcv.wait(30), 0, "%s: exit code" % clock)
        doc = twoend.load_json(bed.path(clock + ".json"))
        c.true(doc is not None, "%s: JSON result written" % clock)
        if doc is None:
            continue
        c.eq(doc["config"].get("rx_clock"), clock, "--rx-clock %s (own: the default)"
             % clock)
        c.eq(doc["stop_reason"], stop, "%s: stopped by" % clock)
        clock_counts(c, doc, 0, OWN_PKTS, "%s, port 0" % clock)
        clock_counts(c, doc, 1, 0, "%s, port 1" % clock)
        c.true(doc["totals"][1]["rx_foreign_pkts"] > FOREIGN_PKTS,
               "%s: the switch's frames kept coming" % clock)
        if clock == "own":
            c.true(doc["duration_s"] < 1.0, "own: the window is the own frames' "
                   "span (%s s), not the foreign frames'" % doc["duration_s"])
        else:
            c.true(doc["duration_s"] >= 2.9, "any: the window is --duration "
                   "(%s s)" % doc["duration_s"])
    finish(c, bed)


def vhost_pair(name):
    """vhost-user (server, exits last: virtio-user gets SIGPIPE otherwise)
    and virtio-user (--single-file-segments) with two queue pairs."""
    if hugepages_free() < 128:
        skip("virtio-user needs hugepages to share its memory with vhost")
    bed = Bed(name)
    sock = bed.path("vhost.sock")
    return bed, ("net_vhost0,iface=%s,queues=2" % sock,
                 "net_virtio_user0,path=%s,queues=2" % sock)


def vhost():
    """virtio-user sends on 2 queues, vhost-user receives on 2: two
    streams, both lossless."""
    c = Checker("vhost")
    bed, (vh, vu) = vhost_pair("vhost")
    rcv = bed.wirerate("b", [vh], RECEIVER + ["--rxq", "2", "--json", bed.path("rcv.json")])
    c.true(rcv.wait_text(READY, 30), "vhost receiver ready")
    snd = bed.wirerate("a", [vu], SENDER + ["--txq", "2", "--count", "1M",
                                             "--json", bed.path("snd.json")],
                       eal_extra=["--single-file-segments"])
    m = check_pair(c, bed, snd, rcv, exact=True)
    if m:
        c.eq(sorted((s["stream_id"], s["sent_pkts"]) for s in m["streams"]),
             [(0, 500000), (1, 500000)], "two streams, --count split exactly")
    finish(c, bed)


def vhost_reflect():
    """virtio-user generates on 2 queues, vhost-user reflects each RX queue
    on its own TX queue: two streams go out and come back."""
    c = Checker("vhost_reflect")
    bed, (vh, vu) = vhost_pair("vhost_reflect")
    refl = bed.wirerate("b", [vh], ["--reflect", "--rxq", "2", "--start-on-rx",
                                    "--idle-timeout", "1500ms", "--quiet",
                                    "--json", bed.path("refl.json")])
    c.true(refl.wait_text(READY, 30), "vhost reflector ready")
    gen = bed.wirerate("a", [vu], ["--txq", "2", "--rxq", "2", "--count", "500k",
                                   "--grace", "1s", "--quiet", "--json", bed.path("gen.json")],
                       eal_extra=["--single-file-segments"])
    check_reflect(c, bed, gen, refl, 2)
    finish(c, bed)


def vhost_peer_killed():
    """The peer disappears mid-run (SIGKILL), each way: the survivor sees
    the link go down, ends as configured (idle timeout or duration), exits
    0 with a complete result and every mbuf back; the sender counts what
    the dead ring refused, the receiver proves no gap in what it got."""
    c = Checker("vhost_peer_killed")
    bed, (vh, vu) = vhost_pair("vhost_peer_killed")
    # 1. The sender (virtio-user) dies; the receiver (vhost) survives.
    rcv = bed.wirerate("b", [vh], RECEIVER + ["--json", bed.path("rcv.json")])
    c.true(rcv.wait_text(READY, 30), "vhost receiver ready")
    snd = bed.wirerate("a", [vu], SENDER + ["--rate", "1Mpps", "--duration", "30"],
                       eal_extra=["--single-file-segments"])
    time.sleep(3)
    snd.p.kill()
    snd.wait(10)
    c.eq(rcv.wait(30), 0, "receiver exit code after its peer was killed")
    rd = twoend.load_json(bed.path("rcv.json"))
    c.true(rd is not None, "receiver result written")
    if rd:
        c.eq(rd["stop_reason"], "idle", "receiver ended by its idle timeout")
        c.true(rd["totals"][0]["link"]["down_events"] >= 1, "link down seen")
        c.true(rd["streams"][0]["rx_pkts"] > 0, "frames received before")
        c.eq(rd["streams"][0]["gap_pkts"], 0, "no gap in what arrived")
        c.eq(rd["accounting"]["mbufs_missing"], 0, "mbufs back")
    # 2. The receiver (vhost) dies; the sender (virtio-user) survives.
    rcv2 = bed.wirerate("b", [vh], ["--tx-ports", "none", "--duration", "30", "--quiet"],
                        name="rcv2")
    time.sleep(2)
    snd2 = bed.wirerate("a", [vu], SENDER + ["--rate", "1Mpps", "--duration", "6",
                                             "--json", bed.path("snd2.json")],
                        eal_extra=["--single-file-segments"], name="snd2")
    time.sleep(3)
    rcv2.p.kill()
    rcv2.wait(10)
    c.eq(snd2.wait(30), 0, "sender exit code after its peer was killed")
    sd = twoend.load_json(bed.path("snd2.json"))
    c.true(sd is not None, "sender result written")
    if sd:
        t = sd["totals"][0]
        c.eq(sd["stop_reason"], "duration", "sender ran its --duration")
        c.true(t["link"]["down_events"] >= 1, "link down seen")
        c.true(t["drops"]["tx_full_pkts"] > 0, "the dead ring's refusals counted")
        c.eq(sd["accounting"]["mbufs_missing"], 0, "mbufs back")
    finish(c, bed)


def veth_pair(c, name, vdev, mtu):
    """Sender in namespace A, receiver in B, a veth pair between them; the
    kernel carries the frames. Loss is allowed (the kernel may drop) but
    must be proven by sequence numbers. Returns (bed, sender, receiver)."""
    bed = Bed(name)
    na, nb = bed.add_netns("A"), bed.add_netns("B")
    va, vb = bed.veth(na, nb, mtu, (MAC_A, MAC_B))
    rcv = bed.wirerate("b", [vdev % vb], RECEIVER + ["--json", bed.path("rcv.json")],
                       netns=nb)
    ready = rcv.wait_text(READY, 30)
    snd = None
    if ready:
        snd = bed.wirerate("a", [vdev % va], SENDER + [
            "--count", "200k", "--src-mac", MAC_A, "--dst-mac", MAC_B,
            "--json", bed.path("snd.json")], netns=na)
    return bed, snd, rcv, ready


def af_packet():
    """net_af_packet on a veth pair between two namespaces (framecnt=8192:
    the default ring drops under bursts)."""
    c = Checker("af_packet")
    bed, snd, rcv, ready = veth_pair(c, "af_packet", "net_af_packet0,iface=%s,framecnt=8192",
                                     1500)
    c.true(ready, "af_packet receiver ready")
    if ready:
        check_pair(c, bed, snd, rcv, exact=False)
    finish(c, bed)


# Run as `python3 -c HOLD IF_X IF_Y ARGV...`: a child takes, on IF_Y, the
# af_packet fanout group id that this process's id xor IF_X's index makes,
# as another process's af_packet port would; then ARGV is exec'd in this
# process (the same id) once the child holds it.
HOLD = r"""
import os, socket, struct, sys, time
x, y, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
me, ix = os.getpid(), socket.if_nametoindex(x)
r, w = os.pipe()
if os.fork() == 0:
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    s.bind((y, 3))
    # SOL_PACKET, PACKET_FANOUT: hash with defrag and rollover
    s.setsockopt(263, 18, struct.pack(
        "I", (me ^ ix) & 0xffff | (0x8000 | 0x1000) << 16))
    os.write(w, b"1")
    end = time.monotonic() + 30
    while os.getppid() == me and time.monotonic() < end:
        time.sleep(0.05)
    os._exit(0)
os.close(w)
if os.read(r, 1) != b"1":
    sys.exit("the holder did not take the group")
os.execv(argv[0], argv)
"""


def af_packet_fanout_taken():
    """Another process holds, on another interface of the namespace, the
    af_packet fanout group id the PMD will take (the process id xor the
    interface's index): the kernel would refuse the port's sockets and
    the run would find no port. wirerate says so before EAL, exit 1,
    naming the interface, the id and how it is made; the same command
    without the holder runs."""
    c, bed = Checker("af_packet_fanout_taken"), Bed("fanout")
    ns = bed.add_netns("F")
    x, y = bed.veth(ns, ns, 1500)
    ix = int(sh("ip", "netns", "exec", ns, "cat",
                "/sys/class/net/%s/ifindex" % x).stdout)
    vdev = "net_af_packet0,iface=%s" % x
    argv = ([twoend.WIRERATE] + bed.eal("a", [vdev]) + ["--"] + SENDER +
            ["--duration", "300ms", "--json", bed.path("a.json")])
    held = bed.spawn("held", ["ip", "netns", "exec", ns, sys.executable, "-c",
                              HOLD, x, y] + argv)
    rc = held.wait(60)
    out = held.text()
    c.eq(rc, 1, "exit code with the group taken (%r)" % out[-600:])
    m = re.search(r"--vdev %s: the af_packet PMD's fanout group for %s "
                  r"\(id (\d+): this process's id (\d+) xor the interface's "
                  r"index (\d+)\) is held by another process" % (
                      re.escape(vdev), x), out)
    c.true(m is not None, "the error names the group: %r" % out[-600:])
    if m:
        c.eq(int(m.group(2)), held.p.pid, "the process id named is wirerate's")
        c.eq(int(m.group(3)), ix, "the interface index named is the kernel's")
        c.eq(int(m.group(1)), (held.p.pid ^ ix) & 0xffff, "id = pid xor index")
    c.true("no ports" not in out, "not taken for a missing port")
    c.true(not os.path.exists(bed.path("a.json")), "no result: no run")
    free = bed.spawn("free", ["ip", "netns", "exec", ns] + argv)
    c.eq(free.wait(60), 0, "the same command, the group free: exit 0 (%r)"
         % free.text()[-600:])
    finish(c, bed)


def af_xdp():
    """net_af_xdp on a veth pair (MTU 1500: veth refuses XDP above a page);
    skipped only where a probe shows the kernel has no AF_XDP sockets."""
    c = Checker("af_xdp")
    if hugepages_free() < 128:
        skip("af_xdp zero copy needs hugepage-backed pools")
    if not wrtest.have_af_xdp():
        skip("the kernel opens no AF_XDP socket (address family 44)")
    bed, snd, rcv, ready = veth_pair(
        c, "af_xdp", "net_af_xdp0,iface=%s,start_queue=0,queue_count=1", 1500)
    c.true(ready, "af_xdp receiver ready:\n" + rcv.text()[-2000:])
    if ready:
        check_pair(c, bed, snd, rcv, exact=False)
    finish(c, bed)


def tap():
    """net_tap in two processes, the two tap interfaces on a kernel bridge
    in a namespace. A smoke test: the bridge port drops traffic while it
    comes up, so loss is expected, but it must be proven. The sender is
    paced (20 kpps): net_tap's RX is driven by a real-time signal the
    kernel queues as frames arrive, and at full speed (0.2 Mpps) the
    receiver's main lcore spent some 20 s taking the queued signals after
    the sender had stopped, before its idle timeout could end the run
    (strace: 74 000 SIGRT_3 in one run)."""
    c, bed = Checker("tap"), Bed("tap")
    ns = bed.add_netns("T")
    br, ta, tb = bed.tag + "br", bed.tag + "ta", bed.tag + "tb"
    sh("ip", "-n", ns, "link", "add", br, "type", "bridge", "stp_state", "0",
       "forward_delay", "0")
    sh("ip", "-n", ns, "link", "set", br, "up")
    rcv = bed.wirerate("b", ["net_tap0,iface=" + tb], RECEIVER + [
        "--json", bed.path("rcv.json")], netns=ns)
    c.true(rcv.wait_text(READY, 30), "tap receiver ready")
    sh("ip", "-n", ns, "link", "set", tb, "master", br)
    snd = bed.wirerate("a", ["net_tap0,iface=" + ta], SENDER + [
        "--duration", "2500ms", "--rate", "20kpps", "--dst-mac", MAC_B,
        "--json", bed.path("snd.json")], netns=ns)
    attached = False
    for _ in range(600):
        if sh("ip", "-n", ns, "link", "set", ta, "master", br, check=False).returncode == 0:
            attached = True
            break
        if snd.p.poll() is not None:
            break
        time.sleep(0.05)
    c.true(attached, "sender's tap attached to the bridge")
    check_pair(c, bed, snd, rcv, exact=False)
    finish(c, bed)


# In the order of the meson tests (tests/meson.build registers them from here).
CASES = {**cases.by_name(memif, memif_reflect, rx_clock_start, rx_clock_idle, vhost,
                         vhost_reflect, af_packet, af_packet_fanout_taken,
                         af_xdp, tap),
         **test_pcap_merge.CASES, **cases.by_name(vhost_peer_killed),
         **test_veth_methods.CASES}


# Cases that make no namespace, link or shared hugepage file.
NO_ROOT = ("pcap", "merge_cli", "rx_clock_start", "rx_clock_idle")


def before(name):
    if name not in NO_ROOT and os.geteuid() != 0:
        skip("needs root (namespaces, veths, hugepages)")
    # meson ends a test that outlives its timeout with SIGTERM: clean up too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))


if __name__ == "__main__":
    cases.main(CASES, before=before, after=twoend.close_all)
