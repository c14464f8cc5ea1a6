# SPDX-License-Identifier: BSD-3-Clause
"""EAL options for one private DPDK process (wirerate or dpdk-testpmd) on
virtual ports: the one builder that the benchmarks (scripts/lib/bench*.py,
scripts/search-compare.py) and the Python test suites (tests/lib/wrtest.py,
which puts this folder on sys.path) share. It lives with the scripts, not
under tests/, because what ships in scripts/ must not import test code;
tests may use tools. Standard library only."""
import os
import shutil

HUGEPAGES_MIN = 128  # fewer free 2 MiB pages than this: run without hugepages


def hugepages_free():
    """Free hugepages of the default size (/proc/meminfo); 0 if unreadable."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("HugePages_Free:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def eal_args(vdevs=(), lcores="0,1", prefix=None, log_level="warning",
             huge=None, in_memory=True, no_huge_mb=1024, extra=()):
    """-l LCORES --no-pci --log-level=*:LOG_LEVEL [--file-prefix PREFIX],
    then hugepages: --in-memory (no files left behind; with in_memory=False
    the hugepage files are made under PREFIX), or --no-huge -m NO_HUGE_MB;
    a --vdev per entry of vdevs; extra last. huge None: hugepages when at
    least HUGEPAGES_MIN are free."""
    args = ["-l", lcores, "--no-pci", "--log-level=*:" + log_level]
    if prefix is not None:
        args += ["--file-prefix", prefix]
    if huge is None:
        huge = hugepages_free() >= HUGEPAGES_MIN
    if not huge:
        args += ["--no-huge", "-m", str(no_huge_mb)]
    elif in_memory:
        args.append("--in-memory")
    for v in vdevs:
        args += ["--vdev", v]
    return args + list(extra)


def remove_runtime_dir(prefix):
    """EAL leaves /var/run/dpdk/PREFIX behind, even with --in-memory."""
    shutil.rmtree(os.path.join("/var/run/dpdk", prefix), ignore_errors=True)
