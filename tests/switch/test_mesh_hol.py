# SPDX-License-Identifier: BSD-3-Clause
"""RFC 2889 5.5 (--mesh-pattern congestion; docs/rfc2889.md) on a switch
that has head-of-line blocking, built of Linux bridges: an input-queued
switch. Wirerate's port 0 enters the switch through an input stage (a
bridge "brin" and a veth "input link" into br0, which holds the other
three ports); the input link's qdisc is one tbf, a single queue for every
frame of port 0 whatever its output. Its rate is the congested output's
(1 Mbit/s, as the tbf on the bridge port to port 2): the input queue is
served as fast as the congested port drains, and port 0's frames to the
uncongested port 3 wait and are dropped with those to port 2. The frames
lost are checked against the two tbfs' drops and the bridge ports'
kernel counters. The plain bridge (no input stage) shows no head-of-line
blocking: test_switch.py bridge_congestion. Root.
Usage: test_mesh_hol.py CASE."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_switch as ts  # noqa: E402
import test_mesh_report as tr  # noqa: E402
from test_switch import Switch, mesh_opts  # noqa: E402
import cases  # noqa: E402
from twoend import Bed  # noqa: E402
from wrtest import Checker  # noqa: E402

def finish(c, bed, out=""):
    if c.failed:
        print(out[-3000:])
        bed.dump()
    bed.close()
    c.done()


class InputQueued(Switch):
    """Switch's namespaces with four ports: br0 over the switch ports of
    wirerate's ports 1, 2, 3; the port of wirerate's port 0 in brin, and
    the veth (ia in brin, ib in br0) between brin and br0: port 0's input
    link. A tbf on ia (the input queue) and one on the port to port 2
    (the congested egress)."""

    def __init__(self, bed):
        super().__init__(bed, 4)
        self.ia, self.ib = "%sia" % bed.tag, "%sib" % bed.tag
        self.in_s("ip", "link", "add", self.ia, "type", "veth", "peer", "name", self.ib)
        for br, ports in (("br0", self.sw[1:] + [self.ib]), ("brin", [self.sw[0], self.ia])):
            self.in_s("ip", "link", "add", br, "type", "bridge", "stp_state", "0",
                      "mcast_snooping", "0")
            for s in ports:
                self.in_s("ip", "link", "set", s, "multicast", "off", "master", br, "up")
            self.in_s("ip", "link", "set", br, "multicast", "off", "up")
        for dev in (self.ia, self.sw[2]):
            self.add_tbf(dev)


def bridge_hol():
    """--mesh-pattern congestion at 3000 frames/s per port on the
    input-queued switch (InputQueued): port 0 offers 1500 frames/s to
    port 2 and 1500 to port 3 through its input queue (a tbf of 1 Mbit/s,
    about 2080 frames of 60 bytes a second); port 2 is offered 4500.
    Every pair balances exactly; the uncongested flow (port 0 to port 3)
    loses frames: head-of-line blocking, and the table says so; the frames
    lost in all are the two tbfs' drops; port 0's frames that reached br0
    are the input queue's passed frames; each switch port's kernel
    counters equal wirerate's counts."""
    c, bed = Checker("bridge_hol"), Bed("bridge_hol")
    sw = InputQueued(bed)
    before = [sw.sw_pkts(i) for i in range(4)]
    in0, cong0 = ts.tbf_counts(sw, sw.ia), ts.tbf_counts(sw, sw.sw[2])
    rc, out, doc = sw.run(mesh_opts("3000", ["--mesh-pattern", "congestion"]), "hol")
    c.eq(rc, 0, "exit code")
    if doc is None:
        return finish(c, bed, out)
    o = doc["rfc2889"]
    c.eq((o["section"], o["pattern"], len(o["trials"])), ("5.5", "congestion", 1),
         "section")
    ts.check_pairs(c, doc, "congestion", 4, "congestion")
    t = o["trials"][0]
    g = t["congestion"]
    c.true(g["uncongested_sent"] >= 1400 and g["uncongested_lost"] > 0,
           "the uncongested flow lost frames: %r" % g)
    c.eq((g["head_of_line_blocking"], g["back_pressure"]), (True, False),
         "input-queued switch: head-of-line blocking: %r" % g)
    inq, cong = ts.tbf_counts(sw, sw.ia), ts.tbf_counts(sw, sw.sw[2])
    c.eq((inq[1] - in0[1]) + (cong[1] - cong0[1]), t["lost"],
         "the two tbfs' drops = the frames lost")
    p0 = t["ports"][0]
    c.eq(inq[0] - in0[0], p0["sent"] + p0["learn_sent"] - (inq[1] - in0[1]),
         "input queue passed = port 0's frames less its drops")
    c.true(inq[1] - in0[1] >= g["uncongested_lost"],
           "the input queue dropped the uncongested flow's losses")
    ts.check_port_counters(c, sw, doc, before, "hol")
    c.true("head-of-line blocking: yes" in out, "table: %r" % out[-600:])
    p = tr.tool(["report", bed.path("hol.json")])
    c.eq([(r[5], r[8], r[9]) for r in tr.rows(p.stdout, "over 4 ports, trials")],
         [(str(t["lost"]), "yes", "no")],
         "report: the trial's loss, head-of-line blocking, no back pressure")
    print("hol: %r; input tbf passed %d dropped %d; port 2 tbf dropped %d" % (
        g, inq[0] - in0[0], inq[1] - in0[1], cong[1] - cong0[1]))
    finish(c, bed, out)


CASES = cases.by_name(bridge_hol)

if __name__ == "__main__":
    try:
        cases.main(CASES)
    finally:
        ts.twoend.close_all()
