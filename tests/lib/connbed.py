# SPDX-License-Identifier: BSD-3-Clause
"""The bed of the connection modes' twoend tests (test_connrate.py,
test_conntear.py, test_connload.py, test_conncap.py): wirerate's client
on the host end of a veth pair (af_packet), a router namespace that
forwards to a server namespace, nginx (one worker) there; nftables rules
in the router as the case gives them. Also the loops those suites share:
a run signalled once its --json file holds finished trials, and bad
input refused with exit 2 before EAL."""
import os
import shutil
import signal
import subprocess
import time

import wrtest

ME, GW = "198.18.0.1", "198.18.0.254"
RT_S, SERVER = "198.19.0.254", "198.19.0.1"

NGINX_CONF = """worker_processes 1;
{top}daemon on;
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{ worker_connections {conns}; }}
http {{
{http}    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    server {{
        listen {addr}:80 backlog=4096;
        location / {{ return 200 "wirerate\\n"; }}
    }}
}}
"""


def ip(*args, check=True):
    return wrtest.sh("ip", *args, check=check)


def ns(name, *argv, check=True, timeout=30):
    return wrtest.sh("ip", "netns", "exec", name, *argv, check=check,
                     timeout=timeout)


def wait_started(p, out_path, timeout=30):
    """Until wirerate p (output into out_path) printed its first interval
    row ("counts since start"), ended, or timeout s passed."""
    end = time.monotonic() + timeout
    while time.monotonic() < end and p.poll() is None:
        with open(out_path) as f:
            if "counts since start" in f.read():
                return
        time.sleep(0.1)


def probe(c, *tools):
    """Skip (and end) the case when the machine cannot make namespaces or
    lacks a tool the case drives."""
    if not wrtest.have_netns():
        c.skip("this process cannot create a network namespace")
        c.done()
    for t in tools:
        if shutil.which(t) is None:
            c.skip("not installed: %s" % t)
            c.done()


class Bed:
    """wirerate | host=rh (router rt) rs=sp (server sv, nginx). tag names
    the namespaces and links (with this process's id); http: nginx's
    lines in http {} before the temp paths (access_log among them); top:
    its lines before daemon; conns: worker_connections; sv_sysctls and
    rt_sysctls: set in the server and (after the rules) the router."""

    def __init__(self, tag, http, top="", conns=4096, sv_sysctls=(),
                 rt_sysctls=()):
        pid = os.getpid()
        self.rt, self.sv = "wr%sr%d" % (tag, pid), "wr%ss%d" % (tag, pid)
        self.host, self.rh, self.rs, self.sp = (
            "w%s%s_%d" % (tag, x, pid % 10000) for x in "hpqs")
        self.http, self.top, self.conns = http, top, conns
        self.sv_sysctls, self.rt_sysctls = sv_sysctls, rt_sysctls

    def vdevs(self):
        return ["net_af_packet0,iface=%s,qdisc_bypass=0" % self.host]

    def make(self, d, nft=None):
        """Make the bed, nft (the router's rules, text) loaded if given,
        nginx started with its files in d. TX checksum offload off on the
        kernel's ends (af_packet would hand wirerate segments whose
        checksum was never filled)."""
        rt, sv = self.rt, self.sv
        for n in (rt, sv):
            ip("netns", "add", n)
        ip("link", "add", self.host, "type", "veth", "peer", "name", self.rh)
        ip("link", "add", self.rs, "type", "veth", "peer", "name", self.sp)
        ip("link", "set", self.rh, "netns", rt)
        ip("link", "set", self.rs, "netns", rt)
        ip("link", "set", self.sp, "netns", sv)
        wrtest.sh("sysctl", "-qw",
                  "net.ipv6.conf.%s.disable_ipv6=1" % self.host)
        for n in (rt, sv):
            ns(n, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1")
            ip("-n", n, "link", "set", "lo", "up")
        ip("link", "set", self.host, "up")
        for n, dev, addr in ((rt, self.rh, GW + "/24"),
                             (rt, self.rs, RT_S + "/24"),
                             (sv, self.sp, SERVER + "/24")):
            ip("-n", n, "addr", "add", addr, "dev", dev)
            ip("-n", n, "link", "set", dev, "up")
            ns(n, "ethtool", "-K", dev, "tx", "off")
        ip("-n", sv, "route", "add", "default", "via", RT_S)
        ns(rt, "sysctl", "-qw", "net.ipv4.ip_forward=1")
        for s in self.sv_sysctls:
            ns(sv, "sysctl", "-qw", s)
        if nft is not None:
            with open(os.path.join(d, "nft.conf"), "w") as f:
                f.write(nft)
            ns(rt, "nft", "-f", os.path.join(d, "nft.conf"))
        for s in self.rt_sysctls:
            ns(rt, "sysctl", "-qw", s)
        with open(os.path.join(d, "nginx.conf"), "w") as f:
            f.write(NGINX_CONF.format(d=d, addr=SERVER, top=self.top,
                                      conns=self.conns,
                                      http=self.http.format(d=d)))
        ns(sv, "nginx", "-c", os.path.join(d, "nginx.conf"))

    def drop(self, d):
        ns(self.sv, "nginx", "-c", os.path.join(d, "nginx.conf"), "-s",
           "stop", check=False)
        for n in (self.rt, self.sv):
            ip("netns", "del", n, check=False)
        ip("link", "del", self.host, check=False)


def signal_after(argv, path, sig, ready, timeout=60):
    """Run argv (wirerate, EAL options and all, writing --json path); send
    sig once ready(the file's doc) is true, the run ended, or timeout
    passed; wait for it. Returns (exit code, its output)."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                         text=True)
    end = time.monotonic() + timeout
    while time.monotonic() < end and p.poll() is None:
        doc = wrtest.load_json(path)
        if doc and ready(doc):
            break
        time.sleep(0.05)
    p.send_signal(sig)
    try:
        out, _ = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
    if sig == signal.SIGKILL and "--file-prefix" in argv:
        wrtest.eal.remove_runtime_dir(argv[argv.index("--file-prefix") + 1])
    return p.returncode, out


def trials_done(n=1):
    """ready() of signal_after: the file holds n finished trials."""
    return lambda doc: len(doc.get("trials", [])) >= n


def check_stopped(c, path, sig, rc, mode):
    """The checks a mode's run shares once signalled after a finished
    trial: SIGKILL leaves the file written during the run (labelled
    running, INCOMPLETE in report), SIGINT the final one (labelled
    signal, exit 0 as every stopped search); both valid results (schema)
    of the mode with a finished trial at least, which report reads. The
    doc ({} when none)."""
    name = signal.Signals(sig).name
    if sig == signal.SIGINT:
        c.eq(rc, 0, "%s: exit code" % name)
    doc = wrtest.load_json(path)
    c.true(doc is not None, "%s: the --json file is there and a valid "
           "result" % name)
    doc = doc or {}
    c.eq(doc.get("stop_reason"), "running" if sig == signal.SIGKILL else
         "signal", "%s: labelled" % name)
    c.eq(doc.get("mode"), mode, "%s: mode" % name)
    n = len(doc.get("trials", []))
    c.true(n >= 1, "%s: finished trials kept: %d" % (name, n))
    p = subprocess.run([wrtest.WIRERATE, "report", path],
                       capture_output=True, text=True, timeout=30)
    c.eq(p.returncode, 0, "%s: report accepts it: %s" % (
        name, (p.stdout + p.stderr)[-300:]))
    c.eq("(INCOMPLETE)" in p.stdout, sig == signal.SIGKILL, "%s: report "
         "labels the file written during the run only INCOMPLETE" % name)
    return doc


def refused(c, bad, skip=2):
    """Each (options, text) of bad: exit 2, the message holds text, before
    EAL (on net_null0). A check names the options past the first skip."""
    r = None
    for opts, want in bad:
        r = wrtest.run(["net_null0"], opts, timeout=30, want_json=False)
        what = " ".join(opts[skip:])
        c.eq(r.rc, 2, "%s: exit 2" % what)
        c.true(want in r.err, "%s: the message names %r: %r" % (
            what, want, r.err.strip()[-200:]))
        c.true("EAL" not in r.out + r.err, "%s: refused before EAL" % what)
    return r
