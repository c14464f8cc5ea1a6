# SPDX-License-Identifier: BSD-3-Clause
"""Helpers for the two-ended test beds: two wirerate processes (or one and a
kernel tool), network namespaces, veth pairs, socket files, all created for
one test and removed by Bed.close() whatever happened. Standard library only.

Lcore mapping for two DPDK processes on two CPUs (docs/testbeds.md): side
"a" runs its worker on CPU 1 and its stats core on CPU 0; side "b" the
other way round (--main-lcore 1), so the two busy-polling workers never
share a CPU and each stats core sleeps on the other's CPU."""
import os
import shutil
import signal
import subprocess
import tempfile
import time

import wrtest
# Re-exported to the beds, which take them from here.
from wrtest import hugepages_free, load_json, sh, skip  # noqa: F401

WIRERATE = os.environ.get("WIRERATE", "build/app/wirerate")

# Side "b" moves its main (stats) lcore to CPU 1; side "a" keeps EAL's CPU 0.
MAIN_LCORE = {"a": [], "b": ["--main-lcore", "1"]}
_BEDS = []  # every Bed made, so close_all() can clean up after a failure


def close_all():
    """Close every Bed (idempotent): for the runner's finally clause."""
    for bed in _BEDS:
        bed.close()


class Proc:
    """A background process whose stdout and stderr go to one file."""

    def __init__(self, name, argv, log):
        self.name, self.argv, self.log = name, argv, log
        self.f = open(log, "w")
        self.p = subprocess.Popen(argv, stdout=self.f, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL)

    def text(self):
        with open(self.log, errors="replace") as f:
            return f.read()

    def wait_text(self, needle, timeout):
        """Until needle is in the output; False if the process ended first."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if needle in self.text():
                return True
            if self.p.poll() is not None:
                return needle in self.text()
            time.sleep(0.05)
        return False

    def wait(self, timeout):
        """Exit code, or None (then killed) when it outlived timeout."""
        try:
            return self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            return None

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        self.f.close()


class Bed:
    """One test bed: a temporary directory, processes, namespaces, links."""

    def __init__(self, name):
        self.name = name
        self.tag = "w2e%d" % (os.getpid() % 100000)
        self.dir = tempfile.mkdtemp(prefix="wirerate-%s-" % name)
        self.procs, self.netns = [], []
        _BEDS.append(self)

    def path(self, leaf):
        return os.path.join(self.dir, leaf)

    def eal(self, side, vdevs, extra=()):
        """EAL options: the side's lcores, no PCI, a private prefix.
        Hugepages are root's: an unprivileged case runs without them."""
        return wrtest.eal_args(vdevs, prefix="%s%s" % (self.tag, side),
                               log_level="error", no_huge_mb=512,
                               huge=None if os.geteuid() == 0 else False,
                               extra=MAIN_LCORE[side] + list(extra))

    def wirerate(self, side, vdevs, opts, netns=None, eal_extra=(), name=None):
        """Start wirerate on one side; its output in NAME.log (NAME: side)."""
        argv = [WIRERATE] + self.eal(side, vdevs, eal_extra) + ["--"] + list(opts)
        if netns is not None:
            argv = ["ip", "netns", "exec", netns] + argv
        return self.spawn(name or side, argv)

    def spawn(self, name, argv):
        p = Proc(name, argv, self.path(name + ".log"))
        self.procs.append(p)
        return p

    def add_netns(self, suffix):
        """A namespace with IPv6 off (its router solicitations would show
        up as foreign frames) and loopback up."""
        ns = self.tag + suffix
        sh("ip", "netns", "add", ns)
        self.netns.append(ns)
        sh("ip", "netns", "exec", ns, "sysctl", "-qw",
           "net.ipv6.conf.all.disable_ipv6=1",
           "net.ipv6.conf.default.disable_ipv6=1")
        sh("ip", "-n", ns, "link", "set", "lo", "up")
        return ns

    def veth(self, ns_a, ns_b, mtu, macs=("02:00:00:00:0a:01", "02:00:00:00:0b:01")):
        """A veth pair, one end in each namespace; returns the two names."""
        a, b = self.tag + "a", self.tag + "b"
        sh("ip", "link", "add", a, "type", "veth", "peer", "name", b)
        for dev, ns, mac in ((a, ns_a, macs[0]), (b, ns_b, macs[1])):
            sh("ip", "link", "set", dev, "netns", ns)
            sh("ip", "-n", ns, "link", "set", dev, "address", mac, "mtu", str(mtu), "up")
        return a, b

    def close(self):
        for p in self.procs:
            p.stop()
        for ns in self.netns:
            sh("ip", "netns", "del", ns, check=False)
        self.netns = []
        shutil.rmtree(self.dir, ignore_errors=True)

    def dump(self):
        for p in self.procs:
            print("--- %s: %s\n%s" % (p.name, " ".join(p.argv), p.text()[-3000:]))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def wait_path(path, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if os.path.exists(path):
            return True
        time.sleep(0.05)
    return False


def merge(snd, rcv, out, extra=()):
    """wirerate merge; returns (exit code, stdout + stderr, merged JSON)."""
    if os.path.exists(out):
        os.unlink(out)
    p = subprocess.run([WIRERATE, "merge", snd, rcv, "--json", out] + list(extra),
                       capture_output=True, text=True, timeout=30)
    return p.returncode, p.stdout + p.stderr, load_json(out)


def check_pair(c, bed, snd, rcv, exact):
    """Both ends exited 0, the merge of snd.json and rcv.json balances, the
    receiver ended by idle timeout; exact: no frame lost at all (lossless
    shared rings). Returns the merged document."""
    rc = snd.wait(60)
    c.eq(rc, 0, "sender exit code")
    if rc != 0:
        rcv.stop()      # it would wait for a first frame that never comes
    c.eq(rcv.wait(60), 0, "receiver exit code")
    sj, rj = bed.path("snd.json"), bed.path("rcv.json")
    rdoc = load_json(rj)
    c.true(rdoc is not None and rdoc["stop_reason"] == "idle",
           "receiver stopped by --idle-timeout")
    if rdoc is not None:
        wrtest.rx_matches_pmd(c, rdoc, "receiver")
    rc, out, m = merge(sj, rj, bed.path("merge.json"))
    print(out.rstrip())
    c.eq(rc, 0, "merge exit code (balanced)")
    if m is None:
        c.true(False, "merge JSON written")
        return None
    t = m["totals"]
    c.eq(m["balanced"], True, "merge balanced")
    c.true(t["rx_pkts"] > 0, "frames received by the other process")
    c.eq(t["sent_pkts"], t["rx_pkts"] + t["lost_pkts"], "sent = received + lost")
    c.eq(t["lost_pkts"], t["head_lost_pkts"] + t["gap_pkts"] + t["tail_lost_pkts"],
         "lost = head + gaps + tail")
    for s in m["streams"]:
        c.eq(s["sent_pkts"], s["rx_pkts"] + s["head_lost_pkts"] + s["gap_pkts"] +
             s["tail_lost_pkts"], "stream %d balance" % s["stream_id"])
    if exact:
        c.eq(t["lost_pkts"], 0, "nothing lost on a lossless ring")
        c.eq(t["dup_pkts"] + t["late_pkts"], 0, "in order, no duplicates")
        # The sender's PMD counters are not used: memif's are reset when
        # its peer leaves, and the receiver leaves first.
        c.eq(sum(x["nic_ipackets"] for x in rdoc["totals"]), t["sent_pkts"],
             "the receiver's PMD received all the sender sent")
    return m
