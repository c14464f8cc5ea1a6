# SPDX-License-Identifier: BSD-3-Clause
"""Campaign suite, the bed's routed DUT (bed.py dut=True: the namespace
`dut` routes between h1 and h2, links at MTU 9000). Usage: test_lb.py CASE.

dut_routed: frame cells h1 -> h2 by address through `dut` at MTU 1500 and
9000 (the campaign sets the cell's MTU on the DUT's interfaces): both
pass, and the DUT's interfaces counted exactly the frames that left
wirerate's sender and those its receiver got.
http_lb: the shipped config/campaigns/http-lb-mtu.yml with short cells:
wirerate's HTTP client on h1 through HAProxy on `dut` to nginx on h2 at
MTU 1500 and 9000; both cells pass, the requests and connections the
client completed equal HAProxy's own counters (stats socket `show info`:
CumReq, CumConns), HAProxy's CPU time is above zero in each cell, and the
report's Connections table has both cells and the ratio row."""
import os
import re
import shutil
import sys

import cases
from test_campaign import campaign, cell_doc, check_balance, in_bed, load

HERE = os.path.dirname(os.path.abspath(__file__))
SHIPPED = os.path.join(HERE, "..", "..", "config", "campaigns", "http-lb-mtu.yml")

ROUTED_CAMPAIGN = """campaign: dut-routed
dut:
  host: dut
  mtu: true
  interval: 200ms
defaults:
  mtus: [1500, 9000]
  count: 3000
  rate: 3kpps
  idle_timeout: 1s
  goal: 0
cells:
  - label: routed/dut
    sender: h1:routed
    receiver: h2:routed
"""
ROUTED_CELLS = ["routed_dut-1518B-r1", "routed_dut-9018B-r1"]
HTTP_CELLS = ["haproxy_http-1518B-r1", "haproxy_http-9018B-r1"]


def check_routed_cell(c, bed, cid):
    """The DUT's interface counters against wirerate's counts."""
    doc = cell_doc(bed, cid)
    c.eq(doc["status"], "passed", "%s passed (%s)" % (cid, doc["reason"]))
    m = check_balance(c, bed, cid, exact=False)["totals"]
    dut = load(bed.path("results/cells/%s/dut.json" % cid))
    da, db = (dut["interfaces"][n]["total"] for n in bed.dut.ifaces)
    # ARP (one request and reply each side) crosses the links too.
    print("%s: wirerate sent %d (tail %d), received %d; DUT rx %d, tx %d" % (
        cid, m["sent_pkts"], m["tail_lost_pkts"], m["rx_pkts"], da["rx_packets"],
        db["tx_packets"]))
    c.true(0 <= da["rx_packets"] - (m["sent_pkts"] - m["tail_lost_pkts"]) <= 4,
           "%s: the DUT received the frames that left the sender (+ ARP)" % cid)
    c.true(0 <= db["tx_packets"] - m["rx_pkts"] <= 4,
           "%s: the DUT sent what wirerate received (+ ARP)" % cid)
    c.true(m["rx_pkts"] > 0 and m["lost_pkts"] == 0, "%s: nothing lost" % cid)


def routed_runs(c, bed):
    rc, _ = campaign(bed, "--no-exporters")
    c.eq(rc, 0, "the routed DUT campaign passes")
    for cid in ROUTED_CELLS:
        check_routed_cell(c, bed, cid)


def dut_routed():
    in_bed("campaign_dut_routed", ROUTED_CAMPAIGN, routed_runs, dut=True, mtu=9000)


def short(bed):
    """The shipped campaign, 4 s cells."""
    with open(SHIPPED) as f:
        text = f.read()
    c = re.sub(r"(?m)^  duration: .*$", "  duration: 4s", text)
    return c


def http_runs(c, bed):
    info0 = bed.dut.haproxy_info()
    rc, out = campaign(bed, "--no-exporters")
    info1 = bed.dut.haproxy_info()
    c.eq(rc, 0, "the HTTP campaign passes")
    reqs = conns = sent = attempted = 0
    for cid in HTTP_CELLS:
        doc = cell_doc(bed, cid)
        c.eq(doc["status"], "passed", "%s passed (%s)" % (cid, doc["reason"]))
        f = doc.get("conn") or {}
        c.true(f.get("completed", 0) > 0 and f.get("failed") == 0,
               "%s: connections completed, none failed: %r" % (cid, f))
        reqs += f.get("requests", 0)
        conns += f.get("completed", 0)
        sent += f.get("requests_sent", 0)
        attempted += f.get("attempted", 0)
        path = bed.path("results/cells/%s/dut.json" % cid)
        proc = (load(path).get("processes") if os.path.exists(path) else None) or {}
        c.true(proc.get("cpu_pct", 0) > 0 and proc.get("comm") == ["haproxy"],
               "%s: HAProxy's CPU over the window: %r" % (cid, proc))
    # Each `show info` is a connection and a request of HAProxy's own: the
    # second query counted itself.
    d_req = int(info1["CumReq"]) - int(info0["CumReq"]) - 1
    d_conn = int(info1["CumConns"]) - int(info0["CumConns"]) - 1
    print("client: %d connections attempted, %d completed; %d requests sent, %d answered;"
          " HAProxy: CumConns +%d, CumReq +%d" % (attempted, conns, sent, reqs, d_conn, d_req))
    # None failed: every SYN reached HAProxy and every request it got was sent.
    c.eq(d_conn, attempted, "HAProxy's CumConns counted the connections the client opened")
    c.eq(d_req, sent, "HAProxy's CumReq counted the requests the client sent")
    c.eq((conns, reqs), (attempted, sent), "every connection completed, every "
         "request answered")
    md = open(bed.path("results/report/report.md")).read()
    rows = [x for x in md.splitlines() if x.startswith("| haproxy/http")]
    c.eq(len(rows), 3, "Connections table: two cells and the ratio row: %r" % rows)
    c.true(bool(rows) and rows[-1].startswith("| haproxy/http: MTU 9000 / 1500 |"),
           "the ratio row")
    c.true("## Connections" in out, "the table printed")


def http_lb():
    # Installed by scripts/test.sh: their absence is a failure of the set-up.
    for tool in ("haproxy", "nginx"):
        if shutil.which(tool) is None:
            print("FAIL: %s is not installed (scripts/test.sh installs it)" % tool)
            sys.exit(1)
    in_bed("campaign_http_lb", short, http_runs, http=True, mtu=9000)


CASES = cases.by_name(dut_routed, http_lb)

if __name__ == "__main__":
    cases.main(CASES)
