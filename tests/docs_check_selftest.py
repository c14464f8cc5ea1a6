# SPDX-License-Identifier: BSD-3-Clause
"""docs_check.py can fail: fixtures with each fault it must find (a
broken link, a named file that is not there, a private note's name, an
issue number, a run command line that `wirerate check` refuses, in a
page, in a page of a folder below docs/ and in a config comment) and one without: the first exits 1 naming
each fault at its line, the second exits 0; a line marked "wrong on
purpose" is listed as opted out, never as a finding.
Usage: docs_check_selftest.py DOCS_CHECK WIRERATE"""
import os
import shutil
import subprocess
import sys
import tempfile

GOOD_PAGE = """# A page
See [the other page](other.md) and lib/x.c.

```sh
wirerate -l 0,1 --no-pci --in-memory --vdev net_null0 -- --size 64 --duration 1
$ wirerate -l 0,1 -- --szie 64    # wrong on purpose
```
"""
BAD_PAGE = """# A page
See [a page that is not there](missing.md).
The code is in lib/nothere.c.
As DESIGN.md says,
fixed in issue 45.

```sh
wirerate -l 0,1 --no-pci --in-memory -- --szie 64
```
"""
BAD_CONF = """# a profile
# Run it:
#   wirerate -l 0,1 --no-pci -- \\
#       --rate 5 --frobnicate
[traffic]
size = 64
"""
# A page in a folder below docs/ (the developers' notes, docs/dev/).
BAD_DEV = """# notes
See [a page that is not there](gone.md).
As in issue 9.
"""


def tree(files):
    root = tempfile.mkdtemp(prefix="wr-docs-check-%d-" % os.getpid())
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    return root


def run(check, wirerate, files):
    root = tree(files)
    try:
        res = subprocess.run([sys.executable, check, root, wirerate],
                             capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(root)
    return res.returncode, res.stdout


def main():
    check, wirerate = sys.argv[1], sys.argv[2]
    fails = []
    base = {"lib/x.c": "", "docs/other.md": "# other\n", "README.md": "# r\n"}
    rc, out = run(check, wirerate, dict(base, **{"docs/a.md": GOOD_PAGE}))
    if rc != 0 or "0 findings" not in out:
        fails.append("clean fixture: exit %d\n%s" % (rc, out))
    if "opted out (wrong on purpose): docs/a.md:6" not in out:
        fails.append("the opted-out line is not listed:\n%s" % out)
    rc, out = run(check, wirerate, dict(base, **{"docs/a.md": BAD_PAGE,
                                                  "docs/dev/n.md": BAD_DEV,
                                                  "config/p.ini": BAD_CONF}))
    want = ["docs/a.md:2: link to missing.md", "docs/a.md:3: names lib/nothere.c",
            "docs/a.md:4: names DESIGN.md", "docs/a.md:5: names issue 45",
            "docs/a.md:8: `wirerate check` refuses it: wirerate: error: --szie",
            "config/p.ini:3: `wirerate check` refuses it",
            "docs/dev/n.md:2: link to gone.md", "docs/dev/n.md:3: names issue 9"]
    if rc != 1:
        fails.append("broken fixture: exit %d, want 1" % rc)
    for w in want:
        if w not in out:
            fails.append("broken fixture: %r not found in:\n%s" % (w, out))
    if "8 findings" not in out:
        fails.append("broken fixture: want 8 findings:\n%s" % out)
    for f in fails:
        print("FAIL " + f)
    print("docs_check_selftest: %d failed" % len(fails))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
