# SPDX-License-Identifier: BSD-3-Clause
"""The user docs point at what exists and show commands that run:
  - every relative link in docs/**/*.md (the developers' notes in
    docs/dev/ too) and README.md ([text](path)) names a file or folder
    of the repository;
  - every repository file named in them or in the comments of config/
    (lib/..., app/..., tests/..., scripts/..., config/..., docs/...,
    buildtools/..., debian/..., python/...) exists;
  - no page or config comment names a file that is not in the repository
    (the private notes DESIGN.md, LAB.md, CAMPAIGN.md, STYLE.md) or an
    issue number;
  - every run command line (`wirerate` with options, not a subcommand) in
    a code block of the docs, or in a config comment, passes `wirerate
    check`. A line that is wrong on purpose (an example of an error)
    carries the marker OPT_OUT in a comment on its line; the opt-outs
    are listed on every run.
Usage: docs_check.py ROOT WIRERATE  (exit 1 and one line per finding)
       docs_check.py --files ROOT    (the files it reads, one a line)"""
import glob
import os
import re
import shlex
import subprocess
import sys

OPT_OUT = "wrong on purpose"
PRIVATE = re.compile(r"\b(DESIGN|LAB|CAMPAIGN|STYLE)\.md\b|\b[Ii]ssues? #?\d+\b")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
TOP = ("lib", "app", "tests", "scripts", "config", "docs", "buildtools",
       "debian", "python")
NAMED = re.compile(r"(?<![\w./-])((?:%s)/[\w.+-]+(?:/[\w.+-]+)*)" % "|".join(TOP))
# A path with one of these in it is a pattern (tests/fuzz/corpus/NAME).
PLACEHOLDER = re.compile(r"(?<![A-Za-z])(NAME|FILE|PATH|DIR|HOST|N)(?![a-z])")
# A line of a drawing (an arrow), not a command.
DRAWING = re.compile(r"-->|<--|[│─┐┘┌└]")
# What a named path may end with: words that follow a path in prose.
TRAIL = ".,:;)"


def sources(root):
    """The docs' pages and the config files whose comments are read."""
    pages = sorted(glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True))
    pages.append(os.path.join(root, "README.md"))
    conf = sorted(p for p in glob.glob(os.path.join(root, "config", "**", "*"),
                                       recursive=True)
                  if os.path.isfile(p) and p.endswith((".ini", ".yml", ".yaml",
                                                       ".conf", ".service")))
    return pages, conf


def comment_lines(path):
    """(line number, text) of a config file's comments."""
    out = []
    with open(path, errors="replace") as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if s.startswith(("#", ";")):
                out.append((n, s.lstrip("#; ")))
    return out


def page_lines(path):
    with open(path, errors="replace") as f:
        return list(enumerate(f.read().split("\n"), 1))


def exists(root, rel):
    rel = rel.rstrip(TRAIL)
    if any(c in rel for c in "*<>{}$") or PLACEHOLDER.search(rel):
        return True  # a pattern or a placeholder, not one file
    return os.path.exists(os.path.join(root, rel))


def check_links(root, path, lines, out):
    base = os.path.dirname(path)
    for n, text in lines:
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            file = target.split("#")[0]
            if file and not os.path.exists(os.path.normpath(os.path.join(base, file))):
                out.append("%s:%d: link to %s: no such file" % (
                    os.path.relpath(path, root), n, target))


def check_named(root, path, lines, out):
    for n, text in lines:
        for m in NAMED.finditer(text):
            rel = m.group(1)
            # a ninja target (ninja -C build tests/x) is a build output
            if not exists(root, rel) and not text[:m.start()].endswith("-C build "):
                out.append("%s:%d: names %s: not in the repository" % (
                    os.path.relpath(path, root), n, rel.rstrip(TRAIL)))
        m = PRIVATE.search(text)
        if m:
            out.append("%s:%d: names %s: not in the repository (or an issue "
                       "number)" % (os.path.relpath(path, root), n, m.group(0)))


def code_blocks(lines):
    """(line number, text) of the command lines inside ``` blocks: in a
    block that shows a session ("$ " prompts, the program's answers
    between them), only the prompted lines."""
    blocks, cur = [], None
    for n, text in lines:
        if text.lstrip().startswith("```"):
            if cur is None:
                cur = []
            else:
                blocks.append(cur)
                cur = None
            continue
        if cur is not None:
            cur.append((n, text))
    out = []
    for b in blocks:
        prompted = [(n, t) for n, t in b if t.lstrip().startswith("$ ")]
        out += prompted if prompted else b
    return out


def commands(lines):
    """(line number, argv, opted out) of each wirerate run command line,
    continuation lines (ending in a backslash) joined."""
    out, i = [], 0
    while i < len(lines):
        n, text = lines[i]
        s = re.sub(r"^\s*(\$ |# )?(sudo )?", "", text)
        s = re.sub(r"^ip netns exec \S+ ", "", s)
        if not re.match(r"(\S*/)?wirerate( |$)", s) or DRAWING.search(s):
            i += 1
            continue
        full = s
        while full.rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            full = full.rstrip()[:-1] + " " + re.sub(r"^\s*#?", "", lines[i][1])
        i += 1
        opted = OPT_OUT in full
        full = full.split(" #")[0]
        try:
            argv = shlex.split(full)
        except ValueError:
            out.append((n, None, opted))
            continue
        # a pipeline or a list: the wirerate part only
        for j, a in enumerate(argv):
            if a in ("|", "&&", "||", ";", ">", "2>&1", "&"):
                argv = argv[:j]
                break
        if len(argv) > 1 and not argv[1].startswith("-"):
            continue  # a subcommand (report, serve, ...) or prose
        if "..." in argv or any("$" in a for a in argv):
            continue  # elided or a shell variable: not one command line
        out.append((n, argv, opted))
    return out


def needs_file(root, argv, msg):
    """Whether the one refusal is a file of the user's that the line
    names (a capture to replay, a template) and this machine lacks."""
    m = re.search(r"([^:\s]+): No such file or directory$", msg[-1] if msg else "")
    return (m is not None and any(m.group(1) in a for a in argv) and
            not os.path.exists(os.path.join(root, m.group(1))))


def needs_cpus(msg):
    """Whether the one refusal is the lcore list naming CPUs this machine
    lacks (a page's example for a larger machine)."""
    return bool(msg) and re.search(r"CPUs [^ ]+ asked, this machine has CPUs", msg[-1]) is not None


def check_commands(root, wirerate, path, lines, out, opted_out, needs, checked):
    for n, argv, opted in commands(lines):
        where = "%s:%d" % (os.path.relpath(path, root), n)
        if opted:
            opted_out.append(where)
            continue
        checked.append(where)
        if argv is None:
            out.append("%s: a wirerate command line that does not parse" % where)
            continue
        # the pages' examples are for machines of any size
        res = subprocess.run([wirerate, "check"] + argv[1:], capture_output=True,
                             text=True, timeout=30, cwd=root,
                             env=dict(os.environ, WR_CHECK_CPUS="0-255"))
        msg = (res.stderr.strip() or res.stdout.strip()).splitlines()
        if res.returncode != 0 and (needs_file(root, argv, msg) or needs_cpus(msg)):
            needs.append("%s: %s" % (where, msg[-1]))
        elif res.returncode != 0:
            out.append("%s: `wirerate check` refuses it: %s" % (
                where, msg[-1] if msg else "exit %d" % res.returncode))


def check(root, wirerate):
    """Every finding, and the lines opted out of the command check."""
    out, opted_out, needs, checked = [], [], [], []
    pages, conf = sources(root)
    for p in pages:
        lines = page_lines(p)
        check_links(root, p, lines, out)
        check_named(root, p, lines, out)
        check_commands(root, wirerate, p, code_blocks(lines), out, opted_out, needs, checked)
    for p in conf:
        lines = comment_lines(p)
        check_named(root, p, lines, out)
        check_commands(root, wirerate, p, lines, out, opted_out, needs, checked)
    return out, opted_out, needs, checked


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--files":
        pages, conf = sources(sys.argv[2])
        print("\n".join(pages + conf))
        return
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    root, wirerate = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    out, opted_out, needs, checked = check(root, wirerate)
    for where in opted_out:
        print("opted out (%s): %s" % (OPT_OUT, where))
    for what in needs:
        print("checked up to what this machine lacks (a file of the user's, CPUs): %s" % what)
    for line in out:
        print(line)
    print("%d command lines checked, %d findings" % (len(checked), len(out)))
    sys.exit(1 if out else 0)


if __name__ == "__main__":
    main()
