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
    would never run: meson registers them from the files it names).
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
          "have_af_xdp", "have_ipv6_loopback", "exists"}


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


def calls_probe(test):
    for n in ast.walk(test):
        if isinstance(n, ast.Call):
            f = n.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name in PROBES:
                return True
    return False


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
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name == "skip" and not guarded:
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
