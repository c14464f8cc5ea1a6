#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The JSON Schemas of docs/schema: each is a valid draft 2020-12 schema
named after its "schema" id, docs/results.md names each one, the source
writes each id, and each refuses a document that breaks it (a field of the
wrong type, a negative count, an unknown stop reason), so the suites'
validation (wrtest.validate) can disagree with wirerate.

usage: schema_check.py SOURCE_ROOT"""
import copy
import json
import os
import subprocess
import sys

import jsonschema

bad = []


def fail(what):
    bad.append(what)
    print("FAIL: " + what)


# A minimal document of each kind that must pass, and what breaks it.
GOOD = {
    "wirerate-result/1": {
        "schema": "wirerate-result/1", "env": {
            "wirerate_version": "0.1.0+gabc", "dpdk_version": "DPDK 22.11",
            "tsc_hz": 2000000000, "hostname": "h", "cmdline": "wirerate",
            "date_utc": "2026-01-01T00:00:00Z"},
        "config": {"frame_size": 64}, "plan": {"workers": []}, "ports": [],
        "stop_reason": "duration", "totals": [], "streams": [],
        "accounting": {"sent_pkts": 10, "received_pkts": 10, "lost_pkts": 0,
                       "balanced": True}},
    "wirerate-merge/1": {
        "schema": "wirerate-merge/1",
        "sender": {"file": "s.json", "hostname": "a", "stop_reason": "duration"},
        "receiver": {"file": "r.json", "hostname": "b", "stop_reason": "idle"},
        "streams": [], "totals": {"sent_pkts": 1, "rx_pkts": 1, "lost_pkts": 0,
                                  "unbalanced_streams": 0},
        "balanced": True, "complete": True},
    "wirerate-cell/1": {
        "schema": "wirerate-cell/1", "cell": "c1", "label": "l", "frame_size": 64,
        "repeat": 1, "sender": "h1:0", "receiver": "h2:0", "status": "passed",
        "reason": "", "merged": "merged.json"},
    "wirerate-cell/2": {
        "schema": "wirerate-cell/2", "cell": "c1", "label": "l", "frame_size": 64,
        "repeat": 1, "sender": "h1:0", "receiver": "h2:0", "digest": "d",
        "ran": True, "status": "missed", "reason": "", "merged": "merged.json",
        "goal": {"want": "loss <= 0.1%", "loss_ratio": 0.001, "met": False,
                 "why": "loss 96% (2884 of 3000 frames) above the goal 0.1%"}},
    "wirerate-dut/1": {
        "schema": "wirerate-dut/1", "window": "with edges", "window_s": 1.0,
        "samples": 3, "observed_s": 2.0, "interrupts_per_s": 1000.0,
        "cpu": {"cpu": {"user": 1.0, "system": 2.0, "softirq": 3.0, "idle": 94.0,
                        "busy": 6.0}},
        "net_rx_softirqs_per_s": 10.0, "net_tx_softirqs_per_s": None,
        "net_rx_softirqs_total": 10, "rx_pps": 5.0, "tx_pps": 5.0,
        "interfaces": {"eth0": {"rx_pps": 5.0, "tx_pps": 5.0, "total": {"rx_packets": 5}}}},
    "wirerate-history-check/1": {
        "schema": "wirerate-history-check/1", "db": "h.db", "verdict": "regression",
        "series": [{"series": 2, "metric": "rx_mpps", "point": "64 B", "setup": {},
                    "points": 24, "newest_commit": "c24", "regression": True,
                    "change_points": [{
                        "index": 12, "commit_before": "c12", "commit_after": "c13",
                        "time": "2026-01-01T00:00:00Z", "direction": "worse",
                        "change_pct": -60.0, "ci95_low_pct": -80.0,
                        "ci95_high_pct": -40.0, "mean_before": 24.0,
                        "mean_after": 9.0, "p_value": 0.002}]}]},
}
BREAK = {
    "wirerate-result/1": [("stop_reason", "finished"), ("accounting.sent_pkts", -1),
                          ("env.tsc_hz", "fast"), ("schema", "wirerate-result/2"),
                          ("totals", {}), ("accounting.balanced", None),
                          # a connection run's object missing all but its role
                          ("connections", {"role": "client"})],
    "wirerate-merge/1": [("balanced", "yes"), ("totals.rx_pkts", -3)],
    "wirerate-cell/1": [("status", "ok"), ("reason", "late"), ("frame_size", 10)],
    "wirerate-cell/2": [("status", "passed"), ("ran", False), ("goal.met", None),
                        ("goal.loss_ratio", 2), ("reason", "late"), ("status", "ok")],
    "wirerate-history-check/1": [("verdict", "fail"), ("series", {}), ("db", 3)],
    "wirerate-dut/1": [("samples", 1), ("cpu.cpu.busy", 120), ("window", "all"),
                       ("net_rx_softirqs_total", -1)],
}


def put(doc, path, value):
    keys = path.split(".")
    for k in keys[:-1]:
        doc = doc[k]
    doc[keys[-1]] = value


def main():
    root = sys.argv[1]
    sdir = os.path.join(root, "docs", "schema")
    results_md = open(os.path.join(root, "docs", "results.md")).read()
    src = subprocess.run(["grep", "-rhoE", "wirerate-(result|merge|cell|dut|history-check)/[0-9]+",
                          os.path.join(root, "lib"), os.path.join(root, "app"),
                          os.path.join(root, "scripts")], capture_output=True,
                         text=True).stdout.split()
    for sid in sorted(set(src)):
        if not os.path.exists(os.path.join(sdir, sid.replace("/", "-") + ".schema.json")):
            fail("%s is written but has no schema in docs/schema" % sid)
    for name in sorted(os.listdir(sdir)):
        schema = json.load(open(os.path.join(sdir, name)))
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.SchemaError as e:
            fail("%s: not a valid schema: %s" % (name, e.message))
            continue
        sid = schema["properties"]["schema"]["const"]
        if name != sid.replace("/", "-") + ".schema.json":
            fail("%s holds schema %s" % (name, sid))
        if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
            fail("%s: not draft 2020-12" % name)
        if "docs/schema/" + name not in results_md:
            fail("docs/results.md does not name docs/schema/%s" % name)
        v = jsonschema.Draft202012Validator(schema)
        if sid not in GOOD:
            fail("%s: no example here" % sid)
            continue
        errs = [e.message for e in v.iter_errors(GOOD[sid])]
        if errs:
            fail("%s refuses a good document: %s" % (sid, errs))
        for path, value in BREAK[sid]:
            doc = copy.deepcopy(GOOD[sid])
            put(doc, path, value)
            if v.is_valid(doc):
                fail("%s takes %s = %r" % (sid, path, value))
    print("%d problem(s)" % len(bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
