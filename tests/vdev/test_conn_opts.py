# SPDX-License-Identifier: BSD-3-Clause
"""The options of a connection run (--conn, --conn-*; docs/tcp.md): bad
input refused before EAL and before any traffic (exit 2, the message
naming the option, no EAL line, no runtime directory), the same through
`wirerate check`; --conn-concurrency against the hugepages the kernel
reports; the shipped connection profiles accepted. Usage:
test_conn_opts.py CASE."""
import os
import re
import subprocess

import cases
import wrtest
from wrtest import Checker

SEQ = [0]
CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                      "config")
CLIENT = ["--conn", "client", "--port-ip", "0=198.18.0.2/15",
          "--conn-server", "198.19.0.1:80"]
SERVER = ["--conn", "server", "--port-ip", "0=198.19.0.1/15"]
# Both roles in one run: port 0 the client, port 1 the server.
BOTH = ["--conn", "0=client,1=server", "--port-ip", "0=198.18.0.2/15",
        "--port-ip", "1=198.19.0.1/15", "--conn-server", "198.19.0.1:80"]

# (options, what the message must say): each refused with exit 2.
BAD = [
    (CLIENT + ["--conn-body", "1k"], "--conn-body with --conn client"),
    (SERVER + ["--conn-body", "0"], "--conn-body 0: out of range"),
    (SERVER + ["--conn-body", "2G"], "--conn-body 2G: out of range"),
    (CLIENT + ["--conn-req-body", "0"], "--conn-req-body 0: out of range"),
    (CLIENT + ["--conn-req-body", "2G"], "--conn-req-body 2G: out of range"),
    (SERVER + ["--conn-req-body", "1k"], "--conn-req-body with --conn server"),
    (CLIENT + ["--conn-app", "bulk", "--conn-req-body", "1k"],
     "--conn-req-body with --conn-app bulk: it is an option of --conn-app http"),
    (CLIENT + ["--conn-rate", "0"], "--conn-rate 0: out of range"),
    (CLIENT + ["--conn-concurrency", "0"], "--conn-concurrency 0: out of range"),
    (CLIENT + ["--conn-requests", "0"], "--conn-requests 0: out of range"),
    (CLIENT + ["--conn-app", "bulk", "--conn-bulk", "0"],
     "--conn-bulk 0: out of range"),
    (CLIENT + ["--conn-sport", "2000-1000"],
     "--conn-sport 2000-1000: the range runs backwards"),
    (CLIENT + ["--conn-sport", "0-10"], "--conn-sport 0-10: expected N or N-M"),
    (CLIENT + ["--conn-src-ip", "198.18.1.9-198.18.1.1"],
     "--conn-src-ip 198.18.1.9-198.18.1.1: the range runs backwards"),
    (CLIENT + ["--conn-src-ip", "2001:2::1"],
     "--conn-src-ip: IPv6 addresses towards the IPv4 --conn-server"),
    (["--conn", "client", "--port-ip", "0=198.18.0.2/15"],
     "--conn client needs --conn-server"),
    (["--conn", "client", "--conn-server", "198.19.0.1:80"],
     "--conn: port 0 has no IPv4 address; give it one with --port-ip 0="),
    (["--conn", "client", "--port-ip", "0=198.18.0.2/15", "--conn-server",
      "[2001:2::1]:80"], "--conn: port 0 has no IPv6 address"),
    (["--conn", "server", "--port-ip", "0=198.19.0.1/15,vlan=7"],
     "--port-ip 0=...,vlan=7: a connection's frames carry no VLAN tag"),
    (["--conn-rate", "100"], "--conn-rate needs --conn client or --conn server"),
    (["--conn-listen", "8080"], "--conn-listen needs --conn client or"),
    (CLIENT + ["--size", "128"], "--conn with --size: a connection run sends "
     "TCP segments"),
    (CLIENT + ["--rate", "1Mpps"], "--conn with --rate"),
    (SERVER + ["--conn-rate", "5"], "--conn-rate with --conn server: it is an "
     "option of a client"),
    (CLIENT + ["--conn-concurrency", "100000"], "--conn-concurrency 100000: "
     "more than the 64512 source 4-tuples"),
    (CLIENT + ["--conn-server", "198.19.0.1:0"], "--conn-server 198.19.0.1:0: "
     "the port 0 is not 1..65535"),
    (BOTH + ["--conn", "0=client,0=server"],
     "--conn 0=client,0=server: port 0 is named twice"),
    (BOTH + ["--conn", "0=client,1=proxy"],
     "--conn 0=client,1=proxy: 1=proxy is not PORT=client or PORT=server"),
    (BOTH + ["--conn", "0=client,99=server"],
     "--conn 0=client,99=server: 99=server is not PORT=client"),
    (BOTH + ["--conn-server", "198.19.0.9:80"], "--conn-server: with client "
     "and server ports in one run, it names a server port's --port-ip"),
    (BOTH + ["--tx-ports", "0"], "--tx-ports and --conn name other ports"),
    (BOTH + ["--conn-listen", "8080"], "--conn-listen 8080: the client "
     "connects to port 80 (--conn-server)"),
    (BOTH[:4] + ["--conn-server", "198.18.0.2:80"],
     "--conn: port 1 has no IPv4 address"),
    (BOTH + ["--conn-src-ip", "2001:2::1"],
     "--conn-src-ip: IPv6 addresses towards the IPv4 --conn-server"),
]


def prefix():
    SEQ[0] += 1
    return "wrconn%d_%d" % (os.getpid(), SEQ[0])


def wirerate(args, timeout=60):
    p = subprocess.run([wrtest.WIRERATE] + args, capture_output=True, text=True,
                       timeout=timeout, stdin=subprocess.DEVNULL)
    return wrtest.Result(p.returncode, p.stdout, p.stderr, None)


def runtime_dir(pfx):
    return os.path.join("/var/run/dpdk" if os.geteuid() == 0 else
                        os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/tmp"),
                                     "dpdk"), pfx)


def meminfo(key):
    """A /proc/meminfo figure (kB, or a count), as the kernel states it."""
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def refused(c, r, pfx, want, what):
    """Exit 2, one short message saying want, nothing of EAL."""
    c.eq(r.rc, 2, "%s: exit code" % what)
    c.true(want in r.err, "%s: says %r: %r" % (what, want, r.err))
    c.true("EAL:" not in r.out + r.err, "%s: no EAL output" % what)
    c.true(not os.path.exists(runtime_dir(pfx)), "%s: EAL never started" % what)
    c.true(len((r.out + r.err).splitlines()) <= 3, "%s: a short message" % what)


def conn_opts_refused():
    """Each bad connection command line: a run (real ports on net_null)
    and `wirerate check` both refuse it before EAL, naming the option."""
    c = Checker("conn_opts_refused")
    r = None
    for opts, want in BAD:
        pfx = prefix()
        eal = ["-l", "0,1", "--no-pci", "--file-prefix", pfx, "--vdev",
               "net_null0"]
        r = wirerate(eal + ["--"] + opts + ["--duration", "1"])
        refused(c, r, pfx, want, "run %r" % opts)
        r = wirerate(["check", "--"] + opts)
        c.eq(r.rc, 2, "check %r: exit code" % opts)
        c.true(want in r.err, "check %r: says %r: %r" % (opts, want, r.err))
    c.done(r)


def conn_opts_memory():
    """--conn-concurrency whose pools the hugepages cannot hold: refused
    before EAL with the bytes, the available ones being the kernel's
    HugePages_Total x Hugepagesize; a concurrency that fits passes."""
    c = Checker("conn_opts_memory")
    total = meminfo("HugePages_Total") * meminfo("Hugepagesize") * 1024
    if total == 0 and wrtest.hugepages_free() == 0:
        wrtest.skip("no hugepages configured (HugePages_Total 0): nothing "
                    "for a connection run's pools to exceed")
    # 32 server ports of 16777216 connections each: beyond any test bed.
    ports = ["--port-ip=%d=198.19.0.%d/15" % (p, p + 1) for p in range(32)]
    opts = SERVER[:2] + ports + ["--tx-ports", "0-31", "--conn-concurrency",
                                 "16777216"]
    pfx = prefix()
    r = wirerate(["-l", "0,1", "--no-pci", "--file-prefix", pfx, "--vdev",
                  "net_null0", "--"] + opts)
    refused(c, r, pfx, "--conn-concurrency 16777216: 32 port(s) x", "run")
    m = re.search(r"x (\d+) bytes \((\d+) bytes a connection.*= (\d+) bytes, "
                  r"more than the (\d+) bytes", r.err)
    c.true(m is not None, "states the bytes: %r" % r.err)
    if m:
        per_port, per_conn, need, avail = (int(x) for x in m.groups())
        c.eq(avail, total, "available = the kernel's hugepage bytes")
        c.eq(need, 32 * per_port, "needed = 32 ports x a port's bytes")
        c.true(per_conn >= 128 + 16, "a connection at least its 128-byte "
               "state and 16-byte tuple entry: %d" % per_conn)
        c.true(need > avail, "refused because it does not fit")
    r = wirerate(["check", "--"] + SERVER + ["--conn-concurrency", "1000"])
    c.eq(r.rc, 0, "1000 connections fit: %r" % r.err)
    c.done(r)


def conn_opts_check():
    """`wirerate check` accepts a client and a server command line, IPv4
    and IPv6, both roles by port (--conn 0=client,1=server, each role
    its own options), and the shipped connection profiles."""
    c = Checker("conn_opts_check")
    good = [CLIENT + ["--conn-rate", "10k", "--conn-count", "1M"],
            SERVER + ["--conn-body", "1M", "--conn-listen", "8080"],
            ["--conn", "client", "--port-ip", "0=2001:2::2/64", "--conn-server",
             "[2001:2::1]:80", "--conn-src-ip", "2001:2::100-2001:2::1ff"],
            CLIENT + ["--conn-app", "bulk", "--conn-bulk", "100M"],
            BOTH + ["--conn-rate", "1k", "--conn-body", "500"],
            BOTH + ["--conn-req-body", "1G", "--conn-body", "1"],
            BOTH + ["--conn-listen", "80", "--conn-count", "10"],
            ["--conn", "0=server,1=server", "--port-ip", "0=198.19.0.1/15",
             "--port-ip", "1=198.19.0.2/15", "--conn-listen", "8080"]]
    r = None
    for opts in good:
        r = wirerate(["check", "--"] + opts)
        c.eq(r.rc, 0, "check %r: %r" % (opts, r.err))
    for name in ("conn-http-client.ini", "conn-http-server.ini"):
        r = wirerate(["check", "--", "--profile", os.path.join(CONFIG, name)])
        c.eq(r.rc, 0, "check --profile %s: %r" % (name, r.err))
    c.done(r)


CASES = cases.by_name(conn_opts_refused, conn_opts_memory, conn_opts_check)

if __name__ == "__main__":
    cases.main(CASES)
