#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Observe a DUT while any wirerate command runs (a plain run, --repeat, a
search, any mode): the campaign's observer (scripts/campaign/files/
wr-host.sh dut-start / dut-stop) samples the DUT, the command runs, the
sampler stops, and the DUT's figures are written beside the result and
printed (docs/testbeds.md, "A DUT's cost from any run").

  dut-observe.py [--ns NAME | --ssh HOST] [--interfaces A,B] [--cpus LIST]
                 [--pids PIDS | --process NAME] [--interval S] [--out DIR]
                 -- wirerate EAL... -- OPTIONS...

The DUT is a network namespace of this machine (--ns), a host reached by
SSH (--ssh, as root: the observer needs only sh, cat, grep, sed, date,
sleep), or this machine itself. --interfaces: the DUT's interfaces the
traffic crosses (with --ns, all of the namespace's but lo by default).
--cpus: the DUT's CPUs (default: those its interfaces' IRQs and RPS are
set to). --pids / --process: the DUT's processes (with --ns, by default
every process in the namespace). The generator's CPUs are read from the
command's -l, -c or --lcores and never counted as the DUT's.

With --json PATH in the command, the figures go to PATH's stem + .dut.json
(schema wirerate-dut/1, with an "own" key) and the samples to .dut.txt,
and the result gets a "dut" key; else into --out DIR [dut-observe].
Exit code: the command's; 2 for bad usage; 1 when the DUT cannot be
sampled (before the command runs)."""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, "campaign", "files")
sys.path.insert(0, FILES)
import wr_dut      # noqa: E402  (the campaign's figures)
import wr_dut_own  # noqa: E402

HOST_SH = os.path.join(FILES, "wr-host.sh")


def usage_error(msg):
    print("dut-observe: %s" % msg, file=sys.stderr)
    sys.exit(2)


def parse_args(argv):
    if "--" not in argv:
        usage_error("no command: dut-observe.py [OPTIONS] -- wirerate ...")
    k = argv.index("--")
    p = argparse.ArgumentParser(prog="dut-observe.py", description=__doc__.split("\n\n")[0])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--ns", help="the DUT is this network namespace")
    g.add_argument("--ssh", help="the DUT is this host (ssh HOST, as root)")
    p.add_argument("--interfaces", help="the DUT's interfaces, A,B")
    p.add_argument("--cpus", help="the DUT's CPUs, e.g. 2-3")
    g2 = p.add_mutually_exclusive_group()
    g2.add_argument("--pids", help="the DUT's processes, PID,PID")
    g2.add_argument("--process", help="the DUT's processes by name (pgrep -x)")
    p.add_argument("--interval", type=float, default=0.5,
                   help="seconds between samples, 0.05..10 [0.5]")
    p.add_argument("--out", default="dut-observe",
                   help="folder of the figures when the command has no --json")
    a = p.parse_args(argv[:k])
    a.command = argv[k + 1:]
    if not a.command:
        usage_error("no command after --")
    if not 0.05 <= a.interval <= 10:
        usage_error("--interval %g: between 0.05 and 10 seconds" % a.interval)
    return a


def on_dut(a, argv, **kw):
    """Run argv on the DUT (its namespace, its host over SSH, or here)."""
    if a.ns:
        argv = ["ip", "netns", "exec", a.ns] + argv
    elif a.ssh:
        argv = ["ssh", "-o", "BatchMode=yes", a.ssh, " ".join("'%s'" % x for x in argv)]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, **kw)


def interfaces(a):
    if a.interfaces:
        return [x for x in a.interfaces.split(",") if x]
    if not a.ns:
        usage_error("--interfaces: needed unless --ns names the DUT")
    p = subprocess.run(["ip", "-n", a.ns, "-o", "link", "show"], capture_output=True,
                       text=True)
    if p.returncode != 0:
        usage_error("--ns %s: %s" % (a.ns, p.stderr.strip()))
    names = [ln.split(":")[1].strip().split("@")[0] for ln in p.stdout.splitlines()]
    return [n for n in names if n != "lo"]


def dut_env(a):
    """The environment of the sampler on the DUT: whose processes."""
    if a.pids:
        return ["WR_DUT_PIDS=" + a.pids.replace(",", " ")]
    if a.process:
        p = on_dut(a, ["pgrep", "-x", a.process])
        if p.returncode != 0:
            usage_error("--process %s: no such process on the DUT" % a.process)
        return ["WR_DUT_PIDS=" + " ".join(p.stdout.split())]
    return ["WR_DUT_NETNS=" + a.ns] if a.ns else []


def host_sh(a):
    """The path of wr-host.sh on the DUT (copied there over SSH)."""
    if not a.ssh:
        return HOST_SH
    path = "/tmp/wr-dut-observe-%d.sh" % os.getpid()
    with open(HOST_SH) as f:
        p = subprocess.run(["ssh", "-o", "BatchMode=yes", a.ssh, "cat > " + path],
                           stdin=f, capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        print("dut-observe: cannot copy the observer to %s: %s" % (a.ssh, p.stderr.strip()),
              file=sys.stderr)
        sys.exit(1)
    return path


def outputs(a):
    """(stem of the figures' files, the result's path or None)."""
    cmd = a.command
    for k, x in enumerate(cmd[:-1]):
        if x == "--json":
            stem = cmd[k + 1][:-5] if cmd[k + 1].endswith(".json") else cmd[k + 1]
            return stem + ".", cmd[k + 1]
    os.makedirs(a.out, exist_ok=True)
    return os.path.join(a.out, ""), None


def main(argv):
    a = parse_args(argv)
    ifaces = interfaces(a)
    env = dut_env(a)
    sh = host_sh(a)
    cell = "/tmp/wr-dut-observe-%d" % os.getpid()
    p = on_dut(a, ["env"] + env + ["sh", sh, "dut-start", cell, "%g" % a.interval] + ifaces)
    if p.returncode != 0:
        print("dut-observe: cannot sample the DUT: %s" % (p.stderr.strip() or p.stdout),
              file=sys.stderr)
        return 1
    try:
        rc = subprocess.run(a.command).returncode
    except KeyboardInterrupt:
        rc = 130
    finally:
        stop = on_dut(a, ["sh", sh, "dut-stop", cell])
        on_dut(a, ["rm", "-rf", cell] + ([sh] if a.ssh else []))
    stem, result = outputs(a)
    with open(stem + "dut.txt", "w") as f:
        f.write(stop.stdout)
    samples, eth = wr_dut.parse(stop.stdout)
    d = wr_dut.analyze(samples, eth)
    if d is None:
        print("dut-observe: fewer than two samples of the DUT (%s): run longer or "
              "lower --interval" % stop.stderr.strip(), file=sys.stderr)
        return rc or 1
    gen = wr_dut_own.lcore_cpus(a.command)
    d["own"] = wr_dut_own.own(samples, wr_dut_own.where(stop.stdout),
                              wr_dut_own.cpu_list(a.cpus) if a.cpus else None, gen)
    with open(stem + "dut.json", "w") as f:
        json.dump(d, f, indent=1)
    if result and os.path.exists(result):
        with open(result) as f:
            doc = json.load(f)
        doc["dut"] = d
        with open(result, "w") as f:
            json.dump(doc, f, indent=1)
    print("\n".join(wr_dut_own.table(d)))
    print("DUT figures: %sdut.json, samples: %sdut.txt" % (stem, stem))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
