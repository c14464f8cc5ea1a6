# SPDX-License-Identifier: BSD-3-Clause
"""wirerate compare / report / --repeat / --csv, checked exactly.
Usage: test_results.py CASE (see CASES). Standard library only; the
compare cases need no EAL, the others make short real runs on vdevs."""
import csv
import json
import os
import re
import shutil
import statistics
import struct
import subprocess
import tempfile
import xml.etree.ElementTree as ET

import cases
import wrtest
from wrtest import Checker

W = wrtest.WIRERATE
METRICS = ["tx_mpps", "rx_mpps", "tx_gbps_l1", "tx_gbps_l2", "rx_gbps_l1",
           "rx_gbps_l2", "loss_pct", "latency_p50_ns", "latency_p90_ns",
           "latency_p99_ns", "latency_p99_9_ns", "cycles_per_pkt"]


def tool(args, timeout=60):
    """Run a subcommand (no EAL); return CompletedProcess."""
    return subprocess.run([W] + args, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def real_run(d, name, vdevs, opts, timeout=90):
    """A real run writing d/name.json; returns (rc, doc, stdout, stderr)."""
    path = os.path.join(d, name + ".json")
    argv = [W] + wrtest.eal_args(vdevs) + ["--"] + opts + ["--json", path]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    doc = wrtest.read_result(path) if os.path.exists(path) else None
    return p.returncode, doc, p.stdout, p.stderr


def craft(size=64, mpps=10.0, p99=1000.0, lost=0, trials=None):
    """A result document of the documented shape with chosen figures."""
    def traffic(m):
        return {
            "totals": [{"port_id": 0, "tx_mpps": m, "rx_mpps": m,
                        "tx_gbps_l1": m * (size + 20) * 8 / 1e3,
                        "tx_gbps_l2": m * size * 8 / 1e3,
                        "rx_gbps_l1": m * (size + 20) * 8 / 1e3,
                        "rx_gbps_l2": m * size * 8 / 1e3,
                        "latency": {"clock": "tsc", "samples": 1000,
                                    "p50_ns": p99 / 2, "p90_ns": p99 * .8,
                                    "p99_ns": p99, "p99_9_ns": p99 * 1.5}}],
            "accounting": {"sent_pkts": 1000000, "received_pkts": 1000000 - lost,
                           "lost_pkts": lost, "balanced": True}}
    doc = {"schema": "wirerate-result/1",
           "env": {"wirerate_version": "0.1.0", "hostname": "lab1"},
           "config": {"frame_size": size, "vlan": 0},
           "ports": [{"port_id": 0, "driver": "net_vmxnet3", "role": "tx+rx"}]}
    doc.update(traffic(mpps))
    if trials:
        doc["trials"] = [dict(traffic(m), trial=i + 1) for i, m in enumerate(trials)]
        s = sorted(trials)
        n = len(s)
        figs = {}
        for k in ("tx_mpps", "rx_mpps"):
            figs[k] = {"n": n, "median": statistics.median(s), "min": s[0], "max": s[-1],
                       "mean": sum(s) / n, "stddev": 0, "ci95_low": s[0],
                       "ci95_high": s[-1]}
        doc["summary"] = {"trials": n, "warmup": 0, "figures": figs}
    return doc


def write(d, name, doc):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        if isinstance(doc, str):
            f.write(doc)
        else:
            json.dump(doc, f)
    return path


def junit(c, path, tests, failures, errors, skipped):
    """Parse JUnit XML with a real XML parser; return {name: testcase}."""
    root = ET.parse(path).getroot()
    c.eq(root.tag, "testsuites", "JUnit root element")
    suites = root.findall("testsuite")
    c.eq(len(suites), 1, "one testsuite")
    s = suites[0]
    for k, v in (("tests", tests), ("failures", failures), ("errors", errors),
                 ("skipped", skipped)):
        c.eq(int(s.get(k)), v, "testsuite %s" % k)
        c.eq(int(root.get(k)), v, "testsuites %s" % k)
    cases = {tc.get("name"): tc for tc in s.findall("testcase")}
    c.eq(len(cases), tests, "distinct test cases")
    return cases


def compare_verdicts():
    """compare on crafted baselines: exit codes, verdicts, JUnit."""
    c = Checker("compare_verdicts")
    d = tempfile.mkdtemp()
    try:
        base = write(d, "base.json", craft())
        better = write(d, "better.json", craft(mpps=12.0, p99=900))
        worse = write(d, "worse.json", craft(mpps=9.0, p99=1500))
        jx = os.path.join(d, "j.xml")
        p = tool(["compare", "--junit", jx, base, better])
        c.eq(p.returncode, 0, "better: exit 0")
        c.true("verdict: PASS" in p.stdout, "better: PASS line")
        c.true("improved" in p.stdout, "better: improved rows")
        cases = junit(c, jx, 12, 0, 0, 1)
        c.eq(sorted(cases), sorted(METRICS), "a test case per metric")
        c.true(cases["cycles_per_pkt"].find("skipped") is not None, "cycles skipped")
        p = tool(["compare", "--junit", jx, base, worse])
        c.eq(p.returncode, 1, "worse: exit 1")
        c.true("verdict: REGRESSION" in p.stdout and "rx_mpps (-10.00%)" in p.stdout,
               "worse: names rx_mpps -10%%: %r" % p.stdout[-300:])
        # -10% Mpps (6 rates), +50% on p50/p90/p99 latency; p99.9 +50% is at its 50%.
        cases = junit(c, jx, 12, 9, 0, 1)
        f = cases["rx_mpps"].find("failure")
        c.true(f is not None and "-10.00%" in f.get("message"), "rx_mpps failure message")
        c.true(cases["latency_p99_9_ns"].find("failure") is None, "p99.9 within 50%")
        p = tool(["compare", "--tolerance", "throughput=12%", "--tolerance",
                  "latency=ignore", base, worse])
        c.eq(p.returncode, 0, "worse with wider tolerances: exit 0")
        tol = write(d, "tol.txt", "# CI\nthroughput = 12%\nlatency = ignore\n")
        p = tool(["compare", "--tolerances", tol, "--quiet", base, worse])
        c.eq(p.returncode, 0, "tolerance file: exit 0")
        c.eq(p.stdout.count("\n"), 1, "--quiet: one line")
    finally:
        shutil.rmtree(d)
    c.done()


def compare_noise():
    """Repeated trials: a change inside the spread is noise, not regression."""
    c = Checker("compare_noise")
    d = tempfile.mkdtemp()
    try:
        base = write(d, "b.json", craft(trials=[10.0, 9.0, 11.0, 10.5, 9.5]))
        inside = write(d, "i.json", craft(trials=[9.2, 8.8, 9.6, 9.0, 9.3]))
        outside = write(d, "o.json", craft(trials=[8.0, 8.2, 7.9, 8.1, 8.05]))
        single = write(d, "s.json", craft(mpps=9.2))
        jx = os.path.join(d, "j.xml")
        p = tool(["compare", "--junit", jx, base, inside])
        c.eq(p.returncode, 0, "inside the noise: exit 0")
        c.true("noise: worse beyond the 5% tolerance but within the trials' noise"
               in p.stdout, "noise explained")
        cases = junit(c, jx, 12, 0, 0, 1)
        c.true(cases["rx_mpps"].find("failure") is None, "rx_mpps not failed")
        p = tool(["compare", base, outside])
        c.eq(p.returncode, 1, "outside the spread: exit 1")
        p = tool(["compare", base, single])
        c.eq(p.returncode, 1, "one side without trials: no noise allowance")
    finally:
        shutil.rmtree(d)
    c.done()


def compare_bad_input():
    """Bad input exits 2 naming the file and the field, in JUnit too."""
    c = Checker("compare_bad_input")
    d = tempfile.mkdtemp()
    try:
        base = write(d, "base.json", craft())
        miss = craft()
        del miss["totals"][0]["rx_mpps"]
        wrong_type = craft()
        wrong_type["accounting"]["lost_pkts"] = "none"
        v2 = craft()
        v2["schema"] = "wirerate-result/2"
        cases = [
            (write(d, "size.json", craft(size=1518)),
             "incomparable runs: frame size 64 B in %s, 1518 B in" % base),
            (write(d, "miss.json", miss), "miss.json: field 'totals[0].rx_mpps' is missing"),
            (write(d, "type.json", wrong_type),
             "type.json: field 'accounting.lost_pkts' is not a number"),
            (write(d, "corrupt.json", '{"schema": "wirerate-result/1",\n "totals": [\n'),
             "corrupt.json:3:0: not valid JSON"),
            (write(d, "v2.json", v2), "v2.json: schema mismatch"),
            (write(d, "other.json", "[1, 2]"), "other.json: field 'schema' is missing"),
            (os.path.join(d, "absent.json"), "absent.json: cannot read"),
            # Found by fuzz_result: a loss result with the 64 B point at
            # 100 % twice was matched against the wrong twin, and compare
            # called a file against itself a regression.
            (os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz",
                          "crashes", "result", "dup-points-loss.json"),
             "64 B at 100% load appears twice in the result"),
        ]
        jx = os.path.join(d, "j.xml")
        for path, msg in cases:
            p = tool(["compare", "--junit", jx, base, path])
            c.eq(p.returncode, 2, "exit code for %s" % os.path.basename(path))
            c.true(msg in p.stderr, "message %r in %r" % (msg, p.stderr))
            tc = junit(c, jx, 1, 0, 1, 0)
            e = tc.get("input").find("error") if "input" in tc else None
            c.true(e is not None and msg in e.get("message"), "JUnit error names it")
        for args, msg in ((["compare", base], "expected BASELINE.json RESULT.json"),
                          (["compare", "--tolerance", "rx=1%", base, base],
                           "'rx' is not a metric"),
                          (["compare", "--bogus", base, base], "--bogus: unknown option")):
            p = tool(args)
            c.eq(p.returncode, 2, "exit code for %s" % args[1])
            c.true(msg in p.stderr, "message %r in %r" % (msg, p.stderr))
        p = tool(["compare", "--help"])
        c.eq(p.returncode, 0, "compare --help")
        c.true("--junit FILE" in p.stdout and "Exit status" in p.stdout, "help text")
    finally:
        shutil.rmtree(d)
    c.done()


def compare_unlike_real():
    """Runs of another set-up are refused, exit 2, naming what differs:
    IMIX against fixed 1518 B frames (both have
    config.frame_size 1518), IPv6 against IPv4, another --rate. A
    deliberate comparison names what it allows; text and JUnit list it."""
    c = Checker("compare_unlike_real")
    d = tempfile.mkdtemp()
    try:
        runs = {"fixed": ["--size", "1518"], "imix": ["--mix", "imix"],
                "ipv6": ["--size", "1518", "--ipv6"],
                "paced": ["--size", "1518", "--rate", "100kpps"]}
        path = {}
        for name, o in runs.items():
            rc, doc, out, err = real_run(d, name, ["net_ring0"],
                                         o + ["--count", "20k", "--quiet"])
            c.eq(rc, 0, "%s run: exit code (%s)" % (name, err[-200:]))
            if doc is None:
                c.done(wrtest.Result(rc, out, err, None))
            c.eq(doc["config"]["frame_size"], 1518, "%s: frame_size 1518" % name)
            path[name] = os.path.join(d, name + ".json")
        fixed = path["fixed"]
        for name, says in (("imix", "frame size mix (--mix, IMIX): none (one frame "
                            "size) in %s, imix in %s" % (fixed, path["imix"])),
                           ("ipv6", "IP version (--ipv6): ipv4 in %s, ipv6 in %s"
                            % (fixed, path["ipv6"])),
                           ("paced", "rate (--rate): unpaced in %s, 100kpps in %s"
                            % (fixed, path["paced"]))):
            jx = os.path.join(d, name + ".xml")
            js = os.path.join(d, name + ".json.out")
            p = tool(["compare", "--junit", jx, "--json", js, fixed, path[name]])
            c.eq(p.returncode, 2, "%s against fixed frames: exit 2" % name)
            v = json.load(open(js)) if os.path.exists(js) else {}
            c.true(v.get("verdict") == "bad-input" and says in v.get("error", ""),
                   "%s: JSON verdict bad-input names it: %r" % (name, v))
            c.true("incomparable runs: " + says in p.stderr, "names it: %r" % p.stderr)
            tc = junit(c, jx, 1, 0, 1, 0)
            e = tc.get("input").find("error") if "input" in tc else None
            c.true(e is not None and says in e.get("message"), "JUnit error names it")
        key = {"imix": "mix", "ipv6": "l3", "paced": "rate"}
        for name in ("imix", "ipv6", "paced"):
            c.true("--allow-diff %s)" % key[name] in tool(
                ["compare", fixed, path[name]]).stderr, "%s: says how to allow" % name)
            jx = os.path.join(d, name + "-ok.xml")
            js = os.path.join(d, name + "-ok.json")
            p = tool(["compare", "--quiet", "--allow-diff", key[name], "--junit", jx,
                      "--json", js, fixed, path[name]])
            v = json.load(open(js)) if os.path.exists(js) else {}
            c.eq(v.get("schema"), "wirerate-compare/1", "%s: JSON verdict written" % name)
            c.eq(v.get("verdict"), "regression" if p.returncode else "pass",
                 "%s: JSON verdict = exit code" % name)
            c.eq([x.split(":")[0] for x in v.get("allowed_differences", [])], [key[name]],
                 "%s: JSON verdict lists what was allowed" % name)
            c.eq(sorted(r["metric"] for r in v.get("rows", []) if r["point"] == "1518 B"),
                 sorted(METRICS), "%s: JSON rows of the run" % name)
            c.true(p.returncode in (0, 1), "%s allowed: judged (%d: %s)" %
                   (name, p.returncode, p.stderr[-200:]))
            line = "allowed difference: %s: " % key[name]
            c.true(line in p.stdout and "(--allow-diff %s)" % key[name] in p.stdout,
                   "%s: the verdict lists what was allowed: %r" % (name, p.stdout))
            props = [x.get("value") for x in ET.parse(jx).getroot().iter("property")
                     if x.get("name") == "allowed_diff"] if os.path.exists(jx) else []
            c.eq(len(props), 1, "%s: JUnit property allowed_diff" % name)
        p = tool(["compare", "--allow-diff", "mix", "--allow-diff", "l3", fixed, fixed])
        c.eq(p.returncode, 0, "allowed keys that do not differ: exit 0")
        c.true("allowed difference" not in p.stdout, "nothing listed when equal")
        p = tool(["compare", "--allow-diff", "size", fixed, fixed])
        c.eq(p.returncode, 2, "unknown key: exit 2")
        c.true("--allow-diff size: not a key; accepted: mix, l3, rate" in p.stderr,
               "lists the keys: %r" % p.stderr)
        h = tool(["compare", "--help"]).stdout
        for k in ("mix", "l3", "rate", "pattern", "stamp", "streams", "flows", "ranges",
                  "vlan", "ports"):
            c.true(re.search(r"\n +%s +\S" % k, h) is not None, "--help lists %s" % k)
    finally:
        shutil.rmtree(d)
    c.done()


def trial_checks(c, doc, count):
    """Every counted trial sent and received exactly count frames."""
    c.eq(len(doc["trials"]), 3, "3 counted trials")
    c.eq(doc["config"]["repeat"], 3, "config.repeat")
    c.eq(doc["config"]["warmup"], 1, "config.warmup")
    for t in doc["trials"]:
        tot = {x["port_id"]: x for x in t["totals"]}
        c.eq(tot[0]["tx_pkts"], count, "trial %d sent" % t["trial"])
        c.eq(tot[1]["rx_own_pkts"], count, "trial %d received" % t["trial"])
        c.eq(t["accounting"]["balanced"], True, "trial %d balanced" % t["trial"])
        c.eq(t["accounting"]["lost_pkts"], 0, "trial %d no loss" % t["trial"])
        c.true("mbufs_missing" not in t["accounting"], "mbufs counted at the end only")
    c.eq([t["trial"] for t in doc["trials"]], [1, 2, 3], "trial numbers")
    s = doc["summary"]
    c.eq((s["trials"], s["warmup"]), (3, 1), "summary counts")
    for k in ("tx_mpps", "rx_mpps", "loss_pct", "latency_p99_ns"):
        f = s["figures"][k]
        c.eq(f["n"], 3, "%s n" % k)
        c.true(f["min"] <= f["median"] <= f["max"], "%s min <= median <= max" % k)
        c.true(f["ci95_low"] <= f["mean"] <= f["ci95_high"], "%s CI holds the mean" % k)
    for k in ("tx_mpps", "rx_mpps"):
        vals = sorted(sum(x[k] for x in t["totals"]) for t in doc["trials"])
        c.true(abs(s["figures"][k]["median"] - vals[1]) <= 1e-6 * vals[1],
               "%s: the median of the trials' figures" % k)
    c.eq(s["figures"]["loss_pct"]["max"], 0, "no loss in any trial")
    last = doc["trials"][-1]
    c.eq(doc["totals"], last["totals"], "top-level totals = last trial")
    wrtest.stream_balance(c, doc)


def fingerprint_checks(c, doc):
    env = doc["env"]
    for k in ("wirerate_version", "dpdk_version", "cpu_model", "tsc_hz", "kernel",
              "hostname", "cmdline", "profile"):
        c.true(k in env, "env.%s present" % k)
    c.eq(env["profile"], None, "no profile used")
    for p in doc["ports"]:
        for k in ("driver", "bus", "device", "pci_id", "vmxnet3_version", "mtu",
                  "link_speed_mbps"):
            c.true(k in p, "ports[%d].%s present" % (p["port_id"], k))
        c.eq(p["bus"], "vdev", "port %d on the vdev bus" % p["port_id"])
        c.eq(p["pci_id"], None, "no PCI id off PCI")


def png_size(path):
    """(width, height) from a PNG's IHDR, or None when it is not a PNG."""
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def end_to_end():
    """Two short real runs, then compare and report on them."""
    c = Checker("end_to_end")
    d = tempfile.mkdtemp()
    try:
        rc, a, out, err = real_run(d, "a", [], [
            "--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
            "--count", "300k", "--repeat", "3", "--warmup", "1", "--quiet",
            "--label", "ring/pair"])
        c.eq(rc, 0, "run a exit code")
        if a is None:
            c.done(wrtest.Result(rc, out, err, None))
        c.eq(a["label"], "ring/pair", "label recorded")
        c.true("3 trials counted (1 warm-up not counted)" in out, "trial summary shown")
        trial_checks(c, a, 300000)
        fingerprint_checks(c, a)
        csv_path = os.path.join(d, "b.csv")
        rc, b, out, err = real_run(d, "b", ["net_ring0"], [
            "--duration", "0.6", "--interval", "100ms", "--size", "1518", "--quiet",
            "--csv", csv_path, "--label", "ring/loop"])
        c.eq(rc, 0, "run b exit code")
        fingerprint_checks(c, b)
        c.eq(b["ports"][0]["device"], "net_ring0", "vdev name as device")
        with open(csv_path) as f:
            rows = list(csv.DictReader(f))
        c.eq(len(rows), len(b["samples"]), "a CSV row per interval (one port)")
        c.true(len(rows) >= 3, "intervals at 100 ms over 0.6 s: %d" % len(rows))
        c.eq([int(r["tx_pkts"]) for r in rows],
             [s["ports"][0]["tx_pkts"] for s in b["samples"]], "CSV tx_pkts = JSON")
        c.eq({r["trial"] for r in rows}, {"1"}, "single run is trial 1")
        # Latency columns: the sample's latency object, empty when unknown.
        for r, s in zip(rows, b["samples"]):
            lat = s["ports"][0].get("latency")
            got = (r["lat_samples"], r["lat_p50_ns"], r["lat_max_ns"])
            if lat is None:
                c.eq(got, ("", "", ""), "CSV latency empty at t=%s" % r["t_s"])
                continue
            # The CSV has 9 significant digits of the same double the JSON
            # has in full: equal to within the last printed digit.
            c.eq(got[0], str(lat["samples"]), "CSV lat_samples at t=%s" % r["t_s"])
            for cell, key in ((got[1], "p50_ns"), (got[2], "max_ns")):
                c.true(cell != "" and abs(float(cell) - lat[key]) <= 1e-8 * abs(lat[key]) + 1e-9,
                       "CSV %s %s = JSON %r at t=%s" % (key, cell, lat[key], r["t_s"]))
        c.true(any(r["lat_samples"] for r in rows), "CSV latency present")
        compare_real(c, d)
        report_real(c, d)
    finally:
        shutil.rmtree(d)
    c.done()


def compare_real(c, d):
    a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
    p = tool(["compare", a, a])
    c.eq(p.returncode, 0, "a against itself: exit 0")
    c.eq(p.stdout.count("+0.00%"), 12, "12 metrics unchanged (cycles from cpu)")
    p = tool(["compare", a, b])
    c.eq(p.returncode, 2, "a against b: exit 2")
    c.true("frame size 64 B in %s, 1518 B in %s" % (a, b) in p.stderr, "why: %r" % p.stderr)
    # A baseline whose every trial ran at four times the run's best trial:
    # each rate regresses by 75% or more, far outside the run's noise.
    with open(a) as f:
        fast = json.load(f)
    top = {k: 4 * fast["summary"]["figures"][k]["max"] for k in METRICS[:6]}
    for t in fast["trials"]:
        scale_rates(t, {k: top[k] / sum(x[k] for x in t["totals"]) for k in top})
    resummarize(fast)
    fp = write(d, "fast.json", fast)
    jx = os.path.join(d, "ci.xml")
    p = tool(["compare", "--tolerance", "latency=ignore", "--junit", jx, fp, a])
    c.eq(p.returncode, 1, "half the baseline's rates: exit 1")
    cases = junit(c, jx, 12, 6, 0, 4)
    for k in METRICS[:6]:
        f = cases[k].find("failure")
        c.true(f is not None and "worse beyond the 5% tolerance" in f.get("message"),
               "%s fails" % k)


RATES = METRICS[:6]
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571}


def scale_rates(trial, factor):
    """Multiply a trial's rate figures (each port's totals) by factor[k]."""
    for x in trial["totals"]:
        for k, f in factor.items():
            x[k] *= f


def trial_figure(t, k):
    """Figure k of one trial as wirerate reads it: rates summed over the
    ports, loss_pct from the accounting."""
    if k == "loss_pct":
        a = t["accounting"]
        return 100.0 * a["lost_pkts"] / a["sent_pkts"]
    return sum(x[k] for x in t["totals"])


def resummarize(doc):
    """Recompute summary.figures of the rates and loss from the (edited)
    trials, as wr_trials_summarize does: what a run with those trials
    writes."""
    for k in RATES + ["loss_pct"]:
        v = sorted(trial_figure(t, k) for t in doc["trials"])
        n, mean = len(v), statistics.mean(v)
        sd = statistics.stdev(v) if n > 1 else 0.0
        half = T95.get(n - 1, 2.0) * sd / n ** 0.5 if n > 1 else 0.0
        doc["summary"]["figures"][k].update(
            n=n, median=statistics.median(v), min=v[0], max=v[-1], mean=mean,
            stddev=sd, ci95_low=max(0.0, mean - half), ci95_high=mean + half)


def trial_rx(t):
    return sum(x["rx_mpps"] for x in t["totals"])


def rx_spread(doc):
    """Median absolute deviation / median of the trials' received Mpps."""
    v = [trial_rx(t) for t in doc["trials"]]
    m = statistics.median(v)
    return statistics.median(abs(x - m) for x in v) / m


def split_trials(doc):
    """A run's trials split by parity into two results of 5 trials each
    (odd and even trials, resummarised): two results of one configuration
    measured over the same seconds, so a machine whose load drifts from
    one run to the next loads both alike."""
    halves = []
    for first in (0, 1):
        h = json.loads(json.dumps(doc))
        h["trials"] = doc["trials"][first::2]
        h["summary"]["trials"] = len(h["trials"])
        figs = h["summary"]["figures"]
        for k in list(figs):            # only what resummarize recomputes
            if k not in RATES + ["loss_pct"]:
                del figs[k]
        resummarize(h)
        halves.append(h)
    return halves


def compare_repeat_real():
    """The gate with --repeat on real runs: three pairs of
    one configuration stay green; a 15 % regression is caught although one
    of the 5 baseline trials is an outlier that stretches the baseline's
    min..max range over every result trial."""
    c = Checker("compare_repeat_real")
    d = tempfile.mkdtemp()
    opts = ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
            "--rate", "1Mpps", "--duration", "0.2", "--repeat", "10",
            "--warmup", "1", "--quiet"]
    # Latency and cycles are not resummarised by split_trials (their
    # figures are the whole run's): the pairs are judged on throughput
    # and loss, whose figures each half recomputes from its own trials.
    quiet = ["--tolerance", "latency=ignore", "--tolerance", "cpu=ignore"]
    try:
        halves = []
        for i in range(3):
            rc, doc, out, err = real_run(d, "r%d" % i, [], opts)
            c.eq(rc, 0, "run %d exit code" % i)
            if doc is None:
                c.done(wrtest.Result(rc, out, err, None))
            c.eq(len(doc["trials"]), 10, "run %d: 10 trials" % i)
            pair = split_trials(doc)
            paths = [write(d, "r%d-%s.json" % (i, n), h) for n, h in zip("ab", pair)]
            p = tool(["compare"] + quiet + paths)
            c.eq(p.returncode, 0, "same configuration, pair %d: green: %s" %
                 (i, [ln for ln in p.stdout.splitlines() if "regression" in ln]))
            halves += pair
        docs = halves
        # The quietest run (least MAD of its trials), edited as documented:
        # the baseline gets one outlier (its slowest trial at half its
        # rates, so the median stays), the result every trial at 85 % of
        # its rates: a 15 % regression of the medians.
        src = min(docs, key=rx_spread)
        base, cur = json.loads(json.dumps(src)), json.loads(json.dumps(src))
        scale_rates(min(base["trials"], key=trial_rx), {k: 0.5 for k in RATES})
        for t in cur["trials"]:
            scale_rates(t, {k: 0.85 for k in RATES})
        resummarize(base)
        resummarize(cur)
        fb, fc = base["summary"]["figures"]["rx_mpps"], cur["summary"]["figures"]["rx_mpps"]
        c.true(fc["max"] >= fb["min"], "the ranges overlap (what min..max called noise)")
        bp, cp = write(d, "outlier.json", base), write(d, "slower.json", cur)
        jx = os.path.join(d, "j.xml")
        p = tool(["compare", "--junit", jx, bp, cp])
        c.eq(p.returncode, 1, "15%% regression caught: %s" % p.stdout[-900:])
        c.true("rx_mpps (-15.00%)" in p.stdout, "names rx_mpps -15%%: %r"
               % p.stdout[-300:])
        cases = junit(c, jx, 12, 6, 0, 0)
        for k in RATES:
            c.true(cases[k].find("failure") is not None, "%s fails" % k)
        p = tool(["compare", bp, bp])
        c.eq(p.returncode, 0, "the outlier baseline against itself: exit 0")
    finally:
        shutil.rmtree(d)
    c.done()


def report_real(c, d):
    a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
    out = os.path.join(d, "rep")
    p = tool(["report", "--out", out, "--title", "ring test", a, b], timeout=120)
    c.eq(p.returncode, 0, "report exit code: %s" % p.stderr[-300:])
    png = os.path.join(out, "throughput.png")
    c.true(os.path.exists(png) and os.path.getsize(png) > 5000, "throughput.png written")
    c.eq(png_size(png) if os.path.exists(png) else None, (1280, 520), "PNG header and size")
    svg = os.path.join(out, "throughput.svg")
    c.eq(ET.parse(svg).getroot().tag, "{http://www.w3.org/2000/svg}svg", "SVG parses")
    c.true(os.path.exists(os.path.join(out, "cycles.png")), "cycles plot from cpu")
    with open(os.path.join(out, "report.html")) as f:
        html = f.read()
    c.true('<img src="throughput.png"' in html, "HTML embeds the PNG")
    c.true('href="throughput.svg"' in html, "HTML links the SVG")
    c.true("ring/pair" in html and "ring/loop" in html, "labels from the runs")
    with open(os.path.join(out, "report.md")) as f:
        md = f.read()
    c.true("![Throughput against frame size](throughput.png)" in md, "Markdown image")
    c.true("## RX Gb/s L2 at 64-byte frames (label ROW/COLUMN)" in md, "matrix per size")
    sec = md.split("## RX Gb/s L2 at 64-byte frames (label ROW/COLUMN)")[-1]
    sec = sec.split("\n## ")[0]
    c.true("|  | pair | loop |" in sec, "matrix columns from the labels")
    c.true(re.search(r"\| ring \| [0-9.]+ \\\[[0-9.e+-]+\.\.[0-9.e+-]+\\\] \| - \|", sec)
           is not None, "matrix row ring: pair measured at 64 B, loop not: %r" % sec)
    with open(os.path.join(out, "report.csv")) as f:
        rows = list(csv.DictReader(f))
    c.eq([(r["label"], r["frame_size"], r["trials"]) for r in rows],
         [("ring/pair", "64", "3"), ("ring/loop", "1518", "1")], "per-size CSV rows")
    with open(a) as f:
        ad = json.load(f)
    c.true(abs(float(rows[0]["rx_mpps"]) - ad["summary"]["figures"]["rx_mpps"]["median"])
           < 1e-6, "CSV holds the median")
    # Ring ports have no wire: marked in the ports cell and said once
    # under the title, in Markdown and HTML; a vmxnet3 result is not.
    note = "Ports marked (no wire) are in memory"
    c.eq((md.count(note), html.count(note)), (1, 1), "the no-wire note, once in each form")
    c.true(wrtest.md_escape("net_ring (no wire)") in md, "the ports cell marks a ring port")
    p = tool(["report", "--no-plots", write(d, "vmx.json", craft())])
    c.true(p.returncode == 0 and note not in p.stdout and "(no wire)" not in p.stdout,
           "a vmxnet3 result has no no-wire note: %s" % p.stdout[:300])
    # --pivot MB/s: the same matrix in 10^6 bytes a second, from the
    # result's own rx_gbps_l2 (median) times 1000 / 8.
    p = tool(["report", "--pivot", "MB/s", "--no-plots", a, b])
    c.eq(p.returncode, 0, "report --pivot MB/s: exit 0 (%s)" % p.stderr[-200:])
    sec = p.stdout.split("## RX MB/s L2 at 64-byte frames (label ROW/COLUMN)")[-1]
    m = re.search(r"\| ring \| ([0-9.]+) ", sec.split("\n## ")[0])
    want = ad["summary"]["figures"]["rx_gbps_l2"]["median"] * 1e3 / 8
    c.true(m is not None and abs(float(m.group(1)) - want) <= 0.05 + 1e-9,
           "--pivot MB/s: the pair's cell is %.1f MB/s: %r" % (want, sec[:300]))
    with open(os.path.join(out, "plots.dat")) as f:
        data = [ln.split() for ln in f if ln.strip() and not ln.startswith("#")]
    c.eq([r[0] for r in data], ["64", "1518"], "plot data: one point per run")
    # Cycles per packet when the runs carry it: a second plot.
    for n in (a, b):
        with open(n) as f:
            doc = json.load(f)
        doc["cpu"] = {"cycles_per_pkt": 100.0 if n == a else 250.0}
        write(d, "cpp-" + os.path.basename(n), doc)
    p = tool(["report", "--out", out, "--labels", "pair,loop",
              os.path.join(d, "cpp-a.json"), os.path.join(d, "cpp-b.json")], timeout=120)
    c.eq(p.returncode, 0, "report with cycles: exit code")
    c.eq(png_size(os.path.join(out, "cycles.png")), (760, 520), "cycles.png header and size")
    with open(os.path.join(out, "report.html")) as f:
        c.true('<img src="cycles.png"' in f.read(), "HTML embeds the cycles plot")


def md_cells(line):
    """The cells of a Markdown table row, split at unescaped '|'."""
    return re.split(r"(?<!\\)\|", line.strip())[1:-1]


def report_escapes():
    """The Markdown report escapes a label, a path and a title full of
    Markdown: each renders as its text (a backslash before every mark), and
    no row gains a cell."""
    c = Checker("report_escapes")
    nasty = "*x*_|<b>&amp;[l](e.html)!#`~\\"
    want = wrtest.md_escape(nasty)
    d = tempfile.mkdtemp()
    try:
        doc = craft()
        doc["label"] = nasty
        sub = os.path.join(d, "a_b[1]*")
        os.mkdir(sub)
        path = write(sub, "r<1>.json", doc)
        out = os.path.join(d, "out")
        p = tool(["report", "--no-plots", "--title", "T " + nasty, "--out", out, path])
        c.eq(p.returncode, 0, "report exit code (%s)" % p.stderr[-300:])
        md = open(os.path.join(out, "report.md")).read() if p.returncode == 0 else ""
        c.true(md.startswith("# T " + want + "\n"), "title escaped: %r" % md[:120])
        c.true("| " + want + " |" in md, "label cell escaped")
        wpath = wrtest.md_escape(path)
        c.true(wpath in md, "path escaped: %r" % wpath)
        c.true(nasty not in md and path not in md, "neither raw")
        for block in md.split("\n\n"):
            rows = [ln for ln in block.splitlines() if ln.startswith("|")]
            widths = {len(md_cells(ln)) for ln in rows}
            c.true(len(widths) <= 1, "every row of a table has its cells: %r" % rows[:3])
    finally:
        shutil.rmtree(d)
    c.done()


def report_inert():
    """Labels and a title with backquotes, $(...), quotes, a newline,
    <script> and </svg> reach gnuplot, SVG and HTML as text: no command
    runs (the marker files it would make stay absent), gnuplot draws every
    plot, the SVG holds the text (XML-escaped) and the HTML escapes it."""
    c = Checker("report_inert")
    d = tempfile.mkdtemp()
    try:
        m1, m2 = os.path.join(d, "pwned1"), os.path.join(d, "pwned2")
        labels = ["a`touch %s`\"'b" % m1, "c$(touch %s)\n<script>x</svg>&{d}_^e@" % m2]
        paths = []
        for i, lab in enumerate(labels):
            doc = craft(size=64 << i, mpps=10.0 - i)
            doc["label"] = lab
            paths.append(write(d, "r%d.json" % i, doc))
        out = os.path.join(d, "out")
        title = "T `touch %s` $(touch %s) '\"" % (m1, m2)
        p = tool(["report", "--title", title, "--out", out] + paths, timeout=120)
        c.eq(p.returncode, 0, "report exit code (%s)" % p.stderr[-300:])
        c.true(not (os.path.exists(m1) or os.path.exists(m2)), "no marker file made")
        svg = os.path.join(out, "throughput.svg")
        c.true(os.path.exists(svg) and os.path.exists(os.path.join(out, "throughput.png")),
               "plots drawn")
        if os.path.exists(svg):
            text = "".join(ET.parse(svg).getroot().itertext())
            c.true("a`touch %s`\"'b" % m1 in text, "label 1 shown literally in the SVG")
            c.true("c$(touch %s) <script>x</svg>&{d}_^e@" % m2 in text,
                   "label 2 shown literally in the SVG (newline as a space)")
            raw = open(svg).read()
            c.true("<script" not in raw, "no raw <script> in the SVG")
        html = open(os.path.join(out, "report.html")).read() if p.returncode == 0 else ""
        c.true("&lt;script&gt;" in html and "<script>x" not in html, "HTML escapes <script>")
        c.true("&lt;/svg&gt;" in html, "HTML escapes </svg>")
    finally:
        shutil.rmtree(d)
    c.done()


def report_y1564_inert():
    """A --mode y1564 result whose service name carries a command, a newline
    with figures after it and markup, and whose delay and phase carry HTML:
    no command runs, the data file keeps one row a second of the series, the
    HTML page escapes every string."""
    c = Checker("report_y1564_inert")
    d = tempfile.mkdtemp()
    try:
        mark = os.path.join(d, "pwned")
        name = "s`touch %s`$(touch %s)\n1 2 3\n<script>x</svg>'\"" % (mark, mark)
        doc = {"schema": "wirerate-result/1", "y1564": {
            "pass": True, "step_s": 1, "perf_s": 2, "police_margin": 0.1,
            "delay": "<b>d</b>", "delay_clock": "c&", "phase": "p<i>",
            "services": [{"name": name, "pass": True, "steps": [], "perf": {
                "series": {"t_s": [1, 2], "sent_pkts": [10, 10],
                           "lost_pkts": [0, 1], "ftd_ns": [1000, 2000]}}}]}}
        path = write(d, "y.json", doc)
        out = os.path.join(d, "out")
        p = tool(["report", "--out", out, path], timeout=120)
        c.eq(p.returncode, 0, "report exit code (%s)" % p.stderr[-300:])
        c.true(not os.path.exists(mark), "no marker file made")
        c.true(os.path.exists(os.path.join(out, "y1564.png")), "plot drawn")
        dat = os.path.join(out, "y1564.dat")
        rows = [ln for ln in open(dat).read().splitlines()
                if ln and not ln.startswith("#")] if os.path.exists(dat) else []
        c.eq(len(rows), 2, "data rows: one a second of the series (%r)" % rows)
        html = open(os.path.join(out, "report.html")).read() if p.returncode == 0 else ""
        c.true("delay &lt;b&gt;d&lt;/b&gt; (c&amp;); phase p&lt;i&gt;." in html,
               "delay, clock and phase escaped")
        c.true("<script>" not in html and "<b>d" not in html, "no raw markup")
    finally:
        shutil.rmtree(d)
    c.done()


def repeat_signal():
    """SIGINT during --repeat: the series ends, completed trials are kept."""
    c = Checker("repeat_signal")
    r = wrtest.run_and_signal(["net_ring0"], ["--duration", "1", "--repeat", "5",
                                              "--quiet"], after_s=2.6)
    c.eq(r.rc, 0, "exit code")
    c.true(r.doc is not None, "JSON written")
    if r.doc:
        n = len(r.doc["trials"])
        c.true(n <= 2, "completed trials kept: %d" % n)
        c.eq(r.doc["summary"]["trials"], n, "summary over the kept trials")
        c.eq(r.doc["stop_reason"], "signal", "top level is the interrupted trial")
        for t in r.doc["trials"]:
            c.eq(t["stop_reason"], "duration", "kept trial %d ran out" % t["trial"])
            c.eq(t["accounting"]["balanced"], True, "trial %d balanced" % t["trial"])
        wrtest.rx_matches_pmd(c, r.doc)
        c.eq(r.doc["accounting"]["mbufs_missing"], 0, "mbufs back")
    c.done(r)


def bad_options():
    """Option and report input errors exit 2 and say what is accepted."""
    c = Checker("bad_options")
    for opts, msg in ((["--repeat", "0"], "--repeat 0: out of range, accepted 1 to 1000"),
                      (["--warmup", "101"], "accepted 0 to 100"),
                      (["--repeat", "3", "--duration", "0"],
                       "--repeat/--warmup: each trial must end by itself"),
                      (["--label", ""], "--label: empty")):
        wrtest.refused(c, ["net_null0"], opts, msg)
    d = tempfile.mkdtemp()
    try:
        good = write(d, "g.json", craft())
        bad = write(d, "bad.json", '{"schema": "wirerate-result/1", "config": {"frame_size": 64}}')
        for args, rc, msg in (
                (["report"], 2, "no result files"),
                (["report", "--labels", "a,b", good], 2, "expected 1 non-empty labels"),
                (["report", bad], 2, "bad.json: field 'totals' is missing"),
                (["report", "--pivot", "speed", good], 2, "--pivot speed: not a metric"),
                (["report", "--pivt", "rx_mpps", good], 2,
                 "--pivt: unknown option; did you mean --pivot?"),
                (["report", good, "--pivot"], 2, "--pivot: needs a value"),
                (["compare", "--tolerence", "rx_mpps=5", good, good], 2,
                 "--tolerence: unknown option; did you mean --tolerance?"),
                (["merge", "--jsn", "x", good, good], 2,
                 "--jsn: unknown option; did you mean --json?"),
                (["reprot", good], 2, "reprot: not a subcommand; did you mean "
                 "report? (the subcommands: "),
                (["report", "--out", os.path.join(d, "o"), "--gnuplot",
                  "/nonexistent/gnuplot", good], 1, "cannot run /nonexistent/gnuplot")):
            p = tool(args)
            c.eq(p.returncode, rc, "exit code for %s" % args)
            c.true(msg in p.stderr, "message %r in %r" % (msg, p.stderr))
        # A word that is no subcommand lists them all, as --help's usage.
        subs = tool(["--help"]).stdout.split("\n")[1].split()[1].split("|")
        p = tool(["reprot", good])
        said = p.stderr.split("the subcommands:", 1)[-1]
        c.true(len(subs) >= 7 and all(re.search(r"\b%s\b" % w, said) for w in subs),
               "every subcommand of %s listed: %r" % (subs, p.stderr))
        # A wrong --pivot lists what it takes: the metrics docs/results.md names.
        p = tool(["report", "--pivot", "speed", good])
        docs = open(os.path.join(os.path.dirname(__file__), "..", "..", "docs",
                                 "results.md")).read()
        for m in ("rx_mpps", "rx_gbps_l2", "latency_p99_ns", "cycles_per_pkt"):
            c.true("`%s`" % m in docs and m in p.stderr.split("it takes", 1)[-1],
                   "--pivot lists %s: %r" % (m, p.stderr))
        p = tool(["report", "--no-plots", "--out", os.path.join(d, "np"), good])
        c.eq(p.returncode, 0, "--no-plots exit code")
        c.true(not os.path.exists(os.path.join(d, "np", "throughput.png")), "no plot")
        p = tool(["report", good])
        c.true(p.returncode == 0 and p.stdout.startswith("# wirerate report"),
               "Markdown on stdout without --out")
    finally:
        shutil.rmtree(d)
    p = tool(["--help"])
    for o in ("--csv", "--label", "--repeat", "--warmup", "compare|report"):
        c.true(o in p.stdout, "%s documented in --help" % o)
    c.done()


CASES = cases.by_name(compare_verdicts, compare_noise, compare_bad_input, end_to_end,
                      compare_repeat_real, compare_unlike_real, repeat_signal,
                      bad_options, report_escapes, report_inert,
                      report_y1564_inert)

if __name__ == "__main__":
    cases.main(CASES)
