# SPDX-License-Identifier: BSD-3-Clause
"""Checks that cannot fail, found by reading the Python suites (ast):
  - a function that makes a Checker and never calls its done() (its checks
    are counted but never change the exit code);
  - c.eq(got, want) where want is built from got itself (compares a value
    with itself);
  - a skip whose reason does not come from a probe: every skip() call
    must sit under an `if` that tests a capability probe, never a result
    of wirerate (a symptom it could cause);
  - a file with a CASES dict that DIR/meson.build does not name (its cases
    would never run: meson registers them from the files it names);
  - a file that reads a balance verdict (a "balanced" key) but names no
    count wirerate did not make: balance holds by construction (lost is
    sent - received), so only such a count catches an RX miscount.
Usage: lint_checks.py FILE|DIR... (DIR: its */*.py); exit 1 and one line
per finding."""
import ast
import glob
import os
import sys

# A skip's condition must call one of these probes (of the machine, not of
# wirerate): they are defined in tests/lib/wrtest.py (hugepages_free from
# scripts/lib/eal.py).
PROBES = {"which", "geteuid", "hugepages_free", "have_tun", "have_netns",
          "have_af_xdp", "have_ipv6_loopback", "have_link_kind", "have_qdisc",
          "exists", "have_br_fdb_max_learned", "have_cpus", "have_rt_sched"}


# What names a count wirerate did not make: the PMD's counters in a result,
# the helpers that compare with them (tests/lib/wrtest.py), the kernel's
# interface and qdisc counters, tshark or tcpdump reading a capture.
INDEPENDENT_CALLS = {"rx_matches_pmd", "pmd_rx", "stream_balance"}
INDEPENDENT_WORDS = ("nic_ipackets", "nic_opackets", "/statistics/", "stats64",
                     "qdisc", "tshark", "tcpdump")


def const_strings(tree):
    return [n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def balance_reads(tree):
    """Nodes reading a "balanced" key (x["balanced"], x.get("balanced"))
    in the arguments of a check (c.eq, c.true): asserted, not reported."""
    checks = [a for n in ast.walk(tree) if isinstance(n, ast.Call)
              and isinstance(n.func, ast.Attribute) and n.func.attr in ("eq", "true")
              for a in n.args]
    out = []
    for n in (x for a in checks for x in ast.walk(a)):
        if isinstance(n, ast.Subscript):
            key = n.slice
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
              and n.func.attr == "get" and n.args):
            key = n.args[0]
        else:
            continue
        if isinstance(key, ast.Constant) and key.value == "balanced":
            out.append(n)
    return out


def independent_count(tree):
    """Whether the file names a count wirerate did not make."""
    return calls_any(tree, INDEPENDENT_CALLS) or any(
        w in s for s in const_strings(tree) for w in INDEPENDENT_WORDS)


def checker_names(fn):
    """Names bound to Checker(...) in fn: `c = Checker()`, `c, bed = ...`."""
    names = set()
    for node in ast.walk(fn):
        if not isinstance(node, ast.Assign):
            continue
        vals = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
        for tgt in node.targets:
            tgts = tgt.elts if isinstance(tgt, ast.Tuple) else [tgt]
            for t, v in zip(tgts, vals):
                if (isinstance(v, ast.Call) and isinstance(v.func, ast.Name)
                        and v.func.id == "Checker" and isinstance(t, ast.Name)):
                    names.add(t.id)
    return names


def method_calls(fn, obj, meth):
    return [n for n in ast.walk(fn) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute) and n.func.attr == meth
            and isinstance(n.func.value, ast.Name) and n.func.value.id == obj]


def self_comparisons(fn, obj):
    out = []
    for call in method_calls(fn, obj, "eq"):
        if len(call.args) < 2:
            continue
        got = ast.dump(call.args[0])
        if any(ast.dump(n) == got for n in ast.walk(call.args[1])):
            out.append(call)
    return out


def call_name(call):
    """f of f(...) or x.f(...)."""
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")


def calls_any(node, names):
    """Whether node calls a function of one of names."""
    return any(isinstance(n, ast.Call) and call_name(n) in names for n in ast.walk(node))


def calls_probe(test):
    return calls_any(test, PROBES)


def unprobed_skips(tree):
    """skip() calls not guarded by an `if` whose test calls a probe."""
    bad = []

    def visit(node, guarded):
        if isinstance(node, ast.If):
            g = guarded or calls_probe(node.test)
            for n in node.body:
                visit(n, g)
            for n in node.orelse:
                visit(n, guarded)
            return
        if isinstance(node, ast.FunctionDef) and node.name == "skip":
            return  # the helper itself
        if isinstance(node, ast.Call):
            if call_name(node) == "skip" and not guarded:
                bad.append(node)
        for n in ast.iter_child_nodes(node):
            visit(n, guarded)

    visit(tree, False)
    return bad


def finishers(tree):
    """Functions that call done() on one of their parameters: {name: index}."""
    out = {}
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef):
            for i, a in enumerate(fn.args.args):
                if method_calls(fn, a.arg, "done"):
                    out[fn.name] = i
    return out


def finished(fn, c, fins):
    """c.done() in fn, or c handed to a function that finishes it."""
    if method_calls(fn, c, "done"):
        return True
    for n in ast.walk(fn):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                and n.func.id in fins and len(n.args) > fins[n.func.id]):
            a = n.args[fins[n.func.id]]
            if isinstance(a, ast.Name) and a.id == c:
                return True
    return False


def lint(path):
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    found = []
    fins = finishers(tree)
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        for c in checker_names(fn):
            if not finished(fn, c, fins):
                found.append("%s:%d: %s() makes Checker %s and never calls "
                             "%s.done()" % (path, fn.lineno, fn.name, c, c))
            for call in self_comparisons(fn, c):
                found.append("%s:%d: %s.eq compares a value with itself" %
                             (path, call.lineno, c))
    reads = balance_reads(tree)
    if reads and not independent_count(tree):
        found.append("%s:%d: reads a balance verdict but no count wirerate did "
                     "not make (call %s, or read %s)" % (
                         path, reads[0].lineno, ", ".join(sorted(INDEPENDENT_CALLS)),
                         ", ".join(INDEPENDENT_WORDS)))
    for call in unprobed_skips(tree):
        found.append("%s:%d: skip() not guarded by a capability probe (%s)" %
                     (path, call.lineno, ", ".join(sorted(PROBES))))
    return found


def unregistered(d, paths):
    """Files under d that define CASES but d/meson.build does not name."""
    try:
        with open(os.path.join(d, "meson.build")) as f:
            meson = f.read()
    except OSError:
        return []
    out = []
    for path in paths:
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        if any(isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "CASES"
                                                 for t in n.targets) for n in tree.body):
            rel = os.path.relpath(path, d)
            if "'%s'" % rel not in meson:
                out.append("%s: defines CASES but %s/meson.build does not name '%s'" %
                           (path, d, rel))
    return out


def main():
    paths, found = [], []
    for a in sys.argv[1:]:
        if os.path.isdir(a):
            more = sorted(glob.glob(os.path.join(a, "*", "*.py")))
            found += unregistered(a, more)
            paths += more
        else:
            paths.append(a)
    for path in paths:
        found += lint(path)
    for line in found:
        print(line)
    print("%d files, %d findings" % (len(paths), len(found)))
    sys.exit(1 if found or not paths else 0)


if __name__ == "__main__":
    main()
