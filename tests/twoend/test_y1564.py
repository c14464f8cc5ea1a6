# SPDX-License-Identifier: BSD-3-Clause
"""--mode y1564 (ITU-T Y.1564 service activation, docs/y1564.md) against a
real policer: a Linux router in a network namespace made for the test,
joined to wirerate's two af_packet ports by veth pairs, with tc policers
per DSCP class on its ingress (u32 match on the DSCP, action police rate
... burst ...) and netem on its egress as the device. Three services:
gold (CIR + EIR, green DSCP 46, yellow DSCP 10), silver (CIR + EIR, green
26, yellow 12) and bronze (CIR only, DSCP 18). Each verdict is checked
against the policers' own counters (tc -s: packets dropped) and the
router's interfaces (ip -s -j link), never against wirerate's alone.
Usage: test_y1564.py CASE (see CASES)."""
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time

import cases
import wrtest
from wrtest import Checker

TAG = os.getpid() % 100000
NS = "ns-y1564-%d" % TAG
HOST = ["y15h%d_%d" % (i, TAG) for i in (0, 1)]
ROUTER = ["y15r%d_%d" % (i, TAG) for i in (0, 1)]
NETS = [("198.18.0.1", "198.18.0.254"), ("198.19.0.1", "198.19.0.254")]
SIZE = 512
# name: (cir pps, eir pps, green DSCP, yellow DSCP, dport)
SERVICES = {
    "gold": (500, 250, 46, 10, 2000),
    "silver": (400, 400, 26, 12, 2001),
    "bronze": (300, 0, 18, None, 2002),
}
# A policer a little above its rate, with a bucket of 16 frames (and a
# 4-frame queue): room for the pacer's catch-up after a stall. With 1 s
# steps the bucket and queue are 20 frames a step above the rate, so the
# policing step's margin M is 10% here (--police-margin, the
# Recommendation's M for the CBS, EBS and test time). The green frames of
# a service with an EIR never exceed their CIR (the policing step sends
# its overshoot yellow): their bucket is 64 frames, a CBS that rides out
# the router's softirq losing its CPU for 100 ms on this shared machine.
HEADROOM = 1.01
BURST = 16 * SIZE
GREEN_BURST = 64 * SIZE


def ip(*args, check=True):
    return wrtest.sh("ip", *args, check=check)


def nsexec(*argv, check=True):
    return wrtest.sh("ip", "netns", "exec", NS, *argv, check=check)


def probe(c):
    if not wrtest.have_netns():
        c.skip("this process cannot create a network namespace")
        c.done()
    if shutil.which("tc") is None:
        c.skip("no tc (iproute2) on this machine")
        c.done()


def make_bed():
    """The router: two veth pairs, forwarding on, IPv6 off; on its side of
    port 1's link an HTB root whose default class (everything no policer
    takes) is not limited."""
    ip("netns", "add", NS)
    for h, r in zip(HOST, ROUTER):
        ip("link", "add", h, "type", "veth", "peer", "name", r)
        ip("link", "set", r, "netns", NS)
        wrtest.sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % h)
        nsexec("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % r)
        ip("link", "set", h, "up")
        ip("-n", NS, "link", "set", r, "up")
    for r, (_, gw) in zip(ROUTER, NETS):
        ip("-n", NS, "addr", "add", gw + "/24", "dev", r)
    nsexec("sysctl", "-qw", "net.ipv4.ip_forward=1")
    # Static neighbours: port 0 has 8 queue sockets (one a service), and
    # the kernel's fanout would hand an ARP reply to any of them.
    ip("-n", NS, "neigh", "replace", NETS[1][0], "lladdr", mac(HOST[1]), "dev",
       ROUTER[1], "nud", "permanent")
    tc("qdisc", "add", "dev", ROUTER[1], "root", "handle", "1:", "htb", "default", "99")
    tc("class", "add", "dev", ROUTER[1], "parent", "1:", "classid", "1:99", "htb",
       "rate", "1gbit")


def mac(dev, ns=None):
    argv = ["-n", ns] if ns else []
    return json.loads(ip(*argv, "-j", "link", "show", dev).stdout)[0]["address"]


def drop_bed():
    ip("netns", "del", NS, check=False)
    for h in HOST:
        ip("link", "del", h, check=False)


def tc(*args):
    return nsexec("tc", *args)


def police(dscp, pps, burst=BURST):
    """The policer of a DSCP class on the router's egress to port 1: an
    HTB class at pps frames of SIZE a second (with HEADROOM), a bucket of
    BURST bytes and a queue of 4 frames, so that what exceeds it is
    dropped (this kernel has no act_police: CONFIG_NET_ACT_POLICE; HTB, a
    pfifo and the u32 classifier it has). Its leaf qdisc, handle
    DSCP+100:, counts the drops; burst is its bucket in bytes."""
    cid = "1:%d" % (dscp + 100)
    rate = "%dbit" % int(pps * SIZE * 8 * HEADROOM)
    tc("class", "add", "dev", ROUTER[1], "parent", "1:", "classid", cid, "htb",
       "rate", rate, "ceil", rate, "burst", str(burst), "cburst", str(burst))
    tc("qdisc", "add", "dev", ROUTER[1], "parent", cid, "handle", "%d:" % (dscp + 100),
       "pfifo", "limit", "4")
    tc("filter", "add", "dev", ROUTER[1], "parent", "1:", "protocol", "ip", "prio",
       "10", "u32", "match", "ip", "tos", "0x%02x" % (dscp << 2), "0xfc",
       "flowid", cid)


def set_queue(dscp, frames):
    """A policer's queue: 0 frames drops everything (an outage), 4 as
    police() made it."""
    h = "%d:" % (dscp + 100)
    tc("qdisc", "change", "dev", ROUTER[1], "parent", "1:%d" % (dscp + 100),
       "handle", h, "pfifo", "limit", str(frames))


def policers(skip=(), scale=None):
    """Each service's policers: green at its CIR, yellow at its EIR; skip
    leaves (service, colour) pairs out, scale {(service, colour): x} sets
    x times the rate (with the small bucket)."""
    scale = scale or {}
    for name, (cir, eir, g, y, _) in SERVICES.items():
        for colour, dscp, pps in (("green", g, cir), ("yellow", y, eir)):
            if dscp is None or (name, colour) in skip:
                continue
            police(dscp, pps * scale.get((name, colour), 1.0),
                   GREEN_BURST if colour == "green" and eir and
                   (name, colour) not in scale else BURST)


def tc_dropped():
    """{DSCP: packets its policer dropped} from tc -s (the kernel's count)."""
    p = tc("-s", "-j", "qdisc", "show", "dev", ROUTER[1])
    out = {}
    for q in json.loads(p.stdout or "[]"):
        if q.get("kind") == "pfifo":
            out[int(q["handle"].rstrip(":")) - 100] = q.get("drops", 0)
    return out


def link_stats(dev):
    p = nsexec("ip", "-s", "-j", "link", "show", dev)
    return json.loads(p.stdout)[0]["stats64"]


def vdevs():
    return ["net_af_packet0,iface=%s,qdisc_bypass=0,qpairs=8" % HOST[0],
            "net_af_packet1,iface=%s,qdisc_bypass=0" % HOST[1]]


def streams(ftd=None):
    """--stream per service; ftd {name: criterion} overrides 200ms."""
    ftd = ftd or {}
    out = []
    for name, (cir, eir, g, y, dport) in SERVICES.items():
        d = "name=%s;dscp=%d;dport=%d;cir=%dpps;flr=0.1%%;ftd=%s;fdv=50ms;" \
            "avail=99%%" % (name, g, dport, cir, ftd.get(name, "200ms"))
        if eir:
            d += ";eir=%dpps;yellow=dscp:%d" % (eir, y)
        out += ["--stream", d]
    return out


def opts(steps="50,100", perf="0", ftd=None, step="1s"):
    nets = ["--src-ip", NETS[0][0], "--dst-mac", mac(ROUTER[0], NS)]
    return nets + ["--tx-ports", "0", "--rx-ports", "1", "--mode", "y1564",
                   "--size", str(SIZE), "--dst-ip", NETS[1][0], "--step-time", step,
                   "--y1564-steps", steps, "--perf-time", perf, "--police-margin", "10",
                   "--plain"] + \
        streams(ftd)


def services(doc):
    return {s["name"]: s for s in doc["y1564"]["services"]}


def step(svc, name):
    return [s for s in svc["steps"] if s["step"] == name][0]


def kpis(st):
    return [f["kpi"] for f in st["fails"]]


def balance(c, doc):
    """Every frame accounted for, per stream: sent = received + lost."""
    for t in doc["trials"]:
        for s in t.get("streams", []):
            c.eq(s["sent_pkts"], s["rx_pkts"] + s["lost_pkts"],
                 "%s: stream %s sent = received + lost" % (t["what"], s.get("name")))


def run_bed(c, o, setup, timeout=120):
    """make the bed, setup(), run wirerate with o; the Result."""
    make_bed()
    setup()
    r = wrtest.run(vdevs(), o() if callable(o) else o, timeout=timeout)
    c.true(r.doc is not None, "a result: %s" % r.err[-400:])
    return r


def forwarded_rx1():
    return link_stats(ROUTER[1])["tx"]["packets"]


def y1564_pass():
    """Policers at each service's CIR and EIR: every step passes (the
    Recommendation's default steps), the performance test too, exit 0;
    the policing steps' drops are the policers' own (tc -s) and what the
    router forwarded is what wirerate received; the report renders in
    headless Chromium with one table per service."""
    c = Checker("y1564_pass")
    probe(c)
    try:
        r = run_bed(c, lambda: opts(steps="25,50,75,100", perf="4s"), policers)
        c.eq(r.rc, 0, "exit code (all passed): %s" % r.out[-1500:])
        if r.doc:
            y = r.doc["y1564"]
            c.eq(y["pass"], True, "the verdict")
            c.eq(y["phase"], "done", "finished")
            c.eq(y["delay"], "one-way", "delay on one clock, one host")
            sv = services(r.doc)
            for name, s in sv.items():
                want = ["cir 25%", "cir 50%", "cir 75%", "cir 100%"] + \
                    (["cir+eir"] if SERVICES[name][1] else []) + ["policing"]
                c.eq([x["step"] for x in s["steps"]], want, "%s: its steps" % name)
                c.true(all(x["pass"] for x in s["steps"]), "%s: every step passes: %r"
                       % (name, [(x["step"], x["fails"]) for x in s["steps"]]))
                c.eq(s["perf"]["pass"], True, "%s: the performance test" % name)
            drops = tc_dropped()
            lost = sum(st["green"]["lost_pkts"] + st.get("yellow", {}).get("lost_pkts", 0)
                       for s in sv.values() for st in s["steps"] + [s["perf"]])
            c.true(lost <= sum(drops.values()),
                   "wirerate's lost frames %d are within the policers' drops %r" % (lost, drops))
            c.true(drops.get(10, 0) > 0 and drops.get(18, 0) > 0,
                   "the policing steps made gold's yellow and bronze's policers "
                   "drop: %r" % drops)
            rx = sum(s["rx_pkts"] for t in r.doc["trials"] for s in t.get("streams", []))
            c.true(abs(forwarded_rx1() - rx) <= 64, "the router forwarded %d, wirerate "
                   "received %d (ARP aside)" % (forwarded_rx1(), rx))
            balance(c, r.doc)
            report_check(c, r.doc)
        c.done(r)
    finally:
        drop_bed()


def report_check(c, doc):
    """wirerate report: HTML (rendered by headless Chromium) and Markdown,
    one table per service."""
    with tempfile.TemporaryDirectory() as d:
        res = os.path.join(d, "y1564.json")
        with open(res, "w") as f:
            json.dump(doc, f)
        out = os.path.join(d, "rep")
        p = subprocess.run([wrtest.WIRERATE, "report", "--out", out, res],
                           capture_output=True, text=True, timeout=60)
        c.eq(p.returncode, 0, "report: %s" % p.stderr[-400:])
        md = open(os.path.join(out, "report.md")).read()
        for name in SERVICES:
            c.true("### Service %s" % name in md, "markdown: a table for %s" % name)
        html = os.path.join(out, "report.html")
        c.true(os.path.exists(os.path.join(out, "y1564.png")), "the series' plot")
        if shutil.which("chromium") is None and shutil.which("chromium-browser") is None:
            c.skip("no chromium binary (Debian package chromium)")
            return
        dom = chromium_dom(html, os.path.join(d, "chromium-y1564-%d" % TAG))
        for name in SERVICES:
            c.eq(dom.count('<table class="service" id="service-%s"' % name), 1,
                 "chromium: one table for %s" % name)


def chromium_dom(page, profile):
    """The page's DOM as Debian's headless Chromium builds it."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    p = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                        "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync",
                        "--user-data-dir=" + profile, "--dump-dom", "file://" + page],
                       capture_output=True, text=True, timeout=120)
    return p.stdout


def y1564_policer_low():
    """Silver's green policer at 80% of its CIR: silver fails its 100%
    CIR step with FLR named (its 50% step passes), gold and bronze pass
    everything, exit 1; silver's loss is what its policer dropped."""
    c = Checker("y1564_policer_low")
    probe(c)
    try:
        r = run_bed(c, opts, lambda: policers(scale={("silver", "green"): 0.8 / HEADROOM}))
        c.eq(r.rc, 1, "exit code (a step failed)")
        if r.doc:
            sv = services(r.doc)
            st = step(sv["silver"], "cir 100%")
            c.true("FLR" in kpis(st), "silver's 100%% CIR step fails on FLR: %r" % st["fails"])
            f = [x for x in st["fails"] if x["kpi"] == "FLR"][0]
            c.true(0.1 < f["value"] < 0.3 and f["criterion"] == 0.001,
                   "FLR about 20%% against 0.1%%: %r" % f)
            c.eq(step(sv["silver"], "cir 50%")["pass"], True, "silver at 50% passes")
            for name in ("gold", "bronze"):
                c.eq(sv[name]["pass"], True, "%s passes: %r" % (name, [
                    (x["step"], x["fails"]) for x in sv[name]["steps"]]))
            drops = tc_dropped()
            green = sum(x["green"]["lost_pkts"] for x in sv["silver"]["steps"])
            c.true(0 < green <= drops.get(26, 0),
                   "silver's green loss %d within its policer's drops %r" % (green, drops))
            balance(c, r.doc)
        c.done(r)
    finally:
        drop_bed()


def y1564_policer_missing():
    """Bronze without its policer: bronze fails the policing step (IR above
    CIR plus the margin), every other step of every service passes."""
    c = Checker("y1564_policer_missing")
    probe(c)
    try:
        r = run_bed(c, opts, lambda: policers(skip={("bronze", "green")}))
        c.eq(r.rc, 1, "exit code (a step failed)")
        if r.doc:
            sv = services(r.doc)
            st = step(sv["bronze"], "policing")
            c.eq(kpis(st), ["IR"], "bronze's policing step fails on IR: %r" % st["fails"])
            c.true(all(x["pass"] for x in sv["bronze"]["steps"] if x["step"] != "policing"),
                   "bronze's CIR steps pass")
            c.eq(st["green"]["lost_pkts"], 0, "nothing policed bronze's frames")
            c.true(18 not in tc_dropped(), "no policer on DSCP 18 (tc)")
            c.true(link_stats(ROUTER[1])["tx"]["packets"] >= sum(
                x["green"]["sent_pkts"] for x in sv["bronze"]["steps"]),
                "the router forwarded every bronze frame (its counters)")
            for name in ("gold", "silver"):
                c.eq(sv[name]["pass"], True, "%s passes" % name)
        c.done(r)
    finally:
        drop_bed()


def y1564_delay():
    """netem delay 40ms on the router's egress, gold's FTD criterion 20ms:
    gold fails FTD (and passes FLR) in every step; silver and bronze
    (200ms) pass."""
    c = Checker("y1564_delay")
    probe(c)
    if not wrtest.have_qdisc(["netem", "delay", "1ms"]):
        c.skip("this kernel has no netem (CONFIG_NET_SCH_NETEM); the "
               "y1564_delay_fixture case proves FTD on the --impair fixture")
        c.done()

    def setup():
        policers()
        tc("qdisc", "add", "dev", ROUTER[0], "root", "netem", "delay", "40ms",
           "limit", "10000")
    try:
        r = run_bed(c, lambda: opts(ftd={"gold": "20ms"}), setup)
        c.eq(r.rc, 1, "exit code (a step failed)")
        if r.doc:
            sv = services(r.doc)
            for st in sv["gold"]["steps"]:
                if st["step"] == "policing":
                    continue
                c.eq(kpis(st), ["FTD"], "gold %s fails FTD alone: %r" % (st["step"], st["fails"]))
                c.true(st["ftd_ns"] >= 40e6, "gold %s: FTD %.1f ms >= netem's 40 ms"
                       % (st["step"], st["ftd_ns"] / 1e6))
            for name in ("silver", "bronze"):
                c.eq(sv[name]["pass"], True, "%s passes: %r" % (name, [
                    (x["step"], x["fails"]) for x in sv[name]["steps"]]))
        c.done(r)
    finally:
        drop_bed()


def y1564_delay_fixture():
    """FTD on a kernel without netem: a net_ring pair with the --impair
    delay=2ms fixture (each RX poll waits 2 ms, so every frame's delay is
    at least that): gold (FTD 1ms) fails FTD in every step, with the FTD
    it measured at or above 2 ms, and loses nothing; silver (FTD 50ms)
    passes its CIR step. Nothing polices a ring pair: both policing steps
    fail on IR alone."""
    c = Checker("y1564_delay_fixture")
    o = ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1", "--rxq", "3",
         "--mode", "y1564", "--size", "256", "--step-time", "500ms",
         "--y1564-steps", "100", "--perf-time", "0", "--impair", "delay=2ms",
         "--plain",
         "--stream", "name=gold;dscp=46;dport=2000;cir=1kpps;eir=500pps;"
         "yellow=dscp:10;flr=0.1%;ftd=1ms",
         "--stream", "name=silver;dscp=26;dport=2001;cir=1kpps;flr=0.1%;ftd=50ms"]
    r = wrtest.run([], o, timeout=60)
    c.eq(r.rc, 1, "exit code (a step failed): %s" % r.err[-300:])
    if r.doc:
        sv = services(r.doc)
        # No policer on a ring pair: the policing steps fail IR, by design.
        for st in sv["gold"]["steps"]:
            want = ["FTD", "IR"] if st["step"] == "policing" else ["FTD"]
            c.eq(kpis(st), want, "gold %s fails FTD: %r" % (st["step"], st["fails"]))
            c.true(st["ftd_ns"] >= 2e6, "gold %s: FTD %.2f ms >= the fixture's 2 ms" % (
                st["step"], st["ftd_ns"] / 1e6))
            c.eq(st["flr"], 0, "gold %s: no loss" % st["step"])
        c.eq([(x["step"], kpis(x)) for x in sv["silver"]["steps"]],
             [("cir 100%", []), ("policing", ["IR"])], "silver: FTD within 50 ms")
        c.eq(r.doc["y1564"]["delay"], "one-way", "one way, one clock")
        balance(c, r.doc)
    c.done(r)


def y1564_reflect():
    """Round trip through a far end: a second wirerate with --reflect on the
    other end of a veth pair sends every frame back; the y1564 result says
    its delay is round-trip, its CIR steps pass with nothing lost, and the
    reflector reflected every frame the generator sent (its own JSON)."""
    c = Checker("y1564_reflect")
    probe(c)
    a, b = "y15ra%d" % TAG, "y15rb%d" % TAG
    ip("link", "add", a, "type", "veth", "peer", "name", b)
    refl = None
    try:
        for dev in (a, b):
            wrtest.sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % dev)
            ip("link", "set", dev, "up")
        with tempfile.TemporaryDirectory() as d:
            rpath = os.path.join(d, "refl.json")
            argv = [wrtest.WIRERATE] + wrtest.eal_args(
                ["net_af_packet0,iface=%s,qdisc_bypass=0" % b], lcores="1,0",
                prefix="y15refl%d" % TAG) + ["--", "--reflect", "--start-on-rx",
                                             "--idle-timeout", "2s", "--quiet",
                                             "--json", rpath]
            refl = subprocess.Popen(argv, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True)
            time.sleep(1.5)
            o = ["--tx-ports", "0", "--rx-ports", "0", "--mode", "y1564", "--size",
                 str(SIZE), "--step-time", "1s", "--y1564-steps", "100",
                 "--perf-time", "0", "--plain",
                 "--stream", "name=gold;dscp=46;cir=500pps;flr=1%;ftd=100ms"]
            r = wrtest.run(["net_af_packet0,iface=%s,qdisc_bypass=0" % a], o,
                           timeout=60)
            out, _ = refl.communicate(timeout=30)
            c.eq(refl.returncode, 0, "reflector exit code: %s" % out[-300:])
            c.eq(r.rc, 1, "exit code: the policing step fails (nothing polices)")
            if r.doc:
                y = r.doc["y1564"]
                c.eq(y["delay"], "round-trip", "delay measured out and back")
                st = step(services(r.doc)["gold"], "cir 100%")
                c.eq((st["pass"], st["green"]["lost_pkts"]), (True, 0),
                     "the CIR step passes, nothing lost: %r" % st["fails"])
                sent = sum(t["sent_pkts"] for t in r.doc["trials"])
                rd = wrtest.read_result(rpath)
                c.eq(rd["totals"][0]["reflected_pkts"], sent,
                     "the reflector sent back every frame (its count)")
    finally:
        if refl is not None and refl.poll() is None:
            refl.kill()
            refl.communicate()
        ip("link", "del", a, check=False)
    c.done()


def wait_phase(path, phase, timeout):
    """Until the checkpoint at path says phase; its doc or None."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with open(path) as f:
                doc = json.load(f)
            if doc.get("y1564", {}).get("phase") == phase:
                return doc
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    return None


def start_perf(c, path, perf):
    """Run wirerate (policers as policers() makes them; configuration steps
    of 500 ms, only the performance test is judged here) with a checkpoint
    each 500 ms, until its performance test started; the process."""
    policers()
    argv = [wrtest.WIRERATE] + wrtest.eal_args(vdevs()) + ["--"] + \
        opts(steps="100", perf=perf, step="500ms") + ["--json", path, "--checkpoint",
                                                      "500ms"]
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, stdin=subprocess.DEVNULL)
    c.true(wait_phase(path, "performance", 60) is not None,
           "the performance test started")
    return p


def y1564_outage():
    """A 12 s outage of silver (its policers' queues set to hold nothing by
    the test, then back) in a 30 s performance test: silver's unavailable
    time is 12 +- 1 s in one period and AVAIL fails; gold and bronze pass.
    """
    c = Checker("y1564_outage")
    probe(c)
    make_bed()
    try:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.json")
            p = start_perf(c, path, "30s")
            time.sleep(4)
            for dscp in (26, 12):
                set_queue(dscp, 0)
            t0 = time.monotonic()
            time.sleep(12)
            for dscp in (26, 12):
                set_queue(dscp, 4)
            out_s = time.monotonic() - t0
            out, err = p.communicate(timeout=90)
            c.eq(p.returncode, 1, "exit code (AVAIL failed): %s" % err[-400:])
            doc = wrtest.read_result(path)
            perf = services(doc)["silver"]["perf"]
            c.true(abs(perf["unavailable_s"] - out_s) <= 1.0,
                   "silver unavailable %d s for an outage of %.2f s" % (
                       perf["unavailable_s"], out_s))
            c.eq(perf["unavailable_periods"], 1, "one unavailable period")
            c.true("AVAIL" in kpis(perf), "AVAIL fails: %r" % perf["fails"])
            ser = perf["series"]
            c.eq(len(ser["t_s"]), perf["seconds"], "a point a second")
            drops = tc_dropped()
            c.true(perf["green"]["lost_pkts"] <= drops.get(26, 0),
                   "silver's loss %d within its policer's drops %r (tc)" % (
                       perf["green"]["lost_pkts"], drops))
            c.true(sum(ser["ses"]) >= 11, "severely errored seconds %d" % sum(ser["ses"]))
            for name in ("gold", "bronze"):
                s = services(doc)[name]
                c.eq(s["perf"]["pass"], True, "%s passes the performance test: %r "
                     "(policers' drops %r)" % (name, s["perf"]["fails"], drops))
                c.eq(s["perf"]["unavailable_s"], 0, "%s: no unavailable time" % name)
            print("silver: %d s unavailable for a %.2f s outage; %d SES" % (
                perf["unavailable_s"], out_s, perf["ses"]))
        c.done()
    finally:
        drop_bed()


def y1564_killed():
    """SIGKILL during the performance test: the checkpoint is a valid,
    labelled result (running, phase performance) with every finished
    configuration step of every service and the series so far."""
    c = Checker("y1564_killed")
    probe(c)
    make_bed()
    try:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.json")
            p = start_perf(c, path, "60s")
            time.sleep(4)
            p.send_signal(signal.SIGKILL)
            p.communicate(timeout=30)
            doc = wrtest.read_result(path)
            c.eq(doc["stop_reason"], "running", "labelled as a run cut short")
            y = doc["y1564"]
            c.eq(y["phase"], "performance", "labelled: in the performance test")
            for name, s in services(doc).items():
                c.eq(len(s["steps"]), 3 if SERVICES[name][1] else 2,
                     "%s: its finished steps" % name)
                c.true(s["perf"]["seconds"] >= 2 and len(s["perf"]["series"]["t_s"]) ==
                       s["perf"]["seconds"], "%s: the series so far (%d s)" % (
                           name, s["perf"]["seconds"]))
                c.true("pass" not in s["perf"], "%s: no performance verdict yet" % name)
        c.done()
    finally:
        drop_bed()


def y1564_bad_input():
    """Bad services: exit 2 before traffic, naming the service and key."""
    c = Checker("y1564_bad_input")
    base = ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1", "--mode", "y1564"]
    bad = [
        (["--link-speed", "10M", "--stream", "name=big;cir=6Mbps;eir=5Mbps;yellow=dscp:1"],
         "--stream 1 (big): cir + eir"),
        (["--y1564-steps", "50,25,100", "--stream", "name=a;cir=1kpps"],
         "--y1564-steps: step 2 (25%) is not above step 1"),
        (["--stream", "name=a;cir=1kpps;ftd=10"], "--stream 1: ftd=10"),
        (["--stream", "name=a;cir=1kpps;flr=0.001"], "--stream 1: flr=0.001"),
        (["--stream", "name=a;cir=1kpps;eir=1kpps"], "--stream 1 (a): eir= needs yellow="),
        (sum((["--stream", "name=s%d;dport=%d;cir=1kpps;eir=1kpps;yellow=dscp:1" % (i, 3000 + i)]
              for i in range(9)), []), "--stream 8 (s7): eir=: its yellow frames need"),
        (["--stream", "name=a;cir=1kpps;cbs=12kB"], "--stream 1: cbs=12kB: the burst tests"),
        (["--interval", "500ms", "--stream", "name=a;cir=1kpps"], "--interval with --mode y1564"),
        (["--rate", "1Mpps", "--stream", "name=a;cir=1kpps"], "--rate with --mode y1564"),
        (["--stream", "name=a;cir=1kpps", "--stream", "name=b;dport=9;rate=1kpps"],
         "--stream 2 (b): --mode y1564 tests services"),
    ]
    for extra, want in bad:
        r = wrtest.run([], base + extra, want_json=False, timeout=30)
        c.eq(r.rc, 2, "exit 2 for %r" % want)
        c.true(want in r.err, "the message names it: want %r, got %r" % (want, r.err[-300:]))
        c.true("trial" not in r.out, "no traffic")
    c.done()


def y1564_queues():
    """More services than the sending port has TX queues (af_packet with
    qpairs=2, three services, one with an EIR: four streams): exit 2 before
    traffic, naming the first stream without a queue."""
    c = Checker("y1564_queues")
    probe(c)
    a, b = "y15qa%d" % TAG, "y15qb%d" % TAG
    ip("link", "add", a, "type", "veth", "peer", "name", b)
    try:
        o = ["--tx-ports", "0", "--rx-ports", "1", "--mode", "y1564"] + streams()
        r = wrtest.run(["net_af_packet0,iface=%s,qpairs=2" % a,
                        "net_af_packet1,iface=%s" % b], o, want_json=False)
        c.eq(r.rc, 2, "exit code")
        c.true("--stream 3 (bronze) needs TX queue 2, and the PMD offers 2 queues "
               "(5 streams; a service with eir= takes two)" in r.err,
               "the message names the service: %r" % r.err[-300:])
        c.true("trial" not in r.out, "no traffic")
    finally:
        ip("link", "del", a, check=False)
    c.done()


def y1564_unmeasured():
    """A delay criterion the run cannot measure (--stamp seq, --latency off)
    is refused at start, exit 2 naming the criterion, the service and the
    stamp mode, by `wirerate check` and by a run (no traffic); so is --peer
    (the far end's counts are not taken into Y.1564's verdicts). With
    --skip-unmeasured a net_ring pair runs: the CIR step passes on FLR with
    FTD and FDV listed as not measured (null figures), never as passed."""
    c = Checker("y1564_unmeasured")
    base = ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1", "--rxq", "2",
            "--mode", "y1564", "--size", "256", "--step-time", "500ms",
            "--y1564-steps", "100", "--perf-time", "0", "--plain"]
    gold = ["--stream", "name=gold;dscp=46;dport=2000;cir=1kpps;flr=0.1%;ftd=1s;fdv=1s"]
    bad = [
        (["--stamp", "seq"], "--stream 1 (gold): its criterion ftd= cannot be "
         "measured: --stamp seq writes no TX timestamp"),
        (["--latency", "off"], "--stream 1 (gold): its criterion ftd= cannot be "
         "measured: --latency off"),
        (["--peer", "unix:/nonexistent-%d" % TAG], "--peer with --mode y1564"),
    ]
    for extra, want in bad:
        p = subprocess.run([wrtest.WIRERATE, "check", "--"] + base + extra + gold,
                           capture_output=True, text=True, timeout=30)
        c.eq(p.returncode, 2, "wirerate check: exit 2 for %r" % extra)
        c.true(want in p.stdout + p.stderr, "check names it: want %r, got %r" % (
            want, (p.stdout + p.stderr)[-300:]))
        r = wrtest.run([], base + extra + gold, want_json=False, timeout=30)
        c.eq(r.rc, 2, "run: exit 2 for %r" % extra)
        c.true(want in r.err, "the run names it: want %r, got %r" % (want, r.err[-300:]))
        c.true("trial" not in r.out, "no traffic")
    c.true("--reflect" in r.err, "the --peer refusal names the alternative")
    r = wrtest.run([], base + ["--stamp", "seq", "--skip-unmeasured"] + gold, timeout=60)
    c.eq(r.rc, 1, "exit code (nothing polices a ring pair): %s" % r.err[-300:])
    if r.doc:
        st = step(services(r.doc)["gold"], "cir 100%")
        c.eq((st["pass"], st["fails"], st["not_measured"]), (True, [], ["FTD", "FDV"]),
             "the CIR step passes on FLR, FTD and FDV not measured")
        c.eq((st["ftd_ns"], st["fdv_ns"]), (None, None), "no delay figures")
        pol = step(services(r.doc)["gold"], "policing")
        c.eq((kpis(pol), pol["not_measured"]), (["IR"], ["FTD", "FDV"]),
             "the policing step fails IR alone")
        c.true("pass; not measured (skipped): FTD FDV" in r.out,
               "the text says not measured: %r" % r.out[-600:])
        balance(c, r.doc)
    c.done(r)


CASES = cases.by_name(y1564_bad_input, y1564_unmeasured, y1564_queues, y1564_delay_fixture, y1564_pass, y1564_policer_low,
                      y1564_policer_missing, y1564_delay, y1564_outage, y1564_killed,
                      y1564_reflect)

if __name__ == "__main__":
    cases.main(CASES)
