#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Fuzz one target for a bounded time and say what happened.

Usage: run_fuzz.py EXE NAME CORPUS WORKDIR SECONDS

The committed corpus (CORPUS) is read, never written: new inputs go to
WORKDIR/corpus, which persists in the build directory so that later runs
start from what earlier ones found; crash inputs go to WORKDIR/crashes.
Prints one line "fuzz NAME: N executions in S s, ..." and exits 0, or
prints the crash and how to keep it as a regression case and exits 1.
"""
import os
import re
import subprocess
import sys
import time

SAN_ENV = {
    # A UBSan report is a failure; leaks are (the fuzzer checks each input).
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
    "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0:allocator_may_return_null=1",
}


def main():
    if len(sys.argv) != 6:
        print(__doc__)
        return 2
    exe, name, corpus, work, seconds = sys.argv[1:]
    seconds = int(seconds)
    live, crashes = os.path.join(work, "corpus"), os.path.join(work, "crashes")
    os.makedirs(live, exist_ok=True)
    os.makedirs(crashes, exist_ok=True)
    before = len(os.listdir(live))
    argv = [exe, "-max_total_time=%d" % seconds, "-print_final_stats=1",
            "-timeout=10", "-rss_limit_mb=2048", "-max_len=65536",
            "-artifact_prefix=" + crashes + "/", live, corpus]
    env = dict(os.environ)
    env.update(SAN_ENV)
    t0 = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True, env=env,
                       timeout=seconds + 120, stdin=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    m = re.search(r"stat::number_of_executed_units:\s*(\d+)", p.stderr)
    execs = int(m.group(1)) if m else 0
    seeds = len(os.listdir(corpus)) if os.path.isdir(corpus) else 0
    after = len(os.listdir(live))
    print("fuzz %s: %d executions in %.0f s, %d seeds, %d new inputs kept "
          "(%d in %s)" % (name, execs, wall, seeds, after - before, after, live))
    if p.returncode != 0:
        print(p.stderr[-8000:])
        found = sorted(os.listdir(crashes))
        print("fuzz %s: FAILED (exit %d); inputs in %s: %s" %
              (name, p.returncode, crashes, " ".join(found) or "none"))
        print("reproduce: %s CRASH_FILE; fix it, then keep the input: "
              "cp CRASH_FILE tests/fuzz/crashes/%s/" % (exe, name))
        return 1
    if execs == 0:
        print("fuzz %s: no executions reported\n%s" % (name, p.stderr[-3000:]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
