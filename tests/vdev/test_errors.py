# SPDX-License-Identifier: BSD-3-Clause
"""The errors a newcomer meets: each one's text and exit code, and that
the errors wirerate can find on its own come before EAL starts (no EAL
line, no runtime directory left). Usage: test_errors.py CASE."""
import os
import shutil
import subprocess
import time

import cases
import wrtest
from wrtest import Checker

SEQ = [0]


def prefix():
    SEQ[0] += 1
    return "wrerr%d_%d" % (os.getpid(), SEQ[0])


def wirerate(args, timeout=60):
    p = subprocess.run([wrtest.WIRERATE] + args, capture_output=True, text=True,
                       timeout=timeout, stdin=subprocess.DEVNULL)
    return wrtest.Result(p.returncode, p.stdout, p.stderr, None)


def runtime_dir(pfx):
    return os.path.join("/var/run/dpdk" if os.geteuid() == 0 else
                        os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/tmp"),
                                     "dpdk"), pfx)


def no_eal(c, r, pfx, what):
    """Nothing of EAL ran: no log line, no runtime directory, no usage dump."""
    c.true("EAL:" not in r.out + r.err, "%s: no EAL output: %r" % (what, r.err[-400:]))
    c.true(not os.path.exists(runtime_dir(pfx)), "%s: EAL never started" % what)
    c.true(len((r.out + r.err).splitlines()) <= 3, "%s: a short message" % what)


def forgot_dashdash():
    """wirerate options before -- (or no -- at all): the fixed command line."""
    c = Checker("forgot_dashdash")
    pfx = prefix()
    r = wirerate(["-l", "0,1", "--file-prefix", pfx, "--ring-pairs", "1"])
    c.eq(r.rc, 2, "exit code")
    c.true("--ring-pairs is a wirerate option; wirerate options go after --" in r.err,
           "names the option: %r" % r.err)
    c.true("%s -l 0,1 --file-prefix %s -- --ring-pairs 1\n" % (wrtest.WIRERATE, pfx)
           in r.err, "shows the command line that works: %r" % r.err)
    no_eal(c, r, pfx, "no --")
    # Before a -- that is there; values joined with '=' and quoted ones.
    r = wirerate(["-l", "0,1", "--file-prefix", pfx, "--label", "my run",
                  "--size=128", "--", "--duration", "1"])
    c.eq(r.rc, 2, "exit code, misplaced before --")
    c.true("-l 0,1 --file-prefix %s -- --label 'my run' --size=128 --duration 1\n"
           % pfx in r.err, "moved after --, quoted: %r" % r.err)
    no_eal(c, r, pfx, "before --")
    c.done(r)


def did_you_mean():
    """A misspelt option, after -- or before it, gets the closest name."""
    c = Checker("did_you_mean")
    pfx = prefix()
    eal = ["-l", "0,1", "--no-pci", "--in-memory", "--file-prefix", pfx]
    r = wirerate(eal + ["--", "--szie", "512"])
    c.eq(r.rc, 2, "exit code")
    c.true("--szie: unknown option; did you mean --size?" in r.err, repr(r.err))
    no_eal(c, r, pfx, "after --")
    r = wirerate(eal + ["--duraton", "2", "--", "--size", "512"])
    c.eq(r.rc, 2, "exit code, before --")
    c.true("--duraton: unknown option; did you mean --duration? (a wirerate "
           "option: it goes after --)" in r.err, repr(r.err))
    no_eal(c, r, pfx, "before --")
    r = wirerate(["-l", "0,1", "--no-pci", "--in-memroy", "--file-prefix", pfx,
                  "--", "--size", "512"])
    c.eq(r.rc, 2, "exit code, EAL option")
    c.true("--in-memroy: unknown option; did you mean --in-memory? (an EAL "
           "option" in r.err, repr(r.err))
    no_eal(c, r, pfx, "EAL option")
    r = wirerate(eal + ["--", "--size"])
    c.true(r.rc == 2 and "--size: needs a value" in r.err, repr(r.err))
    c.done(r)


def errors_before_eal():
    """Option, profile and output errors come alone, before EAL starts."""
    c = Checker("errors_before_eal")
    pfx = prefix()
    eal = ["-l", "0,1", "--no-pci", "--file-prefix", pfx, "--vdev", "net_null0"]
    bad = [(["--size", "63"], "--size 63: out of range"),
           (["--profile", "/nonexistent.ini"], "/nonexistent.ini"),
           (["--json", "/nonexistent-dir/r.json"], "--json"),
           (["--mode", "sweep", "--size", "64", "--sizes", "64,128"],
            "--size and --sizes together")]
    for opts, want in bad:
        r = wirerate(eal + ["--"] + opts)
        c.eq(r.rc, 2, "exit code for %r" % opts)
        c.true(want in r.err, "%r: says %r: %r" % (opts, want, r.err))
        no_eal(c, r, pfx, repr(opts))
    c.done(r)


def quiet_eal():
    """EAL's start-up log is held back: wirerate's own message stands out;
    --log-level brings it back."""
    c = Checker("quiet_eal")
    pfx = prefix()
    eal = ["-l", "0,1", "--in-memory", "--file-prefix", pfx]
    r = wirerate(eal + ["--no-pci"])
    c.eq(r.rc, 2, "no ports: exit code")
    c.eq((r.out + r.err).strip().splitlines(),
         ["wirerate: error: no ports: give EAL a --vdev (e.g. --vdev net_null0) "
          "or bind a NIC to vfio-pci/uio"], "only wirerate's message")
    run = ["--vdev", "net_null0", "--no-pci", "--", "--duration", "0.3",
           "--rx-ports", "none", "--plain"]
    r = wirerate(eal + run)
    c.eq(r.rc, 0, "run: exit code")
    c.true("EAL:" not in r.out + r.err, "no EAL line in a run: %r" % r.err[-300:])
    r = wirerate(eal + ["--log-level=lib.eal:info"] + run)
    c.eq(r.rc, 0, "run with --log-level: exit code")
    c.true("EAL: Detected" in r.out + r.err, "--log-level shows EAL's log")
    # An EAL option or device EAL refuses is the request: exit 2 (a CPU
    # the machine lacks is refused before EAL, naming it).
    for bad, says in ((["-l", "999"], "-l 999: CPUs 999 asked, this machine has"),
                      (["--vdev", "net_bogus0"], "EAL initialisation failed")):
        r = wirerate(["--in-memory", "--file-prefix", pfx, "--no-pci"] + bad +
                     ["--vdev", "net_null0", "--", "--duration", "0.1"])
        c.eq(r.rc, 2, "EAL refuses %r: exit code" % bad)
        c.true(says in r.err, "says so: %r" % r.err[-200:])
    r = wirerate(eal + ["--vdev", "net_null0", "--no-pci", "--", "--tx-ports", "3"])
    c.eq(r.rc, 2, "a port that does not exist: exit code")
    c.true("--tx-ports: port 3 does not exist (1 port probed;" in r.err,
           "one port, singular: %r" % r.err)
    shutil.rmtree(runtime_dir(pfx), ignore_errors=True)
    c.done(r)


def same_prefix():
    """Two processes with one --file-prefix: the second names the first
    (not 'Success') and says what to do."""
    c = Checker("same_prefix")
    pfx = prefix()
    eal = ["-l", "0,1", "--no-pci", "--file-prefix", pfx, "--vdev", "net_null0",
           "--huge-unlink"]
    if wrtest.hugepages_free() < 128:
        c.skip("fewer than 128 free hugepages (a shared --file-prefix needs them)")
        c.done()
    first = subprocess.Popen([wrtest.WIRERATE] + eal + [
        "--", "--duration", "0", "--rx-ports", "none", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    cfg = os.path.join(runtime_dir(pfx), "config")
    for _ in range(300):
        if os.path.exists(cfg) or first.poll() is not None:
            break
        time.sleep(0.1)
    time.sleep(0.5)
    r = wirerate(eal + ["--", "--duration", "0.2", "--quiet"])
    first.terminate()
    out, err = first.communicate(timeout=60)
    c.eq(first.returncode, 0, "the first run ends cleanly (%r)" % err[-300:])
    c.eq(r.rc, 1, "exit code: the machine, not the request (docs/reliability.md)")
    c.true("Success" not in r.err, "no errno 0 text: %r" % r.err[-400:])
    c.true("another DPDK process (pid %d) runs with --file-prefix %s; give this "
           "one its own --file-prefix NAME, or --in-memory" % (first.pid, pfx)
           in r.err, "names the cause: %r" % r.err[-400:])
    shutil.rmtree(runtime_dir(pfx), ignore_errors=True)
    c.done(r)


def no_hugetlbfs():
    """No hugetlbfs mounted (a private mount namespace without it): the
    error suggests --in-memory or the set-up script, and --in-memory runs."""
    c = Checker("no_hugetlbfs")
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "true"],
                           capture_output=True)
    if probe.returncode != 0 or shutil.which("umount") is None:
        c.skip("cannot make a mount namespace (unshare -m): %r" % probe.stderr)
        c.done()
    pfx = prefix()
    eal = ["-l", "0,1", "--no-pci", "--file-prefix", pfx, "--vdev", "net_null0"]
    opts = ["--", "--duration", "0.2", "--rx-ports", "none", "--quiet"]
    script = 'umount -a -t hugetlbfs && exec "$@"'
    ns = ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh",
          wrtest.WIRERATE]
    p = subprocess.run(ns + eal + opts, capture_output=True, text=True, timeout=60)
    c.eq(p.returncode, 1, "exit code: the machine, not the request")
    c.true("EAL initialisation failed: no hugetlbfs is mounted; add --in-memory" in
           p.stderr and "scripts/lib/setup.sh" in p.stderr, repr(p.stderr[-400:]))
    c.true("Permission denied" not in p.stderr, "no misleading errno")
    if wrtest.hugepages_free() >= 128:
        p = subprocess.run(ns + eal + ["--in-memory"] + opts, capture_output=True,
                           text=True, timeout=60)
        c.eq(p.returncode, 0, "with --in-memory it runs (%r)" % p.stderr[-300:])
    shutil.rmtree(runtime_dir(pfx), ignore_errors=True)
    c.done()


def no_telemetry_line():
    """DPDK telemetry's notice about its legacy socket (which wirerate does
    not use) is start-up chatter: not on stdout or stderr of a plain run,
    with --quiet, or with --log-level=*:warning as the quickstart and the
    test helpers give it; a --log-level that names telemetry shows it (the
    line is still emitted: the check can see it)."""
    c = Checker("no_telemetry_line")
    pfx = prefix()
    eal = ["-l", "0,1", "--in-memory", "--file-prefix", pfx, "--no-pci",
           "--vdev", "net_null0"]
    run = ["--", "--duration", "0.2", "--rx-ports", "none"]
    for extra, quiet in (([], []), ([], ["--quiet"]),
                         (["--log-level=*:warning"], []),
                         (["--log-level=*:warning"], ["--quiet"])):
        r = wirerate(eal + extra + run + quiet)
        what = " ".join(extra + quiet) or "plain"
        c.eq(r.rc, 0, "%s: exit code" % what)
        c.true("TELEMETRY:" not in r.out + r.err,
               "%s: no TELEMETRY line: %r" % (what, r.err[:300]))
    r = wirerate(eal + ["--log-level=lib.telemetry:debug"] + run + ["--quiet"])
    c.eq(r.rc, 0, "--log-level=lib.telemetry:debug: exit code")
    c.true("TELEMETRY: No legacy callbacks" in r.err,
           "--log-level naming telemetry shows its notice: %r" % r.err[-300:])
    shutil.rmtree(runtime_dir(pfx), ignore_errors=True)
    c.done(r)


CASES = cases.by_name(forgot_dashdash, did_you_mean, errors_before_eal, quiet_eal,
                      same_prefix, no_hugetlbfs, no_telemetry_line)

if __name__ == "__main__":
    cases.main(CASES)
