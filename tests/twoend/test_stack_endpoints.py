# SPDX-License-Identifier: BSD-3-Clause
"""Header stacks (--stack, docs/traffic.md) against Linux tunnel endpoints
in network namespaces: a VXLAN device, a gretap device and a VLAN device
take wirerate's stacked frames and hand on bare ones; sent = received,
exactly, by wirerate's count and the kernel's. A kernel without such a
device (no module) skips the case: a probe (wrtest.have_link_kind)."""
import os
import subprocess
import tempfile
import time

import cases
import wrtest
from wrtest import Checker


# The endpoints: a Linux device in a namespace takes the stacked frames
# on nA and a bridge hands what it makes of them to nB. kind: the probe's
# link type; dev: the device's ip-link arguments; spec: what wirerate
# sends (the outer Ethernet to nA's MAC, MAC_NA, for the IP endpoints).
MAC_NA, MAC_WB, MAC_FAR = "02:00:00:00:0a:02", "02:00:00:00:0b:01", "02:00:00:00:0c:09"
ENDPOINTS = {
    "vxlan": (["type", "vxlan", "id", "42", "local", "10.9.0.2", "remote", "10.9.0.1",
               "dstport", "4789", "dev", "nA"],
              "eth/ipv4(src=10.9.0.1,dst=10.9.0.2)/udp/vxlan(vni=42)/eth(dst=%s)/ipv4/udp"
              % MAC_FAR),
    "gretap": (["type", "gretap", "local", "10.9.0.2", "remote", "10.9.0.1", "dev", "nA"],
               "eth/ipv4(src=10.9.0.1,dst=10.9.0.2)/gre/eth(dst=%s)/ipv4/udp" % MAC_FAR),
    "vlan": (["link", "nA", "type", "vlan", "id", "10"],
             "eth(dst=%s)/vlan(id=10)/ipv4/udp" % MAC_FAR),
}


def endpoint_bed(tag, dev):
    """Namespaces tag+"w" (wirerate: wA, wB) and tag+"e" (the endpoint:
    nA 10.9.0.2/24 with device ep0 of ip-link arguments dev, bridged with
    nB). IPv6 off in both, so the kernel sends nothing of its own."""
    nw, ne = tag + "w", tag + "e"
    for ns in (nw, ne):
        wrtest.sh("ip", "netns", "add", ns)
        wrtest.sh("ip", "netns", "exec", ns, "sysctl", "-qw",
                  "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1")
    for w, n, mac in (("wA", "nA", MAC_NA), ("wB", "nB", None)):
        wrtest.sh("ip", "-n", nw, "link", "add", w, "type", "veth", "peer", "name", n,
                  "netns", ne)
        wrtest.sh("ip", "-n", nw, "link", "set", w, "up")
        if mac:
            wrtest.sh("ip", "-n", ne, "link", "set", n, "address", mac, "promisc", "on")
        wrtest.sh("ip", "-n", ne, "link", "set", n, "up")
    wrtest.sh("ip", "-n", nw, "link", "set", "wB", "address", MAC_WB)
    wrtest.sh("ip", "-n", ne, "addr", "add", "10.9.0.2/24", "dev", "nA")
    wrtest.sh("ip", "-n", ne, "link", "add", "ep0", *dev)
    wrtest.sh("ip", "-n", ne, "link", "add", "br0", "type", "bridge", "stp_state", "0")
    for d in ("ep0", "nB"):
        wrtest.sh("ip", "-n", ne, "link", "set", d, "master", "br0")
    for d in ("ep0", "br0"):
        wrtest.sh("ip", "-n", ne, "link", "set", d, "up")
    return nw, ne


def kernel_count(ns, dev, what):
    """The kernel's own count of dev in namespace ns (statistics/what)."""
    p = subprocess.run(["ip", "netns", "exec", ns, "cat",
                        "/sys/class/net/%s/statistics/%s" % (dev, what)],
                       capture_output=True, text=True, check=True)
    return int(p.stdout)


def quiet_count(ns, dev, what):
    """kernel_count once it has not moved for 1.5 s (at most 10 s): br0
    sends its IGMP reports (RFC 3376: the unsolicited report and its
    repeat) in the first second up, through nB."""
    last, still = kernel_count(ns, dev, what), 0
    for _ in range(40):
        time.sleep(0.25)
        now = kernel_count(ns, dev, what)
        still = still + 1 if now == last else 0
        last = now
        if still == 6:
            break
    return last


def check_endpoint(c, name, nb):
    """wirerate in namespace w sends nb stacked frames out of wA; the
    endpoint strips the stack and the bare frames come back on wB: all of
    them, each its stream's, by wirerate's count and the kernel's."""
    dev, spec = ENDPOINTS[name]
    tag = "wrst%d" % os.getpid()
    try:
        nw, ne = endpoint_bed(tag, dev)
        sent0 = quiet_count(ne, "nB", "tx_packets")
        argv = ["ip", "netns", "exec", nw, wrtest.WIRERATE] + wrtest.eal_args(
            ["net_af_packet0,iface=wA", "net_af_packet1,iface=wB"]) + [
            "--", "--tx-ports", "0", "--rx-ports", "1", "--count", str(nb),
            "--rate", "20kpps", "--size", "256", "--grace", "500ms", "--quiet",
            "--dst-mac", MAC_NA, "--stack", spec]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.json")
            p = subprocess.run(argv + ["--json", path], capture_output=True, text=True,
                               timeout=60, stdin=subprocess.DEVNULL)
            c.eq(p.returncode, 0, "%s: exit code (err %r)" % (name, p.stderr[-300:]))
            doc = wrtest.read_result(path) if os.path.exists(path) else None
        c.true(doc is not None, "%s: a result" % name)
        if doc is None:
            return
        s = doc["streams"][0]
        c.eq((s["sent_pkts"], s["rx_pkts"], s["lost_pkts"]), (nb, nb, 0),
             "%s: sent = received, exactly" % name)
        wrtest.rx_matches_pmd(c, doc, name)
        c.eq(doc["totals"][1]["rx_foreign_pkts"], 0, "%s: nothing else came back" % name)
        c.eq(kernel_count(ne, "ep0", "rx_packets"), nb, "%s: the endpoint's own "
             "count of what it took in" % name)
        c.eq(kernel_count(ne, "nB", "tx_packets") - sent0, nb, "%s: the kernel "
             "sent nb bare frames to wirerate during the run" % name)
    finally:
        for ns in (tag + "w", tag + "e"):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def endpoint_case(name):
    """One Linux endpoint as a case; skipped only when the kernel has no
    such device (wrtest.have_link_kind)."""
    def case():
        c = Checker("stacks_%s_endpoint" % name)
        if not wrtest.have_link_kind(ENDPOINTS[name][0]):
            wrtest.skip("the kernel makes no %s link (or no network namespaces)" % name)
        check_endpoint(c, name, 2000)
        c.done()
    case.__name__ = "stacks_%s_endpoint" % name
    return case


CASES = cases.by_name(*(endpoint_case(n) for n in ENDPOINTS))

if __name__ == "__main__":
    cases.main(CASES)
