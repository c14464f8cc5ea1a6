# SPDX-License-Identifier: BSD-3-Clause
"""Two processes over memif in either order, and a run that sent nothing:
a memif client started before its server (or right after it) waits for
the server's socket and says so, then every frame arrives (checked with
`wirerate merge` against the other end's JSON); a client with no server
at all exits 1 naming the socket; a sender whose PMD refused every frame
(a server no client joined) exits 1 with the reason; a vhost sender with
a --count and no --duration whose virtio-user peer takes none of its
frames stops after 5 s without progress (WR_RUN_TX_STALL_S) and exits 1
with the reason, its JSON labelled invalid.
Usage: test_order.py CASE (see CASES)."""
import os
import re
import signal
import sys
import time

import cases
import twoend
from twoend import Bed, check_pair, wait_path
from wrtest import Checker

RECEIVER = ["--tx-ports", "none", "--start-on-rx", "--idle-timeout", "1500ms",
            "--quiet"]
SENDER = ["--rx-ports", "none", "--quiet", "--grace", "4s"]
WAITING = "waiting for the memif server's socket"


def memif_vdev(sock, role):
    return "net_memif0,role=%s,socket=%s,socket-abstract=no" % (role, sock)


def finish(c, bed):
    if c.failed:
        bed.dump()
    bed.close()
    c.done()


def pair(c, bed, client_first, gap_s):
    """Sender (memif server) and receiver (client), the second started
    gap_s after the first; both end well and nothing is lost."""
    sock = bed.path("memif.sock")
    snd_argv = ("a", [memif_vdev(sock, "server")], SENDER + [
        "--count", "100k", "--rate", "200kpps", "--json", bed.path("snd.json")])
    rcv_argv = ("b", [memif_vdev(sock, "client")], RECEIVER + [
        "--json", bed.path("rcv.json")])
    first, second = (rcv_argv, snd_argv) if client_first else (snd_argv, rcv_argv)
    p1 = bed.wirerate(*first)
    time.sleep(gap_s)
    p2 = bed.wirerate(*second)
    rcv, snd = (p1, p2) if client_first else (p2, p1)
    if client_first:
        c.true(rcv.wait_text(WAITING, 10), "the client says it waits for the server")
    m = check_pair(c, bed, snd, rcv, exact=True)
    if m:
        c.eq(m["totals"]["rx_pkts"], 100000, "the client received every frame")


def memif_client_first():
    """The client 1 s before the server: it waits, then runs."""
    c, bed = Checker("memif_client_first"), Bed("memif_client_first")
    pair(c, bed, True, 1.0)
    finish(c, bed)


def memif_server_first():
    """The client at once after the server: no race."""
    c, bed = Checker("memif_server_first"), Bed("memif_server_first")
    pair(c, bed, False, 0.0)
    finish(c, bed)


def memif_no_server():
    """A client whose server never comes: exit 1 naming the socket."""
    c, bed = Checker("memif_no_server"), Bed("memif_no_server")
    sock = bed.path("memif.sock")
    t0 = time.monotonic()
    rcv = bed.wirerate("b", [memif_vdev(sock, "client")], RECEIVER)
    c.eq(rcv.wait(60), 1, "exit code")
    took = time.monotonic() - t0
    out = rcv.text()
    c.true(WAITING in out, "it said it waits")
    c.true("no memif server's socket %s after 10 s" % sock in out,
           "the error names the socket: %r" % out[-300:])
    c.true(10 <= took < 30, "gave up after its timeout (%.1f s)" % took)
    finish(c, bed)


def memif_sent_nothing():
    """A sender (memif server) no client joins: its PMD refuses every
    frame; exit 1 saying so, not 0 with 0 frames sent."""
    c, bed = Checker("memif_sent_nothing"), Bed("memif_sent_nothing")
    sock = bed.path("memif.sock")
    snd = bed.wirerate("a", [memif_vdev(sock, "server")], [
        "--rx-ports", "none", "--duration", "1s", "--json", bed.path("snd.json")])
    c.eq(snd.wait(60), 1, "exit code")
    out = snd.text()
    c.true("port 0 (net_memif) sent no frame: its PMD refused all" in out,
           "the reason: %r" % out[-300:])
    doc = twoend.load_json(bed.path("snd.json"))
    c.true(doc is not None and doc["totals"][0]["tx_pkts"] == 0,
           "the result is still written, with 0 frames sent")
    finish(c, bed)


STALL_S = 5  # WR_RUN_TX_STALL_S (lib/setup/run.h, docs/reliability.md)


def vhost_refused():
    """A vhost sender (--count, no --duration) whose virtio-user peer has
    mrg_rxbuf=0 and RX buffers of the default --size: every 9018-byte
    frame is refused. It used to run for ever; now it stops after STALL_S
    without a frame sent and exits 1 naming the port, the refused count
    and the likely cause. Its JSON says why (stop_reason error, invalid);
    the sender's PMD sent none and, from DPDK 23.11 on, counts as TX
    errors the frames it refused; the receiver, its PMD included, got
    none."""
    c = Checker("vhost_refused")
    if twoend.hugepages_free() < 128:
        c.skip("virtio-user needs hugepages to share its memory with vhost")
        c.done()
    bed = Bed("vhost_refused")
    sock = bed.path("vhost.sock")
    rcv = bed.wirerate("b", ["net_virtio_user0,path=%s,server=1,mrg_rxbuf=0" % sock], [
        "--tx-ports", "none", "--quiet", "--duration", "120s",
        "--json", bed.path("rcv.json")],
        eal_extra=["--single-file-segments"])
    c.true(wait_path(sock, 30), "receiver ready")
    t0 = time.monotonic()
    snd = bed.wirerate("a", ["net_vhost0,iface=%s,client=1" % sock], [
        "--rx-ports", "none", "--quiet", "--grace", "500ms", "--size", "9018",
        "--rate", "20kpps", "--count", "2000", "--json", bed.path("snd.json")])
    rc = snd.wait(60)
    took = time.monotonic() - t0
    c.eq(rc, 1, "exit code")
    c.true(took < STALL_S + 15, "ended within its bound (%.1f s)" % took)
    out = snd.text()
    m = re.search(r"the run stopped short of its --count: port 0 \(net_vhost\) sent "
                  r"no frame for ([0-9.]+) s \(0 of 2000 sent\) while its PMD refused "
                  r"every one offered \(([0-9]+) TX refused; link up\): the virtio "
                  r"peer has no RX buffer the frame fits", out)
    c.true(m is not None, "the reason: %r" % out[-600:])
    rcv.p.send_signal(signal.SIGINT)
    c.eq(rcv.wait(30), 0, "receiver: exit code after SIGINT")
    sdoc = twoend.load_json(bed.path("snd.json"))
    rdoc = twoend.load_json(bed.path("rcv.json"))
    c.true(sdoc is not None and rdoc is not None, "both results written")
    if sdoc is not None and rdoc is not None:
        st, rt = sdoc["totals"][0], rdoc["totals"][0]
        c.eq(sdoc["stop_reason"], "error", "sender: stop_reason")
        inv = sdoc.get("invalid", {})
        c.true(inv.get("field") == "stop_reason" and "sent no frame" in
               inv.get("reason", ""), "sender: labelled invalid: %r" % inv)
        # Checked at each 1 s interval (one tick more when one is early).
        c.true(STALL_S <= sdoc["duration_s"] < STALL_S + 2,
               "sender: stopped %.2f s in" % sdoc["duration_s"])
        c.eq((st["tx_pkts"], st["nic_opackets"]), (0, 0), "sender: sent nothing")
        refused = st["drops"]["tx_full_pkts"]
        c.true(refused > 0, "sender: refused %d" % refused)
        # vhost's PMD counts each frame it did not take as a TX error from
        # DPDK 23.11 on; 22.11's counts none (no xstat either).
        ver = tuple(int(x) for x in re.findall(r"\d+", sdoc["env"]["dpdk_version"])[:2])
        c.eq(st["drops"]["tx_errors"], refused if ver >= (23, 11) else 0,
             "sender: its PMD's TX errors (DPDK %d.%d)" % ver)
        if m:
            c.true(0 < int(m.group(2)) <= refused, "the message's count (%s) "
                   "is the stop's reading" % m.group(2))
        c.eq((rt["rx_pkts"], rt["nic_ipackets"]), (0, 0), "receiver: got nothing")
    finish(c, bed)


CASES = cases.by_name(memif_client_first, memif_server_first, memif_no_server,
                      memif_sent_nothing, vhost_refused)

def before(_name):
    if os.geteuid() != 0:
        twoend.skip("needs root (hugepages shared by two processes)")
    # meson ends a test that outlives its timeout with SIGTERM: clean up too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))


if __name__ == "__main__":
    cases.main(CASES, before=before, after=twoend.close_all)
