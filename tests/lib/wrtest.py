# SPDX-License-Identifier: BSD-3-Clause
"""Helpers shared by wirerate's Python test suites (tests/*/test_*.py, with
tests/lib on PYTHONPATH): run the program on virtual ports and read its JSON
result, check (Checker), probe the machine, run a short command. The EAL
options come from scripts/lib/eal.py (shared with the benchmarks); the case
dispatch from tests/lib/cases.py. Standard library only."""
import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts", "lib"))
import eal  # noqa: E402
from eal import hugepages_free  # noqa: E402,F401 (a probe of the suites)

WIRERATE = os.environ.get("WIRERATE", "build/app/wirerate")


def have_tun():
    """Probe: the kernel offers tap devices."""
    return os.path.exists("/dev/net/tun")


def have_cpus(*cpus):
    """Probe: this process may run on each of these CPUs."""
    return set(cpus) <= os.sched_getaffinity(0)


def have_rt_sched():
    """Probe: the kernel lets this process take the real-time class
    (SCHED_FIFO): tried in a child, which exits at once."""
    code = "import os; os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))"
    return subprocess.run([sys.executable, "-c", code],
                          capture_output=True).returncode == 0


def have_netns():
    """Probe: this process may create a network namespace (root, and a
    kernel with CONFIG_NET_NS): one is made and removed."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        return False
    name = "wrprobe%d" % os.getpid()
    p = subprocess.run(["ip", "netns", "add", name], capture_output=True)
    if p.returncode != 0:
        return False
    subprocess.run(["ip", "netns", "del", name], capture_output=True)
    return True


def have_qdisc(argv):
    """Probe: the kernel has this queueing discipline (tc qdisc add dev lo
    root ARGV in a namespace of its own, removed after)."""
    if not have_netns() or shutil.which("tc") is None:
        return False
    ns = "wrpq%d" % os.getpid()
    subprocess.run(["ip", "netns", "add", ns], capture_output=True)
    try:
        return subprocess.run(["ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev",
                               "lo", "root"] + argv, capture_output=True).returncode == 0
    finally:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def have_link_kind(argv):
    """Probe: the kernel makes a link of this kind (ip link add ... in a
    namespace of its own, removed after; the lower device a veth)."""
    if not have_netns():
        return False
    ns = "wrpk%d" % os.getpid()
    subprocess.run(["ip", "netns", "add", ns], capture_output=True)
    try:
        ip = ["ip", "-n", ns]
        subprocess.run(ip + ["link", "add", "nA", "type", "veth", "peer", "name", "nB"],
                       capture_output=True)
        return subprocess.run(ip + ["link", "add", "ep0"] + argv,
                              capture_output=True).returncode == 0
    finally:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def have_ipv6_loopback():
    """Probe: a socket binds ::1 (IPv6 on, lo has its address)."""
    import socket
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::1", 0))
    except OSError:
        return False
    return True


def have_af_xdp():
    """Probe: the kernel opens an AF_XDP socket (address family 44)."""
    import socket
    try:
        socket.socket(44, socket.SOCK_RAW, 0).close()
    except OSError:
        return False
    return True


PREFIX = "wrtest%d" % os.getpid()
atexit.register(eal.remove_runtime_dir, PREFIX)


# IFLA_BR_FDB_MAX_LEARNED (linux/if_link.h, Linux 6.8): iproute2 6.1
# cannot set it and python3-pyroute2 0.7 does not know it, so a few lines
# of rtnetlink set and read it, run inside the switch's namespace.
FDB_MAX_PY = r'''
import socket, struct, sys
IFLA_LINKINFO, IFLA_INFO_KIND, IFLA_INFO_DATA, MAX = 18, 1, 2, 49
def attr(t, v):
    return struct.pack("HH", len(v) + 4, t) + v + b"\0" * (-len(v) % 4)
def attrs(b):
    while len(b) >= 4:
        n, t = struct.unpack("HH", b[:4])
        yield t & 0x7fff, b[4:n]
        b = b[(n + 3) & ~3:]
def talk(kind, flags, body):
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
    s.send(struct.pack("IHHII", 16 + len(body), kind, flags, 1, 0) + body)
    d = s.recv(65536)
    s.close()
    return d
idx = socket.if_nametoindex(sys.argv[1])
ifi = struct.pack("BxHiII", 0, 0, idx, 0, 0)
if len(sys.argv) > 2:
    info = attr(IFLA_INFO_KIND, b"bridge") + attr(IFLA_INFO_DATA,
        attr(MAX, struct.pack("I", int(sys.argv[2]))))
    d = talk(16, 5, ifi + attr(IFLA_LINKINFO, info))
    err = struct.unpack("i", d[16:20])[0]
    if err:
        sys.exit("set: errno %d" % -err)
d = talk(18, 1, ifi)
for t, v in attrs(d[32:]):
    if t == IFLA_LINKINFO:
        for t2, v2 in attrs(v):
            if t2 == IFLA_INFO_DATA:
                for t3, v3 in attrs(v2):
                    if t3 == MAX:
                        print(struct.unpack("I", v3)[0])
'''


def have_br_fdb_max_learned(netns, br, value):
    """Whether the kernel limits bridge br's learned addresses (in netns):
    fdb_max_learned set to value reads back as value (Linux 6.8)."""
    p = sh("ip", "netns", "exec", netns, sys.executable, "-c", FDB_MAX_PY, br,
           str(value), check=False)
    return p.returncode == 0 and p.stdout.strip() == str(value)


_PREFIXES = {PREFIX}


def eal_args(vdevs, lcores="0,1", prefix=PREFIX, **kw):
    """EAL options for a private DPDK instance on vdevs: this process's
    prefix, no hugepage files; other prefixes and kw as in eal.eal_args.
    Each prefix's runtime directory goes when this process exits (EAL
    leaves it, with its telemetry socket, after a kill)."""
    if prefix and prefix not in _PREFIXES:
        _PREFIXES.add(prefix)
        atexit.register(eal.remove_runtime_dir, prefix)
    return eal.eal_args(vdevs, lcores, prefix=prefix, **kw)


def pid_gone(pid):
    """True once process pid has exited: no such process, or a zombie (a
    daemon that forked away is its init's child, and an init that reaps
    late keeps it a zombie for seconds)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True


def stop_pids(pids, sig=signal.SIGTERM, timeout=5):
    """Send sig to every pid at once, then wait up to timeout s for all of
    them to be gone (pid_gone). Returns those still there."""
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass
    end = time.monotonic() + timeout
    left = [p for p in pids if not pid_gone(p)]
    while left and time.monotonic() < end:
        time.sleep(0.05)
        left = [p for p in left if not pid_gone(p)]
    return left


def sh(*argv, check=True, timeout=30):
    """Run a short system command; its output on failure."""
    p = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(argv), p.returncode,
                                               p.stderr.strip()))
    return p


SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                          "docs", "schema")
_validators = {}


def validate(doc, where):
    """Check a document wirerate wrote against the JSON Schema its "schema"
    field names (docs/schema/NAME-N.schema.json, draft 2020-12, Debian's
    python3-jsonschema); raise AssertionError naming where and what."""
    import jsonschema
    sid = doc.get("schema") if isinstance(doc, dict) else None
    path = os.path.join(SCHEMA_DIR, str(sid).replace("/", "-") + ".schema.json")
    if sid not in _validators:
        if not os.path.exists(path):
            raise AssertionError("%s: schema %r has no file %s" % (where, sid, path))
        with open(path) as f:
            _validators[sid] = jsonschema.Draft202012Validator(json.load(f))
    errs = sorted(_validators[sid].iter_errors(doc), key=lambda e: list(e.path))
    if errs:
        raise AssertionError("%s does not match %s: %s" % (where, path, "; ".join(
            "/%s: %s" % ("/".join(map(str, e.path)), e.message[:200]) for e in errs[:5])))
    return doc


def read_result(path):
    """The result (or merge) file wirerate wrote at path, parsed and checked
    against its schema (validate); every suite reads results through this."""
    with open(path) as f:
        return validate(json.load(f), path)


def load_json(path):
    """The result in path, checked as read_result, or None (missing, or not
    complete yet)."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    return validate(doc, path)


def skip(why):
    """Skip the whole case now (meson's exit 77): for a missing capability
    of the machine, proven by a probe, before any check."""
    print("SKIP: %s" % why)
    sys.exit(77)


class Result:
    def __init__(self, rc, out, err, doc):
        self.rc, self.out, self.err, self.doc = rc, out, err, doc


# wirerate's error (exit 1, before EAL) when another process holds the
# af_packet fanout group one of its ports would take: the PMD makes the
# id from the process id, so two processes on af_packet ports of one
# namespace meet now and then (test_twoend.py af_packet_fanout_taken).
# A new process has another id: run() and run_and_signal() start it
# again, up to FANOUT_TRIES times, and say so.
FANOUT_TAKEN = "the af_packet PMD's fanout group for"
FANOUT_TRIES = 3


def fanout_taken(rc, err, tries):
    """Whether a run that ended (rc, err) on try number tries is to be
    started again."""
    if rc != 1 or FANOUT_TAKEN not in err or tries >= FANOUT_TRIES:
        return False
    print("started again (try %d): %s" % (tries + 1, err.strip()[-400:]))
    return True


def run(vdevs, opts, timeout=60, lcores="0,1", want_json=True):
    """Run wirerate; return Result with the parsed JSON (or None)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        argv = [WIRERATE] + eal_args(vdevs, lcores) + ["--"] + list(opts)
        if want_json:
            argv += ["--json", path]
        tries = 0
        while True:
            tries += 1
            p = subprocess.run(argv, capture_output=True, text=True,
                               timeout=timeout, stdin=subprocess.DEVNULL)
            if not fanout_taken(p.returncode, p.stderr, tries):
                break
        doc = None
        if want_json and os.path.exists(path):
            doc = read_result(path)
        return Result(p.returncode, p.stdout, p.stderr, doc)


def run_and_signal(vdevs, opts, after_s, sig=signal.SIGINT, timeout=60):
    """Start wirerate, send sig after after_s seconds, wait for it."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        argv = [WIRERATE] + eal_args(vdevs) + ["--"] + list(opts) + ["--json", path]
        tries = 0
        while True:
            tries += 1
            p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True,
                                 stdin=subprocess.DEVNULL)
            time.sleep(after_s)
            p.send_signal(sig)
            try:
                out, err = p.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                out, err = p.communicate()
            if not fanout_taken(p.returncode, err, tries):
                break
        doc = read_result(path) if os.path.exists(path) else None
        return Result(p.returncode, out, err, doc)


class Checker:
    """Collects failed checks; exit code 1 if any failed."""

    def __init__(self, name):
        self.name, self.failed, self.nb, self.skipped = name, 0, 0, []

    def skip(self, why):
        """Mark the case skipped (exit 77) unless something failed."""
        self.skipped.append(why)

    def eq(self, got, want, what):
        self.nb += 1
        if got != want:
            self.failed += 1
            print("FAIL %s: %s = %r, want %r" % (self.name, what, got, want))

    def true(self, cond, what):
        self.nb += 1
        if not cond:
            self.failed += 1
            print("FAIL %s: %s" % (self.name, what))

    def done(self, res=None):
        # Called from a finally block while an exception propagates (a
        # case's own error): that is a failure, never a pass the exit
        # below would hide.
        exc = sys.exc_info()[1]
        if isinstance(exc, Exception):
            self.true(False, "the case raised %s" % "".join(
                traceback.format_exception(type(exc), exc, exc.__traceback__)).strip())
        if self.failed and res is not None:
            print("--- stdout\n%s\n--- stderr\n%s" % (res.out[-3000:], res.err[-3000:]))
        print("%s: %d checks, %d failed" % (self.name, self.nb, self.failed))
        if not self.failed and self.skipped:
            print("SKIP: " + "; ".join(self.skipped))
            sys.exit(77)
        sys.exit(1 if self.failed else 0)


def stalls_confirmed(st):
    """Whether the kernel accounts for a paced run's stalls (rate.stalls):
    the loop time it did not give the worker plus the time it spent in the
    worker's context (faults, interrupts) cover 3/4 of the stalls' gaps."""
    return st["off_cpu_ms"] + st["in_kernel_ms"] >= 0.75 * st["stalled_ms"]


def stalls_text(st):
    return ("the kernel took the worker's CPU for the stalls (%.2f ms off its "
            "CPU, %.2f ms in the kernel, %.2f ms of stalls)" %
            (st["off_cpu_ms"], st["in_kernel_ms"], st["stalled_ms"]))


def refused(c, vdevs, opts, msg, want_json=False):
    """wirerate on vdevs with opts is bad input: exit 2 and msg in its
    stderr (want_json: run with --json, and no result written)."""
    r = run(vdevs, opts, want_json=want_json)
    c.eq(r.rc, 2, "exit code for %s" % opts)
    c.true(msg in r.err, "message for %s: %r in %r" % (opts, msg, r.err[-300:]))
    if want_json:
        c.eq(r.doc, None, "%s: no result written" % opts)


def md_escape(text):
    """text as wirerate report's Markdown prints it: each of \\`*_<>|&![]~#
    behind a backslash (app/report/report_fmt.c)."""
    return "".join("\\" + ch if ch in "\\`*_<>|&![]~#" else ch for ch in text)


def pmd_rx(t):
    """What wirerate must have counted on port total t by the PMD's own
    count: its ipackets, less what the --impair fixture (which sits between
    the PMD and wirerate, as a DUT would) removed, plus what it added."""
    imp = t.get("impair") or {}
    return (t["nic_ipackets"] - imp.get("dropped_pkts", 0) -
            imp.get("policed_pkts", 0) + imp.get("duplicated_pkts", 0))


def rx_matches_pmd(c, doc, what="run"):
    """An RX count wirerate did not make: on every port, wirerate's RX
    count is the PMD's (pmd_rx), and every frame the PMDs received is one
    stream's (a first copy or a duplicate), foreign or malformed. A miscount
    of RX fails here: sent = rx + lost alone holds by construction. doc is
    a run's result or a trial of one; its trials are checked too."""
    if "totals" in doc:
        tot = doc["totals"]
        for t in tot:
            c.eq(t["rx_pkts"], pmd_rx(t), "%s port %d: rx = the PMD's ipackets%s" % (
                what, t["port_id"], " through the fixture" if "impair" in t else ""))
        own = sum(s["rx_pkts"] + s["dup_pkts"] for s in doc["streams"])
        other = sum(t["rx_foreign_pkts"] + t["rx_malformed_pkts"] +
                    t.get("rx_service_pkts", 0) for t in tot)
        c.eq(own + other, sum(pmd_rx(t) for t in tot),
             "%s: streams' frames + foreign + malformed + service = the PMDs' "
             "count" % what)
    for i, t in enumerate(doc.get("trials", [])):
        rx_matches_pmd(c, t, "%s, trial %d" % (what, i + 1))


def stream_balance(c, doc):
    """sent = received + lost, exactly, for every stream of the run, and
    the received frames are the PMDs' count (rx_matches_pmd)."""
    for s in doc["streams"]:
        if s["sender_in_run"]:
            c.eq(s["sent_pkts"], s["rx_pkts"] + s["lost_pkts"],
                 "stream %d sent = rx + lost" % s["stream_id"])
    c.eq(doc["accounting"]["balanced"], True, "accounting balanced")
    c.eq(doc["accounting"]["mbufs_missing"], 0, "mbufs back in their pools")
    rx_matches_pmd(c, doc)
