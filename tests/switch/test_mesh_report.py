# SPDX-License-Identifier: BSD-3-Clause
"""RFC 2889 results in `wirerate report` and `wirerate compare`
(docs/rfc2889.md): a real --mode mesh run over four ports of the Linux
bridge, its report's tables by port and by pair against the bridge
ports' kernel counters, and compare judging each port's forwarding rate
and MFR: a planted regression at one port is found (exit 1), another
pattern or another set of ports is refused (exit 2, naming the field).
A mesh search and an address capacity search, SIGKILLed, keep their
finished trials. Root.
Usage: test_mesh_report.py CASE."""
import copy
import json
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_switch as ts  # noqa: E402
from test_switch import Switch, linux_bridge, mesh_opts  # noqa: E402
import cases  # noqa: E402
from twoend import Bed  # noqa: E402
import wrtest  # noqa: E402
from wrtest import Checker  # noqa: E402


def finish(c, bed, out=""):
    if c.failed:
        print(out[-3000:])
        bed.dump()
    bed.close()
    c.done()


def tool(argv):
    return subprocess.run([ts.twoend.WIRERATE] + argv, capture_output=True,
                          text=True, timeout=60)


def rows(md, title):
    """The cells of the Markdown table under the heading holding title."""
    part = md.split(title, 1)
    if len(part) < 2:
        return []
    out = []
    for line in part[1].splitlines()[1:]:
        if line.startswith("|"):
            out.append([x.strip() for x in line.strip("|").split("|")])
        elif out:
            break
    return [r for r in out[1:] if not set("".join(r)) <= set("-: ")]


def write(bed, name, doc):
    path = bed.path(name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def check_report(c, bed, path, doc, sw, before):
    """The report's pairs and ports tables: each pair's counts, each port's
    sent and received as the bridge's kernel counted them."""
    p = tool(["report", path])
    c.eq(p.returncode, 0, "report: exit 0: %s" % p.stderr)
    pairs = rows(p.stdout, "pairs of the last trial")
    want = [["%d to %d" % (x["src"], x["dst"]), str(x["sent"]), str(x["received"]),
             str(x["lost"]), str(x["stray"])]
            for x in doc["rfc2889"]["trials"][-1]["pairs"]]
    c.eq(pairs, want, "report: the pairs table is the result's pairs")
    c.eq(len(pairs), 12, "report: 12 pairs over 4 ports")
    ports = rows(p.stdout, "ports of the last trial")
    c.eq(len(ports), 4, "report: a row per port: %r" % ports)
    for i, r in enumerate(ports):
        rx, tx = sw.sw_pkts(i)
        t = doc["rfc2889"]["trials"][-1]["ports"][i]
        c.eq((int(r[1]), int(r[2])), (rx - before[i][0] - t["learn_sent"],
                                       tx - before[i][1] - t["stray"] - t["other_received"]),
             "report: port %d's sent, received = the bridge port's rx, tx" % i)
        mfr = doc["rfc2889"]["result"]["max_forwarding_rate"][i]["mfr_pps"]
        c.eq(r[7], "%.0f" % mfr, "report: port %d's MFR" % i)
    c.true(len(rows(p.stdout, "over 4 ports, trials")) == 1, "report: one trial row")


def planted(c, bed, path, doc):
    """Port 2 forwarding 20 % less: compare names it (exit 1); itself:
    exit 0 with every port judged."""
    p = tool(["compare", path, path])
    c.eq(p.returncode, 0, "compare with itself: exit 0: %s" % p.stdout[-400:])
    for i in range(4):
        c.true("64 B, port %d" % i in p.stdout, "compare: port %d judged" % i)
    c.true("mesh_mfr_pps" in p.stdout and "mesh_port_fwd_pps" in p.stdout,
           "compare: per-port metrics: %r" % p.stdout[-800:])
    worse = copy.deepcopy(doc)
    r = worse["rfc2889"]["results"][0]     # compare reads each size's
    worse["rfc2889"]["result"] = r
    r["max_forwarding_rate"][2]["mfr_pps"] *= 0.8
    worse["rfc2889"]["trials"][-1]["ports"][2]["forwarding_rate_pps"] *= 0.8
    p = tool(["compare", path, write(bed, "worse.json", worse)])
    c.eq(p.returncode, 1, "planted regression: exit 1: %s" % p.stdout[-600:])
    verdict = [x for x in p.stdout.splitlines() if x.startswith("verdict:")]
    c.true(len(verdict) == 1 and re.search(r"mesh_port_fwd_pps at 64 B, port 2 "
                                           r"\(-20\.00%\)", verdict[0])
           and "mesh_mfr_pps at 64 B, port 2" in verdict[0]
           and "port 1" not in verdict[0] and "port 3" not in verdict[0],
           "the verdict names port 2 only: %r" % verdict)


def refused(c, bed, path, doc):
    """Another pattern, another set of ports: exit 2 naming the field."""
    other = copy.deepcopy(doc)
    other["rfc2889"]["pattern"] = "one-to-many"
    p = tool(["compare", path, write(bed, "pattern.json", other)])
    c.eq(p.returncode, 2, "another pattern: exit 2")
    c.true("--mesh-pattern" in p.stderr and "--allow-diff mesh_pattern" in p.stderr,
           "names the pattern: %r" % p.stderr)
    fewer = copy.deepcopy(doc)
    fewer["rfc2889"]["ports"] = fewer["rfc2889"]["ports"][:3]
    p = tool(["compare", path, write(bed, "ports.json", fewer)])
    c.eq(p.returncode, 2, "another port count: exit 2")
    c.true("RFC 2889 ports" in p.stderr and "--allow-diff rfc2889_ports" in p.stderr,
           "names the ports: %r" % p.stderr)


def mesh_report():
    """A real fully meshed run (5.1) over 4 ports of the Linux bridge at
    1000 frames/s per port for 1 s; report's tables by pair and by port
    against the result and the bridge ports' kernel counters; compare
    judges every port and finds a regression planted at port 2; another
    pattern or port count is refused."""
    c, bed = Checker("mesh_report"), Bed("mesh_report")
    sw = Switch(bed, 4)
    linux_bridge(sw)
    before = [sw.sw_pkts(i) for i in range(4)]
    rc, out, doc = sw.run(mesh_opts("1000"), "full")
    c.eq(rc, 0, "exit code")
    if doc is None:
        return finish(c, bed, out)
    path = bed.path("full.json")
    check_report(c, bed, path, doc, sw, before)
    planted(c, bed, path, doc)
    refused(c, bed, path, doc)
    finish(c, bed, out)


def mesh_killed():
    """A throughput search (5.1, 1000-4000 frames/s, 5 trials of 1 s) over
    4 ports of the Linux bridge, a tbf of 1 Mbit/s on its port to port 1
    (the higher loads lose frames), SIGKILLed once its --json file holds two
    finished trials: the file stays valid, labelled running, and keeps
    every finished trial, each pair exact; each bridge port's kernel rx
    count is the kept trials' frames (their pairs' and learning frames)
    and at most one trial more (the killed one: its learning frame and
    4000 frames at most); report and compare
    accept it and say INCOMPLETE."""
    c, bed = Checker("mesh_killed"), Bed("mesh_killed")
    sw = Switch(bed, 4)
    linux_bridge(sw)
    # Loads above what a tbf of 1 Mbit/s on the way to port 1 passes lose
    # frames: the search goes on after its first trial.
    sw.add_tbf(sw.sw[1])
    before = [sw.sw_pkts(i) for i in range(4)]
    doc, path, p = kill_after(sw, mesh_opts("1000-4000", ["--max-trials", "5"]), 2)
    if not killed_kept(c, doc, 5):
        return finish(c, bed, p.text())
    trials = doc["rfc2889"]["trials"]
    ts.check_pairs(c, doc, "full", 4, "killed")
    for i in range(4):
        kept = sum(t["ports"][i]["sent"] + t["ports"][i]["learn_sent"] for t in trials)
        rx = sw.sw_pkts(i)[0] - before[i][0]
        c.true(kept <= rx <= kept + 4000 + 1,
               "switch port %d rx %d: the kept trials' %d and at most one "
               "trial more" % (i, rx, kept))
    r = tool(["report", path])
    c.true(r.returncode == 0 and "(INCOMPLETE)" in r.stdout and
           len(rows(r.stdout, "over 4 ports, trials")) == len(trials),
           "report: a row per kept trial, INCOMPLETE: %r" % r.stdout[-400:])
    incomplete_compare(c, path)
    finish(c, bed, p.text())


def addr_killed():
    """--mode addr-capacity (5.7) on a Linux bridge holding 300 learned
    addresses at most (fdb_max_learned), a search over 64-512 addresses,
    SIGKILLed once its --json file holds two finished trials: the file
    stays valid, labelled running, and keeps every finished trial; the
    learning port's kernel rx (test frames delivered) and the reset hook's
    runs are the kept trials' and at most one trial more (512 addresses);
    a progress line came before each trial; report and compare accept it
    and say INCOMPLETE."""
    c, bed = Checker("addr_killed"), Bed("addr_killed")
    sw = Switch(bed)
    linux_bridge(sw)
    if not wrtest.have_br_fdb_max_learned(sw.ns_s, "br0", 300):
        c.skip("the kernel has no IFLA_BR_FDB_MAX_LEARNED (Linux 6.8): the "
               "bridge learns every address, the search ends at once")
        return finish(c, bed)
    before = sw.rx_pkts(0)
    opts = ts.addr_opts(sw, "addr-capacity", "64-512", "bridge fdb flush dev br0 dynamic")
    doc, path, p = kill_after(sw, [x for x in opts if x != "--quiet"], 2)
    if not killed_kept(c, doc, 20):
        return finish(c, bed, p.text())
    n = len(doc["rfc2889"]["trials"])
    prog = [int(x) for x in re.findall(r"^progress: size 1/1 \(?64 B\)?, trial (\d+)",
                                       p.text(), re.M)]
    c.true(prog[:n] == list(range(1, n + 1)) and len(prog) <= n + 1,
           "a progress line before each trial, counting up: %r" % prog)
    kept = ts.totals(doc)["test_received"]
    rx = sw.rx_pkts(0) - before
    c.true(kept <= rx <= kept + 512, "learning port rx %d: the kept trials' "
           "%d and at most one trial more" % (rx, kept))
    c.true(n <= sw.resets() <= n + 1, "resets %d: one per kept trial, and "
           "the killed one's" % sw.resets())
    r = tool(["report", path])
    c.true(r.returncode == 0 and "(INCOMPLETE)" in r.stdout and
           len(rows(r.stdout, "5.7 of")) == n,
           "report: a row per kept trial, INCOMPLETE: %r" % r.stdout[-400:])
    incomplete_compare(c, path)
    finish(c, bed, p.text())


def kill_after(sw, opts, n):
    """wirerate on sw's ports with opts, SIGKILLed once its --json file
    holds n finished trials (or it ended); (that file's doc, its path,
    the process)."""
    path = sw.bed.path("killed.json")
    p = sw.bed.wirerate("a", [ts.af_packet(i, g) for i, g in enumerate(sw.gen)],
                        opts + ["--json", path], netns=sw.ns_g, name="killed")
    end = time.monotonic() + 60
    while time.monotonic() < end and p.p.poll() is None:
        doc = ts.twoend.load_json(path)
        if doc and len((doc.get("rfc2889") or {}).get("trials", [])) >= n:
            break
        time.sleep(0.05)
    p.p.send_signal(signal.SIGKILL)
    p.p.wait()
    return ts.twoend.load_json(path), path, p


def killed_kept(c, doc, most):
    """The killed run's file: valid, running, 2 to most - 1 trials, no
    result. Whether there is a doc to check further."""
    c.true(doc is not None, "the --json file is there and valid")
    if doc is None:
        return False
    trials = doc["rfc2889"]["trials"]
    c.eq(doc.get("stop_reason"), "running", "labelled running")
    c.true(2 <= len(trials) < most and "result" not in doc["rfc2889"],
           "killed mid-search, finished trials kept: %d" % len(trials))
    return True


def incomplete_compare(c, path):
    r = tool(["compare", path, path])
    c.true(r.returncode == 0 and "INCOMPLETE" in r.stdout + r.stderr,
           "compare accepts it, INCOMPLETE: %r" % (r.stdout + r.stderr)[-400:])


CASES = cases.by_name(mesh_report, mesh_killed, addr_killed)

if __name__ == "__main__":
    try:
        cases.main(CASES)
    finally:
        ts.twoend.close_all()
