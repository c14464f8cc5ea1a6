# SPDX-License-Identifier: BSD-3-Clause
"""RFC 2889's address modes (--mode addr-capacity, addr-learning) and
meshed forwarding (--mode mesh; docs/rfc2889.md) against real switches: the Linux bridge and Open vSwitch
in a namespace of their own, wirerate's three net_af_packet ports on veth
pairs in another. What wirerate concluded is checked against what the
switch says itself (bridge fdb show, its fdb_max_learned, ovs-appctl
fdb/stats-show), the ports' kernel counters and a marker file the reset
hook writes. Bad input is refused before any traffic. Root.
Usage: test_switch.py CASE."""
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "twoend"))
import cases  # noqa: E402
import twoend  # noqa: E402
import wrtest  # noqa: E402
from capture_model import tshark_fields  # noqa: E402
from twoend import Bed, sh  # noqa: E402
from wrtest import Checker  # noqa: E402

PLAN = "02:28:89:"          # the default --addr-plan's first octets
GEN_MACS = tuple("02:00:00:00:0a:%02x" % (i + 1) for i in range(16))



def af_packet(i, dev):
    return "net_af_packet%d,iface=%s,framecnt=4096" % (i, dev)


class Switch:
    """A namespace "S" with a switch, another "G" for wirerate, and n
    (3) veth pairs between them: G's ends are wirerate's ports 0, 1, 2...
    (the learning, test and monitoring ports of the address modes), S's
    ends the switch's ports."""

    def __init__(self, bed, n=3):
        self.bed = bed
        self.ns_g, self.ns_s = bed.add_netns("G"), bed.add_netns("S")
        self.gen, self.sw = [], []
        for i in range(n):
            g, s = "%sg%d" % (bed.tag, i), "%ss%d" % (bed.tag, i)
            # Made inside the namespaces: they take their IPv6 off (an
            # interface moved there keeps this one's, and its router
            # solicitations would cross the switch).
            sh("ip", "-n", self.ns_g, "link", "add", g, "type", "veth", "peer",
               "name", s, "netns", self.ns_s)
            sh("ip", "-n", self.ns_g, "link", "set", g, "address", GEN_MACS[i],
               "multicast", "off", "up")
            sh("ip", "-n", self.ns_s, "link", "set", s, "multicast", "off", "up")
            self.gen.append(g)
            self.sw.append(s)
        self.marker = bed.path("resets")

    def in_s(self, *argv):
        return sh("ip", "netns", "exec", self.ns_s, *argv)

    def rx_pkts(self, i):
        """Kernel's count of frames received by wirerate's port i."""
        out = sh("ip", "-n", self.ns_g, "-s", "-j", "link", "show", "dev",
                 self.gen[i]).stdout
        return json.loads(out)[0]["stats64"]["rx"]["packets"]

    def sw_pkts(self, i):
        """Kernel's (rx, tx) frames of the switch's port i."""
        out = sh("ip", "-n", self.ns_s, "-s", "-j", "link", "show", "dev",
                 self.sw[i]).stdout
        st = json.loads(out)[0]["stats64"]
        return st["rx"]["packets"], st["tx"]["packets"]

    def resets(self):
        if not os.path.exists(self.marker):
            return 0
        with open(self.marker) as f:
            return len(f.read().splitlines())

    def add_tbf(self, dev, rate="1mbit"):
        """A tbf of rate (2 kB burst, 20 ms queue) as dev's root qdisc."""
        self.in_s("tc", "qdisc", "add", "dev", dev, "root", "tbf", "rate", rate,
                  "burst", "2kb", "latency", "20ms")

    def hook(self, cmd):
        """--fdb-reset: cmd in S, then a line in the marker file."""
        return "ip netns exec %s %s && echo reset >> %s" % (self.ns_s, cmd, self.marker)

    def run(self, opts, name, timeout=90):
        """wirerate in G on the three ports; (exit code, output, result)."""
        path = self.bed.path(name + ".json")
        p = self.bed.wirerate("a", [af_packet(i, g) for i, g in enumerate(self.gen)],
                              opts + ["--json", path], netns=self.ns_g, name=name)
        rc = p.wait(timeout)
        return rc, p.text(), twoend.load_json(path)


def linux_bridge(sw, fdb_max=None):
    """br0 in S over the three ports; STP off (ports forward at once),
    multicast snooping off (its router discovery sends IGMP reports)."""
    sw.in_s("ip", "link", "add", "br0", "type", "bridge", "stp_state", "0",
            "mcast_snooping", "0")
    for s in sw.sw:
        sw.in_s("ip", "link", "set", s, "master", "br0")
    # No IGMP report from the bridge's own interface on the ports.
    sw.in_s("ip", "link", "set", "br0", "multicast", "off", "up")


def learned(sw, port):
    """Plan addresses in br0's fdb learned on switch port `port`."""
    out = sw.in_s("bridge", "-j", "fdb", "show", "br", "br0").stdout
    return sorted(e["mac"] for e in json.loads(out) if e["mac"].startswith(PLAN) and
                  e.get("ifname") == sw.sw[port] and "permanent" not in e.get("state", ""))


def fdb_monitor(c, bed, sw):
    """`bridge monitor fdb` in the switch's namespace, ready: it has shown
    a static entry added for the purpose (and deleted)."""
    mon = bed.spawn("fdbmon", ["ip", "netns", "exec", sw.ns_s, "stdbuf", "-oL",
                               "bridge", "monitor", "fdb"])
    probe_mac = "02:00:5e:ff:ff:01"
    deadline = time.monotonic() + 10
    ready = False
    while not ready and time.monotonic() < deadline:
        sw.in_s("bridge", "fdb", "replace", probe_mac, "dev", sw.sw[2], "master", "static")
        ready = mon.wait_text(probe_mac, 0.5)
    sw.in_s("bridge", "fdb", "del", probe_mac, "dev", sw.sw[2], "master")
    c.true(ready, "bridge monitor fdb ready")
    return mon


def check_fdb_events(c, sw, mon, doc, limit=None):
    """The kernel's own learning events (bridge monitor fdb): each trial
    learned its plan's addresses anew on the learning port after the reset
    hook's flush (up to the bridge's limit), so the plan addresses' new
    entries there number the trials' addresses; the flushes show as
    deletions."""
    time.sleep(0.3)
    mon.stop()
    new = deleted = 0
    for line in mon.text().splitlines():
        w = line.split()
        if not w:
            continue
        gone = w[0] == "Deleted"
        mac = w[1] if gone else w[0]
        if not mac.startswith(PLAN) or "dev" not in w or w[w.index("dev") + 1] != sw.sw[0]:
            continue
        if gone:
            deleted += 1
        else:
            new += 1
    trials = doc["rfc2889"]["trials"]
    want = sum(min(t["addresses"], limit or t["addresses"]) for t in trials)
    print("bridge monitor fdb: %d new plan entries on the learning port, %d deleted; "
          "%d trials of %r addresses" % (new, deleted, len(trials),
                                         sorted({t["addresses"] for t in trials})))
    c.eq(new, want, "bridge monitor fdb: new plan entries on the learning port = "
         "the trials' addresses")
    last = min(trials[-1]["addresses"], limit or trials[-1]["addresses"]) if trials else 0
    c.true(deleted >= want - last, "bridge monitor fdb: each trial's entries flushed "
           "before the next (%d deleted)" % deleted)


def addr_opts(sw, mode, count, reset, extra=()):
    return ["--mode", mode, "--addr-count", count, "--addr-rate", "5000",
            "--addr-settle", "100ms", "--fdb-reset", sw.hook(reset), "--quiet",
            "--checkpoint", "1s"] + list(extra)


def totals(doc):
    t = doc["rfc2889"]["trials"]
    return {k: sum(x[k] for x in t) for k in ("test_received", "flooded",
                                                "learn_flooded", "test_sent")}


def check_counters(c, sw, doc, before):
    """The learning port's and the monitoring port's kernel counters
    against wirerate's counts of every trial (nothing else is sent on the
    veths: IPv6 is off, STP is off)."""
    t = totals(doc)
    c.eq(sw.rx_pkts(0) - before[0], t["test_received"],
         "learning port: kernel rx = test frames delivered")
    c.eq(sw.rx_pkts(2) - before[2], t["flooded"] + t["learn_flooded"],
         "monitoring port: kernel rx = frames flooded to it")
    c.eq(sw.resets(), len(doc["rfc2889"]["trials"]), "one reset per trial")


def finish(c, bed, out=""):
    if c.failed:
        print(out[-3000:])
        bed.dump()
    bed.close()
    c.done()


def bridge_capacity():
    """The Linux bridge without a limit: 512 addresses pass at once (the
    capacity is at least 512); bridge fdb show then holds exactly the 512
    plan addresses on the learning port, none elsewhere; the kernel's
    counters of the learning and monitoring ports match wirerate's. With
    fdb_max_learned 300 (where the kernel has it), the search finds 300."""
    c, bed = Checker("bridge_capacity"), Bed("bridge_capacity")
    sw = Switch(bed)
    linux_bridge(sw)
    reset = "bridge fdb flush dev br0 dynamic"
    before = [sw.rx_pkts(i) for i in range(3)]
    rc, out, doc = sw.run(addr_opts(sw, "addr-capacity", "64-512", reset), "open")
    c.eq(rc, 0, "exit code")
    if doc is None:
        return finish(c, bed, out)
    r = doc["rfc2889"]["result"]
    c.eq((r["found"], r["at_max"], r["capacity_addresses"]), (True, True, 512),
         "capacity at least 512")
    got = learned(sw, 0)
    c.eq(len(got), 512, "bridge fdb show: plan addresses on the learning port")
    c.eq(len(learned(sw, 1)) + len(learned(sw, 2)), 0, "none on the other ports")
    check_counters(c, sw, doc, before)
    if not wrtest.have_br_fdb_max_learned(sw.ns_s, "br0", 300):
        c.skip("the kernel has no IFLA_BR_FDB_MAX_LEARNED (Linux 6.8): no "
               "bridge with a limit to find")
        return finish(c, bed, out)
    os.unlink(sw.marker)
    mon = fdb_monitor(c, bed, sw)
    before = [sw.rx_pkts(i) for i in range(3)]
    rc, out, doc = sw.run(addr_opts(sw, "addr-capacity", "64-512", reset), "limited")
    c.eq(rc, 0, "limited: exit code")
    if doc is None:
        return finish(c, bed, out)
    r = doc["rfc2889"]["result"]
    c.eq((r["found"], r["converged"], r["capacity_addresses"], r["fail_addresses"]),
         (True, True, 300, 301), "fdb_max_learned 300: capacity 300")
    check_counters(c, sw, doc, before)
    check_fdb_events(c, sw, mon, doc, limit=300)
    print("bridge: %d trials, %s" % (len(doc["rfc2889"]["trials"]), r))
    # compare and report read the mode's results as any other kind.
    p = subprocess.run([twoend.WIRERATE, "compare", bed.path("open.json"),
                        bed.path("limited.json")], capture_output=True, text=True)
    c.eq(p.returncode, 1, "compare 512 -> 300: exit code")
    c.true(re.search(r"addr_capacity +512 +300 .*regression", p.stdout) is not None,
           "compare names the regression: %r" % p.stdout)
    p = subprocess.run([twoend.WIRERATE, "report", bed.path("limited.json")],
                       capture_output=True, text=True)
    c.true(p.returncode == 0 and "RFC 2889 5.7 address caching capacity" in p.stdout
           and "| 64 | 1 | 300" in p.stdout, "report: %r" % p.stdout[:600])
    finish(c, bed, out)


def bridge_learning():
    """--mode addr-learning on the Linux bridge: 512 addresses learned at
    every rate up to 20000 frames/s (the bridge learns in its receive
    path); the fdb holds them; the kernel counters agree; tshark reads the
    test frames tcpdump caught on the learning port: EtherType 0x88b5,
    from the test port, each to an address of the plan."""
    c, bed = Checker("bridge_learning"), Bed("bridge_learning")
    sw = Switch(bed)
    linux_bridge(sw)
    cap = bed.path("learn.pcap")
    dump = bed.spawn("tcpdump", ["ip", "netns", "exec", sw.ns_g, "tcpdump", "-U",
                                 "-i", sw.gen[0], "-w", cap])
    c.true(dump.wait_text("listening on", 30), "tcpdump ready")
    mon = fdb_monitor(c, bed, sw)
    before = [sw.rx_pkts(i) for i in range(3)]
    rc, out, doc = sw.run(addr_opts(sw, "addr-learning", "512",
                                    "bridge fdb flush dev br0 dynamic",
                                    ["--learn-rates", "1000-20000", "--resolution", "50"]),
                          "learning")
    c.eq(rc, 0, "exit code")
    if doc is None:
        return finish(c, bed, out)
    r = doc["rfc2889"]["result"]
    c.eq((r["found"], r["addresses"]), (True, 512), "a rate found for 512 addresses")
    c.true(r["learning_rate_pps"] >= 1000, "rate in range: %r" % r)
    c.eq(len(learned(sw, 0)), 512, "bridge fdb show: 512 on the learning port")
    check_counters(c, sw, doc, before)
    c.true("learning rate:" in out, "the table says the rate: %r" % out[-500:])
    check_fdb_events(c, sw, mon, doc)
    time.sleep(0.5)
    dump.stop()
    rows = tshark_fields(cap, ["eth.type", "eth.src", "eth.dst"])
    c.eq(len(rows), totals(doc)["test_received"], "tshark: frames at the learning port")
    c.true(all(r == ["0x88b5", GEN_MACS[1], r[2]] and r[2].startswith(PLAN)
               for r in rows), "tshark: test frames to plan addresses: %r" % rows[:3])
    # compare judges learn_rate_pps: with itself it passes, 20 % less fails.
    worse = bed.path("worse.json")
    r["learning_rate_pps"] *= 0.8
    with open(worse, "w") as f:
        json.dump(doc, f)
    for other, want in ((bed.path("learning.json"), 0), (worse, 1)):
        p = subprocess.run([twoend.WIRERATE, "compare", bed.path("learning.json"),
                            other], capture_output=True, text=True)
        c.true(p.returncode == want and re.search(
            r"learn_rate_pps .*%s" % ("regression" if want else "pass"), p.stdout),
            "compare: exit %d, learn_rate_pps judged: %r" % (want, p.stdout[-400:]))
    finish(c, bed, out)


def mesh_opts(rate, extra=()):
    return ["--mode", "mesh", "--mesh-rate", rate, "--trial", "1s",
            "--addr-settle", "200ms", "--quiet", "--checkpoint", "1s"] + list(extra)


def check_pairs(c, doc, pattern, n, what):
    """Every trial: the pattern's pairs, each balanced exactly (sent =
    received + lost), the ports' sums the pairs' sums."""
    rule = {"full": lambda a, b: True, "one-to-many": lambda a, b: a == 0,
            "many-to-one": lambda a, b: b == 0,
            "congestion": lambda a, b: (a, b) in ((0, 2), (0, 3), (1, 2))}[pattern]
    want = sorted((a, b) for a in range(n) for b in range(n) if a != b and rule(a, b))
    for t in doc["rfc2889"]["trials"]:
        pairs = t["pairs"]
        c.eq(sorted((x["src"], x["dst"]) for x in pairs), want,
             "%s: the pairs of %s" % (what, pattern))
        c.true(all(x["sent"] == x["received"] + x["lost"] and x["sent"] > 0
                   for x in pairs), "%s: every pair sent = received + lost: %r"
               % (what, pairs))
        for p in t["ports"]:
            i = p["index"]
            c.eq((p["sent"], p["received"], p["lost"]),
                 (sum(x["sent"] for x in pairs if x["src"] == i),
                  sum(x["received"] for x in pairs if x["dst"] == i),
                  sum(x["lost"] for x in pairs if x["src"] == i)),
                 "%s: port %d's sums" % (what, i))


def check_port_counters(c, sw, doc, before, what):
    """Each switch port's kernel counters against what wirerate counted
    over every trial: rx = the frames its wirerate port sent (learning
    frames too), tx = the frames that port received (ours to it, ours
    flooded to it, any other)."""
    for i in range(len(sw.sw)):
        ps = [p for t in doc["rfc2889"]["trials"] for p in t["ports"] if p["index"] == i]
        rx, tx = sw.sw_pkts(i)
        c.eq(rx - before[i][0], sum(p["sent"] + p["learn_sent"] for p in ps),
             "%s: switch port %d rx = frames wirerate's port %d sent" % (what, i, i))
        c.eq(tx - before[i][1], sum(p["received"] + p["stray"] + p["other_received"]
                                    for p in ps),
             "%s: switch port %d tx = frames wirerate's port %d received" % (what, i, i))


def bridge_mesh():
    """--mode mesh over 4 ports of the Linux bridge: fully meshed (5.1)
    at 2000 frames/s per port for 1 s, then one-to-many (5.2). Every pair
    of the pattern is counted exactly (sent = received + lost), nothing is
    lost, and each bridge port's kernel rx and tx counters equal what
    wirerate sent from and received at that port. The table names the
    forwarding rate; report reads it."""
    c, bed = Checker("bridge_mesh"), Bed("bridge_mesh")
    sw = Switch(bed, 4)
    linux_bridge(sw)
    out = ""
    for pattern, rate in (("full", "2000"), ("one-to-many", "3000")):
        before = [sw.sw_pkts(i) for i in range(4)]
        rc, out, doc = sw.run(mesh_opts(rate, ["--mesh-pattern", pattern]), pattern)
        c.eq(rc, 0, "%s: exit code" % pattern)
        if doc is None:
            return finish(c, bed, out)
        o = doc["rfc2889"]
        c.eq((o["section"], o["pattern"], len(o["ports"]), len(o["trials"])),
             ("5.1" if pattern == "full" else "5.2", pattern, 4, 1), pattern)
        t = o["trials"][0]
        c.eq((t["pass"], t["lost"]), (True, 0), "%s: nothing lost" % pattern)
        c.eq([p["sent"] for p in t["ports"]],
             [int(rate) if pattern == "full" or i == 0 else 0 for i in range(4)],
             "%s: each sending port sent its rate for 1 s" % pattern)
        c.true(o["result"]["forwarding_rate_pps"] > 0.5 * int(rate) * (
            4 if pattern == "full" else 1), "%s: forwarding rate %r" % (pattern, o["result"]))
        check_pairs(c, doc, pattern, 4, pattern)
        check_port_counters(c, sw, doc, before, pattern)
    c.true("forwarding rate:" in out and "3>2" not in out,
           "one-to-many's table: %r" % out[-800:])
    p = subprocess.run([twoend.WIRERATE, "report", bed.path("full.json")],
                       capture_output=True, text=True)
    c.true(p.returncode == 0 and "RFC 2889 5.1-5.5, 5.10 meshed forwarding" in p.stdout,
           "report: %r" % p.stdout[:600])
    finish(c, bed, out)


def tc_dropped(sw, dev):
    out = sw.in_s("tc", "-s", "-j", "qdisc", "show", "dev", dev).stdout
    return sum(q.get("drops", 0) for q in json.loads(out) if q.get("kind") == "tbf")


def tbf_counts(sw, dev):
    """(frames passed, frames dropped) by dev's tbf (tc -s qdisc)."""
    out = sw.in_s("tc", "-s", "-j", "qdisc", "show", "dev", dev).stdout
    q = [q for q in json.loads(out) if q.get("kind") == "tbf"][0]
    return q["packets"], q["drops"]


def tc_offered(sw, dev):
    """Frames offered to dev's tbf so far: those it sent and those it
    dropped (tc -s qdisc)."""
    out = sw.in_s("tc", "-s", "-j", "qdisc", "show", "dev", dev).stdout
    return sum(q.get("packets", 0) + q.get("drops", 0) for q in json.loads(out)
               if q.get("kind") == "tbf")


def bridge_mesh_search():
    """--mode mesh --mesh-pattern many-to-one over 4 ports of the Linux
    bridge whose port to wirerate's port 0 is a tbf of 1 Mbit/s (about
    2000 frames of 60 bytes a second): the throughput search finds a rate
    per port under a third of it and over a tenth; every trial's pairs
    balance exactly; the frames lost in all trials are the frames the tbf
    dropped (tc -s qdisc), and the bridge ports' kernel counters agree."""
    c, bed = Checker("bridge_mesh_search"), Bed("bridge_mesh_search")
    sw = Switch(bed, 4)
    linux_bridge(sw)
    sw.add_tbf(sw.sw[0])
    before = [sw.sw_pkts(i) for i in range(4)]
    drops = tc_dropped(sw, sw.sw[0])
    rc, out, doc = sw.run(mesh_opts("100-3000", ["--mesh-pattern", "many-to-one",
                                                 "--resolution", "10"]), "search")
    c.eq(rc, 0, "exit code")
    if doc is None:
        return finish(c, bed, out)
    r = doc["rfc2889"]["result"]
    c.true(r["search"] and r["found"] and 200 <= r["throughput_pps"] <= 700,
           "throughput per port under the tbf's third: %r" % r)
    check_pairs(c, doc, "many-to-one", 4, "search")
    lost = sum(t["lost"] for t in doc["rfc2889"]["trials"])
    c.true(lost > 0, "some trial lost frames")
    c.eq(tc_dropped(sw, sw.sw[0]) - drops, lost, "tbf dropped = frames lost")
    check_port_counters(c, sw, doc, before, "search")
    c.true("throughput:" in out, "the table says the throughput: %r" % out[-500:])
    print("mesh search: %d trials, %r" % (len(doc["rfc2889"]["trials"]), r))
    finish(c, bed, out)


def bridge_congestion():
    """--mesh-pattern congestion (RFC 2889 5.5) over 4 ports of the Linux
    bridge whose port to wirerate's port 2 is a tbf of 1 Mbit/s (about
    2000 frames/s): ports 0 and 1 at 2000 frames/s offer port 2 3000
    frames/s (half of port 0's and all of port 1's); port 0's other half
    goes to port 3. The congested flows lose exactly the frames the tbf
    dropped; the uncongested flow loses none: no head-of-line blocking
    (the bridge queues per output port), and no back pressure. (A switch
    with head-of-line blocking: unit rfc2889mesh judges its counts.)"""
    c, bed = Checker("bridge_congestion"), Bed("bridge_congestion")
    sw = Switch(bed, 4)
    linux_bridge(sw)
    sw.add_tbf(sw.sw[2])
    before = [sw.sw_pkts(i) for i in range(4)]
    drops = tc_dropped(sw, sw.sw[2])
    rc, out, doc = sw.run(mesh_opts("2000", ["--mesh-pattern", "congestion"]), "nohol")
    c.eq(rc, 0, "exit code")
    if doc is None:
        return finish(c, bed, out)
    o = doc["rfc2889"]
    c.eq((o["section"], o["pattern"]), ("5.5", "congestion"), "section")
    check_pairs(c, doc, "congestion", 4, "congestion")
    g = o["trials"][0]["congestion"]
    c.true(g["congested_lost"] > 0, "the congested port lost frames: %r" % g)
    c.eq(tc_dropped(sw, sw.sw[2]) - drops, g["congested_lost"],
         "tbf dropped = the congested flows' loss")
    c.eq((g["uncongested_lost"], g["head_of_line_blocking"], g["back_pressure"]),
         (0, False, False), "Linux bridge: no head-of-line blocking: %r" % g)
    c.true(g["uncongested_sent"] >= 990, "the uncongested flow sent: %r" % g)
    check_port_counters(c, sw, doc, before, "congestion")
    c.true("head-of-line blocking: no" in out, "table: %r" % out[-600:])
    finish(c, bed, out)


class Ovs:
    """ovsdb-server and ovs-vswitchd of this test only, in S, with their
    database, sockets, logs and pid files in the bed's directory."""

    def __init__(self, sw):
        self.sw, d = sw, sw.bed.path("ovs")
        os.mkdir(d)
        self.env = dict(os.environ, OVS_RUNDIR=d, OVS_LOGDIR=d, OVS_DBDIR=d,
                        OVS_SYSCONFDIR=d)
        self.db, self.sock = os.path.join(d, "conf.db"), os.path.join(d, "db.sock")
        self.pids = [os.path.join(d, "ovsdb-server.pid"),
                     os.path.join(d, "ovs-vswitchd.pid")]
        subprocess.run(["ovsdb-tool", "create", self.db,
                        "/usr/share/openvswitch/vswitch.ovsschema"], check=True)
        self.daemon(["ovsdb-server", self.db, "--remote=punix:" + self.sock,
                     "--pidfile=" + self.pids[0], "--detach",
                     "--log-file=" + os.path.join(d, "ovsdb.log")])
        self.vsctl("--no-wait", "init")
        self.daemon(["ovs-vswitchd", "unix:" + self.sock, "--pidfile=" + self.pids[1],
                     "--detach", "--log-file=" + os.path.join(d, "vswitchd.log")])
        self.ctl = None
        for _ in range(100):
            ctl = [f for f in os.listdir(d) if f.startswith("ovs-vswitchd.")
                   and f.endswith(".ctl")]
            if ctl:
                self.ctl = os.path.join(d, ctl[0])
                break
            time.sleep(0.1)

    def daemon(self, argv):
        subprocess.run(["ip", "netns", "exec", self.sw.ns_s] + argv, env=self.env,
                       check=True, timeout=30)

    def vsctl(self, *args):
        return subprocess.run(["ovs-vsctl", "--db=unix:" + self.sock, "--timeout=20"] +
                              list(args), env=self.env, check=True, timeout=30,
                              capture_output=True, text=True).stdout

    def appctl(self, *args):
        return subprocess.run(["ovs-appctl", "-t", self.ctl] + list(args),
                              env=self.env, check=True, timeout=30,
                              capture_output=True, text=True).stdout

    def stop(self):
        """Stop both daemons by their pid files, vswitchd first."""
        for path in reversed(self.pids):
            try:
                with open(path) as f:
                    pid = int(f.read().strip())
            except (OSError, ValueError):
                continue
            wrtest.stop_pids([pid])


def fdb_stats(ovs):
    """ovs-appctl fdb/stats-show br0 as {words before ':': number(s)}."""
    out = ovs.appctl("fdb/stats-show", "br0")
    d = {}
    for line in out.splitlines():
        m = re.match(r"\s*(.+?):\s*([\d/]+)\s*$", line)
        if m:
            d[m.group(1).strip()] = m.group(2)
    return d, out


def ovs_capacity():
    """Open vSwitch, netdev datapath, other_config:mac-table-size=300: the
    capacity found is the table's size less the test port's own entry
    (OVS learns the test frames' source too, and with a full table evicts
    a learning port's address for it); fdb/stats-show agrees: after the
    last trial its current entries are the table's size, and it counted
    the learning and the evictions the trials made. The reset hook also
    empties the datapath's flow cache (dpctl/del-flows). Then the learning
    rate at that capacity (ovs_learning)."""
    c, bed = Checker("ovs_capacity"), Bed("ovs_capacity")
    for tool in ("ovsdb-server", "ovs-vswitchd", "ovs-vsctl", "ovs-appctl", "ovsdb-tool"):
        if shutil.which(tool) is None:
            bed.close()
            wrtest.skip("Open vSwitch is not installed (%s; the package "
                        "openvswitch-switch, scripts/lib/setup.sh)" % tool)
    sw = Switch(bed)
    ovs = Ovs(sw)
    out = ""
    try:
        c.true(ovs.ctl is not None, "ovs-vswitchd control socket")
        if ovs.ctl is None:
            return
        ovs.vsctl("add-br", "br0", "--", "set", "bridge", "br0", "datapath_type=netdev",
                  "other_config:mac-table-size=300")
        for s in sw.sw:
            ovs.vsctl("add-port", "br0", s)
        sw.in_s("ip", "link", "set", "br0", "multicast", "off", "up")
        time.sleep(1)
        ovs.appctl("fdb/flush", "br0")
        # The table, and the datapath's flow cache: a cached flow of the
        # trial before would carry a learning frame past the slow path,
        # which is where OVS learns (or later, from the revalidators).
        reset = "ovs-appctl -t {0} fdb/flush br0 && ovs-appctl -t {0} dpctl/del-flows".format(
            ovs.ctl)
        before = [sw.rx_pkts(i) for i in range(3)]
        rc, out, doc = sw.run(addr_opts(sw, "addr-capacity", "64-512", reset), "ovs")
        c.eq(rc, 0, "exit code")
        if doc is None:
            return
        r = doc["rfc2889"]["result"]
        c.eq((r["found"], r["converged"], r["capacity_addresses"], r["fail_addresses"]),
             (True, True, 299, 300), "mac-table-size 300: capacity 299")
        st, text = fdb_stats(ovs)
        print(text)
        last = doc["rfc2889"]["trials"][-1]
        cur = st.get("Current/maximum MAC entries in the table", "")
        c.eq(cur, "%d/300" % min(300, last["addresses"] + 1),
             "fdb/stats-show: the last trial's addresses and the test port's")
        c.eq(int(st.get("Total number of learned MAC entries", "-1")),
             sum(t["addresses"] for t in doc["rfc2889"]["trials"]) +
             len(doc["rfc2889"]["trials"]),
             "fdb/stats-show: learned = every trial's addresses and test port")
        # Each trial over the table's size evicted what did not fit.
        c.eq(int(st.get("Total number of evicted MAC entries", "-1")),
             sum(max(0, t["addresses"] + 1 - 300) for t in doc["rfc2889"]["trials"]),
             "fdb/stats-show: evicted = what each trial had beyond the table")
        check_counters(c, sw, doc, before)
        out = ovs_learning(c, sw, ovs, reset, r["capacity_addresses"], st)
    finally:
        ovs.stop()
        finish(c, bed, out)


def ovs_learning(c, sw, ovs, reset, n, st0):
    """5.8 on OVS with N the capacity found: the learning rate search
    learns all N in its passing trials; fdb/stats-show counted each
    trial's N and the test port's entry learned, and nothing evicted (N
    and the test port fill the table exactly)."""
    key_l, key_e = "Total number of learned MAC entries", "Total number of evicted MAC entries"
    os.unlink(sw.marker)
    before = [sw.rx_pkts(i) for i in range(3)]
    rc, out, doc = sw.run(addr_opts(sw, "addr-learning", str(n), reset,
                                    ["--learn-rates", "1000-20000", "--resolution", "5"]),
                          "ovs-learning")
    c.eq(rc, 0, "learning: exit code")
    if doc is None:
        return out
    r = doc["rfc2889"]["result"]
    trials = doc["rfc2889"]["trials"]
    c.eq((r["found"], r["addresses"]), (True, n), "learning: a rate found for %d" % n)
    st, text = fdb_stats(ovs)
    print("OVS learning rate: %r; %d trials\n%s" % (r.get("learning_rate_pps"), len(trials), text))
    # A trial at a rate OVS's slow path cannot keep up with learns fewer:
    # those are the failed trials (test frames flooded), counted apart.
    learned_n = int(st.get(key_l, "-1")) - int(st0.get(key_l, "0"))
    passed = [t for t in trials if t["pass"]]
    c.true(len(passed) >= 1, "learning: a trial passed")
    c.true(learned_n >= len(passed) * (n + 1) and
           learned_n <= sum(t["addresses"] + 1 for t in trials),
           "fdb/stats-show learned %d: every passing trial's %d and the test port, "
           "at most every trial's" % (learned_n, n))
    c.eq(int(st.get(key_e, "-1")) - int(st0.get(key_e, "0")), 0,
         "fdb/stats-show: nothing evicted (%d and the test port fill the table)" % n)
    check_counters(c, sw, doc, before)
    return out


def bad_input():
    """Each bad input is refused with exit 2, naming the option, before
    any traffic: the reset hook's marker file is never written."""
    c = Checker("bad_input")
    bed = Bed("bad_input")
    marker = bed.path("marker")
    hook = "touch " + marker
    nulls = ["net_null0", "net_null1", "net_null2"]
    base = ["--mode", "addr-capacity", "--fdb-reset", hook]
    for opts, msg in (
            (["--mode", "addr-capacity"], "--mode addr-capacity needs --fdb-reset"),
            (["--mode", "addr-learning"], "--mode addr-learning needs --fdb-reset"),
            (base + ["--addr-count", "0"], "--addr-count"),
            (base + ["--addr-count", "500-100"], "--addr-count 500-100: the largest"),
            (base + ["--addr-count", "2000000"], "--addr-count"),
            (base + ["--addr-rate", "0"], "--addr-rate"),
            (base + ["--learn-rates", "1000-100"], "--learn-rates"),
            (base + ["--learn-rates", "fast"], "--learn-rates fast"),
            (base + ["--addr-ports", "0,0,1"], "three different ports"),
            (base + ["--addr-ports", "0,1"], "--addr-ports 0,1"),
            (base + ["--addr-plan", "01:00:5e:00:00:01"], "--addr-plan"),
            (base + ["--aging", "100ms"], "--aging"),
            (base + ["--fdb-reset", ""], "--fdb-reset"),
            (["--mode", "mesh", "--mesh-pattern", "star"],
             "--mesh-pattern star: expected full, one-to-many, many-to-one, "
             "congestion, unidirectional, multi-device or broadcast"),
            (["--mode", "mesh", "--mesh-rate", "0"], "--mesh-rate: expected PPS"),
            (["--mode", "mesh", "--mesh-rate", "500-100"],
             "--mesh-rate 500-100: the largest rate must be above"),
            (["--mode", "mesh", "--mesh-rate", "fast"], "--mesh-rate: expected")):
        wrtest.refused(c, nulls, opts, msg)
    # Found once the ports are known, still before any frame.
    for vdevs, opts, msg in (
            (nulls[:2], base, "--addr-ports: the monitoring port is index 2, but "
             "the run has 2 ports"),
            (nulls, base + ["--addr-count", "5000", "--addr-rate", "1000",
                            "--aging", "2s"], "--aging 2.000 s: a trial of 5000 "
             "addresses takes"),
            (nulls, base + ["--addr-plan", "02:ff:ff:ff:ff:ff", "--addr-count",
                            "2"], "--addr-plan: 2 addresses from the base run past"),
            (nulls, base + ["--rx-ports", "0,1"], "the monitoring port (index 2) "
             "must receive"),
            (nulls[:1], ["--mode", "mesh"], "--mode mesh: 1 ports; a meshed "
             "trial needs 2 to 16 ports"),
            (nulls, ["--mode", "mesh", "--mesh-pattern", "congestion"],
             "--mesh-pattern congestion: 3 ports; it needs 4"),
            (nulls, ["--mode", "mesh", "--mesh-pattern", "many-to-one",
                     "--rx-ports", "1,2"], "--mode mesh --mesh-pattern "
             "many-to-one: port 0 must receive"),
            (nulls, ["--mode", "mesh", "--mesh-forward-pressure", "1M",
                     "--mesh-rate", "1000"], "--mesh-forward-pressure sets the "
             "rate of its one trial: leave out --mesh-rate"),
            (nulls, ["--mesh-forward-pressure", "1M"],
             "--mesh-forward-pressure needs --mode mesh"),
            (nulls, ["--mode", "mesh", "--mesh-forward-pressure", "12"],
             "mesh-forward-pressure"),
            (nulls, ["--mode", "mesh", "--sizes", "64,2000"], "--mode mesh: "
             "frame size 2000 (--size, --sizes): its frames are 64 to 1518 "
             "bytes")):
        wrtest.refused(c, vdevs, opts, msg)
    c.true(not os.path.exists(marker), "the reset hook never ran")
    # A hook that fails is a failed run (1), with what it said.
    r = wrtest.run(nulls, ["--mode", "addr-capacity", "--fdb-reset", "exit 3",
                           "--addr-count", "8"])
    c.eq(r.rc, 1, "failing hook: exit code")
    c.true("--fdb-reset 'exit 3' exited with 3" in r.err, repr(r.err[-300:]))
    bed.close()
    c.done(r)


CASES = cases.by_name(bad_input, bridge_capacity, bridge_learning, ovs_capacity,
                      bridge_mesh, bridge_mesh_search, bridge_congestion)

if __name__ == "__main__":
    try:
        cases.main(CASES)
    finally:
        twoend.close_all()
