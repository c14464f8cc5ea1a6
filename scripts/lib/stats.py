# SPDX-License-Identifier: BSD-3-Clause
"""The figures the benchmark scripts take over repeated runs: one median
(and spread) helper for scripts/lib/bench*.py and scripts/search-compare.py,
and a process's resident memory (bench_memory.py, the soak suite).
Standard library only."""
import statistics


def median_of(rows, key):
    """Median of row[key] over rows (dicts, one per run)."""
    return statistics.median(r[key] for r in rows)


def median_sd(rows, key):
    """(median, sample standard deviation; 0 for one row) of row[key]."""
    v = [r[key] for r in rows]
    return statistics.median(v), (statistics.stdev(v) if len(v) > 1 else 0.0)


def rss_kib(pid):
    """VmRSS of process pid in KiB (/proc/PID/status), None once it is gone."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None
