# SPDX-License-Identifier: BSD-3-Clause
"""The command line of every Python suite, in one place. A suite file keeps
its cases in one dict, CASES = {name: function}, the only list of them:
  test_X.py --list    prints the names, one a line; tests/meson.build asks
                      at configure time and registers one meson test each
  test_X.py CASE      runs CASE (its exit code: 0 ok, 1 failed, 77 skipped)
Anything else prints the usage and exits 2. Standard library only."""
import os
import sys


def by_name(*fns):
    """{function name: function}, in the order given (the test order)."""
    return {f.__name__: f for f in fns}


def main(cases, before=None, after=None):
    """Run the case sys.argv names: before(name) first, after() whatever
    happened (a suite's own set-up and clean-up)."""
    args = sys.argv[1:]
    if args == ["--list"]:
        print("\n".join(cases))
        return
    if len(args) != 1 or args[0] not in cases:
        print("usage: %s --list | CASE\ncases: %s" % (
            os.path.basename(sys.argv[0]), ", ".join(cases)), file=sys.stderr)
        sys.exit(2)
    try:
        if before is not None:
            before(args[0])
        cases[args[0]]()
    finally:
        if after is not None:
            after()
