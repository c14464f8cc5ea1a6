# SPDX-License-Identifier: BSD-3-Clause
"""Faults injected into real runs: signals at every phase (EAL start-up,
port start, traffic, the grace drain, result writing), a second signal,
tiny mempools, TX rings that stay full, RX ports that see nothing. After
every run: the exit code, a complete result file or none (never a partial
or temporary one), every mbuf back, and no hugepage file or runtime
directory of the run left. Usage: test_faults.py CASE (see CASES)."""
import atexit
import concurrent.futures
import glob
import json
import os
import random
import signal
import stat
import subprocess
import tempfile
import threading
import time

import cases
import pcapgen
import wrtest
from wrtest import Checker

SEQ = [0]


def hugetlbfs_mounts():
    with open("/proc/mounts") as f:
        return [l.split()[1] for l in f if l.split()[2] == "hugetlbfs"]


class Run:
    """One wirerate process with its own --file-prefix (hugepage files on
    hugetlbfs when there are enough pages: the clean-up is under test),
    stdout read line by line, signals sent on demand."""

    def __init__(self, vdevs, opts, json_out=True, csv=False, wrap=()):
        SEQ[0] += 1
        self.prefix = "wrf%d_%d" % (os.getpid(), SEQ[0])
        self.dir = tempfile.mkdtemp(prefix="wrfault")
        self.path = os.path.join(self.dir, "r.json")
        eal = wrtest.eal_args(vdevs, prefix=self.prefix, in_memory=False)
        argv = list(wrap) + [wrtest.WIRERATE] + eal + ["--"] + list(opts)
        if json_out:
            argv += ["--json", self.path]
        if csv:
            argv += ["--csv", os.path.join(self.dir, "r.csv")]
        self.lines, self.t0 = [], time.monotonic()
        self.p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True,
                                  stdin=subprocess.DEVNULL)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.append((time.monotonic(), line))

    def wait_handler(self, timeout=30):
        """Until the SIGINT handler is installed (SigCgt): from then on a
        signal is the program's to handle, EAL start-up included."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                with open("/proc/%d/status" % self.p.pid) as f:
                    for l in f:
                        if l.startswith("SigCgt:") and \
                                int(l.split()[1], 16) & (1 << (signal.SIGINT - 1)):
                            return True
            except OSError:
                return False
            time.sleep(0.0005)
        return False

    def wait_line(self, text, timeout=60):
        """Until a stdout line contains text; its arrival time or None."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for t, l in list(self.lines):
                if text in l:
                    return t
            if self.p.poll() is not None and not self.reader.is_alive():
                return None
            time.sleep(0.005)
        return None

    def signal(self, sig=signal.SIGINT):
        if self.p.poll() is None:
            self.p.send_signal(sig)

    def finish(self, timeout=60):
        try:
            self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            self.rc = "hang"
        else:
            self.rc = self.p.returncode
        self.reader.join(5)
        self.err = self.p.stderr.read()
        self.out = "".join(l for _, l in self.lines)
        self.wall = time.monotonic() - self.t0
        self.files = sorted(os.listdir(self.dir))
        self.doc, self.bad_json = None, None
        if os.path.exists(self.path):
            try:
                with open(self.path) as f:
                    self.doc = wrtest.validate(json.load(f), self.path)
            except ValueError as e:
                self.bad_json = str(e)
        return self

    def leftovers(self):
        """Hugepage files and the runtime directory of this prefix."""
        left = []
        for m in hugetlbfs_mounts():
            left += glob.glob(os.path.join(m, self.prefix + "*"))
        rt = "/var/run/dpdk/" + self.prefix
        if os.path.exists(rt):
            left.append(rt)
        return left

    def cleanup(self):
        for f in self.files:
            os.unlink(os.path.join(self.dir, f))
        os.rmdir(self.dir)
        for p in self.leftovers():   # only after a failed check
            if os.path.isdir(p):
                for f in os.listdir(p):
                    os.unlink(os.path.join(p, f))
                os.rmdir(p)
            else:
                os.unlink(p)


FAULTS = [0]


# A run's files: the result and its companion of every interval
# (docs/results.md); anything else would be a temporary left behind.
OUTPUTS = ("r.json", "r.samples.jsonl")


def check_clean(c, r, what, rcs=(0,), need_doc=True, files=OUTPUTS):
    """What must hold after every run, whatever was injected."""
    c.true(r.rc in rcs, "%s: exit code %r in %r (stderr %r)" % (what, r.rc, rcs, r.err[-400:]))
    c.true(r.bad_json is None, "%s: result file is valid JSON (%s)" % (what, r.bad_json))
    c.true(set(r.files) <= set(files), "%s: no temporary file left: %r" % (what, r.files))
    if need_doc:
        c.true(r.doc is not None, "%s: result file written" % what)
    if r.doc is not None:
        c.eq(r.doc.get("schema"), "wirerate-result/1", "%s: complete result (schema)" % what)
        for k in ("env", "config", "ports", "totals", "streams", "accounting"):
            c.true(k in r.doc, "%s: complete result (%s)" % (what, k))
        acc = r.doc.get("accounting", {})
        c.eq(acc.get("mbufs_missing"), 0, "%s: every mbuf back" % what)
        # A run without RX ports balances nothing: the receiver's result
        # (wirerate merge) does.
        rx = any("rx" in p.get("role", "") for p in r.doc.get("ports", []))
        c.eq(acc.get("balanced"), True if rx else None,
             "%s: sent = received + lost%s" % (what, "" if rx else " left to merge"))
    left = r.leftovers()
    c.eq(left, [], "%s: nothing of the run left (hugepage files, runtime dir)" % what)
    r.cleanup()


RING = ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1"]


def signal_phases():
    """One SIGINT at a sweep of moments from the handler's installation:
    EAL start-up, port start (before the plan is printed), the first
    frames, mid-run. Every one ends in a complete result."""
    c = Checker("signal_phases")
    phases = {"start-up": 0, "ports up": 0}
    for delay in (0, 0.002, 0.01, 0.03, 0.06, 0.1, 0.15, 0.2, 0.3, 0.45, 0.7, 1.0):
        r = Run([], RING + ["--duration", "5", "--plain", "--interval", "100ms"])
        c.true(r.wait_handler(), "handler installed")
        time.sleep(delay)
        up = any("plan (" in l for _, l in r.lines)
        r.signal()
        FAULTS[0] += 1
        r.finish()
        phases["ports up" if up else "start-up"] += 1
        if r.doc is not None:
            c.eq(r.doc["stop_reason"], "signal", "delay %g: stop reason" % delay)
            c.true(r.wall < 10, "delay %g: ended quickly (%.1f s)" % (delay, r.wall))
        check_clean(c, r, "SIGINT %g s after the handler" % delay)
    print("signals by phase: %r" % phases)
    c.true(phases["start-up"] > 0, "some signals landed during start-up")
    c.true(phases["ports up"] > 0, "some signals landed once the ports were up")
    c.done()


def signal_term_mid_run():
    """SIGTERM mid-run on a 2-queue ring pair: exact accounting per queue."""
    c = Checker("signal_term_mid_run")
    r = Run([], RING + ["--txq", "2", "--rxq", "2", "--duration", "0", "--plain",
                        "--interval", "200ms"])
    c.true(r.wait_line("t=0.4s") is not None, "traffic flowing")
    r.signal(signal.SIGTERM)
    FAULTS[0] += 1
    r.finish()
    if r.doc:
        c.eq(r.doc["stop_reason"], "signal", "stop reason")
        c.true(r.doc["accounting"]["sent_pkts"] > 0, "frames sent")
        c.eq(r.doc["accounting"]["lost_pkts"], 0, "nothing lost on a ring pair")
        wrtest.stream_balance(c, r.doc)
    check_clean(c, r, "SIGTERM mid-run")
    c.done()


def signal_grace():
    """SIGINT during the grace drain (TX stopped, RX still polling a frame
    source for 2 s): the drain ends as configured, the result is complete."""
    c = Checker("signal_grace")
    r = Run(["net_null0"], ["--duration", "1", "--grace", "2s", "--plain",
                            "--interval", "100ms"])
    t = r.wait_line("t=0.1s")
    c.true(t is not None, "traffic flowing")
    if t is not None:
        time.sleep(max(0.0, t + 1.9 - time.monotonic()))  # ~1 s into the grace
        r.signal()
        FAULTS[0] += 1
    r.finish()
    if r.doc:
        c.eq(r.doc["stop_reason"], "duration", "the trial ended by its duration")
        t = r.doc["totals"][0]
        c.true(t["rx_pkts"] > t["tx_pkts"], "RX kept polling in the grace: %d > %d"
               % (t["rx_pkts"], t["tx_pkts"]))
    check_clean(c, r, "SIGINT in the grace")
    c.done()


def double_signal():
    """Two signals, the second soon after the first, at random moments
    (seeded): the run ends with a complete result (exit 0) or quickly
    (exit 1) with a complete result or none: never a partial or temporary
    file, never hugepage files or a runtime directory left."""
    c = Checker("double_signal")
    rnd = random.Random(2544)
    quick = complete = 0
    for i in range(14):
        first, gap = rnd.uniform(0.0, 1.2), rnd.choice([0.0, 0.001, 0.01, 0.05, 0.2, 0.5])
        opts = RING + ["--duration", "0", "--quiet", "--interval", "100ms"]
        r = Run([], opts, csv=i % 2 == 1)  # odd runs write a second file
        c.true(r.wait_handler(), "handler installed")
        time.sleep(first)
        r.signal()
        time.sleep(gap)
        r.signal(signal.SIGTERM if i % 3 == 0 else signal.SIGINT)
        FAULTS[0] += 2
        r.finish(timeout=20)
        quick += r.rc == 1
        complete += r.doc is not None
        if r.rc == 1:
            c.true(r.wall < 15, "quick exit: %.1f s" % r.wall)
        if r.rc == 0 and i % 2 == 1:
            with open(os.path.join(r.dir, "r.csv")) as f:
                c.true(f.readline().startswith("trial,t_s"), "CSV complete")
        check_clean(c, r, "signals at %.3f + %.3f s" % (first, gap), rcs=(0, 1),
                    need_doc=r.rc == 0, files=OUTPUTS + ("r.csv",))
    print("double signals: %d quick exits, %d complete results of 14 runs" % (quick, complete))
    c.true(quick > 0, "some second signals forced a quick exit")
    c.done()


def quick_exit_hugefile():
    """A quick exit (second signal) while a hugepage file of the run
    exists unlinked-to-be: the file made here in every hugetlbfs mount
    stands for a segment caught between its creation and --huge-unlink's
    unlink. The quick exit removes it with the runtime directory, and
    keeps the file of a prefix that only begins with the run's."""
    c = Checker("quick_exit_hugefile")
    mounts = hugetlbfs_mounts()
    r = Run([], RING + ["--duration", "0", "--plain", "--interval", "100ms"])
    c.true(r.wait_line("t=0.2s") is not None, "running")
    made = [os.path.join(m, r.prefix + "map_77") for m in mounts]
    other = [os.path.join(m, r.prefix + "0map_1") for m in mounts]
    for f in made + other:
        open(f, "w").close()
    r.signal()
    r.signal(signal.SIGTERM)
    FAULTS[0] += 2
    r.finish(timeout=20)
    c.eq(r.rc, 1, "a quick exit (stderr %r)" % r.err[-300:])
    c.true(len(mounts) > 0, "hugetlbfs mounts: %r" % mounts)
    c.eq([f for f in made if os.path.exists(f)], [], "the run's hugepage file removed")
    c.eq([f for f in other if os.path.exists(f)], other, "another prefix's file kept")
    for f in other:
        if os.path.exists(f):
            os.unlink(f)
    check_clean(c, r, "quick exit", rcs=(1,), need_doc=False)
    c.done()


def tiny_pool():
    """Mempool exhaustion: 64-mbuf TX pools into a ring nobody reads
    (exhausted for good), and into a loopback that returns them (exhausted
    again and again): counted, no hang, exact accounting, all mbufs back."""
    c = Checker("tiny_pool")
    r = Run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "none",
                 "--pool-mbufs", "64", "--duration", "1", "--quiet"]).finish()
    FAULTS[0] += 1
    if r.doc:
        t = r.doc["totals"][0]
        c.eq(t["tx_pkts"], 64, "sent what the pool held")
        c.true(t["drops"]["tx_alloc_fail"] > 0, "empty pool counted: %d" % t["drops"]["tx_alloc_fail"])
        c.eq(r.doc["accounting"]["stranded_pkts"], 64, "frames left in the ring, freed")
        c.true(any("--pool-mbufs" in n for n in r.doc["ports"][0]["notes"]), "knob noted")
    check_clean(c, r, "pool of 64, nobody reading")
    r = Run(["net_ring0"], ["--pool-mbufs", "64", "--count", "300k", "--quiet"]).finish()
    FAULTS[0] += 1
    if r.doc:
        t = r.doc["totals"][0]
        c.eq(t["tx_pkts"], 300000, "every frame sent")
        c.eq(t["rx_own_pkts"], 300000, "every frame received")
        c.eq(r.doc["stop_reason"], "count", "ended by the count")
        wrtest.stream_balance(c, r.doc)
    check_clean(c, r, "pool of 64, loopback")
    r = Run([], RING + ["--pool-mbufs", "40", "--burst", "32", "--count", "200k",
                        "--quiet"]).finish()
    FAULTS[0] += 1
    if r.doc:
        c.eq(r.doc["accounting"]["sent_pkts"], 200000, "sent through a 40-mbuf pool")
        c.eq(r.doc["accounting"]["lost_pkts"], 0, "none lost")
        print("pool of 40 on a ring pair: %d empty-pool bursts" %
              r.doc["totals"][0]["drops"]["tx_alloc_fail"])
    check_clean(c, r, "pool of 40, ring pair")
    c.done()


def tx_ring_full():
    """A TX ring that stays full (the other end of the ring pair is not
    polled): refusals counted, the ring's 1023 frames freed at the end, a
    signal in that state handled."""
    c = Checker("tx_ring_full")
    r = Run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "none",
                 "--duration", "0", "--plain", "--interval", "100ms"])
    c.true(r.wait_line("t=0.5s") is not None, "running")
    r.signal()
    FAULTS[0] += 2
    r.finish()
    if r.doc:
        t = r.doc["totals"][0]
        c.eq(t["tx_pkts"], 1023, "the ring took its capacity")
        c.true(t["drops"]["tx_full_pkts"] > 0, "refusals counted: %d" % t["drops"]["tx_full_pkts"])
        c.true(0 < t["drops"]["tx_unsent_pkts"] <= 32, "pending burst freed at stop: %d"
               % t["drops"]["tx_unsent_pkts"])
        c.eq(r.doc["accounting"]["stranded_pkts"], 1023, "ring emptied at close")
        c.eq(r.doc["stop_reason"], "signal", "stopped by the signal")
    check_clean(c, r, "TX ring full")
    c.done()


STALL_S = 5  # WR_RUN_TX_STALL_S (lib/setup/run.h, docs/testbeds.md)


def tx_ring_stalled():
    """A --count run (no --duration) into a TX ring nobody reads: the ring
    takes what it holds, then refuses every frame. The run used to wait
    for ever; now it stops once STALL_S passed without a frame sent and
    exits 1 with the reason. Its result says so (stop_reason error,
    invalid); what it sent is what the ring PMD counted (opackets) and
    what was left in the ring at close."""
    c = Checker("tx_ring_stalled")
    r = Run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "none",
                 "--count", "5000", "--quiet"]).finish()
    FAULTS[0] += 1
    c.true(r.wall < STALL_S + 15, "ended within its bound (%.1f s)" % r.wall)
    if r.doc:
        t = r.doc["totals"][0]
        sent, refused = t["tx_pkts"], t["drops"]["tx_full_pkts"]
        c.true(0 < sent < 5000 and refused > 0, "sent %d, refused %d" % (sent, refused))
        c.eq(t["nic_opackets"], sent, "sent = the ring PMD's opackets")
        c.eq(r.doc["accounting"]["stranded_pkts"], sent, "the ring's frames freed at close")
        c.eq(r.doc["stop_reason"], "error", "stop_reason")
        inv = r.doc.get("invalid", {})
        c.true(inv.get("field") == "stop_reason" and "(%d of 5000 sent)" % sent
               in inv.get("reason", ""), "labelled invalid: %r" % inv)
        # Checked at each 1 s interval: the tick that saw the last frame
        # sent, then STALL_S, and one tick more when a tick comes early.
        c.true(STALL_S <= r.doc["duration_s"] < STALL_S + 3,
               "stopped %.2f s in" % r.doc["duration_s"])
        want = ("the run stopped short of its --count: port 0 (%s) sent no frame "
                "for" % r.doc["ports"][0]["driver"])
        c.true(want in r.err and "(%d of 5000 sent)" % sent in r.err,
               "the reason on stderr: %r" % r.err[-500:])
    check_clean(c, r, "TX ring stalled", rcs=(1,))
    c.done()


SHAPER = ["tbf", "rate", "20mbit", "burst", "32kb", "latency", "50ms"]


def sweep_short(argv_pre, vdev, rate, size, duration="0.3", during=None):
    """A one-size sweep paced at rate on vdev: (stdout, the JSON's trials).
    during(proc), when given, runs while the sweep does."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        argv = argv_pre + [wrtest.WIRERATE] + wrtest.eal_args([vdev]) + [
            "--", "--rx-ports", "none", "--mode", "sweep", "--sizes", str(size),
            "--rate", rate, "--duration", duration, "--json", path]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, stdin=subprocess.DEVNULL)
        if during:
            during(proc)
        out, err = proc.communicate(timeout=90)
        p = subprocess.CompletedProcess(argv, proc.returncode, out, err)
        doc = wrtest.read_result(path) if os.path.exists(path) else None
    return p, (doc or {}).get("trials", [])


def stop_now_and_then(proc):
    """Stop proc for 40 ms in every 150 ms until it ends: each stop is a
    voluntary context switch of its worker (as a page fault's sleep is),
    with no port behind it."""
    while proc.poll() is None:
        time.sleep(0.11)
        try:
            os.kill(proc.pid, signal.SIGSTOP)
            time.sleep(0.04)
        finally:
            os.kill(proc.pid, signal.SIGCONT)


def short_by_port():
    """A trial short of its rate says why: a tbf shaper on a veth behind
    an af_packet port (qdisc_bypass=0) holds TX back, and the trial line
    says the port refused TX (the JSON: rate_short_by "port"), the qdisc's
    own overlimits confirming it held frames; a rate the generator cannot
    make on net_null (which takes every frame) says generator stalled, and
    still does when its worker sleeps now and then (stopped by a signal,
    as a page fault can make it sleep): a sleep too short to explain the
    frames missing does not blame the port."""
    c = Checker("short_by_port")
    if not wrtest.have_netns():
        c.skip("cannot create a network namespace (needs root and CONFIG_NET_NS)")
        c.done()
    ns = "wrsb%d" % os.getpid()
    subprocess.run(["ip", "netns", "add", ns], check=True)
    try:
        for cmd in (["link", "add", "name", "va", "type", "veth", "peer", "name", "vb"],
                    ["link", "set", "dev", "va", "up"], ["link", "set", "dev", "vb", "up"]):
            subprocess.run(["ip", "-n", ns] + cmd, check=True)
        subprocess.run(["ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", "va",
                        "root"] + SHAPER, check=True)
        p, trials = sweep_short(["ip", "netns", "exec", ns],
                                "net_af_packet0,iface=va,qdisc_bypass=0", "100kpps", 1518)
        q = json.loads(subprocess.run(["ip", "netns", "exec", ns, "tc", "-s", "-j", "qdisc",
                                       "show", "dev", "va"], capture_output=True,
                                      text=True).stdout)
    finally:
        subprocess.run(["ip", "netns", "del", ns])
    tbf = [x for x in q if x.get("kind") == "tbf"]
    c.eq(p.returncode, 0, "shaped: exit code (stderr %r)" % p.stderr[-300:])
    c.true(tbf and tbf[0]["overlimits"] > 0, "the shaper held frames back: %r" % tbf)
    c.true(trials and all(not t["rate_reached"] for t in trials), "shaped: rate not reached")
    c.eq(sorted({t.get("rate_short_by") for t in trials}), ["port"], "shaped: short by")
    rates = [t["totals"][0]["rate"] for t in trials]
    c.true(rates and all(r["blocked"] > 0 and r["slept_ms"] > 100 for r in rates),
           "shaped: the worker slept in its sends: %r" %
           [(r["blocked"], r["slept_ms"]) for r in rates])
    c.true("(rate not reached: the port refused TX, back-pressure)" in p.stdout and
           "generator stalled" not in p.stdout, "shaped: the words %r" % p.stdout[-400:])
    for what, during in (("generator", None), ("generator stopped", stop_now_and_then)):
        p, trials = sweep_short([], "net_null0", "1000Mpps", 64, "0.5", during)
        c.eq(p.returncode, 0, "%s: exit code (stderr %r)" % (what, p.stderr[-300:]))
        c.true(trials and all(not t["rate_reached"] for t in trials), "%s: not reached" % what)
        c.eq(sorted({t.get("rate_short_by") for t in trials}), ["generator"],
             "%s: short by" % what)
        c.true("(rate not reached: generator stalled)" in p.stdout and
               "refused" not in p.stdout, "%s: the words %r" % (what, p.stdout[-400:]))
    rates = [t["totals"][0]["rate"] for t in trials]
    c.true(any(r["blocked"] > 0 and r["slept_ms"] > 10 for r in rates),
           "generator stopped: the worker slept: %r" %
           [(r["blocked"], r["slept_ms"]) for r in rates])
    c.done()


def rx_no_traffic():
    """RX ports that see nothing: counted as nothing, the run ends by its
    duration or a signal; --count with no sender is refused up front."""
    c = Checker("rx_no_traffic")
    r = Run([], ["--ring-pairs", "1", "--tx-ports", "none", "--rx-ports", "1",
                 "--duration", "1", "--quiet"]).finish()
    FAULTS[0] += 1
    if r.doc:
        c.eq(r.doc["totals"][0]["rx_pkts"], 0, "nothing received")
        c.eq(r.doc["streams"], [], "no streams")
        c.eq(r.doc["stop_reason"], "duration", "ended by its duration")
    check_clean(c, r, "RX without traffic")
    r = Run([], ["--ring-pairs", "1", "--tx-ports", "none", "--duration", "0",
                 "--plain", "--interval", "100ms"])
    c.true(r.wait_line("t=0.3s") is not None, "running")
    r.signal()
    FAULTS[0] += 2
    r.finish()
    if r.doc:
        c.eq(r.doc["stop_reason"], "signal", "an endless RX-only run ends on a signal")
    check_clean(c, r, "RX without traffic, signal")
    r = Run([], ["--ring-pairs", "1", "--tx-ports", "none", "--count", "1000"]).finish(timeout=30)
    FAULTS[0] += 1
    c.eq(r.rc, 2, "--count with no sender: bad usage, not a wait for ever")
    c.true("--count with --tx-ports none" in r.err, "says why: %r" % r.err[-200:])
    check_clean(c, r, "--count without a sender", rcs=(2,), need_doc=False)
    c.done()


def arp_requests_pcap(path, target, n=16):
    """n ARP requests for target (dotted IPv4) from 198.18.0.9, in a pcap."""
    import socket
    import struct
    src = bytes.fromhex("020000000009")
    f = (b"\xff" * 6 + src + b"\x08\x06" + struct.pack("!HHBBH", 1, 0x0800, 6, 4, 1) +
         src + socket.inet_aton("198.18.0.9") + b"\0" * 6 + socket.inet_aton(target))
    pcapgen.write_pcap(path, [(i * 1000, f.ljust(60, b"\0")) for i in range(n)])


def svc_never_dry():
    """The responder's ports that never run dry keep nothing from ending:
    a send-only port with --port-ip on net_null (its RX
    queue, which the main lcore polls, always has 32 frames) ends by its
    duration and on a signal; an RX port fed ARP requests for its address
    without end (net_pcap, infinite_rx: the workers hand the main lcore
    more than it can answer) ends by its duration. Every frame the PMDs
    delivered is counted, by their own counts."""
    c = Checker("svc_never_dry")
    ip0 = ["--port-ip", "0=198.18.0.1/24", "--dst-mac", "02:00:00:00:00:01",
           "--tx-ports", "0", "--rx-ports", "1", "--rate", "1kpps"]
    null = ["net_null0", "net_null1"]
    r = Run(null, ip0 + ["--duration", "1", "--quiet"]).finish(timeout=30)
    FAULTS[0] += 1
    if r.doc:
        c.eq(r.doc["stop_reason"], "duration", "TX-only port on net_null: ended by its duration")
        t0 = r.doc["totals"][0]
        c.true(t0["rx_pkts"] > 0, "the main lcore polled port 0 (%d)" % t0["rx_pkts"])
        c.eq((t0["rx_pkts"], t0["rx_foreign_pkts"]), (t0["nic_ipackets"],) * 2,
             "port 0: every frame its PMD delivered counted, foreign")
    check_clean(c, r, "TX-only port on net_null", need_doc=True)
    r = Run(null, ip0 + ["--duration", "0", "--plain", "--interval", "100ms"])
    c.true(r.wait_line("t=0.3s", timeout=20) is not None, "intervals go on")
    r.signal()
    FAULTS[0] += 1
    r.finish(timeout=30)
    if r.doc:
        c.eq(r.doc["stop_reason"], "signal", "an endless run ends on a signal")
    check_clean(c, r, "TX-only port on net_null, signal")
    d = tempfile.mkdtemp(prefix="wrsvc")
    try:
        arp_requests_pcap(os.path.join(d, "arp.pcap"), "198.18.0.2")
        pcap = "net_pcap0,rx_pcap=%s,tx_pcap=/dev/null,infinite_rx=1" % os.path.join(d, "arp.pcap")
        r = Run(["net_null0", pcap], ip0 + ["--port-ip", "1=198.18.0.2/24",
                                             "--duration", "1", "--quiet"]).finish(timeout=30)
        FAULTS[0] += 1
        if r.doc:
            c.eq(r.doc["stop_reason"], "duration", "endless ARP requests: ended by its duration")
            t1 = r.doc["totals"][1]
            c.eq(t1["rx_pkts"], t1["nic_ipackets"], "port 1: every frame its PMD delivered")
            c.eq(t1["rx_service_pkts"], t1["rx_pkts"], "port 1: each one a service frame")
            c.true(t1["tx_service_pkts"] > 0, "some answered (%d)" % t1["tx_service_pkts"])
            c.eq(t1["tx_service_pkts"], t1["nic_opackets"], "port 1: every answer its "
                 "PMD sent is counted")
        check_clean(c, r, "endless ARP requests")
    finally:
        for f in os.listdir(d):
            os.unlink(os.path.join(d, f))
        os.rmdir(d)
    c.done()


def mode_signal():
    """SIGINT in the middle of an RFC 2544 frame loss series (2 Mpps into a
    0.5 Mpps policer: many trials): the trials done so far are written,
    stop_reason signal, exit 0."""
    c = Checker("mode_signal")
    r = Run([], RING + ["--mode", "loss", "--size", "128", "--rate", "2Mpps",
                        "--trial", "300ms", "--impair", "police=500kpps"])
    c.true(r.wait_line("trial   2") is not None, "search under way")
    r.signal()
    FAULTS[0] += 1
    r.finish()
    if r.doc:
        c.eq(r.doc.get("stop_reason"), "signal", "stop reason")
        c.eq(r.doc.get("mbufs_missing"), 0, "every mbuf back")
    c.true(r.rc == 0 and r.doc is not None, "exit 0 with a result")
    c.true(r.bad_json is None and set(r.files) <= set(OUTPUTS), "no partial file")
    c.eq(r.leftovers(), [], "nothing of the run left")
    r.cleanup()
    c.done()


def output_devices():
    """Results written to a device node and a FIFO go into them: the node
    and the FIFO are still there afterwards (never replaced by a file)."""
    c = Checker("output_devices")
    d = tempfile.mkdtemp(prefix="wrfault")
    node, fifo = os.path.join(d, "null"), os.path.join(d, "fifo")
    os.mknod(node, 0o600 | stat.S_IFCHR, os.makedev(1, 3))  # a private null
    os.mkfifo(fifo)
    got = []
    def read_fifo():
        with open(fifo) as f:
            got.append(f.read())
    reader = threading.Thread(target=read_fifo, daemon=True)
    reader.start()
    r = Run(["net_ring0"], ["--count", "10k", "--quiet", "--csv", fifo], json_out=False)
    r.finish()
    reader.join(10)
    c.eq(r.rc, 0, "exit code")
    c.true(got and got[0].startswith("trial,t_s"), "CSV came through the FIFO")
    c.true(stat.S_ISFIFO(os.stat(fifo).st_mode), "FIFO still a FIFO")
    r2 = Run(["net_ring0"], ["--count", "10k", "--quiet", "--json", node], json_out=False).finish()
    c.eq(r2.rc, 0, "exit code")
    c.true(stat.S_ISCHR(os.stat(node).st_mode), "device node still a device")
    c.eq(r.leftovers() + r2.leftovers(), [], "nothing of the runs left")
    r.cleanup()
    r2.cleanup()
    os.unlink(node)
    os.unlink(fifo)
    os.rmdir(d)
    c.done()


# Bad values per option: empty, not a number, negative, past the range,
# trailing junk; then options without their value.
BAD_VALUES = {
    "--txq": ["0", "17", "x", "-1", "1.5"], "--rxq": ["0", "17"],
    "--txd": ["31", "32769", "1k5"], "--rxd": ["0", "99999"],
    "--burst": ["0", "513", "32x"], "--size": ["63", "9019", "", "1e3"],
    "--duration": ["x", "-1", "5y", "1.0001"], "--count": ["0", "x", "1e3", "-5"],
    "--interval": ["99ms", "x"], "--grace": ["x", "-1s"], "--link-timeout": ["soon"],
    "--src-mac": ["02:00", "zz:00:00:00:00:01", ""], "--dst-mac": ["02:00:00:00:00:01:02"],
    "--src-ip": ["1.2.3", "256.0.0.1", "::1"], "--dst-ip": [""],
    "--sport": ["65536", "-1"], "--dport": ["x"], "--flows": ["0", "65537"],
    "--vlan": ["0", "4095"], "--map": ["x", "1:", "1:tx0", "1:tx99.0", "1:rx0.99", "2000:tx0.0"],
    "--ring-pairs": ["17", "x"], "--json": [""], "--csv": [""],
    "--impair": ["drop=0", "jitter=5", "delay=5s", "police=1Gbps", "drop=5@5", ""],
    "--latency": ["maybe", ""], "--rate": ["0pps", "-1pps", "101%", "1Mbit", "10GBps", "fast"],
    "--link-speed": ["1", "x"], "--mode": ["fast", ""],
    "--sizes": ["", "63", "64,,128", "rfc", "64,9019"], "--trial": ["50ms", "x"],
    "--resolution": ["0", "51", "x"], "--max-trials": ["0", "129"], "--pdr": ["0.6", "x"],
    "--loss-step": ["0", "11"], "--b2b-trials": ["0", "1001"], "--b2b-max": ["0"],
    "--label": ["", "x" * 200], "--repeat": ["0", "1001"], "--warmup": ["101", "x"],
    "--pool-mbufs": ["0", "16", "99999999"],
}
# Each valid alone; together a configuration that must not start.
BAD_COMBOS = [
    ["--tx-ports", "none", "--rx-ports", "none"],
    ["--tx-ports", "none", "--count", "1000"],
    ["--size", "128", "--sizes", "64,128", "--mode", "sweep"],
    ["--sizes", "64,128"],
    ["--vlan", "5", "--size", "64"],
    ["--flows", "100", "--sport", "65500"],
    ["--impair", "drop=10", "--burst", "256"],
    ["--repeat", "2", "--duration", "0"],
    ["--burst", "512", "--txd", "512"],
    ["--pool-mbufs", "32", "--burst", "64"],
    ["--duration", "1", "stray"],
    ["--bogus-option"],
    ["-x"],
    ["--json", "/nonexistent-dir/r.json"],
    ["--csv", "/tmp"],
    # A client's workers share --conn-count: 1 for 2 queue pairs.
    ["--conn", "client", "--port-ip", "0=198.18.0.2/15", "--conn-server",
     "198.18.0.1:80", "--txq", "2", "--rxq", "2", "--conn-count", "1"],
]
# Known only once the ports are probed or up: still before any frame (and
# beyond `wirerate check`, which starts no port).
BAD_WITH_PORTS = [
    ["--tx-ports", "5"],
    ["--rx-ports", "0-3"],
    ["--rate", "50%"],
    ["--map", "5:tx0.0,rx0.0"],
    ["--map", "1:tx0.0", "--map", "1:tx0.0,rx0.0"],
    ["--map", "1:rx0.0"],
    ["--mode", "throughput", "--rate", "10%"],
]


def check_line(vdevs, opts):
    """`wirerate check` on the command line a Run of vdevs and opts has."""
    eal = wrtest.eal_args(vdevs, prefix="wrchk%d" % os.getpid(), in_memory=False)
    return subprocess.run([wrtest.WIRERATE, "check"] + eal + ["--"] + list(opts),
                          capture_output=True, text=True, timeout=30,
                          stdin=subprocess.DEVNULL)


def bad_line(opts, lock):
    """One bad command line run, and `wirerate check` on it, with its own
    pcap writer in its own directory: (run, pcap size, check, leftovers)."""
    d = tempfile.mkdtemp(prefix="wrfault")
    pcap = os.path.join(d, "tx.pcap")
    vdevs = ["net_pcap0,tx_pcap=" + pcap]
    with lock:                      # SEQ: one prefix each
        r = Run(vdevs, opts, json_out=False)
    r.finish(timeout=30)
    size = os.path.getsize(pcap) if os.path.exists(pcap) else 0
    chk = check_line(vdevs, opts) if opts not in BAD_WITH_PORTS else None
    left = r.leftovers()
    r.cleanup()
    if os.path.exists(pcap):
        os.unlink(pcap)
    os.rmdir(d)
    return r, size, chk, left


def bad_command_lines():
    """Every bad command line exits 2 with a message naming what is wrong
    and sends nothing: the port is a pcap writer, whose file must hold no
    frame (24 bytes of header, or not even that). Also a bad EAL option.
    `wirerate check` refuses each line a run refuses before its ports are
    up, with the run's own message, and accepts a good one starting nothing.
    The lines refused before EAL run two at a time (each a short process
    on one CPU: a quarter of the sanitizer leg's faults suite when one at a
    time); those refused once the ports are up, one at a time after."""
    c = Checker("bad_command_lines")
    cases = []
    for opt, vals in BAD_VALUES.items():
        cases += [[opt, v] for v in vals] + [["--duration", "1", opt]]
    cases += BAD_COMBOS + BAD_WITH_PORTS
    lock = threading.Lock()
    early = [o for o in cases if o not in BAD_WITH_PORTS]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        got = list(pool.map(lambda o: bad_line(o, lock), early))
    got += [bad_line(o, lock) for o in cases if o in BAD_WITH_PORTS]
    for opts, (r, size, chk, left) in zip(early + [o for o in cases if o in BAD_WITH_PORTS],
                                          got):
        c.eq(r.rc, 2, "exit code for %r (stderr %r)" % (opts, r.err[-300:]))
        c.true("wirerate: error: " in r.err, "a message for %r" % opts)
        if chk is not None:
            c.eq((chk.returncode, chk.stderr), (2, r.err), "wirerate check on %r" % opts)
        c.true(size <= 24, "no frame sent for %r: pcap of %d bytes" % (opts, size))
        c.eq(left, [], "nothing left for %r" % opts)
    d = tempfile.mkdtemp(prefix="wrfault")
    pcap = os.path.join(d, "tx.pcap")
    vdevs = ["net_pcap0,tx_pcap=" + pcap]
    chk = check_line(vdevs, ["--duration", "1", "--rate", "50kpps", "--json", pcap])
    c.eq((chk.returncode, chk.stdout, chk.stderr), (0, "", ""), "wirerate check on a good line")
    c.true(not os.path.exists(pcap), "wirerate check wrote no file")
    c.true(not glob.glob("/var/run/dpdk/wrchk%d" % os.getpid()),
           "wirerate check started no EAL (no runtime directory)")
    os.rmdir(d)
    print("bad command lines tried: %d" % len(cases))
    c.done()


def bad_eal_option():
    """A bad EAL option (before --) is bad usage too, with nothing left:
    one that no EAL has, or a word that no option takes, is refused by
    `wirerate check` and by a run alike, before EAL (no page of EAL's
    usage); one that EAL refuses for its value fails EAL's
    initialisation, exit 2."""
    c = Checker("bad_eal_option")
    SEQ[0] += 1
    prefix = "wrf%d_%d" % (os.getpid(), SEQ[0])
    # EAL makes the runtime directory before it refuses --proc-type's value
    atexit.register(wrtest.eal.remove_runtime_dir, prefix)
    rest = ["-l", "0,1", "--no-pci", "--file-prefix", prefix, "--bogus-eal", "--",
            "--duration", "1"]
    chk = subprocess.run([wrtest.WIRERATE, "check"] + rest, capture_output=True,
                         text=True, timeout=30, stdin=subprocess.DEVNULL)
    p = subprocess.run([wrtest.WIRERATE] + rest, capture_output=True, text=True,
                       timeout=60, stdin=subprocess.DEVNULL)
    c.eq(chk.returncode, 2, "wirerate check: exit code (stderr %r)" % chk.stderr)
    c.eq((p.returncode, p.stderr), (2, chk.stderr), "a run says the same")
    c.true(chk.stderr.startswith("wirerate: error: --bogus-eal: unknown option"),
           "names it: %r" % chk.stderr)
    c.true("EAL" in chk.stderr and "EAL common options" not in p.stderr,
           "before EAL, without its usage: %r" % p.stderr[-300:])
    # A word no EAL option takes ("-l 0 1" for "-l 0,1"): EAL would leave it
    # and the run go on without it.
    rest = ["-l", "0", "1", "--no-pci", "--file-prefix", prefix, "--", "--duration", "1"]
    chk = subprocess.run([wrtest.WIRERATE, "check"] + rest, capture_output=True,
                         text=True, timeout=30, stdin=subprocess.DEVNULL)
    p = subprocess.run([wrtest.WIRERATE] + rest, capture_output=True, text=True,
                       timeout=60, stdin=subprocess.DEVNULL)
    c.eq(chk.returncode, 2, "-l 0 1: wirerate check's exit code (stderr %r)" % chk.stderr)
    c.eq((p.returncode, p.stderr), (2, chk.stderr), "-l 0 1: a run says the same")
    c.true(chk.stderr.startswith("wirerate: error: 1: a word no option before -- "
                                 "takes (after -l 0)"), "names it: %r" % chk.stderr)
    p = subprocess.run([wrtest.WIRERATE, "-l", "0,1", "--no-pci", "--file-prefix",
                        prefix, "--proc-type", "bogus", "--", "--duration", "1"],
                       capture_output=True, text=True, timeout=60,
                       stdin=subprocess.DEVNULL)
    c.eq(p.returncode, 2, "a value EAL refuses: exit code")
    c.true("EAL initialisation failed" in p.stderr, "says so: %r" % p.stderr[-300:])
    c.done()


def main_lcore_outside(c, avail, prefix):
    """--main-lcore naming no lcore of the list (EAL would refuse it after
    taking hugepages): refused by check and a run, exit 2, before EAL."""
    lo, n = avail[0], len(avail)
    for eal, lcores in ((["-l", "%d" % lo, "--main-lcore", "%d" % (lo + 1)], "%d" % lo),
                        (["--lcores", "0@%d,1@%d" % (lo, lo), "--main-lcore=2"], "0-1"),
                        (["--main-lcore", "%d" % (max(avail) + 1)], None)):
        rest = eal + ["--no-pci", "--file-prefix", prefix, "--", "--duration", "1"]
        chk = subprocess.run([wrtest.WIRERATE, "check"] + rest, capture_output=True,
                             text=True, timeout=30, stdin=subprocess.DEVNULL)
        run = subprocess.run([wrtest.WIRERATE] + rest, capture_output=True,
                             text=True, timeout=60, stdin=subprocess.DEVNULL)
        c.true(chk.returncode == 2 and chk.stderr.startswith(
            "wirerate: error: --main-lcore ") and "not one of the lcores" in chk.stderr,
            "check refuses %r: %r" % (eal, chk.stderr))
        if lcores is not None:
            c.true("lcores %s of %s" % (lcores, eal[0]) in chk.stderr,
                   "names the lcores and their option: %r" % chk.stderr)
        c.eq((run.returncode, run.stderr), (2, chk.stderr), "a run says the same for %r" % eal)
    ok = subprocess.run([wrtest.WIRERATE, "check", "-l", "%d" % lo, "--main-lcore", "%d" % lo,
                         "--no-pci", "--", "--duration", "1"], capture_output=True,
                        text=True, timeout=30)
    c.eq((ok.returncode, ok.stderr), (0, ""), "--main-lcore in the list passes (%d CPUs)" % n)


def lcores_beyond_machine():
    """An lcore list or core mask naming CPUs this process cannot run on
    (-l 0-N past the kernel's affinity mask, -lN, --lcores, -c MASK) is
    refused by `wirerate
    check` and by a run alike: exit 2 before EAL starts, naming the
    option, the CPUs asked and those the kernel says are available; so is
    a --main-lcore outside the lcores."""
    c = Checker("lcores_beyond_machine")
    avail = sorted(os.sched_getaffinity(0))
    top = max(avail) + 1                       # a CPU the kernel does not give us
    have = "%d-%d" % (avail[0], avail[-1]) if avail == list(
        range(avail[0], avail[-1] + 1)) else None
    prefix = "wrlc%d" % os.getpid()
    for eal in (["-l", "0-%d" % (top + 5)], ["-l%d" % top],
                ["--lcores", "0,%d@%d" % (avail[0], top)],
                ["--lcores=0-%d" % top], ["-c", "%#x" % ((1 << (top + 1)) - 1)],
                ["-c%x" % (1 << top)]):
        rest = eal + ["--no-pci", "--file-prefix", prefix, "--", "--duration", "1"]
        chk = subprocess.run([wrtest.WIRERATE, "check"] + rest, capture_output=True,
                             text=True, timeout=30, stdin=subprocess.DEVNULL)
        run = subprocess.run([wrtest.WIRERATE] + rest, capture_output=True,
                             text=True, timeout=60, stdin=subprocess.DEVNULL)
        c.eq(chk.returncode, 2, "wirerate check %r (stderr %r)" % (eal, chk.stderr))
        c.eq((run.returncode, run.stderr), (2, chk.stderr), "a run says the same for %r" % eal)
        opt = eal[0].split("=")[0] if eal[0].startswith("--") else eal[0][:2]
        c.true(chk.stderr.startswith("wirerate: error: %s " % opt), "names %s: %r" % (
            opt, chk.stderr))
        c.true(" asked, " in chk.stderr and ("(no CPU %d," % top in chk.stderr or
               "(no CPU %d-" % top in chk.stderr or "(no CPU %d)" % top in chk.stderr),
               "the CPUs asked, %d first of those missing: %r" % (top, chk.stderr))
        if have is not None:
            c.true("has CPUs %s " % have in chk.stderr, "the kernel's CPUs %s: %r" % (
                have, chk.stderr))
        c.true("EAL" not in run.stderr, "before EAL: %r" % run.stderr)
    c.true(not glob.glob("/var/run/dpdk/%s" % prefix), "no EAL started")
    ok = subprocess.run([wrtest.WIRERATE, "check", "-l", "%d" % avail[0], "--no-pci",
                         "--", "--duration", "1"], capture_output=True, text=True, timeout=30)
    c.eq((ok.returncode, ok.stderr), (0, ""), "a list of available CPUs passes")
    # A command for another machine, judged against its CPUs.
    other = ["check", "-l", "0-%d" % (top + 5), "--no-pci", "--", "--duration", "1"]
    env = dict(os.environ, WR_CHECK_CPUS="0-%d" % (top + 5))
    ok = subprocess.run([wrtest.WIRERATE] + other, capture_output=True, text=True,
                        timeout=30, env=env)
    c.eq((ok.returncode, ok.stderr), (0, ""), "WR_CHECK_CPUS: the other machine's CPUs")
    env["WR_CHECK_CPUS"] = "0-%d" % (top + 4)
    bad = subprocess.run([wrtest.WIRERATE] + other, capture_output=True, text=True,
                         timeout=30, env=env)
    c.true(bad.returncode == 2 and "(no CPU %d)" % (top + 5) in bad.stderr,
           "WR_CHECK_CPUS one short: refused (%r)" % bad.stderr)
    main_lcore_outside(c, avail, prefix)
    env["WR_CHECK_CPUS"] = "x"
    bad = subprocess.run([wrtest.WIRERATE] + other, capture_output=True, text=True,
                         timeout=30, env=env)
    c.true(bad.returncode == 2 and "WR_CHECK_CPUS=x" in bad.stderr,
           "WR_CHECK_CPUS not a list: refused naming it (%r)" % bad.stderr)
    c.done()


def stdout_closed():
    """The reader of the live view goes away (wirerate ... | head -1): the
    run carries on to its end and writes its result (SIGPIPE ignored)."""
    c = Checker("stdout_closed")
    d = tempfile.mkdtemp(prefix="wrfault")
    path = os.path.join(d, "r.json")
    argv = [wrtest.WIRERATE] + wrtest.eal_args(["net_ring0"]) + [
        "--", "--duration", "1.5", "--plain", "--interval", "100ms", "--json", path]
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL)
    p.stdout.readline()
    p.stdout.close()
    FAULTS[0] += 1
    rc = p.wait(timeout=60)
    c.eq(rc, 0, "exit code")
    doc = wrtest.read_result(path) if os.path.exists(path) else None
    c.true(doc is not None and doc["stop_reason"] == "duration", "ran to its end")
    if doc:
        wrtest.stream_balance(c, doc)
    for name in OUTPUTS:
        if os.path.exists(os.path.join(d, name)):
            os.unlink(os.path.join(d, name))
    os.rmdir(d)
    c.done()


def ip(*args, check=True):
    return subprocess.run(["ip"] + list(args), capture_output=True, text=True,
                          check=check)


def tap_names(tag):
    """Namespace and tap names of a test, unique to this process."""
    n = os.getpid() % 100000
    return "wr%s%d" % (tag, os.getpid()), ("wr%st%da" % (tag, n), "wr%st%db" % (tag, n))


def tap_probe(c):
    """Skip (and end) the case when the machine has no taps or namespaces."""
    if not wrtest.have_tun():
        c.skip("no /dev/net/tun: no tap ports here")
        c.done()
    if not wrtest.have_netns():
        c.skip("this process cannot create a network namespace")
        c.done()


def tap_bridge_run(c, ns, ta, tb, duration):
    """One run on two tap ports in namespace ns (made by the caller), joined
    by a bridge: port 0 sends 10 kpps, port 1 receives, a live line every
    250 ms. Returns the Run once traffic flows (t=1.5s)."""
    subprocess.run(["ip", "netns", "exec", ns, "sysctl", "-qw",
                    "net.ipv6.conf.all.disable_ipv6=1",
                    "net.ipv6.conf.default.disable_ipv6=1"], check=True)
    ip("-n", ns, "link", "add", "wrfbr", "type", "bridge", "forward_delay", "0")
    ip("-n", ns, "link", "set", "wrfbr", "up")
    # Not the receiving tap's own MAC: the bridge would keep such frames.
    r = Run(["net_tap0,iface=" + ta, "net_tap1,iface=" + tb],
            ["--tx-ports", "0", "--rx-ports", "1", "--rate", "10kpps",
             "--dst-mac", "02:00:00:00:00:99", "--duration", str(duration),
             "--plain", "--interval", "250ms"], wrap=["ip", "netns", "exec", ns])
    end = time.monotonic() + 30
    while ip("-n", ns, "link", "show", tb, check=False).returncode != 0:
        c.true(time.monotonic() < end and r.p.poll() is None, "taps made")
        if r.p.poll() is not None or time.monotonic() > end:
            break
        time.sleep(0.05)
    ip("-n", ns, "link", "set", ta, "master", "wrfbr", check=False)
    ip("-n", ns, "link", "set", tb, "master", "wrfbr", check=False)
    c.true(wait_t(r, 1.5), "traffic flowing")
    return r


def wait_t(r, secs, timeout=60):
    """Until the live view printed a line t=T with T >= secs (its times are
    rounded, so an exact one may never come); False if the run ended."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for _, line in list(r.lines):
            if line.startswith("t=") and float(line[2:].split("s")[0]) >= secs:
                return True
        if r.p.poll() is not None and not r.reader.is_alive():
            return False
        time.sleep(0.01)
    return False


def link_down_tap():
    """A link goes down mid-run: two tap ports joined by a bridge in a
    network namespace made for the test, the receiving tap set down for
    2.5 s. The run keeps going and ends by its duration; the port reports
    its link going down and for how long; the frames lost meanwhile are
    proven by sequence gaps and sent = received + lost holds exactly."""
    c = Checker("link_down_tap")
    ns, (ta, tb) = tap_names("f")
    tap_probe(c)
    ip("netns", "add", ns)
    try:
        r = tap_bridge_run(c, ns, ta, tb, 8)
        ip("-n", ns, "link", "set", tb, "down", check=False)
        FAULTS[0] += 1
        time.sleep(2.5)
        ip("-n", ns, "link", "set", tb, "up", check=False)
        r.finish()
        if r.doc:
            link = {t["port_id"]: t["link"] for t in r.doc["totals"]}
            c.true(link[1]["down_events"] >= 1, "port 1 seen going down: %r" % link[1])
            c.true(1.0 <= link[1]["down_s"] <= 4.0, "time down: %r" % link[1]["down_s"])
            c.eq(link[1]["up"], True, "port 1 up again at the end")
            c.eq(r.doc["stop_reason"], "duration", "kept running to its duration")
            s = r.doc["streams"][0]
            c.true(s["gap_pkts"] >= 10000, "loss proven by sequence gaps: %d" % s["gap_pkts"])
            wrtest.stream_balance(c, r.doc)
            print("link down 2.5 s: seen %d time(s), %.1f s down; sent %d, received "
                  "%d, lost %d (%d proven by gaps)" % (
                      link[1]["down_events"], link[1]["down_s"], s["sent_pkts"],
                      s["rx_pkts"], s["lost_pkts"], s["gap_pkts"]))
        c.true("port 1: LINK DOWN" in r.out, "live view says so")
        c.true("port 1: link went down" in r.out, "summary says so")
        check_clean(c, r, "tap link down")
    finally:
        ip("netns", "del", ns, check=False)
    c.done()


def tap_rx_dropped(ns, dev):
    """The kernel's count of frames written to tap dev that it refused."""
    p = subprocess.run(["ip", "netns", "exec", ns, "cat",
                        "/sys/class/net/%s/statistics/rx_dropped" % dev],
                       capture_output=True, text=True)
    return int(p.stdout) if p.returncode == 0 else None


def link_down_tx():
    """The sending port's link goes down mid-run: once the stats core sees
    it down, the worker offers that port nothing (TX paused), and resumes
    when it sees it up. Proven by a count wirerate did not make: the kernel
    refuses (rx_dropped) every frame written to a tap that is down, and
    that count stands still while TX is paused. Every frame is accounted
    for: what wirerate sent = the PMD's opackets, sent = received + lost."""
    c = Checker("link_down_tx")
    ns, (ta, tb) = tap_names("g")
    tap_probe(c)
    ip("netns", "add", ns)
    try:
        r = tap_bridge_run(c, ns, ta, tb, 7)
        ip("-n", ns, "link", "set", ta, "down", check=False)
        FAULTS[0] += 1
        seen = r.wait_line("port 0: LINK DOWN", timeout=10)
        c.true(seen is not None, "the stats core saw port 0 go down")
        # One burst may have read the flag just before it was raised.
        time.sleep(0.2)
        d0 = tap_rx_dropped(ns, ta)
        time.sleep(1.0)
        d1 = tap_rx_dropped(ns, ta)
        ip("-n", ns, "link", "set", ta, "up", check=False)
        c.true(d0 is not None and d0 > 0, "frames offered before the pause, "
               "refused by the kernel: %r" % d0)
        c.eq(d1, d0, "nothing offered to the down port for 1 s (kernel rx_dropped)")
        r.finish()
        if r.doc:
            t = {x["port_id"]: x for x in r.doc["totals"]}
            link = t[0]["link"]
            c.true(link["down_events"] >= 1 and link["up"], "port 0 seen down, "
                   "up at the end: %r" % link)
            c.eq(t[0]["tx_pkts"], t[0]["nic_opackets"], "sent = the PMD's opackets")
            s = r.doc["streams"][0]
            c.eq(s["sent_pkts"], t[0]["tx_pkts"], "the stream's sent frames")
            wrtest.stream_balance(c, r.doc)
            tail = [x["ports"][0]["tx_pkts"] for x in r.doc["samples"][-3:]]
            c.true(tail[-1] > tail[0], "TX resumed once the link was up: %r" % tail)
            print("port 0 down: rx_dropped %d before the pause, %d a second "
                  "later; sent %d, received %d, lost %d" % (
                      d0 or 0, d1 or 0, s["sent_pkts"], s["rx_pkts"], s["lost_pkts"]))
        check_clean(c, r, "tap TX link down")
    finally:
        ip("netns", "del", ns, check=False)
    c.done()


def done_summary():
    print("faults injected: %d" % FAULTS[0])


CASES = cases.by_name(signal_phases, signal_term_mid_run, signal_grace, double_signal,
                      quick_exit_hugefile,
                      tiny_pool, tx_ring_full, short_by_port, rx_no_traffic, svc_never_dry, mode_signal,
                      output_devices, bad_command_lines, bad_eal_option, lcores_beyond_machine,
                      link_down_tap,
                      link_down_tx, stdout_closed, tx_ring_stalled)

if __name__ == "__main__":
    cases.main(CASES, after=done_summary)
