#!/usr/bin/env python3
"""scripts/ci-budget.py on crafted meson test logs: exit 0 when every case
outside suite long is within the limit, and exit 1, naming the case, when
one is over it (a plain case over 60 s, a case with its own limit over
that, a case over a lower --limit), or when the cases outside suite long
took more than --total; a case of suite long, or a skipped one, is never
over.

usage: ci_budget_selftest.py CI_BUDGET_PY
"""
import json
import os
import subprocess
import sys
import tempfile


def log(d, rows):
    """A build directory whose testlog.json holds ROWS: (name, seconds,
    result)."""
    os.makedirs(os.path.join(d, "meson-logs"), exist_ok=True)
    with open(os.path.join(d, "meson-logs", "testlog.json"), "w") as f:
        for name, dur, result in rows:
            f.write(json.dumps({"name": name, "result": result, "duration": dur,
                                "returncode": 0}) + "\n")


BASE = [("wirerate:unit / pace", 0.1, "OK"), ("wirerate:vdev / rate_pps", 5.0, "OK"),
        ("wirerate:twoend+long / connrate_limit", 38.0, "OK")]
# name: (rows added, arguments before the directory, exit, text expected)
CASES = {
    "within": ([], [], 0, "case budget: 2 cases outside suite long"),
    "over": ([("wirerate:twoend / slow_new_case", 61.0, "OK")], [], 1,
             "OVER BUDGET   61.0 s > 60 s  slow_new_case (twoend, b)"),
    "over_failed": ([("wirerate:switch / slow_fail", 90.0, "FAIL")], [], 1,
                    "slow_fail (switch, b)"),
    "long": ([("wirerate:twoend+long / slow_new_case", 200.0, "OK")], [], 0, ""),
    "no_own_limit": ([("wirerate:campaign / campaign_x", 200.0, "OK")], [], 1,
                   "campaign_x"),
    "skip": ([("wirerate:twoend / slow_skip", 100.0, "SKIP")], [], 0, ""),
    "own_limit": ([("wirerate:package / deb_install", 250.0, "OK")], [], 0, ""),
    "own_limit_over": ([("wirerate:package / deb_install", 301.0, "OK")], [], 1,
                       "deb_install (package, b)"),
    "total": ([("wirerate:vdev / a", 50.0, "OK"), ("wirerate:vdev / b", 50.0, "OK")],
              ["--total", "100"], 1, "over the total budget of 100 s"),
    "total_long": ([("wirerate:vdev+long / a", 50.0, "OK")], ["--total", "50"], 0,
                   "case time outside suite long: 5 s"),
    "lower_limit": ([("wirerate:vdev / stacks_pcap", 31.0, "OK")], ["--limit", "30"], 1,
                    "stacks_pcap (vdev, b)"),
}


def main(argv):
    tool = argv[0]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, (rows, args, want, text) in CASES.items():
            d = os.path.join(tmp, name, "b")
            log(d, BASE + rows)
            p = subprocess.run([sys.executable, tool] + args + [d],
                               capture_output=True, text=True)
            ok = p.returncode == want and text in p.stdout
            print("%s %s: exit %d (want %d)%s" % ("ok" if ok else "FAIL", name,
                  p.returncode, want, "" if text in p.stdout else ", no %r" % text))
            if not ok:
                print(p.stdout + p.stderr)
                bad += 1
        # A build directory without a test log counts nothing.
        p = subprocess.run([sys.executable, tool, os.path.join(tmp, "none")],
                           capture_output=True, text=True)
        if p.returncode != 0:
            print("FAIL none: exit %d\n%s" % (p.returncode, p.stdout + p.stderr))
            bad += 1
    print("%d of %d failed" % (bad, len(CASES) + 1))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
