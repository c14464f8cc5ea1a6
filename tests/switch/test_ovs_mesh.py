# SPDX-License-Identifier: BSD-3-Clause
"""RFC 2889 5.10 (--mode mesh --mesh-pattern broadcast) on the Linux
bridge, and the meshed modes (5.1 fully meshed, 5.5 congestion, 5.10
broadcast) on Open vSwitch (netdev datapath, its own daemons, af_packet
ports on veths; docs/rfc2889.md). What wirerate counted is checked
against the switch's own counters: the bridge ports' kernel counters,
OVS's per-port statistics (ovs-vsctl get interface X statistics) and the
drops of a tbf on a congested egress (tc -s qdisc). The bed is the one of
test_switch.py. Root. Usage: test_ovs_mesh.py CASE."""
import json
import os
import re
import shutil
import subprocess

import cases
import test_switch as ts
import twoend
import wrtest
from twoend import Bed
from wrtest import Checker


def finish(c, bed, out=""):
    if c.failed:
        print(out[-3000:])
        bed.dump()
    bed.close()
    c.done()


def check_bcast(c, doc, n, what):
    """Every trial: the pairs 0 -> each other port, each balanced exactly
    (sent = received + lost, sent = the frames port 0 broadcast), each
    receiving port's latency counted for every frame it received."""
    for t in doc["rfc2889"]["trials"]:
        b = t["broadcast"]
        c.eq((b["src"], b["receivers"]), (0, n - 1), "%s: broadcast object" % what)
        c.eq(sorted((x["src"], x["dst"]) for x in t["pairs"]),
             [(0, d) for d in range(1, n)], "%s: the pairs of broadcast" % what)
        c.true(all(x["sent"] == b["frames_sent"] > 0 and
                   x["sent"] == x["received"] + x["lost"] and x["stray"] == 0
                   for x in t["pairs"]),
               "%s: each receiver: sent = frames broadcast = received + lost: %r"
               % (what, t["pairs"]))
        for p in t["ports"][1:]:
            lat = p["latency"]
            c.true(lat["count"] == p["received"] and (p["received"] == 0 or
                   0 < lat["min_ns"] <= lat["p50_ns"] <= lat["max_ns"]),
                   "%s: port %d latency of every frame received: %r"
                   % (what, p["index"], lat))


def bridge_broadcast():
    """--mesh-pattern broadcast over 4 ports of the Linux bridge: port 0
    sends 2000 broadcast frames; each of the three others receives every
    one, each bridge port's kernel counters equal wirerate's counts.
    Then a tbf of 1 Mbit/s (about 2000 frames/s) on the bridge's port to
    port 2 and a throughput search: only port 2 loses frames, exactly as
    many as the tbf dropped; the throughput is under the tbf's rate."""
    c, bed = Checker("bridge_broadcast"), Bed("bridge_broadcast")
    sw = ts.Switch(bed, 4)
    ts.linux_bridge(sw)
    before = [sw.sw_pkts(i) for i in range(4)]
    rc, out, doc = sw.run(ts.mesh_opts("2000", ["--mesh-pattern", "broadcast"]), "one")
    c.eq(rc, 0, "exit code")
    if doc is None:
        return finish(c, bed, out)
    o = doc["rfc2889"]
    c.eq((o["section"], o["pattern"], o["trials"][0]["pass"],
          o["trials"][0]["broadcast"]["frames_sent"]),
         ("5.10", "broadcast", True, 2000), "one trial: 2000 frames, none lost")
    c.true(o["latency_clock"].startswith("TSC"), "latency clock named")
    check_bcast(c, doc, 4, "one")
    ts.check_port_counters(c, sw, doc, before, "one")
    c.true("broadcast: port 0 sent 2000 frames" in out and "latency, TSC" in out,
           "table: %r" % out[-900:])
    sw.add_tbf(sw.sw[2])
    before = [sw.sw_pkts(i) for i in range(4)]
    drops = ts.tc_dropped(sw, sw.sw[2])
    rc, out, doc = sw.run(ts.mesh_opts("500-4000", ["--mesh-pattern", "broadcast",
                                                    "--resolution", "10"]), "search")
    c.eq(rc, 0, "search: exit code")
    if doc is None:
        return finish(c, bed, out)
    r = doc["rfc2889"]["result"]
    c.true(r["found"] and 1000 <= r["throughput_pps"] <= 2300,
           "throughput under the tbf's rate: %r" % r)
    check_bcast(c, doc, 4, "search")
    lost = {d: sum(x["lost"] for t in doc["rfc2889"]["trials"] for x in t["pairs"]
                   if x["dst"] == d) for d in (1, 2, 3)}
    c.true(lost[2] > 0 and lost[1] == 0 and lost[3] == 0,
           "loss on port 2 only: %r" % lost)
    c.eq(ts.tc_dropped(sw, sw.sw[2]) - drops, lost[2], "tbf dropped = port 2's loss")
    ts.check_port_counters(c, sw, doc, before, "search")
    print("broadcast search: %d trials, %r" % (len(doc["rfc2889"]["trials"]), r))
    finish(c, bed, out)


def ovs_bed(name):
    """Open vSwitch over 4 ports (netdev datapath), or a skip when it is
    not installed; (bed, switch, ovs)."""
    bed = Bed(name)
    for tool in ("ovsdb-server", "ovs-vswitchd", "ovs-vsctl", "ovs-appctl", "ovsdb-tool"):
        if shutil.which(tool) is None:
            bed.close()
            wrtest.skip("Open vSwitch is not installed (%s; the package "
                        "openvswitch-switch, scripts/lib/setup.sh)" % tool)
    sw = ts.Switch(bed, 4)
    ovs = ts.Ovs(sw)
    if ovs.ctl is not None:
        ovs.vsctl("add-br", "br0", "--", "set", "bridge", "br0", "datapath_type=netdev")
        for s in sw.sw:
            ovs.vsctl("add-port", "br0", s)
        sw.in_s("ip", "link", "set", "br0", "multicast", "off", "up")
    return bed, sw, ovs


def ovs_pkts(ovs, dev):
    """OVS's own (rx, tx, tx dropped) frames of interface dev, read now
    (ovs-ofctl dump-ports; the database's statistics lag by seconds)."""
    port = ovs.vsctl("get", "interface", dev, "ofport").strip()
    mgmt = "unix:" + os.path.join(ovs.sw.bed.path("ovs"), "br0.mgmt")
    out = subprocess.run(["ovs-ofctl", "dump-ports", mgmt, port], env=ovs.env,
                         check=True, timeout=30, capture_output=True, text=True).stdout
    rx = re.search(r"rx pkts=(\d+)", out)
    tx = re.search(r"tx pkts=(\d+), bytes=\d+, drop=(\d+)", out)
    return int(rx.group(1)), int(tx.group(1)), int(tx.group(2))


def check_ovs_counters(c, ovs, sw, doc, before, what):
    """OVS's rx of each port = the frames wirerate sent there; its tx =
    the frames wirerate received there (ours, flooded ones, any other)."""
    for i, dev in enumerate(sw.sw):
        ps = [p for t in doc["rfc2889"]["trials"] for p in t["ports"] if p["index"] == i]
        rx, tx, _ = ovs_pkts(ovs, dev)
        c.eq(rx - before[i][0], sum(p["sent"] + p["learn_sent"] for p in ps),
             "%s: OVS port %s rx = frames wirerate's port %d sent" % (what, dev, i))
        c.eq(tx - before[i][1], sum(p["received"] + p["stray"] + p["other_received"]
                                    for p in ps),
             "%s: OVS port %s tx = frames wirerate's port %d received" % (what, dev, i))


def ovs_case(name, body):
    bed, sw, ovs = ovs_bed(name)
    c, out = Checker(name), ""
    try:
        c.true(ovs.ctl is not None, "ovs-vswitchd control socket")
        if ovs.ctl is not None:
            out = body(c, sw, ovs)
    finally:
        ovs.stop()
        finish(c, bed, out)


def mesh_body(c, sw, ovs):
    """Fully meshed at 1000 frames/s per port for 1 s: nothing lost, every
    pair exact, OVS's per-port counters equal wirerate's."""
    before = [ovs_pkts(ovs, s) for s in sw.sw]
    rc, out, doc = sw.run(ts.mesh_opts("1000"), "mesh")
    c.eq(rc, 0, "exit code")
    if doc is None:
        return out
    t = doc["rfc2889"]["trials"][0]
    c.eq((t["pass"], t["lost"], t["sent"]), (True, 0, 4000), "nothing lost")
    ts.check_pairs(c, doc, "full", 4, "mesh")
    check_ovs_counters(c, ovs, sw, doc, before, "mesh")
    print("OVS full mesh: forwarding rate %r" % doc["rfc2889"]["result"])
    return out


def ovs_mesh():
    """--mode mesh (5.1) over 4 ports of Open vSwitch: see mesh_body."""
    ovs_case("ovs_mesh", mesh_body)


def congestion_body(c, sw, ovs):
    """A tbf of 1 Mbit/s on the veth of OVS's port to port 2; ports 0 and
    1 at 2000 frames/s: the congested port receives exactly what the
    veth's kernel counter says it sent; OVS's own rx counters hold every
    frame sent to it; the tbf dropped frames, and the congested flows lost
    at least those, but for learning frames flooded into the same qdisc
    (OVS loses more on that egress: its send into the full qdisc fails,
    and its own tx drop counter stays 0; printed). OVS sends without
    waiting on a full queue, so the uncongested flow loses nothing: no
    head-of-line blocking."""
    sw.add_tbf(sw.sw[2])
    before = [ovs_pkts(ovs, s) for s in sw.sw]
    kbefore = sw.sw_pkts(2)[1]
    drops = ts.tc_dropped(sw, sw.sw[2])
    offered = ts.tc_offered(sw, sw.sw[2])
    rc, out, doc = sw.run(ts.mesh_opts("2000", ["--mesh-pattern", "congestion"]), "cong")
    c.eq(rc, 0, "exit code")
    if doc is None:
        return out
    ts.check_pairs(c, doc, "congestion", 4, "congestion")
    g = doc["rfc2889"]["trials"][0]["congestion"]
    print("OVS congestion: %r; OVS port 2 tx_dropped %d" % (
        g, ovs_pkts(ovs, sw.sw[2])[2] - before[2][2]))
    c.true(g["congested_lost"] > 0, "the congested port lost frames: %r" % g)
    tbf = ts.tc_dropped(sw, sw.sw[2]) - drops
    print("tbf dropped %d of the %d lost" % (tbf, g["congested_lost"]))
    # Nothing was lost on the way in: OVS's own rx count of ports 0 and 1
    # holds every frame wirerate sent there (and the learning frames).
    after = [ovs_pkts(ovs, s) for s in sw.sw]
    sent = {p["index"]: p["sent"] for p in doc["rfc2889"]["trials"][0]["ports"]}
    for i in (0, 1):
        c.true(after[i][0] - before[i][0] >= sent[i],
               "OVS received on port %d %d frames, at least the %d wirerate sent"
               % (i, after[i][0] - before[i][0], sent[i]))
    # The qdisc also holds the frames that are not the congested flows'
    # (the learning frames OVS floods to port 2 before it knows their
    # addresses, a stray frame of the kernel's): the tbf may drop those
    # too; and OVS hands the qdisc fewer than the congested flows' frames
    # when its send fails on the full queue (counted nowhere: tc's count
    # falls short of the congested frames). How many others there were is
    # the tbf's count, not wirerate's.
    others = ts.tc_offered(sw, sw.sw[2]) - offered - g["congested_sent"]
    print("the tbf was offered %+d frames beside the congested flows' (OVS's failed "
          "sends when negative)" % others)
    c.true(0 < tbf <= g["congested_lost"] + max(others, 0),
           "tbf dropped %d, at most the congested flows' loss %d and the %d "
           "other frames it was offered" % (tbf, g["congested_lost"], max(others, 0)))
    p2 = doc["rfc2889"]["trials"][0]["ports"][2]
    c.eq(sw.sw_pkts(2)[1] - kbefore, p2["received"] + p2["stray"] + p2["other_received"],
         "congested port: veth kernel tx = frames wirerate's port 2 received")
    c.eq((g["uncongested_lost"], g["head_of_line_blocking"], g["back_pressure"]),
         (0, False, False), "OVS: no head-of-line blocking: %r" % g)
    c.true("head-of-line blocking: no" in out, "table: %r" % out[-600:])
    return out


def ovs_congestion():
    """--mesh-pattern congestion (5.5) on Open vSwitch: see congestion_body."""
    ovs_case("ovs_congestion", congestion_body)


def bcast_body(c, sw, ovs):
    """Port 0 broadcasts 1000 frames: OVS floods each to the three other
    ports; every receiver's count exact; OVS's per-port counters agree."""
    before = [ovs_pkts(ovs, s) for s in sw.sw]
    rc, out, doc = sw.run(ts.mesh_opts("1000", ["--mesh-pattern", "broadcast"]), "bcast")
    c.eq(rc, 0, "exit code")
    if doc is None:
        return out
    t = doc["rfc2889"]["trials"][0]
    c.eq((t["pass"], t["broadcast"]["frames_sent"]), (True, 1000), "nothing lost")
    check_bcast(c, doc, 4, "broadcast")
    check_ovs_counters(c, ovs, sw, doc, before, "broadcast")
    p = subprocess.run([twoend.WIRERATE, "report", sw.bed.path("bcast.json")],
                       capture_output=True, text=True)
    c.true(p.returncode == 0 and "meshed forwarding" in p.stdout,
           "report: %r" % p.stdout[:600])
    print(json.dumps([x["latency"] for x in t["ports"]]))
    return out


def ovs_broadcast():
    """--mesh-pattern broadcast (5.10) on Open vSwitch: see bcast_body."""
    ovs_case("ovs_broadcast", bcast_body)


CASES = cases.by_name(bridge_broadcast, ovs_mesh, ovs_congestion, ovs_broadcast)

if __name__ == "__main__":
    try:
        cases.main(CASES)
    finally:
        twoend.close_all()
