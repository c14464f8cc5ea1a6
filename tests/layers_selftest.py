#!/usr/bin/env python3
"""tests/layers.py on crafted trees: exit 0 on a clean lib/ and app/, and
exit 1, naming the file, on each planted break of app/'s rule (an
upward include, a room the rule does not let it include, lib/ including
app/, an include circle between two modules, a room without README.md,
an unknown room, a rule whose rooms include each other), and on a .c or
.h of lib/ or app/ over 650 lines.

usage: layers_selftest.py LAYERS_PY
"""
import os
import subprocess
import sys
import tempfile

LAYERS = ["base", "config"]
RULE = {"common": [], "view": ["common"], "server": ["common", "view"]}

# path -> text of the clean tree; each case below changes it.
CLEAN = {
    "lib/base/README.md": "base\n",
    "lib/base/units.h": "int u(void);\n",
    "lib/base/units.c": '#include "units.h"\n',
    "lib/config/README.md": "config\n",
    "lib/config/opts.h": '#include "base/units.h"\n',
    "app/meson.build": "",
    "app/common/README.md": "common\n",
    "app/common/exitcode.h": '#include "base/units.h"\n',
    "app/common/exitcode.c": '#include "exitcode.h"\n',
    "app/view/README.md": "view\n",
    "app/view/view.h": '#include "config/opts.h"\n',
    "app/view/view.c": '#include "common/exitcode.h"\n#include "view.h"\n',
    "app/view/live.h": "void live(void);\n",
    "app/view/live.c": '#include "live.h"\n#include "view.h"\n',
    "app/server/README.md": "server\n",
    "app/server/serve.c": '#include "view/live.h"\n#include "common/exitcode.h"\n',
}

# name: (files changed (None: removed), rule changes, text expected in output)
CASES = {
    "upward": ({"app/common/exitcode.c":
                '#include "exitcode.h"\n#include "view/view.h"\n'}, {},
               'app/common/exitcode.c: #include "view/view.h": common/ may '
               'not include view/'),
    "not_in_rule": ({"app/view/view.c": '#include "server/x.h"\n'}, {},
                    "view/ may not include server/"),
    "lib_includes_app": ({"lib/base/units.c":
                          '#include "units.h"\n#include "view/view.h"\n'}, {},
                         "lib/ never includes app/"),
    "circle": ({"app/view/view.c": '#include "live.h"\n#include "view.h"\n'},
               {}, "an include circle: view/live -> view/view -> view/live"),
    "no_readme": ({"app/server/README.md": None}, {},
                  "app/server/: no README.md"),
    "unknown_room": ({"app/server/serve.c": '#include "peer/client.h"\n'}, {},
                     "peer/ is neither a room nor a lib/ layer"),
    "stray_folder": ({"app/peer/client.c": "\n"}, {},
                     "app/peer/: a folder that is not in app_rooms"),
    "rule_circle": ({}, {"common": ["server"]},
                    "the rooms include each other"),
    "bare_elsewhere": ({"app/server/serve.c": '#include "live.h"\n'}, {},
                       'not in server/'),
    "long_lib": ({"lib/config/opts.c": "\n" * 651}, {},
                 "lib/config/opts.c: 651 lines, over the 650-line limit"),
    "long_app": ({"app/view/live.h": "\n" * 651}, {},
                 "app/view/live.h: 651 lines, over the 650-line limit"),
}


def run(layers_py, files, rule):
    """layers.py on a tree of files with rule; returns (exit code, output)."""
    with tempfile.TemporaryDirectory(prefix="wr-layers-") as top:
        for rel, text in files.items():
            path = os.path.join(top, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        args = [sys.executable, layers_py, os.path.join(top, "lib")] + LAYERS
        args += ["--app", os.path.join(top, "app")]
        args += [f"{r}={','.join(b)}" for r, b in rule.items()]
        p = subprocess.run(args, capture_output=True, text=True, check=False)
        return p.returncode, p.stdout + p.stderr


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    bad = 0
    rc, out = run(sys.argv[1], CLEAN, RULE)
    if rc != 0:
        print(f"clean tree: exit {rc}, not 0:\n{out}")
        bad += 1
    for name, (change, rule_change, want) in CASES.items():
        files = dict(CLEAN)
        for rel, text in change.items():
            if text is None:
                files.pop(rel)
            else:
                files[rel] = text
        rc, out = run(sys.argv[1], files, {**RULE, **rule_change})
        if rc != 1 or want not in out:
            print(f"{name}: exit {rc} (1 expected), {want!r} "
                  f"{'missing' if want not in out else 'found'}:\n{out}")
            bad += 1
        else:
            print(f"{name}: exit 1 as expected")
    print(f"layers_selftest: {bad} case(s) wrong of {len(CASES) + 1}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
