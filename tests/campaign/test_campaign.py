# SPDX-License-Identifier: BSD-3-Clause
"""Campaign suite: scripts/campaign.sh (Ansible over SSH) against three
namespace "hosts" with their own sshd (bed.py). Usage: test_campaign.py CASE.

end_to_end: a 2x2 campaign (same host over memif on h3, different hosts
over a tbf-shaped veth h1 -> h2; 64 and 1518-byte frames). Run 1 with h3's
sshd stopped: its cells fail as unreachable, the others pass, exit 1. Run
2 with h3 back, interrupted (SIGINT) once its first cell passed: that cell
is kept. Run 3 runs the one cell left, all pass. Every
merge balances exactly, checked against counts wirerate did not make (the
shaper's qdisc counters, the receiving veth's kernel counters) and the
results the hosts kept; the report's table is complete.
bad_input: campaigns with mistakes end with exit 2 and a message naming the
cell and what is wrong, before any host is reached; the campaigns shipped
in config/campaigns/ expand against their inventories.
controller: cell digests, timeouts and resume as the controller decides
them, before any host is reached.
summary: wr-record.py summary on crafted cells (no namespaces, no EAL): the
DUT table of two repeats, each row with its own cell's figures; a
cell.json that is JSON but not an object counts as not run."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import cases
from bed import Bed, sh
import wrtest
from wrtest import Checker, rx_matches_pmd

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAMPAIGN_SH = os.path.join(ROOT, "scripts", "campaign.sh")
WIRERATE = os.environ.get("WIRERATE", os.path.join(ROOT, "build", "app", "wirerate"))
SKIP = 77

CAMPAIGN = """campaign: bed
title: same host vs different hosts (namespaces)
defaults:
  idle_timeout: 700ms
cells:
  - label: memif/same-host
    sender: h3:memif-snd
    receiver: h3:memif-rcv
    sizes: [64, 1518]
    count: 200000
    goal: 0                 # a shared ring loses nothing
    # the memif client (sender) outlives the server's idle end
    grace: 1500ms
    latency: true
    # a memif server's link is up only once the client connects
    receiver_options: --link-timeout 0
  - label: veth/different-hosts
    sender: h1:veth
    receiver: h2:veth
    sizes: [64, 1518]
    count: 3000
"""
# Run 1 only: a run that fails and a receiver that sees nothing (its
# sender sends into a null port).
FAULT_CELLS = """  - label: fault/bad-sender
    sender: h1:veth
    receiver: h2:veth
    count: 100
    sender_options: --burst 0
  - label: fault/nothing-received
    sender: h1:sink
    receiver: h2:veth
    count: 100
"""
FAULTS = {"fault_bad-sender-1518B-r1":
          "sender failed (exit 2): wirerate: error: --burst 0: out of range",
          "fault_nothing-received-1518B-r1": "receiver saw no frame (sender sent 100)"}
SAME = ["memif_same-host-64B-r1", "memif_same-host-1518B-r1"]
DIFF = ["veth_different-hosts-64B-r1", "veth_different-hosts-1518B-r1"]


def probe():
    """Skip only where the machine lacks what the bed needs."""
    if os.getuid() != 0:
        return "needs root (namespaces, sshd)"
    # Tools scripts/test.sh installs are not capabilities of the machine:
    # their absence is a failure of the set-up, not a reason to skip.
    for tool in ("ansible-playbook", "/usr/sbin/sshd", "ssh-keygen", "ip", "tc"):
        if shutil.which(tool) is None:
            print("FAIL: %s is not installed (scripts/test.sh installs it)" % tool)
            sys.exit(1)
    p = subprocess.run(["ip", "netns", "add", "wcprobe%d" % os.getpid()],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return "cannot make a network namespace: " + p.stderr.strip()
    sh("ip", "netns", "del", "wcprobe%d" % os.getpid(), check=False)
    return None


def campaign(bed, *extra, results=None):
    """scripts/campaign.sh; returns (exit code, output)."""
    argv = [CAMPAIGN_SH, "--results", results or bed.path("results"), "--wirerate",
            WIRERATE] + list(extra) + [bed.path("inventory.yml"), bed.path("campaign.yml")]
    env = dict(os.environ, ANSIBLE_LOCAL_TEMP=bed.path("ansible-tmp"),
               ANSIBLE_SSH_CONTROL_PATH_DIR=bed.path("cp"))
    t0 = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env)
    out = p.stdout + p.stderr
    print("--- campaign.sh %s: exit %d in %.1f s\n%s" % (" ".join(extra), p.returncode,
                                                      time.monotonic() - t0, out))
    return p.returncode, out


def interrupt_at(bed, marker, *extra):
    """scripts/campaign.sh, and SIGINT to it (its own process group, as a
    terminal's ^C) once a line of its output holds marker; returns (the
    marker seen, exit code, output)."""
    argv = [CAMPAIGN_SH, "--results", bed.path("results"), "--wirerate", WIRERATE] + \
        list(extra) + [bed.path("inventory.yml"), bed.path("campaign.yml")]
    env = dict(os.environ, ANSIBLE_SSH_CONTROL_PATH_DIR=bed.path("cp"))
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, env=env, start_new_session=True)
    out, sent = [], False
    for line in p.stdout:
        out.append(line)
        if marker in line:
            sent = True
            break
    # ^C while the next cell runs (repeated: Python drops a KeyboardInterrupt
    # that lands while Ansible forks a worker or holds the logging lock, as
    # a terminal's user would). Again after 2 s, not after the run could
    # have ended: a dropped ^C with an 8 s wait let a short cell finish
    # (campaign_binding in a clean-clone CI run, 2026-12-07).
    for _ in range(10 if sent else 0):
        time.sleep(1)
        os.killpg(p.pid, signal.SIGINT)
        try:
            p.wait(timeout=2)
            break
        except subprocess.TimeoutExpired:
            pass
    rest, _ = p.communicate(timeout=120)
    out.append(rest)
    print("--- campaign.sh interrupted: exit %d\n%s" % (p.returncode, "".join(out)))
    return sent, p.returncode, "".join(out)


def interrupted(c, bed):
    """SIGINT as soon as the first cell passed: that cell's results stay
    whole and passed, the cell in flight has no passed record."""
    sent, rc, out = interrupt_at(bed, "cell 1/4 %s: passed" % SAME[0])
    c.true(sent, "run 2: the first cell passed before the interrupt")
    c.true("4 cells, 2 to run, 2 already ran" in out,
           "run 2 resumes: the 2 cells that ran are not run")
    c.true(rc != 0, "run 2: an interrupted campaign does not exit 0")
    c.eq(cell_doc(bed, SAME[0])["status"], "passed", "run 2: the finished cell is kept")
    check_balance(c, bed, SAME[0], exact=True)
    rec = bed.path("results/cells/%s/cell.json" % SAME[1])
    c.true(not os.path.exists(rec) or load(rec)["ran"] is not True,
           "run 2: the cell in flight is not recorded as ran")


def load(path):
    """A cell, merge or result file, checked against its schema."""
    return wrtest.read_result(path)


def cell_doc(bed, cid):
    return load(bed.path("results/cells/%s/cell.json" % cid))


def check_balance(c, bed, cid, exact):
    """The merge against both ends' own files as the hosts kept them."""
    d = bed.path("results/cells/" + cid)
    m = load(os.path.join(d, "merged.json"))
    host = {"memif": "h3"}.get(cid.split("_")[0])
    sdir = bed.path("hosts/%s/cells/%s" % (host or "h1", cid))
    rdir = bed.path("hosts/%s/cells/%s" % (host or "h2", cid))
    snd, rcv = load(os.path.join(sdir, "snd.json")), load(os.path.join(rdir, "rcv.json"))
    t = m["totals"]
    sent = sum(s["sent_pkts"] for s in snd["tx_streams"])
    got = sum(s["rx_pkts"] for s in rcv["streams"])
    c.eq(m["balanced"], True, "%s: merge balanced" % cid)
    c.eq(t["sent_pkts"], sent, "%s: merged sent = the sender's own count" % cid)
    c.eq(t["rx_pkts"], got, "%s: merged received = the receiver's own count" % cid)
    c.eq(t["sent_pkts"], t["rx_pkts"] + t["lost_pkts"], "%s: sent = received + lost" % cid)
    c.eq(t["lost_pkts"], t["head_lost_pkts"] + t["gap_pkts"] + t["tail_lost_pkts"],
         "%s: lost = head + gaps + tail" % cid)
    c.true(t["rx_pkts"] > 0, "%s: frames received" % cid)
    c.eq(rcv["stop_reason"], "idle", "%s: receiver ended by --idle-timeout" % cid)
    rx_matches_pmd(c, rcv, "%s receiver" % cid)
    if exact:
        c.eq(t["lost_pkts"], 0, "%s: nothing lost on the memif ring" % cid)
        c.eq(t["sent_pkts"], 200000, "%s: the campaign's count" % cid)
    return m


def qdisc_pkts(bed):
    """(sent, dropped) of the shaper on h1's data veth: the kernel's counts."""
    out = sh("ip", "netns", "exec", bed.ns("h1"), "tc", "-s", "-j", "qdisc", "show",
             "dev", bed.data[0]).stdout
    q = [x for x in json.loads(out) if x.get("kind") == "tbf"][0]
    return q["packets"], q["drops"]


def rx_kernel(bed):
    out = sh("ip", "-n", bed.ns("h2"), "-s", "-j", "link", "show", bed.data[1]).stdout
    return json.loads(out)[0]["stats64"]["rx"]["packets"]


def table_rows(md):
    """Rows of the report's campaign table: {(label, size): [cells]}."""
    sec = re.search(r"^## Campaign.*?(?=^## |\Z)", md, re.M | re.S).group(0)
    rows = {}
    for line in sec.splitlines():
        cols = [x.strip() for x in line.strip().strip("|").split("|")]
        if len(cols) == 13 and cols[1].isdigit():
            rows[(cols[0], int(cols[1]))] = cols
    return rows


def check_table(c, bed, failed_h3):
    rows = table_rows(open(bed.path("results/report/report.md")).read())
    c.eq(len(rows), 6 if failed_h3 else 4, "campaign table: one row per cell")
    for (label, size), cols in sorted(rows.items()):
        same = label.startswith("memif")
        if label.startswith("fault/"):
            cid = "%s-%dB-r1" % (label.replace("/", "_"), size)
            c.true(cols[2].startswith("FAILED: " + FAULTS[cid]), "%s: %s" % (cid, cols[2]))
            continue
        if same and failed_h3:
            c.true(cols[2].startswith("FAILED: receiver host h3 unreachable"),
                   "%s %d: failed as unreachable (%s)" % (label, size, cols[2]))
            continue
        # memif cells have a goal (no loss) and meet it; the shaped ones none.
        c.eq(cols[2], "passed" if same else "ran (no goal)", "%s %d: result" % (label, size))
        # MB/s, Mpps, Gb/s L1/L2, sent/lost, cycles/frame at both ends
        for i in (3, 4, 5, 6, 7, 9, 10):
            c.true(cols[i] not in ("", "-"), "%s %d: column %d filled (%r)" % (
                label, size, i, cols[i]))
        # Latency: same host only (--latency tsc, one clock).
        c.eq(cols[8] != "-", same, "%s %d: latency only where the clocks allow" % (
            label, size))
    return rows


class Scraper(threading.Thread):
    """Polls each exporter of prometheus.yml until it answers once."""

    def __init__(self, targets):
        super().__init__(daemon=True)
        self.targets, self.answered, self.stop = targets, set(), False

    def run(self):
        while not self.stop and len(self.answered) < len(self.targets):
            for t in self.targets:
                if t in self.answered:
                    continue
                try:
                    with urllib.request.urlopen("http://%s/metrics" % t, timeout=1) as r:
                        if b"wirerate_up" in r.read():
                            self.answered.add(t)
                except OSError:
                    pass
            time.sleep(0.2)


def scrape_targets(bed):
    text = open(bed.path("results/prometheus.yml")).read()
    return re.findall(r'targets: \["([0-9.]+:[0-9]+)"\]', text)


def check_prometheus(c, bed):
    targets = scrape_targets(bed)
    want = sorted("%s:%d" % (bed.addr[h], p) for h in bed.HOSTS for p in (9477, 9478))
    c.eq(sorted(targets), want, "prometheus.yml: each host's sender and receiver exporter")
    # promtool comes with Debian's prometheus, which scripts/test.sh installs.
    p = subprocess.run(["promtool", "check", "config", bed.path("results/prometheus.yml")],
                       capture_output=True, text=True)
    c.eq(p.returncode, 0, "promtool check config: " + p.stdout + p.stderr)
    return targets


def in_bed(name, text, run, router=False, setup=None, **bed_kw):
    """Case NAME: a bed (setup(bed) before it is up; bed_kw: more of Bed's
    arguments), CAMPAIGN.yml = text (or text(bed)), run(c, bed); whatever
    happens the bed is removed and checked gone."""
    c = Checker(name)
    why = probe()
    if why:
        print("SKIP: " + why)
        sys.exit(SKIP)
    bed = Bed(router=router, **bed_kw)
    try:
        if setup is not None:
            setup(bed)
        bed.up()
        with open(bed.path("campaign.yml"), "w") as f:
            f.write(text(bed) if callable(text) else text)
        run(c, bed)
    finally:
        bed.close()
        check_clean(c, bed)
    c.done()


def check_cells_done(c, out, cells, todo):
    """After each cell's outcome: cells done of the total counting up, the
    elapsed time and an estimate of the rest ("none left" after the last)."""
    done = re.findall(r"^\[ *[0-9.]+s\] cell \d+/%d \S+: (?:passed|ran|missed|failed).*"
                      r"\[(\d+)/%d cells done, \d+(?:s|m\d\ds) elapsed, "
                      r"(about \d+(?:s|m\d\ds) left|none left)\]$" % (cells, cells),
                      out, re.M)
    first = cells - todo + 1
    c.eq([int(k) for k, _ in done], list(range(first, cells + 1)),
         "a cells-done count after each cell: %r" % done)
    c.true(bool(done) and done[-1][1] == "none left" and
           all(r.startswith("about") for _, r in done[:-1]),
           "an estimate of the rest, none after the last")


def end_to_end():
    in_bed("campaign_end_to_end", CAMPAIGN, scenario)


def scenario(c, bed):
    q0, k0 = qdisc_pkts(bed), rx_kernel(bed)
    # Run 1: h3 unreachable, and two cells that fail on their own.
    with open(bed.path("campaign.yml"), "w") as f:
        f.write(CAMPAIGN + FAULT_CELLS)
    bed.stop_sshd("h3")
    rc, out = campaign(bed)
    c.eq(rc, 1, "run 1 exit status: a cell failed")
    c.true("2 of 6 cells ran" in out, "run 1: 2 of 6 cells ran")
    check_cells_done(c, out, 6, 6)
    for cid, reason in FAULTS.items():
        d = cell_doc(bed, cid)
        c.eq(d["status"], "failed", "%s failed" % cid)
        c.true(d["reason"].startswith(reason), "%s reason: %r" % (cid, d["reason"]))
    for cid in SAME:
        d = cell_doc(bed, cid)
        c.eq(d["status"], "failed", "%s failed" % cid)
        c.true("receiver host h3 unreachable" in d["reason"], "%s reason: %s" % (cid, d["reason"]))
    tot = dict(sent_pkts=0, rx_pkts=0, head_lost_pkts=0, gap_pkts=0, tail_lost_pkts=0)
    for cid in DIFF:
        d = cell_doc(bed, cid)
        c.eq((d["ran"], d["status"], d["goal"]["met"]), (True, "ran", None),
             "%s ran, no goal to meet" % cid)
        m = check_balance(c, bed, cid, exact=False)
        for k in tot:
            tot[k] += m["totals"][k]
    # The kernel's counts of the shaped link, over both cells. The receiving
    # af_packet ring (8192 frames) holds more than a cell sends, so every
    # frame the shaper passed reaches the receiver; frames the shaper drops
    # are holes in the sequence; frames the sender's PMD accepted into its
    # TX ring but the kernel never took before the port closed are the tail.
    (qs, qd), k1 = qdisc_pkts(bed), rx_kernel(bed)
    qs, qd, k = qs - q0[0], qd - q0[1], k1 - k0
    print("shaped link: sent %d, received %d; qdisc passed %d, dropped %d; "
          "veth received %d" % (tot["sent_pkts"], tot["rx_pkts"], qs, qd, k))
    c.eq(tot["rx_pkts"], k, "received = the receiving veth's kernel count")
    c.eq(tot["rx_pkts"], qs, "received = what the shaper passed")
    c.eq(tot["head_lost_pkts"] + tot["gap_pkts"], qd, "holes = the shaper's drops")
    c.eq(tot["tail_lost_pkts"], tot["sent_pkts"] - qs - qd,
         "tail = accepted by the sender's PMD, never taken by the kernel")
    check_table(c, bed, failed_h3=True)
    targets = check_prometheus(c, bed)
    stamps = {cid: os.stat(bed.path("results/cells/%s/merged.json" % cid)).st_mtime_ns
              for cid in DIFF}
    # Run 2: the 2x2 campaign alone, h3 back; the controller is interrupted
    # once the first cell passed.
    with open(bed.path("campaign.yml"), "w") as f:
        f.write(CAMPAIGN)
    bed.start_sshd("h3")
    interrupted(c, bed)
    first = os.stat(bed.path("results/cells/%s/merged.json" % SAME[0])).st_mtime_ns
    # Run 3: resumes with the one cell left; the exporters answer meanwhile.
    scraper = Scraper([t for t in targets if t.startswith(bed.addr["h3"] + ":")])
    scraper.start()
    rc, out = campaign(bed)
    scraper.stop = True
    c.eq(rc, 0, "run 3 exit status: every cell ran, none missed its goal")
    c.true("4 cells, 1 to run, 3 already ran" in out, "run 3 resumes: 1 to run")
    check_cells_done(c, out, 4, 1)
    reused = json.load(open(bed.path("results/summary.json")))["reused"]
    c.eq(sorted(reused), sorted([SAME[0]] + DIFF), "run 3: summary.json names the reused cells")
    md = open(bed.path("results/report/report.md")).read()
    line = re.search(r"^Reused \(ran before with the same digest, not run again\): "
                     r"(.*)\.$", md, re.M)
    c.eq(sorted(line.group(1).split(", ")) if line else None, sorted([SAME[0]] + DIFF),
         "run 3: report.md names the reused cells")
    c.eq(sorted(scraper.answered), sorted(scraper.targets),
         "h3's exporters answered while the campaign ran")
    for cid in SAME:
        c.eq(cell_doc(bed, cid)["status"], "passed", "%s passed" % cid)
        check_balance(c, bed, cid, exact=True)
    c.eq(os.stat(bed.path("results/cells/%s/merged.json" % SAME[0])).st_mtime_ns,
         first, "%s (passed before the interrupt) not run again" % SAME[0])
    for cid in DIFF:
        c.eq(os.stat(bed.path("results/cells/%s/merged.json" % cid)).st_mtime_ns,
             stamps[cid], "%s not run again" % cid)
    rows = check_table(c, bed, failed_h3=False)
    for size in (64, 1518):
        same, diff = (float(rows[(lab, size)][6]) for lab in
                      ("memif/same-host", "veth/different-hosts"))
        c.true(same > diff, "%d B: same host faster than the shaped link "
               "(%.4g > %.4g Gb/s L2)" % (size, same, diff))
    c.true("4 of 4 cells ran; 2 met their goal, 0 missed it, 2 had none" in out,
           "run 3 prints the final table")
    # A merge file is a report input of its own.
    p = subprocess.run([WIRERATE, "report", "--no-plots",
                        bed.path("results/cells/%s/merged.json" % SAME[1])],
                       capture_output=True, text=True)
    c.true(p.returncode == 0 and "| memif/same-host | 1518 | merged |" in p.stdout,
           "wirerate report MERGED.json: " + p.stdout[:300] + p.stderr)


def check_clean(c, bed):
    """Nothing of the bed outlives it."""
    left = sh("ip", "netns", "list").stdout
    c.true(bed.tag not in left, "namespaces removed")
    c.true(bed.tag not in sh("ip", "-o", "link").stdout, "veth ends removed")
    for h, pid in bed.pids_seen.items():
        c.true(not os.path.exists("/proc/%d" % pid) or
               "sshd" not in open("/proc/%d/cmdline" % pid).read(), "sshd of %s stopped" % h)
    ps = sh("ps", "-eo", "args").stdout
    c.true(not re.search(r"--file-prefix wr-h[123]-", ps), "no wirerate left running")
    c.true(not re.search(r"wirerate-exporter.py --file-prefix wr-h[123]-", ps),
           "no exporter left running")
    c.true(not any(n.startswith("wr-h") for n in os.listdir("/dev/hugepages"))
           if os.path.isdir("/dev/hugepages") else True, "no hugepage files left")


BAD = [
    ("cells:\n  - {label: x, sender: h9:veth, receiver: h2:veth, count: 10}\n",
     "cells[0] (x): sender: host 'h9' is not in the inventory"),
    ("cells:\n  - {label: x, sender: h1:nope, receiver: h2:veth, count: 10}\n",
     "cells[0] (x): sender: host h1 has no port 'nope' in wr_ports (it has: badip, l3, veth)"),
    ("cells:\n  - {label: x, sender: h1:badip, receiver: h2:veth, count: 10}\n",
     "cells[0] (x): sender: h1 wr_ports.badip: ip '198.18.0.1': expected ADDR/LEN"),
    ("cells:\n  - {label: x, sender: h1:veth, receiver: h2:l3, count: 10}\n",
     "cells[0] (x): receiver h2:l3 has ip but sender h1:veth has none"),
    ("cells:\n  - {label: x, sender: h1:l3, receiver: h2:badgw, count: 10}\n",
     "cells[0] (x): receiver: h2 wr_ports.badgw: gw '198.18.1.1': expected another address of 198.18.0.0/24"),
    ("cells:\n  - {label: x, sender: h1:veth, receiver: h2:veth}\n",
     "cells[0] (x): give exactly one of count (frames) or duration"),
    ("cells:\n  - {label: x, sender: h1:veth, receiver: h2:veth, count: 9, sizes: [32]}\n",
     "cells[0] (x): frame size 32 outside 64..9018"),
    ("cells:\n  - {label: x, sender: h1:veth, receiver: h2:veth, count: 9, rte: 1}\n",
     "cells[0] (x): unknown key(s) rte"),
    ("dut: {host: h9, interfaces: [eth0]}\n"
     "cells:\n  - {label: x, sender: h1:veth, receiver: h2:veth, count: 9}\n",
     "dut: host 'h9' is not in the inventory"),
    ("dut: {host: h2}\ncells:\n  - {label: x, sender: h1:veth, receiver: h2:veth, count: 9}\n",
     "dut: interfaces: None: expected a list of the DUT's interface names"),
    ("cells:\n  - {label: x, sender: h1:veth, receiver: h2:veth, mode: rfc}\n",
     "cells[0] (x): mode: 'rfc': expected one of throughput, mlr, loss, b2b, sweep"),
    ("cells:\n  - {label: x, sender: h1:veth, receiver: h2:veth, mode: mlr, goal: 0}\n",
     "cells[0] (x): goal: a search cell's goal is its search's own verdict"),
    ("cells:\n  - {label: x, sender: h1:veth, receiver: h2:veth, count: 9, trial: 1s}\n",
     "cells[0] (x): trial: a search's option, for a cell with mode:"),
    ("cells:\n  - {label: x, sender: h1:veth, receiver: h2:veth, count: 9, goal: 2%x}\n",
     "cells[0] (x): goal: '2%x': expected the loss ratio allowed"),
]


# The playbook's filters, run by Ansible's own Python on YAML inventories
# (all.vars under each host, as Ansible merges them): one process checks
# every campaign below without an ansible-playbook start for each. Each job
# is (name, inventory, campaign[, results]); the answer per name is the
# cells (or the error) and the ids wr_pending would run from results.
EXPAND = r"""
import json, sys, yaml
sys.path.insert(0, sys.argv[1])
import wr_campaign
out = {}
for name, inv, camp, *res in json.loads(sys.argv[2]):
    a = yaml.safe_load(open(inv))["all"]
    hv = {h: dict(a.get("vars") or {}, **(v or {}), wr_defaults={"dir": "/var/tmp/wr"})
          for h, v in a["hosts"].items()}
    try:
        cells = wr_campaign.wr_cells(yaml.safe_load(open(camp)), hv, (res or ["/x"])[0])
        out[name] = {"cells": cells,
                     "pending": [c["id"] for c in wr_campaign.wr_pending(cells)]}
    except Exception as e:
        out[name] = str(e)
print(json.dumps(out))
"""


def ids(got):
    """Cell ids of an expand() answer, or the error as it came."""
    return [c["id"] for c in got["cells"]] if isinstance(got, dict) else got


def ansible_python():
    """The interpreter ansible-playbook runs on (it has the ansible package)."""
    with open(shutil.which("ansible-playbook")) as f:
        line = f.readline()
    return line[2:].split()[0] if line.startswith("#!") else "python3"


def expand(jobs):
    p = subprocess.run([ansible_python(), "-c", EXPAND,
                        os.path.join(ROOT, "scripts", "campaign", "filter_plugins"),
                        json.dumps(jobs)], capture_output=True, text=True, timeout=60)
    try:
        return json.loads(p.stdout)
    except ValueError:
        return {"error": p.stdout + p.stderr}


# A campaign with four mistakes in two cells: each said once, with the
# close name where there is one.
MISTAKES = ("cells:\n"
            "  - {label: a, sender: h1:vet, receiver: h9:veth, count: 9, rte: 1}\n"
            "  - {label: b, sender: h1:veth, receiver: h2:veth, mode: thruput}\n"
            "  - {label: c, sender: h1:veth, receiver: h2:veth, count: 9}\n")
MISTAKE_LINES = [
    "cells[0] (a): unknown key(s) rte (did you mean rate?)",
    "cells[0] (a): sender: host h1 has no port 'vet' in wr_ports (it has: badip, l3, "
    "veth) (did you mean veth?)",
    "cells[0] (a): receiver: host 'h9' is not in the inventory",
    "cells[1] (b): mode: 'thruput': expected one of throughput, mlr, loss, b2b, sweep "
    "(did you mean throughput?)"]


def check_all_mistakes(c, d, inv):
    """campaign.sh names every mistake of the file once, before Ansible."""
    camp = os.path.join(d, "mistakes.yml")
    with open(camp, "w") as f:
        f.write(MISTAKES)
    p = subprocess.run([CAMPAIGN_SH, "--results", os.path.join(d, "rm"), "--wirerate",
                        WIRERATE, inv, camp], capture_output=True, text=True, timeout=120)
    c.eq(p.returncode, 2, "a campaign with 4 mistakes: exit 2")
    c.true("4 mistakes" in p.stderr, "the count of mistakes said: %s" % p.stderr[-600:])
    for line in MISTAKE_LINES:
        c.eq(p.stderr.count(line), 1, "said once: %r" % line)
    c.eq(p.stderr.count("cells[2]"), 0, "the good cell is not blamed")
    c.true(not os.path.exists(os.path.join(d, "rm")), "no results directory for a bad campaign")


def check_dry_run(c, d, inv):
    """--dry-run lists the cells and both command lines, reaching no host
    (the inventory's hosts are TEST-NET addresses: nothing answers there)."""
    camp = os.path.join(d, "dry.yml")
    with open(camp, "w") as f:
        f.write("cells:\n  - {label: x, sender: h1:veth, receiver: h2:veth, count: 10, "
                "sizes: [64, 1518], repeats: 2}\n")
    res = os.path.join(d, "rd")
    p = subprocess.run([CAMPAIGN_SH, "--dry-run", "--results", res, inv, camp],
                       capture_output=True, text=True, timeout=60)
    c.eq(p.returncode, 0, "--dry-run of a good campaign: exit 0 (%s)" % p.stderr[-300:])
    rows = [l for l in p.stdout.splitlines() if not l.startswith(" ")]
    c.eq([r.split(":")[0] for r in rows],
         ["1/4 x-64B-r1", "2/4 x-64B-r2", "3/4 x-1518B-r1", "4/4 x-1518B-r2"],
         "--dry-run: one line per cell, in order")
    c.eq(p.stdout.count("    sender:   "), 4, "--dry-run: the sender's command of each cell")
    c.eq(p.stdout.count("--vdev net_null0"), 8, "--dry-run: both ends' ports in the commands")
    c.true(not os.path.exists(res), "--dry-run writes no results directory")


def bad_input():
    """No namespaces needed: the campaign is checked against the inventory
    before any host is reached (the hosts' addresses are never used)."""
    c = Checker("campaign_bad_input")
    if shutil.which("ansible-playbook") is None:
        print("FAIL: ansible-playbook is not installed (scripts/test.sh installs it)")
        sys.exit(1)
    d = tempfile.mkdtemp(prefix="wirerate-campaign-bad-")
    try:
        inv = os.path.join(d, "inventory.yml")
        with open(inv, "w") as f:
            f.write("all:\n  hosts:\n    h1:\n      ansible_host: 192.0.2.1\n"
                    "      wr_ports: {veth: {vdev: net_null0}, badip: {vdev: net_null0,"
                    " ip: 198.18.0.1}, l3: {vdev: net_null0, ip: 198.18.0.1/24}}\n"
                    "    h2:\n      ansible_host: 192.0.2.2\n"
                    "      wr_ports: {veth: {vdev: net_null0}, l3: {vdev: net_null0,"
                    " ip: 198.18.0.2/24}, badgw: {vdev: net_null0, ip: 198.18.0.2/24,"
                    " gw: 198.18.1.1}}\n")
        jobs = []
        for i, (text, want) in enumerate(BAD):
            camp = os.path.join(d, "bad%d.yml" % i)
            with open(camp, "w") as f:
                f.write(text)
            jobs.append(("bad%d" % i, inv, camp))
        # One through the whole command: exit 2, the message on stderr.
        p = subprocess.run([CAMPAIGN_SH, "--results", os.path.join(d, "r"), "--wirerate",
                            WIRERATE, inv, os.path.join(d, "bad0.yml")],
                           capture_output=True, text=True, timeout=120)
        c.eq(p.returncode, 2, "campaign.sh with a bad campaign: exit 2")
        c.true(BAD[0][1] in p.stderr, "campaign.sh says %r: %s" % (BAD[0][1], p.stderr[-400:]))
        check_all_mistakes(c, d, inv)
        check_dry_run(c, d, inv)
        p = subprocess.run([CAMPAIGN_SH, inv], capture_output=True, text=True)
        c.eq(p.returncode, 2, "campaign.sh without CAMPAIGN: exit 2")
        c.true("Usage:" in p.stderr, "usage on bad usage")
        conf = os.path.join(ROOT, "config", "campaigns")
        jobs += [(camp, os.path.join(conf, inv_ + ".yml"), os.path.join(conf, camp + ".yml"))
                 for camp, (inv_, _) in sorted(EXAMPLES.items())]
        got = expand(jobs)
        for i, (text, want) in enumerate(BAD):
            c.true(want in str(got.get("bad%d" % i)), "bad campaign %d: %r in %r" % (
                i, want, got.get("bad%d" % i, got)))
        for camp, (_, want) in sorted(EXAMPLES.items()):
            have = ids(got.get(camp, got))
            c.eq(sorted(have) if isinstance(have, list) else have, sorted(want),
                 "config/campaigns/%s.yml cells" % camp)
        check_mtu_routed(c, conf)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    c.done()


INVENTORY = """all:
  hosts:
    h1: {ansible_host: 192.0.2.1, wr_ports: {veth: {vdev: net_null0}}}
    h2: {ansible_host: %s, wr_ports: {veth: {vdev: net_null0}}}
"""
# Cell definitions of the resume and timeout checks: (name, cell keys).
BASE = "label: x, sender: h1:veth, receiver: h2:veth"
VARIANTS = [("base", "count: 1000"), ("rate", "count: 1000, rate: 10kpps"),
            ("duration", "duration: 10m"), ("search", "duration: 10s, sender_options: "
                                            "'--mode throughput --sizes 64,128'"),
            ("fixed", "duration: 10m, timeout: 900")]


def controller_jobs(d):
    """Inventories (h2 reached at two addresses) and one campaign per
    variant; returns expand() jobs, all with results in d/r."""
    jobs = []
    for addr in ("192.0.2.2", "192.0.2.3"):
        inv = os.path.join(d, "inv-%s.yml" % addr)
        with open(inv, "w") as f:
            f.write(INVENTORY % addr)
        for name, keys in VARIANTS:
            camp = os.path.join(d, name + ".yml")
            with open(camp, "w") as f:
                f.write("cells:\n  - {%s, %s}\n" % (BASE, keys))
            jobs.append(("%s@%s" % (name, addr), inv, camp, os.path.join(d, "r")))
    return jobs


def check_timeouts(c, got):
    """A cell's timeout follows its length (it was 300 s for every cell)."""
    t = {name: got["%s@192.0.2.2" % name]["cells"][0]["timeout"] for name, _ in VARIANTS}
    print("derived timeouts: %s" % t)
    c.true(t["duration"] > 2 * 600, "duration 10m: timeout %d s > 2 x 600 s" % t["duration"])
    c.true(t["rate"] > t["base"] + 2 * 0.1, "count at 10 kpps: longer than at max rate")
    c.true(t["search"] > 2 * 2 * 20 * 10, "throughput search over 2 sizes: "
           "timeout %d s > 2 sizes x 20 trials x 10 s x 2" % t["search"])
    c.eq(t["fixed"], 900, "an explicit timeout is kept")


def check_resume(c, d, got):
    """A passed cell is reused only while its digest holds."""
    cell = got["base@192.0.2.2"]["cells"][0]
    os.makedirs(cell["result_dir"])
    with open(os.path.join(cell["result_dir"], "cell.json"), "w") as f:
        json.dump({"cell": cell["id"], "status": "passed", "digest": cell.get("digest")}, f)
    again = expand(controller_jobs(d))
    c.eq(again["base@192.0.2.2"]["pending"], [], "the same cell, passed: reused")
    for name in ("rate@192.0.2.2", "duration@192.0.2.2", "base@192.0.2.3"):
        c.eq(again[name]["pending"], [cell["id"]], "%s: a changed cell runs again" % name)
    digests = {n: g["cells"][0].get("digest") for n, g in again.items()}
    c.eq(len(set(digests.values())), len(digests), "every variant has its own digest")
    # wirerate-cell/2: a cell that ran is reused whether or not it met its
    # goal (its measurement is done); one that did not run runs again.
    for ran, status, want in ((True, "missed", []), (False, "failed", [cell["id"]])):
        with open(os.path.join(cell["result_dir"], "cell.json"), "w") as f:
            json.dump({"schema": "wirerate-cell/2", "cell": cell["id"], "ran": ran,
                       "status": status, "digest": cell.get("digest")}, f)
        c.eq(expand(controller_jobs(d))["base@192.0.2.2"]["pending"], want,
             "a cell that %s: %s" % (status, "reused" if ran else "runs again"))
    check_damaged(c, d, cell)


def pending(got, name):
    """The cells expand() left to run of job NAME, or its error as it came."""
    g = got.get(name, got)
    return g["pending"] if isinstance(g, dict) and "pending" in g else g


def check_damaged(c, d, cell):
    """A damaged cell.json runs the cell again, also one that is JSON but
    not an object (it raised AttributeError)."""
    for text in ("{not json", "[]", "3"):
        with open(os.path.join(cell["result_dir"], "cell.json"), "w") as f:
            f.write(text)
        c.eq(pending(expand(controller_jobs(d)), "base@192.0.2.2"), [cell["id"]],
             "cell.json %r: the cell runs again" % text)


def check_ship(c, d):
    """The playbook ships the program it is given, and says when it is missing."""
    inv, camp = os.path.join(d, "inv-192.0.2.2.yml"), os.path.join(d, "base.yml")
    missing = os.path.join(d, "other", "app", "wirerate")
    p = subprocess.run([CAMPAIGN_SH, "--results", os.path.join(d, "r2"), "--wirerate",
                        missing, inv, camp], capture_output=True, text=True, timeout=120)
    out = p.stdout + p.stderr
    print(out[-1500:])
    c.eq(p.returncode, 1, "campaign.sh --wirerate MISSING: exit 1")
    c.true("no wirerate program at %s: build it, or set wr_ship_bin" % missing in out,
           "the missing program is named")
    c.true("192.0.2." not in out.replace(inv, ""), "no host reached")


def controller():
    """No namespaces: what the controller decides before it reaches a host
    (cell digests, timeouts, the program shipped)."""
    c = Checker("campaign_controller")
    if shutil.which("ansible-playbook") is None:
        print("FAIL: ansible-playbook is not installed (scripts/test.sh installs it)")
        sys.exit(1)
    d = tempfile.mkdtemp(prefix="wirerate-campaign-ctl-")
    try:
        got = expand(controller_jobs(d))
        if any(not isinstance(g, dict) for g in got.values()):
            c.true(False, "every variant expands: %s" % got)
        else:
            check_timeouts(c, got)
            check_resume(c, d, got)
        check_ship(c, d)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    c.done()


RECORD_PY = os.path.join(ROOT, "scripts", "campaign", "files", "wr-record.py")
SENT = 1000


def crafted_result(size, mpps, **streams):
    """One end's result of the documented shape with chosen figures."""
    doc = {"schema": "wirerate-result/1", "env": {"hostname": "h", "cmdline": "wirerate"},
           "config": {"frame_size": size, "vlan": 0}, "stop_reason": "idle",
           "duration_s": SENT / mpps / 1e6, "streams": [],
           "ports": [{"port_id": 0, "driver": "net_null", "role": "tx+rx"}],
           "totals": [{"port_id": 0, "tx_mpps": mpps, "rx_mpps": mpps,
                       "tx_gbps_l1": mpps * (size + 20) * 8e-3,
                       "tx_gbps_l2": mpps * size * 8e-3,
                       "rx_gbps_l1": mpps * (size + 20) * 8e-3,
                       "rx_gbps_l2": mpps * size * 8e-3}],
           "accounting": {"sent_pkts": SENT, "received_pkts": SENT, "lost_pkts": 0,
                          "balanced": True}}
    doc.update(streams)
    return doc


def crafted_cell(c, d, size, rep, mpps, irqs):
    """A passed cell (bridge/dut, SIZE B, repeat REP) as wr-record.py cell
    keeps it: both ends' results, their merge (wirerate merge), cell.json
    and the DUT's figures (irqs interrupts/s); returns its directory."""
    cid = "bridge_dut-%dB-r%d" % (size, rep)
    cd = os.path.join(d, "cells", cid)
    os.makedirs(cd)
    docs = {"snd": crafted_result(size, mpps, tx_streams=[
        {"stream_id": 0, "port": 0, "queue": 0, "sent_pkts": SENT}]),
        "rcv": crafted_result(size, mpps, streams=[
            {"stream_id": 0, "rx_port": 0, "sender_in_run": False, "rx_pkts": SENT,
             "gap_pkts": 0, "late_pkts": 0, "dup_pkts": 0, "old_pkts": 0, "restarts": 0,
             "first_seq": 0, "next_seq": SENT, "latency_mean_ns": 1000.0}])}
    cell = {"schema": "wirerate-cell/1", "cell": cid, "label": "bridge/dut",
            "frame_size": size, "repeat": rep, "sender": "h1:veth", "receiver": "h2:veth",
            "digest": "d", "defines": {}, "status": "passed", "reason": "",
            "merged": "merged.json"}
    dut = {"interrupts_per_s": irqs, "cpu": {"cpu": {"busy": 50.0, "user": 10.0,
                                                     "system": 20.0, "softirq": 20.0}},
           "net_rx_softirqs_per_s": irqs, "rx_pps": mpps * 1e6, "tx_pps": mpps * 1e6}
    for name, doc in dict(docs, cell=cell, dut=dut).items():
        with open(os.path.join(cd, name + ".json"), "w") as f:
            json.dump(doc, f)
    p = subprocess.run([WIRERATE, "merge", "snd.json", "rcv.json", "--json", "merged.json"],
                       cwd=cd, capture_output=True, text=True, timeout=30)
    c.eq(p.returncode, 0, "%s: crafted ends merge: %s" % (cid, p.stderr[-300:]))
    return cd


def dut_rows(md):
    """The rows of report.md's DUT table: [{column: text}]."""
    sec = re.search(r"^## DUT.*?(?=^## |\Z)", md, re.M | re.S)
    lines = [x for x in (sec.group(0) if sec else "").splitlines() if x.startswith("|")]
    split = [[y.strip() for y in x.strip().strip("|").split("|")] for x in lines]
    return [dict(zip(split[0], r)) for r in split[2:]]


# (size, repeat, Mpps, DUT interrupts/s) of the crafted cells, in file order.
REPEATS = [(64, 1, 1.0, 1000), (64, 2, 2.0, 3000), (1518, 1, 0.5, 2000),
           (1518, 2, 0.25, 6000)]


def check_repeat_rows(c, rows):
    """The row of each cell (found by its DUT figures, which were always
    its own) has the cell's repeat and Mpps (all had repeat 1's), and the
    ratios are taken within a repeat."""
    for size, rep, mpps, irqs in REPEATS:
        r = [x for x in rows if x.get("DUT interrupts/s") == "%d" % irqs] or [{}]
        c.eq((r[0].get("frame B"), r[0].get("repeat"), r[0].get("Mpps")),
             (str(size), str(rep), "%.4f" % mpps),
             "DUT table: the row of %d B repeat %d has its own repeat and Mpps" % (size, rep))
    for rep, want in ((1, "x 0.5"), (2, "x 0.125")):
        r = [x for x in rows if x.get("cell") == "bridge/dut r%d: 1518 B / 64 B" % rep]
        c.eq(r[0].get("Mpps") if r else None, want,
             "ratio of 1518 B to 64 B in repeat %d" % rep)
    c.eq(len(rows), len(REPEATS) + 2, "DUT table: a row per cell, a ratio per repeat")


def damaged_cell(d, cid, text):
    """A cell directory whose cell.json holds text; returns it."""
    cd = os.path.join(d, "cells", cid)
    os.makedirs(cd)
    with open(os.path.join(cd, "cell.json"), "w") as f:
        f.write(text)
    return cd


def summary():
    """No namespaces, no EAL: wr-record.py summary on crafted cells of two
    repeats (the DUT table), after cells whose cell.json is JSON but not
    an object (counted as not run, their rows not taken by the next cell)."""
    c = Checker("campaign_summary")
    d = tempfile.mkdtemp(prefix="wirerate-campaign-sum-")
    try:
        dirs = [damaged_cell(d, "bridge_dut-9000B-r%d" % n, text)
                for n, text in ((1, "[]"), (2, "3"))]
        dirs += [crafted_cell(c, d, *x) for x in REPEATS]
        p = subprocess.run([sys.executable, RECORD_PY, "summary", WIRERATE, d, "t"] + dirs,
                           capture_output=True, text=True, timeout=60)
        print(p.stdout[-3000:] + p.stderr[-2000:])
        c.eq(p.returncode, 1, "summary: exit 1 (a cell not run)")
        c.true("Traceback" not in p.stderr, "summary: no traceback")
        s = load_json_file(os.path.join(d, "summary.json"))
        c.eq((s or {}).get("not_run"), ["bridge_dut-9000B-r1", "bridge_dut-9000B-r2"],
             "a cell.json of [] or 3 (JSON, not an object): the cell counted as not run")
        c.eq((s or {}).get("passed"), len(REPEATS), "the crafted cells passed")
        md = open(os.path.join(d, "report", "report.md")).read() \
            if os.path.exists(os.path.join(d, "report", "report.md")) else ""
        check_repeat_rows(c, dut_rows(md))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    c.done()


def load_json_file(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


EXAMPLES = {  # config/campaigns/: campaign -> (inventory, cell ids)
    "vnic-seed": ("lab-inventory", ["%s_%s-hosts-1518B-r%d" % (n, p, r) if p == "different"
                                    else "%s_same-host-1518B-r%d" % (n, r)
                                    for p in ("same", "different")
                                    for n in ("vmxnet3", "e1000e") for r in (1, 2, 3)]),
    "mtu-1500-vs-9000": ("lab-inventory", ["vmxnet3_same-host-1518B-r1",
                                           "vmxnet3_same-host-9018B-r1",
                                           "vmxnet3_different-hosts-1518B-r1",
                                           "vmxnet3_different-hosts-9018B-r1"]),
    "ci-campaign": ("ci-inventory", ["x710-to-cx5-64B-r1", "x710-to-cx5-1518B-r1"]),
    "vnic-ndr": ("lab-inventory", ["%s_%s-%dB-r1" % (n, p, size)
                                   for p in ("same-host", "different-hosts")
                                   for n in ("vmxnet3", "e1000e")
                                   for size in (64, 128, 256, 512, 1024, 1280, 1518)]),
}


def check_mtu_routed(c, conf):
    """The shipped MTU campaign routes through its DUT lb: every sender
    resolves lb's address on vm-a's link as its gateway and sends to the
    receiver's address on lb's other link (campaign.sh --dry-run)."""
    p = subprocess.run([CAMPAIGN_SH, "--dry-run", os.path.join(conf, "lab-inventory.yml"),
                        os.path.join(conf, "mtu-1500-vs-9000.yml")],
                       capture_output=True, text=True, timeout=120)
    c.eq(p.returncode, 0, "mtu-1500-vs-9000 --dry-run: exit code (%s)" % p.stderr[-300:])
    lines = [ln.split(":", 1)[1] for ln in p.stdout.splitlines()
             if ln.strip().startswith(("sender:", "receiver:"))]
    snd, rcv = lines[0::2], lines[1::2]
    c.eq(len(snd), 4, "mtu-1500-vs-9000: four senders")
    c.true(all("--port-ip 0=198.18.0.1/24,gw=198.18.0.254 --dst-ip 198.19.0." in x
               for x in snd), "mtu-1500-vs-9000: each sender routes through lb: %r" % snd)
    c.true(all(",gw=198.19.0.254" in x for x in rcv),
           "mtu-1500-vs-9000: each receiver's gateway is lb: %r" % rcv)


def bed_signals():
    """`bed.py up DIR` started in the background (SIGINT ignored, as a
    shell does for a job with &) stops on SIGINT and on SIGTERM within
    about 2 s, leaving none of its namespaces (ip netns list) and no DIR."""
    c = Checker("bed_signals")
    here = os.path.dirname(os.path.abspath(__file__))
    for sig in (signal.SIGINT, signal.SIGTERM):
        d = tempfile.mkdtemp(prefix="wrbedsig")
        os.rmdir(d)
        rate = ["--shaper-rate", "5mbit"] if sig == signal.SIGTERM else []
        p = subprocess.Popen(
            [sys.executable, os.path.join(here, "bed.py"), "up", d] + rate,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
        line = p.stdout.readline()
        c.true(line.startswith("bed up: "), "%s: up: %r" % (sig.name, line))
        # tc's own word on h1's shaper: the rate asked for, else 20 Mbit/s.
        q = sh("tc", "-n", "wc%dh1" % (p.pid % 10000), "qdisc", "show", check=False).stdout
        want = "rate 5Mbit" if rate else "rate 20Mbit"
        c.true("tbf" in q and want in q, "%s: h1's shaper has %s: %r" % (sig.name, want, q))
        t0 = time.monotonic()
        p.send_signal(sig)
        try:
            rc = p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = p.wait()
        took = time.monotonic() - t0
        c.eq(rc, 0, "%s: exit code" % sig.name)
        c.true(took < 2.5, "%s: stopped within ~2 s: %.1f s" % (sig.name, took))
        ours = ["wc%d%s" % (p.pid % 10000, h) for h in ("h1", "h2", "h3")]
        names = [ln.split()[0] for ln in sh("ip", "netns", "list").stdout.splitlines()
                 if ln.strip()]
        c.eq([n for n in names if n in ours], [], "%s: no namespace left" % sig.name)
        c.true(not os.path.exists(d), "%s: its directory removed" % sig.name)
        p.stdout.close()
    c.done()


CASES = cases.by_name(end_to_end, bad_input, controller, summary, bed_signals)

if __name__ == "__main__":
    cases.main(CASES)
