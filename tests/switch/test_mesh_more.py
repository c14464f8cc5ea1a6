# SPDX-License-Identifier: BSD-3-Clause
"""More of RFC 2889's meshed forwarding (--mode mesh; docs/rfc2889.md)
against the Linux bridge: unidirectional traffic (5.4, --mesh-pattern
unidirectional) over four ports of one bridge, and multiple devices
(5.3, --mesh-pattern multi-device) over two bridges in two namespaces
joined by one veth. Every pair is counted exactly (sent = received +
lost) and compared with the kernel's counters of the switch ports (and
of the link between the bridges). Root.
Usage: test_mesh_more.py CASE."""
import copy
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_switch as ts  # noqa: E402
import test_mesh_report as tr  # noqa: E402
from test_switch import Switch, linux_bridge, mesh_opts  # noqa: E402
import cases  # noqa: E402
from twoend import Bed, sh  # noqa: E402
from wrtest import Checker  # noqa: E402


def finish(c, bed, out=""):
    if c.failed:
        print(out[-3000:])
        bed.dump()
    bed.close()
    c.done()


def want_pairs(pattern, n):
    """The pairs of a halves' pattern over n ports (the RFC's halves)."""
    h = n // 2
    return sorted((a, b) for a in range(n) for b in range(n)
                  if (a < h) != (b < h) and (pattern == "multi-device" or a < h))


def check_trials(c, doc, pattern, n, rate):
    """Every trial: the pattern's pairs, each exact and lossless, each
    sending port's frames its rate for 1 s."""
    o = doc["rfc2889"]
    c.eq((o["section"], o["pattern"], len(o["ports"]), len(o["trials"])),
         ("5.3" if pattern == "multi-device" else "5.4", pattern, n, 1), pattern)
    t = o["trials"][0]
    pairs = t["pairs"]
    c.eq(sorted((x["src"], x["dst"]) for x in pairs), want_pairs(pattern, n),
         "%s: the pairs" % pattern)
    c.true(all(x["sent"] == x["received"] + x["lost"] and x["sent"] > 0
               and x["stray"] == 0 for x in pairs),
           "%s: every pair sent = received + lost, nothing flooded: %r"
           % (pattern, pairs))
    c.eq((t["pass"], t["lost"]), (True, 0), "%s: nothing lost" % pattern)
    senders = {a for a, _ in want_pairs(pattern, n)}
    c.eq([p["sent"] for p in t["ports"]],
         [rate if i in senders else 0 for i in range(n)],
         "%s: each sending port sent its rate for 1 s" % pattern)


def bridge_unidir():
    """--mesh-pattern unidirectional (RFC 2889 5.4) over 4 ports of the
    Linux bridge at 2000 frames/s per sending port: ports 0 and 1 each
    send to ports 2 and 3, nothing the other way; every pair exact and
    lossless; each bridge port's kernel rx and tx counters equal what
    wirerate sent from and received at its port."""
    c, bed = Checker("bridge_unidir"), Bed("bridge_unidir")
    sw = Switch(bed, 4)
    linux_bridge(sw)
    before = [sw.sw_pkts(i) for i in range(4)]
    rc, out, doc = sw.run(mesh_opts("2000", ["--mesh-pattern", "unidirectional"]),
                          "unidir")
    c.eq(rc, 0, "exit code")
    if doc is None:
        return finish(c, bed, out)
    check_trials(c, doc, "unidirectional", 4, 2000)
    t = doc["rfc2889"]["trials"][0]
    c.eq([p["received"] for p in t["ports"]], [0, 0, 2000, 2000],
         "the second half received every frame, the first none")
    ts.check_port_counters(c, sw, doc, before, "unidirectional")
    c.true("forwarding rate:" in out, "the table: %r" % out[-600:])
    finish(c, bed, out)


class TwoSwitches(Switch):
    """Switch's namespaces G and S, with a third T: the switch ports of
    wirerate's ports 0, 1 in S (bridge br0), of 2, 3 in T (bridge br1),
    and one veth between S and T, a port of each bridge (RFC 2889 5.3's
    two devices and the link between them)."""

    def __init__(self, bed):
        super().__init__(bed, 4)
        self.ns_t = bed.add_netns("T")
        for s in self.sw[2:]:
            sh("ip", "-n", self.ns_s, "link", "set", s, "netns", self.ns_t)
            sh("ip", "-n", self.ns_t, "link", "set", s, "multicast", "off", "up")
        self.ns_of = [self.ns_s, self.ns_s, self.ns_t, self.ns_t]
        self.trunk = ("%sla" % bed.tag, "%slb" % bed.tag)
        sh("ip", "-n", self.ns_s, "link", "add", self.trunk[0], "type", "veth",
           "peer", "name", self.trunk[1], "netns", self.ns_t)
        for ns, br, ports in ((self.ns_s, "br0", self.sw[:2] + [self.trunk[0]]),
                              (self.ns_t, "br1", self.sw[2:] + [self.trunk[1]])):
            sh("ip", "-n", ns, "link", "add", br, "type", "bridge", "stp_state",
               "0", "mcast_snooping", "0")
            for s in ports:
                sh("ip", "-n", ns, "link", "set", s, "multicast", "off", "master",
                   br, "up")
            sh("ip", "-n", ns, "link", "set", br, "multicast", "off", "up")

    def sw_pkts(self, i):
        return self.link_pkts(self.ns_of[i], self.sw[i])

    def link_pkts(self, ns, dev):
        """Kernel's (rx, tx) frames of dev in namespace ns."""
        out = sh("ip", "-n", ns, "-s", "-j", "link", "show", "dev", dev).stdout
        st = json.loads(out)[0]["stats64"]
        return st["rx"]["packets"], st["tx"]["packets"]


def bridges_multi():
    """--mesh-pattern multi-device (RFC 2889 5.3) over two Linux bridges
    in two namespaces joined by one veth, wirerate's ports 0, 1 on the
    first and 2, 3 on the second, 2000 frames/s per port: each port sends
    to both ports of the other bridge; every pair exact and lossless; the
    bridge ports' kernel counters equal wirerate's counts, and the link
    between the bridges carried, each way, exactly the frames that cross
    it (the pairs' frames from that side and the learning frames, which
    are broadcast)."""
    c, bed = Checker("bridges_multi"), Bed("bridges_multi")
    sw = TwoSwitches(bed)
    before = [sw.sw_pkts(i) for i in range(4)]
    link0 = sw.link_pkts(sw.ns_s, sw.trunk[0])
    rc, out, doc = sw.run(mesh_opts("2000", ["--mesh-pattern", "multi-device"]),
                          "multi")
    c.eq(rc, 0, "exit code")
    if doc is None:
        return finish(c, bed, out)
    check_trials(c, doc, "multi-device", 4, 2000)
    ts.check_port_counters(c, sw, doc, before, "multi-device")
    ports = doc["rfc2889"]["trials"][0]["ports"]
    link = sw.link_pkts(sw.ns_s, sw.trunk[0])
    c.eq(link[1] - link0[1], sum(p["sent"] + p["learn_sent"] for p in ports[:2]),
         "link S->T tx = frames of ports 0, 1 (pairs and learning)")
    c.eq(link[0] - link0[0], sum(p["sent"] + p["learn_sent"] for p in ports[2:]),
         "link T->S rx = frames of ports 2, 3 (pairs and learning)")
    c.eq([p["received"] for p in ports], [2000] * 4,
         "every port received its two senders' 1000 frames each")
    finish(c, bed, out)


def bridge_mfr():
    """RFC 2889 5.6's maximum forwarding rate: two ports of the Linux
    bridge, unidirectional, the bridge's port to wirerate's port 1 a tbf
    of 1 Mbit/s (about 2080 frames of 60 bytes a second); a search over
    1000-4000 frames/s, 3 trials, loads above what the tbf passes
    included. Every pair exact; the frames lost are the tbf's drops; the
    frames received at port 1 (and the learning frame flooded to it) are
    the frames the tbf passed; port 1's MFR is the highest forwarding rate
    of the trials, within what the tbf passes (its rate and its burst)."""
    c, bed = Checker("bridge_mfr"), Bed("bridge_mfr")
    sw = Switch(bed, 2)
    linux_bridge(sw)
    sw.add_tbf(sw.sw[1])
    sent0, drops0 = ts.tbf_counts(sw, sw.sw[1])
    rc, out, doc = sw.run(mesh_opts("1000-4000", [
        "--mesh-pattern", "unidirectional", "--max-trials", "3"]), "mfr")
    c.eq(rc, 0, "exit code")
    if doc is None:
        return finish(c, bed, out)
    o = doc["rfc2889"]
    trials = o["trials"]
    c.true(all(x["sent"] == x["received"] + x["lost"] for t in trials
               for x in t["pairs"]), "every pair sent = received + lost")
    sent, drops = ts.tbf_counts(sw, sw.sw[1])
    c.eq(drops - drops0, sum(t["lost"] for t in trials), "tbf dropped = frames lost")
    p1 = [p for t in trials for p in t["ports"] if p["index"] == 1]
    c.eq(sent - sent0, sum(p["received"] + p["stray"] + p["other_received"]
                           for p in p1), "tbf passed = frames port 1 received")
    mfr = o["result"]["max_forwarding_rate"]
    best = max(p1, key=lambda p: p["forwarding_rate_pps"])
    c.eq(mfr[1]["mfr_pps"], best["forwarding_rate_pps"],
         "port 1's MFR is its best trial's forwarding rate")
    c.true(1500 <= mfr[1]["mfr_pps"] <= 2600 and mfr[0]["mfr_pps"] == 0,
           "MFR within what the tbf passes: %r" % mfr)
    c.true(any(t["offered_pps"] > 2600 for t in trials),
           "a load above the tbf's rate was offered")
    print("mfr: trials (offered, port 1 rate) %r, tbf passed %d dropped %d, %r" % (
        [(t["offered_pps"], p["forwarding_rate_pps"]) for t, p in zip(trials, p1)],
        sent - sent0, drops - drops0, mfr))
    finish(c, bed, out)


def bridge_fwd_pressure():
    """RFC 2889 5.6's forward pressure (--mesh-forward-pressure 1M) on two
    ports of the Linux bridge, unidirectional: a trial at the rate of an
    88-bit gap on a declared 1 Mbit/s link (1e6 / 664 bits = 1506 frames
    of 64 bytes a second; the legal rate is 1e6 / 672 = 1488), run again
    (3 at most) while port 0's own sending rate fell under the legal one
    (a busy host stretching the trial). The bridge alone forwards every
    frame: forward pressure found at port 1. With a tbf of 560 kbit/s
    (about 1170 frames of 60 bytes a second, and its burst) on the
    bridge's port to port 1: none. Each time the frames port 1 received
    over every trial are the bridge port's kernel tx count (the tbf's
    passed frames); every trial but the last fell under the legal rate by
    its own figures; and the verdict is the kernel's count of the last
    trial (the kernel's total less the earlier trials' frames) over its
    sending time against the legal rate."""
    c, bed = Checker("bridge_fwd_pressure"), Bed("bridge_fwd_pressure")
    sw = Switch(bed, 2)
    linux_bridge(sw)
    out, docs = "", {}
    for name, tbf in (("free", False), ("capped", True)):
        if tbf:
            sw.add_tbf(sw.sw[1], "560kbit")
        tx0 = sw.sw_pkts(1)[1]
        rc, out, doc = sw.run(["--mode", "mesh", "--mesh-pattern", "unidirectional",
                               "--mesh-forward-pressure", "1M", "--trial", "1s",
                               "--addr-settle", "200ms", "--quiet"], name)
        c.eq(rc, 0, "%s: exit code" % name)
        if doc is None:
            return finish(c, bed, out)
        o = doc["rfc2889"]
        trials = o["trials"]
        t = trials[-1]
        f = o["result"]["forward_pressure"]
        c.true(abs(f["offered_pps"] - 1e6 / 664) < 0.01 and
               abs(f["legal_pps"] - 1e6 / 672) < 0.01 and
               (f["gap_bits"], f["legal_gap_bits"], f["frame_len"]) == (88, 96, 64),
               "%s: the two rates of the declared link: %r" % (name, f))
        c.eq((len(trials), f["held"]), (f["tries"], True),
             "%s: one trial a try, the last held the rate" % name)
        c.true(all(x["ports"][0]["sent"] == 1506 for x in trials),
               "%s: each trial the 88-bit gap's frames for 1 s" % name)
        c.true(all(x["ports"][0]["sent"] / x["send_s"] <= f["legal_pps"]
                   for x in trials[:-1]) and
               t["ports"][0]["sent"] / t["send_s"] > f["legal_pps"],
               "%s: tried again only while port 0 sent under the legal rate: "
               "%r" % (name, [(x["ports"][0]["sent"], x["send_s"]) for x in trials]))
        p1 = [x["ports"][1] for x in trials]
        got = [p["received"] + p["stray"] + p["other_received"] for p in p1]
        tx = sw.sw_pkts(1)[1] - tx0
        c.eq(tx, sum(got), "%s: bridge port 1 kernel tx = frames port 1 received"
             % name)
        last = tx - sum(got[:-1]) - p1[-1]["stray"] - p1[-1]["other_received"]
        kernel = last / t["send_s"]
        c.eq((f["found"], f["port"]), (kernel > f["legal_pps"],
                                       1 if kernel > f["legal_pps"] else None),
             "%s: verdict = kernel count %.1f/s against the legal rate" % (name, kernel))
        c.eq(f["found"], not tbf, "%s: forward pressure %s" % (
            name, "found" if not tbf else "not found"))
        c.true(("forward pressure: %s" % ("no" if tbf else "yes")) in out,
               "%s: the table: %r" % (name, out[-500:]))
        print("%s: %r, kernel %.1f/s" % (name, f, kernel))
        docs[name] = doc
    pressure_compare(c, bed, docs)
    finish(c, bed, out)


def pressure_compare(c, bed, docs):
    """report's forward pressure row is the result's; compare judges
    mesh_fp_over_pct: each run with itself exit 0, the free run's figure
    raised by 5 points is a regression (exit 1) naming it alone."""
    for name, doc in docs.items():
        path = bed.path("%s.json" % name)
        f = doc["rfc2889"]["result"]["forward_pressure"]
        p = tr.tool(["report", path])
        row = tr.rows(p.stdout, "forward pressure (a gap of 88 bits")
        c.eq(row, [["64", "%.0f" % f["link_bps"], "%.1f" % f["offered_pps"],
                    "%.1f" % f["legal_pps"], "%.1f" % f["tx_pps"], str(f["tries"]),
                    "-" if f["port"] is None else str(f["port"]),
                    "-" if f["port"] is None else
                    "%.1f" % f["ports"][f["port"]]["forwarding_rate_pps"],
                    "%.2f" % f["over_legal_pct"], "yes" if f["found"] else "no"]],
             "%s: report's forward pressure row" % name)
        p = tr.tool(["compare", path, path])
        c.true(p.returncode == 0 and "mesh_fp_over_pct" in p.stdout,
               "%s: compare with itself: exit 0, judged: %r" % (name, p.stdout[-400:]))
    free = docs["free"]["rfc2889"]["result"]["forward_pressure"]
    c.true(free["over_legal_pct"] > 0 and
           docs["capped"]["rfc2889"]["result"]["forward_pressure"][
               "over_legal_pct"] == 0, "over_legal_pct: > 0 free, 0 capped")
    worse = copy.deepcopy(docs["free"])
    r = worse["rfc2889"]["results"][0]     # compare reads each size's
    worse["rfc2889"]["result"] = r
    r["forward_pressure"]["over_legal_pct"] += 5
    p = tr.tool(["compare", bed.path("free.json"), tr.write(bed, "worse.json", worse)])
    c.eq(p.returncode, 1, "planted: exit 1: %s" % p.stdout[-600:])
    verdict = [x for x in p.stdout.splitlines() if x.startswith("verdict:")]
    c.true(len(verdict) == 1 and "mesh_fp_over_pct" in verdict[0] and
           "mesh_fwd_pps" not in verdict[0] and "port" not in verdict[0],
           "the verdict names mesh_fp_over_pct alone: %r" % verdict)


def sw_bytes(sw, i):
    """Kernel's rx bytes of the switch's port i."""
    out = sh("ip", "-n", sw.ns_s, "-s", "-j", "link", "show", "dev", sw.sw[i]).stdout
    return json.loads(out)[0]["stats64"]["rx"]["bytes"]


def bridge_mesh_sizes():
    """--mode mesh --sizes 64,512 over 4 ports of the Linux bridge, fully
    meshed at 1000 frames/s per port: a trial and a result per size, each
    pair exact and lossless; each bridge port's kernel rx frames and rx
    bytes equal what wirerate's port sent (every trial frame its size less
    the FCS, and the 60-byte learning frames), tx frames what it
    received; report's trials name each trial's size and compare judges
    each size's points."""
    c, bed = Checker("bridge_mesh_sizes"), Bed("bridge_mesh_sizes")
    sw = Switch(bed, 4)
    linux_bridge(sw)
    before = [sw.sw_pkts(i) for i in range(4)]
    bytes0 = [sw_bytes(sw, i) for i in range(4)]
    opts = [x for x in mesh_opts("1000", ["--sizes", "64,512"]) if x != "--quiet"]
    rc, out, doc = sw.run(opts, "sizes")
    c.eq(rc, 0, "exit code")
    if doc is None:
        return finish(c, bed, out)
    o = doc["rfc2889"]
    c.eq(([t["frame_size"] for t in o["trials"]],
          [r["frame_size"] for r in o["results"]], o["sizes"]),
         ([64, 512], [64, 512], [64, 512]), "a trial and a result per size")
    c.eq(o["result"], o["results"][0], "result: the first size's")
    ts.check_pairs(c, doc, "full", 4, "sizes")
    c.true(all((t["pass"], t["lost"]) == (True, 0) for t in o["trials"]),
           "nothing lost at either size")
    ts.check_port_counters(c, sw, doc, before, "sizes")
    for i in range(4):
        ps = [(t["frame_size"], p) for t in o["trials"] for p in t["ports"]
              if p["index"] == i]
        c.eq(sw_bytes(sw, i) - bytes0[i],
             sum(p["sent"] * (fs - 4) + p["learn_sent"] * 60 for fs, p in ps),
             "switch port %d rx bytes = wirerate's frames at their sizes" % i)
        print("port %d: rx bytes %d" % (i, sw_bytes(sw, i) - bytes0[i]))
    prog = re.findall(r"^progress: size (\d)/2 \(?(\d+) B\)?, trial (\d+)", out, re.M)
    c.eq(prog, [(str(i + 1), str(t["frame_size"]), str(i + 1))
                for i, t in enumerate(o["trials"])],
         "a progress line before each trial, naming its size: %r" % prog)
    c.true("at 64 B:" in out and "at 512 B:" in out, "the table by size: %r"
           % out[-600:])
    p = tr.tool(["report", bed.path("sizes.json")])
    c.eq([r[1] for r in tr.rows(p.stdout, "over 4 ports, trials")], ["64", "512"],
         "report: each trial's size")
    p = tr.tool(["compare", bed.path("sizes.json"), bed.path("sizes.json")])
    c.true(p.returncode == 0 and all("%d B, port %d" % (fs, i) in p.stdout
                                     for fs in (64, 512) for i in range(4)),
           "compare: every port judged at each size: %r" % p.stdout[-800:])
    worse = copy.deepcopy(doc)
    worse["rfc2889"]["results"][1]["max_forwarding_rate"][3]["mfr_pps"] *= 0.8
    p = tr.tool(["compare", bed.path("sizes.json"), tr.write(bed, "w.json", worse)])
    verdict = [x for x in p.stdout.splitlines() if x.startswith("verdict:")]
    c.true(p.returncode == 1 and len(verdict) == 1 and
           "mesh_mfr_pps at 512 B, port 3" in verdict[0] and "64 B" not in verdict[0],
           "a regression planted at 512 B is named at 512 B alone: %r" % verdict)
    finish(c, bed, out)


CASES = cases.by_name(bridge_unidir, bridges_multi, bridge_mfr, bridge_fwd_pressure,
                      bridge_mesh_sizes)

if __name__ == "__main__":
    try:
        cases.main(CASES)
    finally:
        ts.twoend.close_all()
