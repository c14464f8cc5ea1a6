# SPDX-License-Identifier: BSD-3-Clause
"""Measure the two-ended test beds: for each bed and frame size, a sender
runs for --duration, a receiver in another process starts its clock on the
first frame and stops after 1 s of silence, and `wirerate merge` closes the
balance. Prints one Markdown table (docs/testbeds.md keeps one).

Usage (root, from the source tree, after a build):
  python3 tests/twoend/measure.py [--duration 3] [--sizes 64,1518] [BED...]
Beds: memif vhost af_packet af_xdp tap pcap memif_reflect (default: all).
Figures are rates, so they depend on the machine and its load: on a shared
2-CPU machine they vary by several times from one run to the next."""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import twoend  # noqa: E402
from twoend import Bed, sh, wait_path  # noqa: E402

if "WIRERATE" not in os.environ:
    twoend.WIRERATE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                   "..", "..", "build", "app", "wirerate")
MAC_A, MAC_B = "02:00:00:00:0a:01", "02:00:00:00:0b:01"
READY = "waiting for the first frame"


def memif(bed):
    sock = bed.path("memif.sock")
    v = "net_memif0,role=%s,socket=" + sock + ",socket-abstract=no"
    # The server (sender) first: the client connects to its socket.
    return dict(snd=[v % "server"], rcv=[v % "client"], sender_first=sock)


def vhost(bed):
    sock = bed.path("vhost.sock")
    return dict(snd=["net_virtio_user0,path=%s,queues=1" % sock],
                rcv=["net_vhost0,iface=%s,queues=1" % sock],
                snd_eal=["--single-file-segments"])


def veth(bed, vdev, mtu):
    na, nb = bed.add_netns("A"), bed.add_netns("B")
    va, vb = bed.veth(na, nb, mtu, (MAC_A, MAC_B))
    return dict(snd=[vdev % va], rcv=[vdev % vb], snd_ns=na, rcv_ns=nb,
                snd_opts=["--src-mac", MAC_A, "--dst-mac", MAC_B])


def af_packet(bed):
    return veth(bed, "net_af_packet0,iface=%s,framecnt=8192", 1500)


def af_xdp(bed):
    return veth(bed, "net_af_xdp0,iface=%s,start_queue=0,queue_count=1", 1500)


def tap(bed):
    ns = bed.add_netns("T")
    br = bed.tag + "br"
    sh("ip", "-n", ns, "link", "add", br, "type", "bridge", "stp_state", "0",
       "forward_delay", "0")
    sh("ip", "-n", ns, "link", "set", br, "up")
    return dict(snd=["net_tap0,iface=%sta" % bed.tag], rcv=["net_tap0,iface=%stb" % bed.tag],
                snd_ns=ns, rcv_ns=ns, bridge=(ns, br), snd_opts=["--dst-mac", MAC_B])


def attach(bed, spec, side):
    """Put a tap interface on the bridge once its process has made it."""
    ns, br = spec["bridge"]
    dev = bed.tag + ("ta" if side == "a" else "tb")
    for _ in range(600):
        if sh("ip", "-n", ns, "link", "set", dev, "master", br, check=False).returncode == 0:
            return
        time.sleep(0.05)


def pair(name, size, duration):
    """One sender/receiver run; returns a table row."""
    bed = Bed(name)
    try:
        spec = BEDS[name](bed)
        rcv_opts = ["--tx-ports", "none", "--start-on-rx", "--idle-timeout", "1s",
                    "--quiet", "--size", str(size), "--json", bed.path("rcv.json")]
        snd_opts = ["--rx-ports", "none", "--quiet", "--size", str(size),
                    "--duration", str(duration), "--json", bed.path("snd.json")]
        snd_opts += spec.get("snd_opts", [])
        start_rcv = lambda: bed.wirerate("b", spec["rcv"], rcv_opts, netns=spec.get("rcv_ns"))
        start_snd = lambda: bed.wirerate("a", spec["snd"], snd_opts, netns=spec.get("snd_ns"),
                                         eal_extra=spec.get("snd_eal", ()))
        if spec.get("sender_first"):
            snd = start_snd()
            wait_path(spec["sender_first"], 30)
            rcv = start_rcv()
        else:
            rcv = start_rcv()
            if not rcv.wait_text(READY, 30):
                return None, "receiver did not start: " + rcv.text()[-300:]
            if "bridge" in spec:
                attach(bed, spec, "b")
            snd = start_snd()
            if "bridge" in spec:
                attach(bed, spec, "a")
        if snd.wait(duration + 60) != 0 or rcv.wait(60) != 0:
            return None, "a process failed: " + snd.text()[-300:] + rcv.text()[-300:]
        rc, out, m = twoend.merge(bed.path("snd.json"), bed.path("rcv.json"),
                                  bed.path("m.json"))
        s, r = twoend.load_json(bed.path("snd.json")), twoend.load_json(bed.path("rcv.json"))
        return (s["totals"][0]["tx_mpps"], r["totals"][0]["rx_mpps"],
                100 * m["totals"]["loss_ratio"], "yes" if rc == 0 else "NO"), None
    finally:
        bed.close()


def pcap(size, duration):
    bed = Bed("pcap")
    try:
        p = bed.wirerate("a", ["net_pcap0,tx_pcap=" + bed.path("o.pcap")], [
            "--rx-ports", "none", "--quiet", "--size", str(size), "--duration",
            str(min(duration, 2)), "--json", bed.path("p.json")])
        if p.wait(60) != 0:
            return None, p.text()[-300:]
        return (twoend.load_json(bed.path("p.json"))["totals"][0]["tx_mpps"], None, None,
                "n/a"), None
    finally:
        bed.close()


def reflect(size, duration):
    """Generator and reflector over memif: round trip rate and loss."""
    bed = Bed("memif_reflect")
    try:
        sock = bed.path("memif.sock")
        v = "net_memif0,role=%s,socket=" + sock + ",socket-abstract=no"
        g = bed.wirerate("a", [v % "server"], ["--quiet", "--size", str(size), "--duration",
                                               str(duration), "--json", bed.path("g.json")])
        wait_path(sock, 30)
        r = bed.wirerate("b", [v % "client"], ["--reflect", "--start-on-rx", "--idle-timeout",
                                               "1s", "--quiet", "--json", bed.path("r.json")])
        if g.wait(duration + 60) != 0 or r.wait(60) != 0:
            return None, g.text()[-300:] + r.text()[-300:]
        gd = twoend.load_json(bed.path("g.json"))
        t, s = gd["totals"][0], gd["streams"][0]
        return (t["tx_mpps"], t["rx_mpps"], 100.0 * s["lost_pkts"] / max(1, s["sent_pkts"]),
                "yes" if gd["accounting"]["balanced"] else "NO"), None
    finally:
        bed.close()


BEDS = {"memif": memif, "vhost": vhost, "af_packet": af_packet, "af_xdp": af_xdp,
        "tap": tap}
ORDER = ["memif", "vhost", "af_packet", "af_xdp", "tap", "pcap", "memif_reflect"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--duration", type=int, default=3)
    ap.add_argument("--sizes", default="64,1518")
    ap.add_argument("beds", nargs="*", default=ORDER)
    a = ap.parse_args()
    print("| test bed | frame B | sender Mpps | receiver Mpps | lost % | balanced |")
    print("|---|---|---|---|---|---|")
    f = lambda x, fmt: "-" if x is None else fmt % x
    for name in a.beds:
        for size in (int(s) for s in a.sizes.split(",")):
            if name == "pcap":
                row, why = pcap(size, a.duration)
            elif name == "memif_reflect":
                row, why = reflect(size, a.duration)
            else:
                row, why = pair(name, size, a.duration)
            if row is None:
                print("| %s | %d | failed: %s |" % (name, size, why.replace("\n", " ")))
                continue
            print("| %s | %d | %s | %s | %s | %s |" % (name, size, f(row[0], "%.3f"),
                  f(row[1], "%.3f"), f(row[2], "%.3f"), row[3]), flush=True)


if __name__ == "__main__":
    main()
