# SPDX-License-Identifier: BSD-3-Clause
"""Profiles on virtual ports: shipped profiles run, the command line wins
over them, the JSON records the merged configuration, bad profiles exit 2
with a message naming file, line, section, key and value.
Usage: test_profile.py CASE (see CASES)."""
import os
import tempfile

import cases
import wrtest
from wrtest import Checker

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFIG = os.path.join(ROOT, "config")


def profile_run():
    """The loopback demo profile, with two values overridden on the command line."""
    c = Checker("profile_run")
    demo = os.path.join(CONFIG, "loopback-demo.ini")
    r = wrtest.run([], ["--profile", demo, "--duration", "1", "--size", "256",
                        "--quiet"])
    c.eq(r.rc, 0, "exit code")
    if r.doc is None:
        c.done(r)
    cfg = r.doc["config"]
    c.eq(cfg["profile"], demo, "config.profile")
    c.eq(cfg["frame_size"], 256, "--size wins over the profile's 64")
    c.eq(cfg["duration_ms"], 1000, "--duration wins over the profile's 5s")
    c.eq(cfg["flows"], 4, "flows from the profile")
    c.eq(cfg["ring_pairs"], 1, "ring-pairs from the profile")
    c.eq(cfg["tx_ports"], [0], "tx-ports from the profile")
    c.eq(cfg["rx_ports"], [1], "rx-ports from the profile")
    c.eq(cfg["quiet"], True, "--quiet from the command line")
    c.eq(cfg["interval_ms"], 1000, "interval from the profile")
    tot = {t["port_id"]: t for t in r.doc["totals"]}
    c.true(tot[0]["tx_pkts"] > 1000, "port 0 sent: %d" % tot[0]["tx_pkts"])
    c.eq(tot[0]["tx_bytes"], tot[0]["tx_pkts"] * 256, "256-byte frames sent")
    c.eq(tot[1]["rx_own_pkts"], tot[0]["tx_pkts"], "port 1 received them all")
    wrtest.stream_balance(c, r.doc)
    c.done(r)


def profile_ci():
    """The CI profile on a ring pair: exact count per trial, JSON path
    overridden, CPU cost counted afresh in every trial."""
    c = Checker("profile_ci")
    ci = os.path.join(CONFIG, "ci-regression.ini")
    with tempfile.TemporaryDirectory() as d:
        cwd = os.getcwd()
        os.chdir(d)
        try:
            r = wrtest.run([], ["--profile", ci, "--ring-pairs", "1",
                                "--count", "200k"])
        finally:
            os.chdir(cwd)
        c.true(not os.path.exists(os.path.join(d, "wirerate-ci.json")),
               "--json on the command line replaced the profile's file")
    c.eq(r.rc, 0, "exit code")
    if r.doc is None:
        c.done(r)
    c.eq(r.doc["config"]["repeat"], 3, "repeat from the profile")
    c.eq(r.doc["config"]["warmup"], 1, "warmup from the profile")
    c.eq(r.doc.get("label"), "ci", "label from the profile")
    trials = r.doc.get("trials", [])
    c.eq(len(trials), 3, "three counted trials")
    for t in trials:
        tot = {p["port_id"]: p for p in t["totals"]}
        c.eq(tot[0]["tx_pkts"], 200000, "trial %d: --count frames sent" % t["trial"])
        c.eq(tot[1]["rx_own_pkts"], 200000, "trial %d: all received" % t["trial"])
        lc = t["cpu"]["lcores"][0]
        c.eq((lc["tx_pkts"], lc["rx_pkts"]), (200000, 200000),
             "trial %d: CPU counters of this trial only" % t["trial"])
        c.true(t["cpu"]["cycles_per_pkt"] > 0, "trial %d: cycles per frame" % t["trial"])
    fig = r.doc.get("summary", {}).get("figures", {})
    c.eq(fig.get("cycles_per_pkt", {}).get("n"), 3, "summary of cycles_per_pkt")
    c.eq(r.doc["stop_reason"], "count", "stopped by count")
    c.eq(r.doc["config"]["count_pkts"], 200000, "config.count_pkts merged")
    c.eq(r.doc["config"]["duration_ms"], 0, "a count alone runs until sent")
    c.eq(r.doc["config"]["quiet"], True, "quiet from the profile")
    c.true("t=" not in r.out, "no live view (quiet)")
    wrtest.stream_balance(c, r.doc)
    c.done(r)


BAD = [
    ("[frames]\nsize = 9100\n", [],
     ":2: [frames] size = 9100: out of range, accepted 64 to 9018"),
    ("# x\n[run]\ndurtion = 5s\n", [],
     ":3: [run] durtion = 5s: unknown key; did you mean 'duration' (in [run])?"),
    ("[frames]\nduration = 5s\n", [],
     ":2: [frames] duration = 5s: duration belongs in section [run]"),
    ("[ports]\ntx-ports 0\n", [],
     ":2: 'tx-ports 0': expected [section], key = value or a '#' comment"),
    ("[sizes]\n", [], ":1: [sizes]: unknown section; accepted: ports, lcores, "
     "frames, run, test, output"),
]


def profile_errors():
    """Bad profiles and bad --profile use exit 2 and say what is wrong."""
    c = Checker("profile_errors")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "bad.ini")
        for text, extra, msg in BAD:
            with open(path, "w") as f:
                f.write(text)
            r = wrtest.run(["net_null0"], ["--profile", path] + extra, want_json=False)
            c.eq(r.rc, 2, "exit code for %r" % text)
            c.true(path + msg in r.err, "message %r in %r" % (msg, r.err[-300:]))
        r = wrtest.run(["net_null0"], ["--profile", os.path.join(d, "none.ini")],
                       want_json=False)
        c.eq(r.rc, 2, "exit code for a missing profile")
        c.true("none.ini: cannot read the profile" in r.err, "missing file named")
        demo = os.path.join(CONFIG, "loopback-demo.ini")
        r = wrtest.run(["net_null0"], ["--profile", demo, "--profile", demo],
                       want_json=False)
        c.eq(r.rc, 2, "exit code for two --profile")
        c.true("a profile was already given" in r.err, "two profiles refused")
    c.done()


def profile_mtu_sweep():
    """The MTU profile on a ring pair: one paced trial per size, the CPU
    cost of each in its own trial."""
    c = Checker("profile_mtu_sweep")
    mtu = os.path.join(CONFIG, "mtu-1500-vs-9000.ini")
    r = wrtest.run([], ["--profile", mtu, "--ring-pairs", "1", "--duration", "1",
                        "--quiet"])
    c.eq(r.rc, 0, "exit code")
    if r.doc is None:
        c.done(r)
    c.eq(r.doc.get("mode"), "sweep", "mode from the profile")
    trials = r.doc.get("trials", [])
    # A trial that fell short of its rate (a loaded machine) is run again.
    c.eq([x["frame_size"] for x in r.doc.get("results", [])], [1518, 9018],
         "sizes from the profile")
    c.eq(sorted({t["frame_size"] for t in trials}), [1518, 9018], "a trial per size")
    for t in trials:
        tot = {p["port_id"]: p for p in t["totals"]}
        lc = t["cpu"]["lcores"][0]
        c.eq(lc["tx_pkts"], tot[0]["tx_pkts"], "%d B: CPU counters per trial" %
             t["frame_size"])
        c.eq(lc["tx_bytes"], tot[0]["tx_pkts"] * t["frame_size"],
             "%d B: bytes of this size" % t["frame_size"])
        c.true(t["cpu"]["cycles_per_byte"] > 0, "%d B: cycles per byte" %
               t["frame_size"])
        c.eq(t["lost_pkts"], 0, "%d B: nothing lost" % t["frame_size"])
    c.done(r)


CASES = cases.by_name(profile_run, profile_ci, profile_errors, profile_mtu_sweep)

if __name__ == "__main__":
    cases.main(CASES)
