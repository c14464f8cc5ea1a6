# SPDX-License-Identifier: BSD-3-Clause
"""A crash late in a run loses only the trial in progress: every kind of
run (a test mode, --repeat) SIGKILLed once its --json file shows a finished
trial leaves a valid result, labelled running, holding every trial the
companion NAME.samples.jsonl shows finished; report, compare and merge
accept it and say INCOMPLETE. One table, RUNS, one case per row.
Usage: test_checkpoint.py CASE (see CASES)."""
import json
import os
import re
import signal
import subprocess
import tempfile
import time

import cases
import wrtest
from wrtest import Checker, load_json

RING = ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1", "--quiet"]
# Short trials on a ring pair; a checkpoint period longer than a trial, so
# that what keeps a finished trial is the checkpoint written as it ends.
SHORT = ["--interval", "100ms", "--checkpoint", "1s"]


def tool(*argv):
    """wirerate's result tools (report, compare, merge): (exit code, output)."""
    p = subprocess.run([wrtest.WIRERATE] + list(argv), capture_output=True,
                       text=True, timeout=60)
    return p.returncode, p.stdout + p.stderr


def kill_mid_run(d, opts, vdevs=(), min_samples=2, timeout=60, ready=None, out=None):
    """Start wirerate with --json (its output to the file out, if given),
    SIGKILL it once the file it rewrites during the run holds min_samples
    intervals (or ready(doc) holds); return that file's doc."""
    path = os.path.join(d, "r.json")
    argv = [wrtest.WIRERATE] + wrtest.eal_args(list(vdevs)) + ["--"] + opts + [
        "--json", path]
    with open(out or os.devnull, "w") as f:
        p = subprocess.Popen(argv, stdout=f, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL)
    end = time.monotonic() + timeout
    doc = None
    while time.monotonic() < end and p.poll() is None:
        doc = load_json(path)
        if doc and len(doc.get("samples", [])) >= min_samples and (
                ready is None or ready(doc)):
            break
        time.sleep(0.1)
    p.send_signal(signal.SIGKILL)
    p.wait()
    return load_json(path), path


def incomplete_accepted(c, path, what):
    """compare and report accept a checkpoint and label it incomplete."""
    rc, out = tool("compare", path, path)
    c.eq(rc, 0, "%s: compare accepts it: %s" % (what, out[-300:]))
    c.true("INCOMPLETE" in out, "%s: compare labels it incomplete" % what)
    rc, out = tool("report", path)
    c.eq(rc, 0, "%s: report accepts it: %s" % (what, out[-300:]))
    c.true("(INCOMPLETE)" in out, "%s: report labels it incomplete" % what)
    return out


def merge_accepted(c, sender, receiver, what):
    """merge takes a checkpoint as either side (exit 0 or 1, balanced or
    not; 2 would be bad input) and labels the merge incomplete."""
    rc, out = tool("merge", sender, receiver)
    c.true(rc in (0, 1), "%s: merge accepts it (exit %d): %s" % (what, rc, out[-300:]))
    c.true("INCOMPLETE" in out, "%s: merge labels it incomplete" % what)


def pmd_balance(c, t, label):
    """A finished trial's balance (its accounting) against the ring PMD's counters (counts
    wirerate did not make): sent = the TX port's opackets; received = the
    RX port's ipackets less what the --impair fixture removed, plus what
    it added (it sits between the PMD and wirerate's count)."""
    acc = t["accounting"]
    tot = {x["port_id"]: x for x in t["totals"]}
    imp = tot[1].get("impair", {})
    c.eq(acc["sent_pkts"], tot[0]["nic_opackets"], "%s: sent = port 0's opackets" % label)
    c.eq(acc["received_pkts"], tot[1]["nic_ipackets"] - imp.get("dropped_pkts", 0) -
         imp.get("policed_pkts", 0) + imp.get("duplicated_pkts", 0),
         "%s: received = port 1's ipackets through the fixture" % label)
    c.eq(acc["sent_pkts"], acc["received_pkts"] + acc["lost_pkts"],
         "%s: sent = received + lost" % label)


def companion(path):
    """The last interval of each trial in the companion file: {trial: line}
    (a trial shorter than an interval has none; a run without any, no file)."""
    last, name = {}, path[:-len(".json")] + ".samples.jsonl"
    if os.path.exists(name):
        with open(name) as f:
            for line in f:
                x = json.loads(line)
                last[x["trial"]] = x
    return last


# A test mode's line as each trial ends (flushed): number, kind, size.
TRIAL_LINE = re.compile(r"^trial +(\d+) +(.+?) +(\d+) B ", re.M)


def printed(out):
    """{trial number: (kind, frame size)} of the trial lines in out."""
    with open(out) as f:
        return {int(m[1]): (m[2], int(m[3])) for m in TRIAL_LINE.finditer(f.read())}


def every_finished_trial(c, doc, path, out):
    """The checkpoint holds every trial shown finished elsewhere: the
    companion file's (all but the last it has begun) and the trial lines
    printed as each ends, in order: trial k of the checkpoint is trial k
    of both (kind, size; at least what the file counted of it)."""
    done = doc.get("trials") or []
    last, lines = companion(path), printed(out)
    need = max([max(last) - 1 if last else 0] + list(lines))
    c.true(len(done) >= need, "every finished trial kept: %d, finished: %d (%d "
           "begun in the companion file, %d printed)" % (
               len(done), need, max(last or [0]), len(lines)))
    c.true(doc.get("trial") in (len(done), len(done) + 1),
           "trial %r: the last finished (%d) or the next" % (doc.get("trial"), len(done)))
    for k, t in enumerate(done, 1):
        sent = t["accounting"]["sent_pkts"]
        if k in last:
            seen = sum(p["tx_pkts"] for p in last[k]["ports"])
            c.true(seen <= sent, "trial %d: sent %d, the companion file's last "
                   "interval of it %d" % (k, sent, seen))
            c.eq(t["frame_size"], last[k]["frame_size"], "trial %d: size in the file" % k)
        if k in lines:
            c.eq((t.get("what"), t["frame_size"]), lines[k], "trial %d: as printed" % k)
        pmd_balance(c, t, "trial %d (%s)" % (k, t.get("what", "repeat")))
    return done


def sweep_points(c, doc, done, path):
    """A sweep's finished points are its finished trials, one a size; and
    compare takes the checkpoint against a finished sweep of the same
    options (exit 0 or 1: the figures may differ), noting the sizes the
    checkpoint lacks rather than refusing the pair."""
    c.eq([r["frame_size"] for r in doc.get("results", [])],
         [t["frame_size"] for t in done], "a point per finished size")
    for r, t in zip(doc.get("results", []), done):
        c.eq(r["sent_pkts"], t["accounting"]["sent_pkts"],
             "%d B: the point's sent" % r["frame_size"])
    full = os.path.join(os.path.dirname(path), "full.json")
    r = wrtest.run([], RING + RUNS["sweep"][0] + ["--interval", "100ms"])
    c.eq(r.rc, 0, "the finished sweep: exit code")
    with open(full, "w") as f:
        json.dump(r.doc, f)
    rc, out = tool("compare", full, path)
    c.true(rc in (0, 1), "compare the finished sweep with the checkpoint (exit %d): %s"
           % (rc, out[-400:]))
    lacks = sorted({x["frame_size"] for x in r.doc["results"]} -
                   {x["frame_size"] for x in doc["results"]})
    c.true(lacks and all("%d B: only in the baseline" % n in out for n in lacks),
           "the sizes it had not finished, noted: %r" % lacks)


def repeat_summary(c, doc, done, path):
    """--repeat: the finished trials numbered 1.., their summary, and
    without their samples (those are in the companion file only)."""
    c.eq([t.get("trial") for t in done], list(range(1, len(done) + 1)), "trial numbers")
    c.eq(doc.get("summary", {}).get("trials"), len(done), "their summary")
    c.eq([t for t in done if "samples" in t], [], "no samples in the finished trials")


# name: options, the kind of trial ("what") that must have finished before
# the kill (None: --repeat's, which have no kind), how many, a further check.
RUNS = {
    "sweep": (["--mode", "sweep", "--sizes", "64,128,256,512,1024", "--duration", "200ms"],
              "sweep", 2, sweep_points),
    "repeat": (["--repeat", "6", "--duration", "200ms"], None, 2, repeat_summary),
    "throughput": (["--mode", "throughput", "--size", "128", "--rate", "100kpps",
                    "--trial", "200ms", "--lat-loads", "none",
                    "--impair", "police=50kpps"], "search", 1, None),
    "loss": (["--mode", "loss", "--size", "128", "--rate", "100kpps", "--trial", "200ms",
              "--impair", "police=30kpps"], "loss", 1, None),
    "b2b": (["--mode", "b2b", "--size", "64", "--b2b-max", "20000", "--b2b-trials", "2",
             "--trial", "200ms", "--impair", "drop=100000@4999"], "b2b", 1, None),
    "mlr": (["--mode", "mlr", "--size", "128", "--rate", "100kpps", "--trial", "200ms",
             "--mlr-initial", "100ms", "--goals", "0:0.5:200ms:0.01",
             "--impair", "police=50kpps", "--lat-loads", "none"], "mlr short", 1, None),
    # Latency trials run once a rate is found: after MLRsearch with a goal
    # of up to 50% loss, which a generator falling short on a busy host
    # (MLRsearch counts the shortfall as loss) still meets at the maximum.
    "lat_loads": (["--mode", "mlr", "--size", "64", "--rate", "50kpps", "--trial", "200ms",
                   "--mlr-initial", "100ms", "--goals", "0.5:0.5:200ms:0.1",
                   "--lat-loads", "10,30,50,70,90", "--lat-trial", "200ms"],
                  "latency", 1, None),
}


def finished(doc, what):
    """Trials of kind what (None: any) in doc's trials."""
    return [t for t in doc.get("trials") or [] if what is None or t.get("what") == what]


def killed_late(name):
    """Run RUNS[name], SIGKILL it once its file shows a finished trial of
    the row's kind, and check the file left."""
    opts, what, least, extra = RUNS[name]
    c = Checker("checkpoint_" + name)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out.txt")
        doc, path = kill_mid_run(d, RING + opts + SHORT, min_samples=0, timeout=120,
                                 ready=lambda x: x["stop_reason"] == "running" and
                                 len(finished(x, what)) >= least, out=out)
        c.true(doc is not None, "a checkpoint survives SIGKILL")
        if doc is None:
            c.done()
        doc = wrtest.read_result(path)
        c.eq((doc["stop_reason"], doc.get("complete")), ("running", False),
             "killed during the run, labelled running")
        c.true(len(finished(doc, what)) >= least, "%d %s trial(s) finished: %r" % (
            least, what or "repeat", [t.get("what") for t in doc.get("trials") or []]))
        c.eq(doc.get("mode"), None if name == "repeat" else opts[1], "mode")
        done = every_finished_trial(c, doc, path, out)
        if extra is not None:
            extra(c, doc, done, path)
        incomplete_accepted(c, path, name)
        merge_accepted(c, path, path, name)
    c.done()


CASES = {"checkpoint_" + name: (lambda n=name: killed_late(n)) for name in RUNS}

if __name__ == "__main__":
    cases.main(CASES)
