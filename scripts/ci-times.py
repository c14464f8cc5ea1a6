#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Where CI's time went, from what the builds left behind: for each build
directory its build (ninja's .ninja_log: wall time of the last full build,
CPU seconds of its compiles) and its test run (meson-logs/testlog.json:
each suite's cases and seconds, serial and parallel), then the slowest
cases of all. scripts/test.sh prints this at its end; docs/ci.md keeps a
summary of it.

Usage: ci-times.py [--top N] BUILD_DIR..."""
import collections
import json
import os
import re
import sys


def ninja_times(d):
    """(wall s, cpu s, targets) of the largest build of D, or None. The
    log holds one line per target (the latest; ninja may rewrite it in
    any order), with start and end in ms from its build's start and the
    output's mtime: the lines of one build are those whose mtimes lie
    close together."""
    try:
        lines = open(os.path.join(d, ".ninja_log")).read().splitlines()
    except OSError:
        return None
    last = {}
    for line in lines:
        f = line.split("\t")
        if line.startswith("#") or len(f) < 4:
            continue
        last[f[3]] = (int(f[2]), int(f[0]), int(f[1]))
    if not last:
        return None
    runs, cur, prev = [], [], None
    for mtime, s, e in sorted(last.values()):
        # mtime in ns; a minute without an output ends a build.
        if cur and mtime - prev > 60 * 10**9:
            runs.append(cur)
            cur = []
        cur.append((s, e))
        prev = mtime
    runs.append(cur)
    big = max(runs, key=len)
    wall = max(e for _, e in big) - min(s for s, _ in big)
    return wall / 1000, sum(e - s for s, e in big) / 1000, len(big)


def suite_of(name):
    m = re.match(r"[^:]*:([^ ]+) / (.*)", name)
    return (m.group(1), m.group(2)) if m else ("?", name)


def main(argv):
    top = 20
    if len(argv) > 1 and argv[0] == "--top":
        top, argv = int(argv[1]), argv[2:]
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    slow = []
    for d in argv:
        nt = ninja_times(d)
        if nt:
            print("%s: build %.0f s wall, %.0f CPU s, %d targets" % (d, *nt))
        try:
            lines = open(os.path.join(d, "meson-logs", "testlog.json")).read().splitlines()
        except OSError:
            continue
        per = collections.defaultdict(lambda: [0, 0.0])
        total = 0.0
        for line in lines:
            r = json.loads(line)
            suite, case = suite_of(r["name"])
            per[suite][0] += 1
            per[suite][1] += r["duration"]
            total += r["duration"]
            slow.append((r["duration"], os.path.basename(d), suite, case))
        print("%s: %d cases, %.0f s of case time" % (d, len(lines), total))
        for suite, (n, s) in sorted(per.items(), key=lambda x: -x[1][1]):
            print("  %-22s %4d cases %7.1f s" % (suite, n, s))
    if slow:
        print("slowest %d cases:" % top)
        for dur, d, suite, case in sorted(slow, reverse=True)[:top]:
            print("  %7.1f s  %-16s %s / %s" % (dur, d, suite, case))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
