# SPDX-License-Identifier: BSD-3-Clause
"""A DUT's cost from a plain run (scripts/dut-observe.py, the campaign's
observer): a Linux router in a network namespace forwards between two
veth pairs, wirerate's af_packet ports at each end, at two loads. The
router's receiving interfaces steer their work to one CPU by RPS; the
generator's lcores run on the other. The DUT's figures come from the
kernel (/proc/stat, /proc/softirqs, the router's interface counters), and
are checked against the router's and wirerate's own counts: its NET_RX
softirqs and interface rates rise with the load, its interfaces counted
the frames wirerate sent and received, and its CPU share leaves out the
generator's busy-polling CPU (which /proc/stat shows near 100 % busy).
Usage: test_dut_observe.py CASE (see CASES)."""
import json
import os
import subprocess
import sys
import tempfile

import cases
import wrtest
from wrtest import Checker

PID = os.getpid() % 10000
NS = "wrdo%d" % os.getpid()
HOST = ["wdoh%d_%d" % (i, PID) for i in (0, 1)]
ROUTER = ["wdor%d_%d" % (i, PID) for i in (0, 1)]
NETS = [("198.18.0.1", "198.18.0.254"), ("198.19.0.1", "198.19.0.254")]
OBSERVE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                       "scripts", "dut-observe.py")
DUT_CPU, GEN_CPU = 0, 1
LOADS = (5000, 40000)
# Frames the DUT's interfaces count besides wirerate's: ARP both ways.
OTHERS = 10


def ip(*args, check=True):
    return wrtest.sh("ip", *args, check=check)


def make_bed():
    """The router: IPv4 forwarding, IPv6 off (no stray frames), RPS of its
    interfaces on DUT_CPU, the receiver's MAC known (ARP is test_l3's)."""
    ip("netns", "add", NS)
    wrtest.sh("ip", "netns", "exec", NS, "sysctl", "-qw", "net.ipv4.ip_forward=1",
              "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1")
    for h, r, (_, gw) in zip(HOST, ROUTER, NETS):
        ip("link", "add", h, "type", "veth", "peer", "name", r)
        ip("link", "set", r, "netns", NS)
        wrtest.sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % h)
        ip("link", "set", h, "up")
        ip("-n", NS, "link", "set", r, "up")
        ip("-n", NS, "addr", "add", gw + "/24", "dev", r)
        wrtest.sh("ip", "netns", "exec", NS, "sh", "-c", "echo %x > /sys/class/net/%s/"
                  "queues/rx-0/rps_cpus" % (1 << DUT_CPU, r))
    with open("/sys/class/net/%s/address" % HOST[1]) as f:
        mac = f.read().strip()
    ip("-n", NS, "neigh", "replace", NETS[1][0], "lladdr", mac, "dev", ROUTER[1],
       "nud", "permanent")


def drop_bed():
    ip("netns", "del", NS, check=False)
    for h in HOST:
        ip("link", "del", h, check=False)


def command(pps, path):
    """wirerate through the router at pps for 3 s, both lcores on GEN_CPU."""
    vdevs = ["net_af_packet%d,iface=%s,qdisc_bypass=0" % (i, h) for i, h in enumerate(HOST)]
    eal = wrtest.eal_args(vdevs)
    k = eal.index("-l")
    eal[k:k + 2] = ["--lcores", "(0,1)@%d" % GEN_CPU]
    opts = ["--tx-ports", "0", "--rx-ports", "1", "--rate", "%dpps" % pps,
            "--duration", "3", "--plain", "--json", path]
    for i, (a, gw) in enumerate(NETS):
        opts += ["--port-ip", "%d=%s/24,gw=%s" % (i, a, gw)]
    return [wrtest.WIRERATE] + eal + ["--"] + opts


def observe(c, pps, d):
    """One run under the observer: (the result, its dut.json), checked
    against the router's counters and wirerate's."""
    path = os.path.join(d, "r%d.json" % pps)
    p = subprocess.run([sys.executable, OBSERVE, "--ns", NS, "--interval", "0.2", "--"]
                       + command(pps, path), capture_output=True, text=True, timeout=90)
    print(p.stdout[-1500:])
    c.eq(p.returncode, 0, "%d pps: exit code (%s)" % (pps, p.stderr[-800:]))
    doc = wrtest.load_json(path)
    dut = wrtest.load_json(os.path.join(d, "r%d.dut.json" % pps))
    c.true(doc is not None and dut is not None, "%d pps: the result and dut.json" % pps)
    if doc is None or dut is None:
        return None
    c.eq(doc.get("dut"), dut, "%d pps: the result holds the DUT's figures" % pps)
    c.true("DUT: CPUs %d" % DUT_CPU in p.stdout, "%d pps: the DUT table printed" % pps)
    s = doc["streams"][0]
    t0, t1 = (dut["interfaces"][r]["total"] for r in ROUTER)
    c.true(0 <= t0["rx_packets"] - s["sent_pkts"] <= OTHERS,
           "%d pps: the router's %s received the %d frames wirerate sent (%d)"
           % (pps, ROUTER[0], s["sent_pkts"], t0["rx_packets"]))
    c.true(0 <= t1["tx_packets"] - s["rx_pkts"] <= OTHERS,
           "%d pps: the router's %s sent the %d frames wirerate received (%d)"
           % (pps, ROUTER[1], s["rx_pkts"], t1["tx_packets"]))
    own = dut["own"]
    c.eq(own["cpus"], [DUT_CPU], "%d pps: the DUT's CPUs (its RPS)" % pps)
    c.eq(own["generator_cpus"], [GEN_CPU], "%d pps: the generator's CPUs (--lcores)" % pps)
    c.true(own["separable"], "%d pps: separable" % pps)
    gen_busy = dut["cpu"]["cpu%d" % GEN_CPU]["busy"]
    c.true(gen_busy > 80, "%d pps: /proc/stat shows the generator's CPU busy (%.1f %%)"
           % (pps, gen_busy))
    # Had the generator's CPU leaked in, the share would reach its busy
    # figure (near 100 %); the DUT's own is at most its CPU's softirq + irq
    # (no processes named), whatever else this machine runs.
    dut_cpu = dut["cpu"]["cpu%d" % DUT_CPU]
    c.true(own["cpu_pct"] < gen_busy - 10, "%d pps: the DUT's CPU share (%.1f %%) "
           "leaves the generator's busy-polling (%.1f %%) out"
           % (pps, own["cpu_pct"], gen_busy))
    c.true(abs(own["cpu_pct"] - dut_cpu["softirq"] - dut_cpu["irq"]) < 0.01,
           "%d pps: the DUT's CPU share (%.2f %%) is CPU %d's softirq + irq "
           "(%.2f %% + %.2f %%)" % (pps, own["cpu_pct"], DUT_CPU,
                                    dut_cpu["softirq"], dut_cpu["irq"]))
    return dut


def dut_observe_loads():
    """The router at 5 and 40 kpps under scripts/dut-observe.py."""
    c = Checker("dut_observe_loads")
    if not wrtest.have_netns():
        c.skip("this process cannot create a network namespace")
        c.done()
    if not os.path.exists("/sys/devices/system/cpu/cpu%d" % GEN_CPU):
        c.skip("one CPU: the DUT and the generator cannot have CPUs of their own")
        c.done()
    make_bed()
    try:
        with tempfile.TemporaryDirectory() as d:
            lo, hi = (observe(c, pps, d) for pps in LOADS)
        if lo and hi:
            for k in ("net_rx_softirqs_per_s", "softirq_pct"):
                print("%s: %.4g at %d pps, %.4g at %d pps" % (
                    k, lo["own"][k], LOADS[0], hi["own"][k], LOADS[1]))
            c.true(hi["own"]["net_rx_softirqs_per_s"] > lo["own"]["net_rx_softirqs_per_s"],
                   "NET_RX softirqs on the DUT's CPU rise with the load")
            c.true(hi["own"]["softirq_pct"] > lo["own"]["softirq_pct"],
                   "softirq time on the DUT's CPU rises with the load")
            r = ROUTER[0]
            c.true(hi["interfaces"][r]["rx_pps"] > 2 * lo["interfaces"][r]["rx_pps"],
                   "the router's RX rate rises with the load (%.0f, %.0f)" % (
                       lo["interfaces"][r]["rx_pps"], hi["interfaces"][r]["rx_pps"]))
    finally:
        drop_bed()
    c.done()


CASES = cases.by_name(dut_observe_loads)

if __name__ == "__main__":
    cases.main(CASES)
