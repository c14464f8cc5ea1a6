#!/usr/bin/env python3
"""The case lists of tests/meson.build that take cases out of a leg of CI
(long_tests: suite long, which CI leaves to `scripts/test.sh long`;
san_skip_tests: suite nosan, which the sanitizer leg leaves out;
san_extra_tests: suite sanextra, which it adds) name meson tests that
exist, and each of those tests is in the list's suite: a renamed case, or
a name looked up without its test's prefix, would otherwise leave a case
in CI (or out of it) without a word. Reads the build's
meson-info/intro-tests.json.

usage: ci_lists.py TESTS_MESON_BUILD BUILD_DIR
"""
import json
import os
import re
import sys

LISTS = {"long_tests": "long", "san_skip_tests": "nosan", "san_extra_tests": "sanextra"}


def names(text, var):
    """The strings of VAR = [...] and of each VAR += '...' line."""
    out = []
    for m in re.finditer(r"^%s\s*=\s*\[(.*?)\]" % var, text, re.M | re.S):
        out += re.findall(r"'([^']*)'", m.group(1))
    for m in re.finditer(r"^%s\s*\+=\s*(\[.*?\]|'[^']*')" % var, text, re.M | re.S):
        out += re.findall(r"'([^']*)'", m.group(1))
    return out


def main(argv):
    text = open(argv[0]).read()
    tests = json.load(open(os.path.join(argv[1], "meson-info", "intro-tests.json")))
    suites = {}
    for t in tests:
        suites.setdefault(t["name"], set()).update(s.split(":")[-1] for s in t["suite"])
    bad = 0
    for var, suite in LISTS.items():
        got = names(text, var)
        if not got and var != "san_skip_tests":
            print("FAIL %s: no names found in %s" % (var, argv[0]))
            bad += 1
        for n in got:
            if n not in suites:
                print("FAIL %s names %s: no such meson test" % (var, n))
                bad += 1
            elif suite not in suites[n]:
                print("FAIL %s names %s: its meson test is in %s, not %s"
                      % (var, n, ", ".join(sorted(suites[n])), suite))
                bad += 1
            else:
                print("ok %s: %s in suite %s" % (var, n, suite))
    # ... and nothing is in those suites that the lists do not name.
    for var, suite in LISTS.items():
        listed = set(names(text, var))
        for n, s in sorted(suites.items()):
            if suite in s and n not in listed:
                print("FAIL %s is in suite %s but not in %s" % (n, suite, var))
                bad += 1
    print("%d problem(s)" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
