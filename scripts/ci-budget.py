#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""CI's time budget per case: reads each build directory's
meson-logs/testlog.json (what meson measured, not what the case says of
itself) and fails (exit 1) when a case outside suite long took more than
the limit, naming it, so that CI stays within its budget as suites arrive.
A case that must take longer goes into suite long (tests/meson.build
long_tests, run by `scripts/test.sh long`), or, where nothing shorter
checks what it checks, into LIMITS below with its own limit and why
(docs/ci.md). Prints the cases nearest their limit. scripts/test.sh runs
this at the end of every run; tests/ci_budget_selftest.py proves it fails.

With --total SECONDS it also fails when the case time of one build's run
outside suite long is over SECONDS (the suites' sum; the run's share of
CI's 30 minutes); without, it prints that sum.

Usage: ci-budget.py [--limit SECONDS] [--total SECONDS] BUILD_DIR..."""
import json
import os
import re
import sys

# Cases of CI with a limit of their own: nothing shorter checks what they
# check, and the time is their set-up's.
LIMITS = {
    # dpkg-buildpackage: a whole second build and its unit suite (164 s of
    # 189 s in a clean-clone run); scripts/test.sh builds it beside the
    # suites (16 s of case time then; 91 s with WR_SAN_BG=0).
    "deb_install": 300,
    # The campaign's one run through every kind of cell, a host
    # unreachable, an interrupt and the resume: three campaigns over SSH
    # on one bed (102 s).
    "campaign_end_to_end": 150,
    # Binding and restoring PCI ports on a fake sysfs: two campaigns and
    # an interrupted one (64 s).
    "campaign_binding": 100,
    # A router namespace as the DUT of a three-cell campaign, its counters
    # against wirerate's: the only case that reads a DUT over the
    # campaign's observer (54 s, 65 s on a loaded machine).
    "campaign_dut": 90,
    # Every option through --help, the man page, completion and profiles:
    # the longest unit case, run beside the others (33 s under the
    # sanitizers, 43 s on a loaded machine).
    "optab_docs": 120,
    # The lab's PMDs (vmxnet3, e1000, e1000e) in one QEMU guest without
    # KVM: its boot and each NIC's runs under TCG, the only case with the
    # real drivers (53 s alone, 57 to 66 s beside the builds).
    "vnic-lab": 90,
}


def cases(d):
    """(case, suites, seconds, result) of each case of D's last test run."""
    try:
        lines = open(os.path.join(d, "meson-logs", "testlog.json")).read().splitlines()
    except OSError:
        return None
    out = []
    for line in lines:
        r = json.loads(line)
        # "project:suite+suite / case" (newer meson also has a field).
        m = re.match(r"[^:]*:([^ ]+) / (.*)", r["name"])
        suites = set(r.get("suite") or [])
        if m:
            suites |= set(m.group(1).split("+"))
            case = m.group(2)
        else:
            case = r["name"]
        out.append((case, suites, r["duration"], r["result"]))
    return out


def main(argv):
    limit, total = 60.0, None
    while len(argv) > 1 and argv[0] in ("--limit", "--total"):
        if argv[0] == "--limit":
            limit = float(argv[1])
        else:
            total = float(argv[1])
        argv = argv[2:]
    if not argv or argv[0].startswith("-"):
        print(__doc__)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    over, near, seen, sums = [], [], 0, []
    for d in argv:
        got = cases(d)
        if got is None:
            continue
        sums.append((d, sum(dur for _, suites, dur, _ in got if "long" not in suites)))
        for case, suites, dur, result in got:
            if "long" in suites or result == "SKIP":
                continue
            seen += 1
            own = LIMITS.get(case, limit)
            where = "%s (%s, %s)" % (case, ",".join(sorted(suites)), os.path.basename(d))
            if dur > own:
                over.append((dur, own, where))
            elif dur > own / 2:
                near.append((dur, own, where))
    print("case budget: %d cases outside suite long, limit %.0f s each "
          "(own limits: %s)" % (seen, limit,
                                ", ".join("%s %d s" % kv for kv in sorted(LIMITS.items()))))
    for dur, own, where in sorted(near, reverse=True)[:10]:
        print("  %6.1f s of %3.0f s  %s" % (dur, own, where))
    for dur, own, where in sorted(over, reverse=True):
        print("OVER BUDGET %6.1f s > %.0f s  %s" % (dur, own, where))
    rc = 0
    if over:
        print("FAIL: %d case(s) over the budget: shorten them, or move them "
              "into suite long (tests/meson.build long_tests) and list them in "
              "docs/ci.md" % len(over))
        rc = 1
    for d, secs in sums:
        print("case time outside suite long: %.0f s (%s)%s" % (
            secs, d, "" if total is None else " of %.0f s" % total))
        if total is not None and secs > total:
            print("FAIL: %s's cases took %.0f s, over the total budget of "
                  "%.0f s" % (d, secs, total))
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
