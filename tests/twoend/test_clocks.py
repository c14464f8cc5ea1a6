# SPDX-License-Identifier: BSD-3-Clause
"""One-way latency across hosts (docs/testbeds.md, "Latency across hosts"),
on real clock daemons: two namespaces A (sender) and B (receiver), a data
veth (af_packet) and a clock veth between them. On the clock link:
linuxptp's ptp4l, software timestamps (-S), the grandmaster in A and two
slaves in B; chrony's chronyd -x (it never sets the clock), the server in
B and two clients in A. Each daemon has its own config, pid file and
socket in the case's directory. The namespaces share this machine's
system clock, which nothing may adjust: the locked slave runs with
clock_noadj.c preloaded (its clock_adjtime() changes nothing, so its
servo, linreg, locks on the offsets it measures: port SLAVE), the other
with free_running 1 (it never locks: UNCALIBRATED); chronyd -x tracks
without adjusting. Usage: test_clocks.py CASE.

clocks: run 1, the sender reads the synchronised chrony client
(--clock-sync chrony:SOCK) and the receiver the locked slave (ptp:SOCK),
receiver --latency sync: the merge reports one-way latency with the
source "chrony + ptp" and a bound at least the sum of both ends' bounds,
each as the daemon's own tool reports it now; every stream's figures
carry it and lie within it of what the receiver measured (one TSC here).
Run 2, the sender reads the client whose server never answers (leap
status Not synchronised) and the receiver the free-running slave: the
one-way figures are null, with the sender's reason; run 3 the same
receiver with --clock-sync none on the sender. Every run balances.
Runs 4 and 5 the same through --peer: the receiver a `wirerate serve`
(--clock-sync ptp: the locked slave) on the clock link's address, the
sender's --latency sync asking it to time the sender's frames: with the
synchronised client, far.one_way by chrony + ptp and each trial's streams
carry its bound; with --clock-sync none, null with the reason."""
import json
import os
import re
import shutil
import subprocess
import sys
import time

import cases
import twoend
from twoend import Bed, check_pair, sh, skip
from wrtest import Checker

HERE = os.path.dirname(os.path.abspath(__file__))
MAC_A, MAC_B = "02:00:00:00:0c:01", "02:00:00:00:0c:02"
NET = "10.231.%d" % (os.getpid() % 200 + 20)
RECEIVER = ["--tx-ports", "none", "--start-on-rx", "--idle-timeout", "1s",
            "--quiet", "--latency", "sync"]
SENDER = ["--rx-ports", "none", "--quiet", "--grace", "300ms", "--count", "20k",
          "--rate", "20kpps", "--src-mac", MAC_A, "--dst-mac", MAC_B]
VDEV = "net_af_packet0,iface=%s,framecnt=8192"
PTP_CONF = """[global]
%s
logAnnounceInterval -3
logSyncInterval -4
logMinDelayReqInterval -4
announceReceiptTimeout 3
summary_interval 4
network_transport L2
uds_address %s
"""


def probe():
    for tool in ("ptp4l", "pmc", "chronyd", "chronyc", "cc"):
        if shutil.which(tool) is None:
            print("FAIL: %s is not installed (scripts/test.sh installs linuxptp, "
                  "chrony and the build tools)" % tool)
            sys.exit(1)


class Clocks:
    """The daemons of one bed, each stopped by the PID it wrote."""

    def __init__(self, bed, na, nb):
        self.bed, self.na, self.nb = bed, na, nb
        self.pids = []
        a, b = bed.tag + "ka", bed.tag + "kb"
        sh("ip", "link", "add", a, "type", "veth", "peer", "name", b)
        for dev, ns, host in ((a, na, 1), (b, nb, 2)):
            sh("ip", "link", "set", dev, "netns", ns)
            sh("ip", "-n", ns, "addr", "add", "%s.%d/29" % (NET, host), "dev", dev)
            sh("ip", "-n", ns, "link", "set", dev, "up")
        self.link = (a, b)
        self.noadj = bed.path("clock_noadj.so")
        sh("cc", "-shared", "-fPIC", "-O2", "-o", self.noadj,
           os.path.join(HERE, "clock_noadj.c"), "-ldl")

    def sock(self, name):
        return self.bed.path(name + ".sock")

    def ptp4l(self, name, ns, dev, conf, env=()):
        path = self.bed.path(name + ".cfg")
        with open(path, "w") as f:
            f.write(PTP_CONF % (conf, self.sock(name)))
        p = self.bed.spawn(name, ["ip", "netns", "exec", ns, "env"] + list(env) + [
            "ptp4l", "-S", "-i", dev, "-f", path, "-m"])
        return p

    def chronyd(self, name, ns, conf):
        d = self.bed.path(name)
        os.makedirs(d, mode=0o700)
        path = os.path.join(d, "chrony.conf")
        with open(path, "w") as f:
            f.write(conf + "bindcmdaddress %s\npidfile %s/chronyd.pid\n"
                    "driftfile %s/drift\n" % (self.sock(name), d, d))
        sh("ip", "netns", "exec", ns, "chronyd", "-x", "-u", "root", "-f", path,
           "-l", os.path.join(d, "log"))
        self.pids.append(os.path.join(d, "chronyd.pid"))

    def start(self):
        a, b = self.link
        self.ptp4l("gm", self.na, a, "priority1 1")
        self.ptp4l("slave", self.nb, b, "slaveOnly 1\nclock_servo linreg",
                   ["LD_PRELOAD=" + self.noadj])
        self.ptp4l("free", self.nb, b, "slaveOnly 1\nfree_running 1")
        self.chronyd("ntpsrv", self.nb, "local stratum 8\nallow %s.0/29\n"
                     "bindaddress %s.2\ncmdport 0\n" % (NET, NET))
        self.chronyd("ntpcli", self.na, "server %s.2 iburst minpoll -4 maxpoll -4\n"
                     "cmdport 0\nport 0\n" % NET)
        # A server address on the link that nobody answers.
        self.chronyd("ntpnone", self.na, "server %s.3 iburst minpoll -4 maxpoll -4\n"
                     "cmdport 0\nport 0\n" % NET)

    def pmc(self, name):
        return sh("pmc", "-u", "-b", "0", "-s", self.sock(name), "GET PORT_DATA_SET",
                  "GET CURRENT_DATA_SET").stdout

    def tracking(self, name):
        return sh("chronyc", "-n", "-c", "-h", self.sock(name), "tracking",
                  check=False).stdout.strip()

    def wait_synced(self, timeout=20):
        """Until the locked slave is SLAVE and the client Normal."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            slave = "portState               SLAVE" in self.pmc("slave")
            if slave and self.tracking("ntpcli").endswith(",Normal"):
                return True
            time.sleep(0.2)
        return False

    def stop(self):
        for path in self.pids:
            try:
                os.kill(int(open(path).read().split()[0]), 15)
            except (OSError, ValueError):
                pass


def chrony_bound(line):
    """chronyc(1)'s bound of a -c tracking line, ns."""
    f = line.split(",")
    return (abs(float(f[4])) + float(f[10]) / 2 + float(f[11])) * 1e9


def ptp_bound(text):
    off = float(re.search(r"offsetFromMaster\s+(\S+)", text).group(1))
    delay = float(re.search(r"meanPathDelay\s+(\S+)", text).group(1))
    return abs(off) + abs(delay)


def pair(c, bed, run, na, nb, va, vb, snd_sync, rcv_sync):
    """One sender/receiver run; returns (merge, sender doc, receiver doc)."""
    for f in ("snd.json", "rcv.json"):
        if os.path.exists(bed.path(f)):
            os.unlink(bed.path(f))
    rcv = bed.wirerate("b", [VDEV % vb], RECEIVER + [
        "--clock-sync", rcv_sync, "--json", bed.path("rcv.json")], netns=nb,
        name="rcv%d" % run)
    if not rcv.wait_text("waiting for the first frame", 30):
        c.true(False, "run %d: receiver ready" % run)
        return None, None, None
    snd = bed.wirerate("a", [VDEV % va], SENDER + [
        "--clock-sync", snd_sync, "--json", bed.path("snd.json")], netns=na,
        name="snd%d" % run)
    m = check_pair(c, bed, snd, rcv, exact=False)
    return m, twoend.load_json(bed.path("snd.json")), twoend.load_json(bed.path("rcv.json"))


def check_synced(c, m, sd, rd, cli_line, slave_text):
    sc, rc = sd["env"]["clock"], rd["env"]["clock"]
    c.eq((sc["source"], sc["synced"]), ("chrony", True), "sender: chrony, synced")
    c.eq((rc["source"], rc["synced"]), ("ptp", True), "receiver: ptp, synced")
    c.true(cli_line.split(",")[0] in sc["detail"], "sender's reference is the one "
           "chronyc names (%s): %s" % (cli_line.split(",")[0], sc["detail"]))
    c.true("port SLAVE" in rc["detail"], "receiver's ptp4l port SLAVE: " + rc["detail"])
    # Bounds change with every sample: the daemon's own tool, read just
    # after, gives the same order of magnitude (under 1 ms here).
    for who, got, now in (("sender", sc["bound_ns"], chrony_bound(cli_line)),
                          ("receiver", rc["bound_ns"], ptp_bound(slave_text))):
        print("%s bound: %.0f ns in the result, %.0f ns from its tool now" % (
            who, got, now))
        c.true(0 < got < 1e6 and 0 < now < 1e6, "%s bound under 1 ms" % who)
    ow = m["one_way"]
    print("one_way: %s; stream 0: %s" % (json.dumps(ow), json.dumps(
        {k: v for k, v in m["streams"][0].items() if "latency" in k})))
    c.eq((ow["available"], ow["source"]), (True, "chrony + ptp"), "one way: by chrony + ptp")
    c.true(ow["bound_ns"] >= sc["bound_ns"] + rc["bound_ns"],
           "combined bound %.0f >= the ends' %.0f + %.0f" % (
               ow["bound_ns"], sc["bound_ns"], rc["bound_ns"]))
    # One TSC and one system clock here: the shift is the anchors' error.
    c.true(abs(ow["shift_ns"]) <= ow["bound_ns"], "shift %.0f ns within the bound" %
           ow["shift_ns"])
    for s, r in zip(m["streams"], rd["streams"]):
        c.eq(s["latency_bound_ns"], ow["bound_ns"], "stream %d carries the bound" %
             s["stream_id"])
        for k in ("latency_min_ns", "latency_mean_ns", "latency_max_ns"):
            c.true(s[k] is not None and abs(s[k] - r[k]) <= ow["bound_ns"] and s[k] > 0,
                   "stream %d %s %.0f within the bound of the receiver's %.0f" % (
                       s["stream_id"], k, s[k] or -1, r[k]))


def report_p50(c, bed):
    """The latency p50 column of `wirerate report` on the merge."""
    out = bed.path("report")
    p = subprocess.run([twoend.WIRERATE, "report", "--out", out, bed.path("merge.json")],
                       capture_output=True, text=True, timeout=60)
    c.eq(p.returncode, 0, "wirerate report on the merge: " + p.stderr[-300:])
    md = open(os.path.join(out, "report.md")).read() if p.returncode == 0 else ""
    head, row = None, None
    for line in md.splitlines():
        cols = [x.strip() for x in line.strip().strip("|").split("|")]
        if cols[:2] == ["cell", "frame B"]:
            head = cols
        elif head and len(cols) == len(head) and cols[1].isdigit():
            row = dict(zip(head, cols))
            break
    return (row or {}).get("latency p50 ns")


def check_null(c, m, why, what):
    ow = m["one_way"]
    c.eq((ow["available"], ow["bound_ns"], ow["source"]), (False, None, None),
         "%s: no one-way latency" % what)
    c.true(why in ow["reason"], "%s: reason %r has %r" % (what, ow["reason"], why))
    for s in m["streams"]:
        c.true(all(s[k] is None for k in ("latency_min_ns", "latency_mean_ns",
                                          "latency_max_ns")),
               "%s: stream %d one-way figures null" % (what, s["stream_id"]))
        c.true(why in s.get("latency_null_reason", ""), "%s: stream %d says why" % (
            what, s["stream_id"]))


def serve(bed, nb, vb, sync):
    """wirerate serve in B on the data veth, TCP on the clock link."""
    token = bed.path("token")
    with open(token, "w") as f:
        f.write("clocks-token-%d-0123456789abcdef\n" % os.getpid())
    os.chmod(token, 0o600)
    p = bed.spawn("serve", ["ip", "netns", "exec", nb, twoend.WIRERATE, "serve"] +
                  bed.eal("b", [VDEV % vb]) + [
                      "--", "--control", bed.path("serve.sock"), "--control-listen",
                      "%s.2:9436" % NET, "--control-token", token, "--tx-ports", "none",
                      "--quiet", "--clock-sync", sync])
    return p, token


def peer_run(c, bed, run, na, va, token, sync):
    """A plain run of the sender through --peer; its result."""
    out = bed.path("peer%d.json" % run)
    p = bed.wirerate("a", [VDEV % va], SENDER + [
        "--peer", "tcp:%s.2:9436" % NET, "--peer-token", token, "--latency", "sync",
        "--clock-sync", sync, "--json", out], netns=na, name="peer%d" % run)
    c.eq(p.wait(60), 0, "run %d: the sender through --peer ends well" % run)
    return twoend.load_json(out)


def check_peer(c, doc, synced, why=""):
    far = (doc or {}).get("far") or {}
    ow = far.get("one_way") or {}
    trials = far.get("trials") or []
    c.true(len(trials) == 1, "one trial counted by the far end")
    streams = [x for t in trials for x in (t.get("peer") or {}).get("streams") or []
               if "latency_min_ns" in x]
    c.true(len(streams) > 0, "the far end timed the sender's frames")
    print("peer one_way: %s; a stream: %s" % (json.dumps(ow), json.dumps(
        {k: v for k, v in (streams or [{}])[0].items() if "latency" in k})))
    if synced:
        c.eq((ow.get("available"), ow.get("source")), (True, "chrony + ptp"),
             "peer: one way by chrony + ptp")
        for x in streams:
            c.true(x["latency_min_ns"] is not None and x["latency_min_ns"] > 0 and
                   x.get("latency_bound_ns") == ow["bound_ns"],
                   "peer: stream %d one-way with the bound" % x["stream_id"])
    else:
        c.eq(ow.get("available"), False, "peer: no one-way latency")
        c.true(why in ow.get("reason", ""), "peer: reason %r" % ow.get("reason"))
        for x in streams:
            c.true(x["latency_min_ns"] is None and why in x.get("latency_null_reason", ""),
                   "peer: stream %d null with the reason" % x["stream_id"])
        for t in trials:
            c.true(all("latency" not in p for p in t["peer"].get("totals") or []),
                   "peer: no per-port latency of the far end's TSC")


def clocks():
    probe()
    c, bed = Checker("clocks"), Bed("clocks")
    clk = None
    try:
        na, nb = bed.add_netns("A"), bed.add_netns("B")
        va, vb = bed.veth(na, nb, 1500, (MAC_A, MAC_B))
        clk = Clocks(bed, na, nb)
        clk.start()
        c.true(clk.wait_synced(), "ptp4l slave locked and chronyd client synchronised")
        m, sd, rd = pair(c, bed, 1, na, nb, va, vb, "chrony:" + clk.sock("ntpcli"),
                         "ptp:" + clk.sock("slave"))
        if m:
            check_synced(c, m, sd, rd, clk.tracking("ntpcli"), clk.pmc("slave"))
            p50 = rd["totals"][0]["latency"]["p50_ns"]
            got = report_p50(c, bed)
            want = p50 - m["one_way"]["shift_ns"]
            c.true(got not in (None, "-") and abs(float(got) - want) <= max(1, want * 1e-3),
                   "report: p50 %s, the receiver's %.0f shifted by %.0f" % (
                       got, p50, m["one_way"]["shift_ns"]))
        m, sd, rd = pair(c, bed, 2, na, nb, va, vb, "chrony:" + clk.sock("ntpnone"),
                         "ptp:" + clk.sock("free"))
        if m:
            c.true("UNCALIBRATED" in rd["env"]["clock"]["reason"],
                   "free-running slave: " + rd["env"]["clock"]["reason"])
            check_null(c, m, "the sender's clock is not synchronised: chrony: leap "
                       "status Not synchronised", "unsynchronised chrony")
            c.eq(report_p50(c, bed), "-", "report: no p50 without synchronised clocks")
        m, sd, rd = pair(c, bed, 3, na, nb, va, vb, "none", "ptp:" + clk.sock("slave"))
        if m:
            check_null(c, m, "the sender's clock is not synchronised: not read "
                       "(--clock-sync none)", "no source")
        srv, token = serve(bed, nb, vb, "ptp:" + clk.sock("slave"))
        c.true(srv.wait_text("serving on", 60), "wirerate serve up")
        check_peer(c, peer_run(c, bed, 4, na, va, token, "chrony:" + clk.sock("ntpcli")),
                   True)
        check_peer(c, peer_run(c, bed, 5, na, va, token, "none"), False,
                   "the sender's clock is not synchronised: not read")
    finally:
        if c.failed:
            bed.dump()
        if clk is not None:
            clk.stop()
        bed.close()
    c.done()


CASES = cases.by_name(clocks)


def before(name):
    if os.geteuid() != 0:
        skip("needs root (namespaces, veths, clock daemons)")


if __name__ == "__main__":
    cases.main(CASES, before=before, after=twoend.close_all)
