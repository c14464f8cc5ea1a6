# SPDX-License-Identifier: BSD-3-Clause
"""Campaign suite, what a campaign does to its hosts (bed.py, as
test_campaign.py). Usage: test_hosts.py CASE.

binding: wr-host.sh's binding steps on a fake sysfs with wr-shim.py as
devbind and modprobe: a valid device bound and given back, an interrupted
run that leaves it bound, then the SSH link's device named by mistake:
refused, everything restored (first the interrupted run's changes), the
host's link intact.
dut: the router namespace r (a bridge between h1 and h2) as the DUT
observer's host: its interfaces' counters against wirerate's counts, its
NET_RX softirqs against the rate before the traffic, the report's DUT
table; and a cell between ports given addresses instead of MACs (ip:),
the sender finding the receiver's MAC by ARP, which only the receiving
wirerate answers (the namespaces' kernels have no address there)."""
import os
import re

import cases
from bed import MACS, sh
from test_campaign import campaign, cell_doc, check_balance, in_bed, interrupt_at, load


BIND_CAMPAIGN = """campaign: binding
defaults:
  idle_timeout: 700ms
cells:
  - label: veth/bind
    sender: h1:veth
    receiver: h2:veth
    count: 100
"""
NIC, SSH_NIC = "0000:00:0a.0", "0000:00:0b.0"
BIND = ["modprobe vfio-pci", "devbind -b vfio-pci " + NIC]
UNBIND = ["devbind -b virtio-pci " + NIC, "modprobe -r vfio-pci"]


def real_hugepages():
    try:
        with open("/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages") as f:
            return f.read().strip()
    except OSError:
        return None


def shim_calls(bed):
    try:
        with open(os.path.join(bed.sysfs("h1"), "calls.log")) as f:
            return f.read().splitlines()
    except OSError:
        return []


def check_restored(c, bed, before, what):
    c.eq(bed.sysfs_state("h1"), before, "%s: h1 as it was (drivers, hugepages, "
         "no-IOMMU mode, module)" % what)
    c.true(not os.path.exists(bed.path("hosts/h1/state.txt")), "%s: no state left" % what)


def binding_runs(c, bed):
    before, pages = bed.sysfs_state("h1"), real_hugepages()
    # A: a valid device, bound for the campaign and given back.
    rc, out = campaign(bed)
    c.eq(rc, 0, "valid device: the campaign passes")
    c.eq(shim_calls(bed), BIND + UNBIND, "valid device: bound, then given back")
    check_restored(c, bed, before, "valid device")
    # B: interrupted while its cell runs: the restore step never runs.
    sent, rc, out = interrupt_at(bed, "cell 1/1 veth_bind-1518B-r1: veth/bind", "--rerun")
    c.true(sent and rc != 0, "interrupted run: stopped while its cell ran")
    mid = bed.sysfs_state("h1")
    c.eq((mid["drivers"][NIC], mid["hugepages"], mid["noiommu"], mid["vfio_pci"]),
         ("vfio-pci", "512", "1", True), "interrupted run: the device stays bound, "
         "hugepages raised, no-IOMMU mode on, vfio_pci loaded")
    c.true(os.path.exists(bed.path("hosts/h1/state.txt")), "interrupted run: state kept")
    # C: the SSH link's device added by mistake, after the valid one: the
    # next run restores first, binds the valid one, refuses the other,
    # restores at once; the cell fails, the host keeps its link.
    bed.more_ports["h1"]["ssh"] = {"pci": SSH_NIC}
    bed.write_inventory()
    rc, out = campaign(bed, "--rerun")
    c.eq(rc, 1, "bogus device: the campaign fails")
    why = "refusing to bind %s to vfio-pci: its interface %sn0 carries an address" % (
        SSH_NIC, bed.tag)
    c.true("h1: not prepared, its cells fail: wr-host: " + why in out, "says why: " + why)
    c.true(cell_doc(bed, "veth_bind-1518B-r1")["reason"].startswith(
        "host h1 not prepared: wr-host: " + why), "the cell's reason names the refusal")
    calls = shim_calls(bed)
    c.eq(calls, BIND + UNBIND + BIND + UNBIND + BIND + UNBIND,
         "restored first, valid device bound, restored after the refusal")
    c.true(not any(SSH_NIC in x or "--force" in x for x in calls),
           "the SSH link's device never touched, nothing forced")
    check_restored(c, bed, before, "after the bogus device")
    c.eq(real_hugepages(), pages, "the machine's own hugepages as they were")
    addr = sh("ip", "-n", bed.ns("h1"), "-o", "addr", "show", "dev", bed.tag + "n0").stdout
    c.true(bed.addr["h1"] + "/" in addr, "h1's SSH link keeps its address")


def fake_nics(bed):
    bed.fake_pci("h1", {NIC: bed.tag + "d1", SSH_NIC: bed.tag + "n0"})
    bed.more_ports["h1"] = {"nic": {"pci": NIC}}


def binding():
    """wr-host.sh's binding on a fake sysfs (bed.fake_pci): a valid device,
    an interrupted run, then the SSH link's device named by mistake."""
    in_bed("campaign_binding", BIND_CAMPAIGN, binding_runs, setup=fake_nics)


DUT_CAMPAIGN = """campaign: dut
dut: {host: r, interfaces: [%s, %s], interval: 200ms}
defaults:
  idle_timeout: 700ms
cells:
  - label: bridge/dut
    sender: h1:veth
    receiver: h2:veth
    sizes: [64, 1518]
    count: 10000
    rate: 10kpps
  - label: routed/arp
    sender: h1:l3
    receiver: h2:l3
    sizes: [64]
    count: 10000
    rate: 10kpps
"""
DUT_CELLS = ["bridge_dut-64B-r1", "bridge_dut-1518B-r1"]
L3_CELL = "routed_arp-64B-r1"
L3_IP = {"h1": "198.18.0.1/24", "h2": "198.18.0.2/24"}


def check_dut_cell(c, bed, cid):
    """The DUT's own counts against wirerate's, and its NET_RX softirqs."""
    m = check_balance(c, bed, cid, exact=False)["totals"]
    dut = load(bed.path("results/cells/%s/dut.json" % cid))
    ra, rb = (dut["interfaces"][n]["total"] for n in bed.dut_ifaces)
    print("%s: wirerate sent %d (tail %d), received %d; DUT %s rx %d, %s tx %d; "
          "NET_RX/s %.0f (before the traffic %s)" % (
              cid, m["sent_pkts"], m["tail_lost_pkts"], m["rx_pkts"], bed.dut_ifaces[0],
              ra["rx_packets"], bed.dut_ifaces[1], rb["tx_packets"],
              dut["net_rx_softirqs_per_s"], dut["baseline_net_rx_softirqs_per_s"]))
    c.eq(ra["rx_packets"], m["sent_pkts"] - m["tail_lost_pkts"],
         "%s: the DUT received every frame that left the sender" % cid)
    c.eq(rb["tx_packets"], m["rx_pkts"], "%s: the DUT sent what wirerate received" % cid)
    c.eq(ra["rx_packets"] - ra["rx_dropped"], rb["tx_packets"] + rb["tx_dropped"],
         "%s: the DUT forwarded what it received" % cid)
    c.true(dut["window"] == "traffic, less its first and last interval",
           "%s: a window inside the traffic (%s)" % (cid, dut["window"]))
    base = dut["baseline_net_rx_softirqs_per_s"]
    c.true(base is not None and dut["net_rx_softirqs_per_s"] > base,
           "%s: NET_RX softirqs rise with the traffic" % cid)


def check_dut_table(c, bed):
    md = open(bed.path("results/report/report.md")).read()
    sec = re.search(r"^## DUT.*?(?=^## |\Z)", md, re.M | re.S)
    c.true(sec is not None, "report.md has the DUT table")
    rows = [x for x in (sec.group(0) if sec else "").splitlines() if x.startswith("| bridge")]
    print("\n".join(rows))
    c.eq(len(rows), 3, "DUT table: two cells and the ratio of 1518 B to 64 B")
    for r in rows[:2]:
        c.true("| - |" not in r, "every column filled: " + r)
    c.true(bool(rows) and rows[-1].startswith("| bridge/dut: 1518 B / 64 B |"), "the ratio row")


def l3_ports(bed):
    """h1 and h2 get a port "l3" on the data veth with an address, no mac."""
    afp = "net_af_packet0,iface=%s,framecnt=8192,qdisc_bypass=0"
    for h, dev in (("h1", bed.tag + "d1"), ("h2", bed.tag + "d2")):
        bed.more_ports[h] = {"l3": {"vdev": afp % dev, "ip": L3_IP[h]}}


def check_l3_cell(c, bed):
    """The sender found the receiver's MAC (the kernel's, of its veth) by
    ARP, the receiving wirerate answered, the cell balanced."""
    cid = L3_CELL
    c.eq(cell_doc(bed, cid)["ran"], True, "%s ran" % cid)
    check_balance(c, bed, cid, exact=False)
    snd = load(bed.path("hosts/h1/cells/%s/snd.json" % cid))
    rcv = load(bed.path("hosts/h2/cells/%s/rcv.json" % cid))
    hops = snd["ports"][0]["next_hops"]
    c.eq([(h["ip"], h["mac"]) for h in hops], [("198.18.0.2", MACS["h2"])],
         "%s: the next hop resolved to h2's interface MAC" % cid)
    c.true(rcv["totals"][0]["tx_service_pkts"] >= 1,
           "%s: the receiver answered ARP (%d service replies)" % (
               cid, rcv["totals"][0]["tx_service_pkts"]))


def dut_runs(c, bed):
    rc, out = campaign(bed, "--no-exporters")
    c.eq(rc, 0, "the DUT campaign passes")
    check_l3_cell(c, bed)
    for cid in DUT_CELLS:
        c.eq(cell_doc(bed, cid)["ran"], True, "%s ran" % cid)
        if os.path.exists(bed.path("results/cells/%s/dut.json" % cid)):
            check_dut_cell(c, bed, cid)
        else:
            c.true(False, "%s: dut.json kept" % cid)
    check_dut_table(c, bed)


def dut():
    """The router namespace r as the DUT between h1 and h2 (a bridge)."""
    in_bed("campaign_dut", lambda bed: DUT_CAMPAIGN % bed.dut_ifaces, dut_runs,
           router=True, setup=l3_ports)


CASES = cases.by_name(binding, dut)

if __name__ == "__main__":
    cases.main(CASES)
