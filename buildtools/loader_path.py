#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Whether the dynamic loader finds DPDK's libraries in LIBDIR by itself,
for meson's -Ddpdk_rpath=auto (meson.build): prints "found" or "missing".

The loader (glibc ld.so) looks in LD_LIBRARY_PATH, then its cache
(/etc/ld.so.cache, made by ldconfig from /etc/ld.so.conf), then the
system folders. LD_LIBRARY_PATH is left out: set while meson runs, it is
not there when the installed program runs. LIBDIR counts as found when
it is a system folder or when the cache holds LIB (librte_eal) from it;
both compared after resolving symbolic links (/lib -> usr/lib).

usage: loader_path.py LIBDIR [LIB]"""
import os
import re
import subprocess
import sys

# glibc's trusted folders, searched even without a cache entry.
SYSTEM_DIRS = ("/lib", "/usr/lib", "/lib64", "/usr/lib64")
LDCONFIGS = ("ldconfig", "/sbin/ldconfig", "/usr/sbin/ldconfig")


def cached_dirs(text, lib):
    """Folders of the cache entries for lib (lib.so, lib.so.N, ...) in
    the text of `ldconfig -p`, resolved."""
    dirs = set()
    pat = re.compile(r'^\s*%s\.so[.\d]*\s.*=>\s*(\S+)\s*$' % re.escape(lib))
    for line in text.splitlines():
        m = pat.match(line)
        if m:
            dirs.add(os.path.realpath(os.path.dirname(m.group(1))))
    return dirs


def loader_finds(libdir, cache_dirs, system_dirs=SYSTEM_DIRS):
    """Whether libdir is a system folder or one the cache lists."""
    real = os.path.realpath(libdir)
    return real in cache_dirs or real in {os.path.realpath(d) for d in system_dirs}


def ldconfig_text():
    """`ldconfig -p`'s output; empty without ldconfig (musl, a chroot)."""
    for prog in LDCONFIGS:
        try:
            return subprocess.run([prog, "-p"], capture_output=True, text=True,
                                  check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            continue
    return ""


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.rsplit("\n", 1)[-1], file=sys.stderr)
        return 2
    lib = argv[2] if len(argv) == 3 else "librte_eal"
    found = loader_finds(argv[1], cached_dirs(ldconfig_text(), lib))
    print("found" if found else "missing")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
