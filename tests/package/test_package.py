# SPDX-License-Identifier: BSD-3-Clause
"""package: the Debian packages (debian/) built with dpkg-buildpackage -b
from a copy of this tree (the unit suite runs inside the build), checked by
lintian (no errors), installed with apt-get, then /usr/bin/wirerate
--version, a short run on ring ports whose counts must balance, the
exporter, the man page and the completion; the packages are purged
whatever happened, and the machine is checked to have none of them left.
Needs root (dpkg). Usage: test_package.py CASE."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import cases
import wrtest
from wrtest import Checker

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PKGS = ("wirerate", "wirerate-exporter")


def installed(pkg):
    p = subprocess.run(["dpkg-query", "-W", "-f=${Status}", pkg],
                       capture_output=True, text=True)
    return p.returncode == 0 and "ok installed" in p.stdout


def copy_tree(dst):
    """The tracked and new (not ignored) files of this tree into dst, and
    its .git so that the build's version names the commit."""
    files = subprocess.run(["git", "-C", ROOT, "ls-files", "-co", "--exclude-standard", "-z"],
                           capture_output=True, check=True).stdout.split(b"\0")
    for f in filter(None, files):
        src = os.path.join(ROOT.encode(), f)
        if not os.path.isfile(src):
            continue    # deleted in the work tree
        out = os.path.join(dst.encode(), f)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        shutil.copy2(src, out)
    git = os.path.join(ROOT, ".git")
    if os.path.isdir(git):
        os.symlink(git, os.path.join(dst, ".git"))
    elif os.path.isfile(git):
        shutil.copy2(git, os.path.join(dst, ".git"))


def dpkg_build(tmp, nocheck=False):
    """dpkg-buildpackage -b in tmp/src: (exit code, output, seconds)."""
    src = os.path.join(tmp, "src")
    copy_tree(src)
    opts = "parallel=%d" % os.cpu_count() + (" nocheck" if nocheck else "")
    t0 = time.monotonic()
    p = subprocess.run(["dpkg-buildpackage", "-b", "-us", "-uc"], cwd=src,
                       capture_output=True, text=True, timeout=1500,
                       env=dict(os.environ, DEB_BUILD_OPTIONS=opts))
    return p.returncode, p.stdout + p.stderr, time.monotonic() - t0


def prebuild(tmp):
    """scripts/test.sh's background build (`--prebuild DIR`): the packages
    built in DIR without their unit suite (nocheck), the outcome in
    DIR/build.json; deb_install then runs that suite in the build tree."""
    try:
        rc, out, secs = dpkg_build(tmp, nocheck=True)
    except Exception as e:      # said by deb_install's check, not lost
        rc, out, secs = 1, "the background build failed: %r" % e, 0
    with open(os.path.join(tmp, "build.json.tmp"), "w") as f:
        json.dump({"rc": rc, "output": out[-20000:], "seconds": secs}, f)
    os.rename(os.path.join(tmp, "build.json.tmp"), os.path.join(tmp, "build.json"))
    return 0


def prebuilt(tmp, timeout):
    """The outcome of scripts/test.sh's background build in tmp (waited
    for up to timeout seconds): (exit code, output, seconds), None when
    none is there or it never ended, and the unit suite run in its tree,
    as debian/rules runs it when the build checks."""
    done = os.path.join(tmp, "build.json")
    t0 = time.monotonic()
    while not os.path.exists(done) and time.monotonic() - t0 < timeout:
        time.sleep(1)
    if not os.path.exists(done):
        return None
    with open(done) as f:
        b = json.load(f)
    print("package build: %.0f s in the background, waited %.0f s"
          % (b["seconds"], time.monotonic() - t0))
    obj = glob.glob(os.path.join(tmp, "src", "obj-*"))
    if b["rc"] != 0 or len(obj) != 1:
        return b["rc"] or 1, b["output"], b["seconds"]
    p = subprocess.run(["meson", "test", "-C", obj[0], "--suite", "unit",
                        "--print-errorlogs"], capture_output=True, text=True, timeout=900)
    return p.returncode, b["output"] + p.stdout + p.stderr, b["seconds"]


def build(c, tmp):
    """The packages built (dpkg-buildpackage -b in tmp/src, or taken from
    scripts/test.sh's background build in WR_PKG_PREBUILT); returns the
    .changes file or None."""
    pre = os.environ.get("WR_PKG_PREBUILT")
    got = prebuilt(pre, 1200) if pre and os.path.isdir(pre) else None
    if got is None:
        got = dpkg_build(tmp)
        print("package build: %.0f s" % got[2])
    else:
        tmp = pre
    rc, out, _ = got
    c.eq(rc, 0, "dpkg-buildpackage -b (%s)" % out[-1500:])
    c.true(re.search(r"^\s*\d+/\d+ wirerate:unit / optab_docs\s+OK", out, re.M)
           is not None, "the unit suite ran inside the build")
    changes = glob.glob(os.path.join(tmp, "*.changes"))
    c.true(rc != 0 or len(changes) == 1, "one .changes file written: %s" % changes)
    return changes[0] if rc == 0 and changes else None


def lint(c, changes):
    p = subprocess.run(["lintian", "--fail-on", "error", changes], capture_output=True,
                       text=True, timeout=600)
    print(p.stdout[-3000:])
    c.eq(p.returncode, 0, "lintian: no errors (%s)" % p.stdout[-800:])
    c.true(not re.search(r"^E: ", p.stdout, re.M), "no E: line")


def ring_run(c, tmp):
    """A short run of the installed program on two ring ports: every frame
    sent is received, as the result and its streams account for."""
    out = os.path.join(tmp, "r.json")
    argv = ["/usr/bin/wirerate"] + wrtest.eal_args([]) + [
        "--", "--ring-pairs", "1", "--count", "100000", "--quiet", "--json", out]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    c.eq(p.returncode, 0, "ring run exit code (%s)" % p.stderr[-500:])
    doc = wrtest.read_result(out) if os.path.exists(out) else None
    c.true(doc is not None, "ring run wrote its result")
    if doc:
        a = doc["accounting"]
        c.eq(a["sent_pkts"], 200000, "both ports sent their --count")
        c.eq(a["received_pkts"], a["sent_pkts"], "every frame received")
        c.eq(sum(t["rx_pkts"] for t in doc["totals"]),
             sum(t["nic_ipackets"] for t in doc["totals"]),
             "wirerate's RX count is the PMD's")
        c.true(doc["env"]["wirerate_version"].startswith("0.1.0"), "version in the result")


def check_installed(c, tmp):
    p = subprocess.run(["/usr/bin/wirerate", "--version"], capture_output=True, text=True)
    c.true(p.returncode == 0 and re.match(r"wirerate \d+\.\d+\.\d+(\+g[0-9a-f]+(-dirty)?)? "
                                          r"\(DPDK ", p.stdout) is not None,
           "/usr/bin/wirerate --version: %r" % p.stdout)
    ring_run(c, tmp)
    p = subprocess.run(["/usr/bin/wirerate-exporter", "--socket", "/nonexistent", "--once"],
                       capture_output=True, text=True, timeout=60)
    c.true(p.returncode == 0 and "wirerate_up 0.0" in p.stdout,
           "wirerate-exporter --once: %s" % (p.stdout + p.stderr)[-300:])
    for f in ("/usr/share/man/man1/wirerate.1.gz",
              "/usr/share/bash-completion/completions/wirerate",
              "/usr/share/wirerate/schema/wirerate-result-1.schema.json",
              "/usr/share/wirerate/profiles/loopback-demo.ini",
              "/usr/share/wirerate/grafana/wirerate-dashboard.json",
              "/usr/share/wirerate/web/index.html",
              "/lib/systemd/system/wirerate-exporter.service"):
        c.true(os.path.exists(f), "installed: %s" % f)


def purge(c):
    subprocess.run(["apt-get", "purge", "-y", "-q"] + list(PKGS), capture_output=True,
                   text=True, timeout=300, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    for pkg in PKGS:
        c.true(not installed(pkg), "%s purged" % pkg)
    c.true(not os.path.exists("/usr/bin/wirerate"), "/usr/bin/wirerate gone")


def deb_install():
    """Build, lint, install, run, purge (see the module's doc)."""
    c = Checker("deb_install")
    for tool in ("dpkg-buildpackage", "dh", "lintian"):
        c.true(shutil.which(tool) is not None, "%s installed (scripts/test.sh installs "
               "debhelper, dpkg-dev and lintian for this suite)" % tool)
    for pkg in PKGS:
        c.true(not installed(pkg), "%s not installed before (it would be replaced and "
               "purged)" % pkg)
    c.true(os.geteuid() == 0, "root (dpkg)")
    if c.failed:
        c.done()
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        changes = build(c, tmp)
        if changes:
            lint(c, changes)
            debs = sorted(glob.glob(os.path.join(os.path.dirname(changes), "*.deb")))
            names = [os.path.basename(d).split("_")[0] for d in debs]
            c.true(set(PKGS) <= set(names), "packages built: %s" % names)
            try:
                p = subprocess.run(["apt-get", "install", "-y", "-q", "--no-install-recommends"]
                                   + [d for d in debs if "dbgsym" not in d],
                                   capture_output=True, text=True, timeout=600,
                                   env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
                c.eq(p.returncode, 0, "apt-get install of the .debs (%s)" % p.stderr[-500:])
                if p.returncode == 0:
                    check_installed(c, tmp)
            finally:
                purge(c)
    print("package suite: %.0f s" % (time.monotonic() - t0))
    c.done()


CASES = cases.by_name(deb_install)

if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--prebuild":
        sys.exit(prebuild(sys.argv[2]))
    cases.main(CASES)
