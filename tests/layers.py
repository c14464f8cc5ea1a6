#!/usr/bin/env python3
"""The layers of lib/ point one way: a file includes headers of its own
folder and of folders earlier in lib/meson.build's wr_layers, never later.
And the result document has one owner: only results/ writes JSON keys
(the other layers hand it C structs), but for the files of JSON_ELSEWHERE.
And no .c or .h file of lib/ or app/ (the folder beside LIBDIR) is longer
than MAX_LINES (long_files).

usage: layers.py LIBDIR LAYER...   (LAYER in order, lowest first)
Exit 1 with one line per upward or unknown include, JSON write outside
results/ or file too long; 0 when clean.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
JSON_WRITE = re.compile(r'\b(json_object_set(_new)?|wr_json_set|json_pack|'
                        r'json_array_append(_new)?)\s*\(')
# JSON outside results/ that is not the result document.
JSON_ELSEWHERE = {
    "base/jsonw.h": "the helpers results/ writes with",
    "base/rpc.c": "JSON-RPC framing of the control socket",
    "trial/live.c": "the control socket's status: live rates",
    "analysis/alike.c": "the set-up keys two results differ on, in memory",
    "analysis/compare_json.c": "the verdict of compare --json, not a result",
    "analysis/histpoints.c": "the set-up a history series is split by",
}

# The house limit of a source file (docs/architecture.md, "Layers").
MAX_LINES = 650


def long_files(root):
    """A line per .c or .h of root's lib/ and app/ over MAX_LINES."""
    for top in ("lib", "app"):
        for folder, _, names in sorted(os.walk(os.path.join(root, top))):
            for name in sorted(names):
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8") as f:
                    n = sum(1 for _ in f)
                if n > MAX_LINES:
                    yield (f"{rel}: {n} lines, over the {MAX_LINES}-line limit"
                           f" of a source file (MAX_LINES): split it")


def problems(libdir, layers):
    rank = {name: i for i, name in enumerate(layers)}
    for entry in sorted(os.listdir(libdir)):
        path = os.path.join(libdir, entry)
        if os.path.isfile(path) and entry not in ("meson.build", "README.md"):
            yield f"{entry}: a source file outside every layer folder"
        elif os.path.isdir(path) and entry not in rank:
            yield f"{entry}/: a folder that is not in wr_layers"
    for layer in layers:
        folder = os.path.join(libdir, layer)
        if not os.path.isfile(os.path.join(folder, "README.md")):
            yield f"{layer}/: no README.md saying what the layer owns"
        for name in sorted(os.listdir(folder)):
            if name.endswith((".c", ".h")):
                yield from file_problems(libdir, layer, name, rank)


def file_problems(libdir, layer, name, rank):
    text = open(os.path.join(libdir, layer, name), encoding="utf-8").read()
    if (layer != "results" and f"{layer}/{name}" not in JSON_ELSEWHERE and
            JSON_WRITE.search(text)):
        yield (f"{layer}/{name}: writes JSON keys ({JSON_WRITE.search(text).group(1)});"
               f" the result document is written in results/ only")
    for inc in INCLUDE.findall(text):
        where = f"{layer}/{name}: #include \"{inc}\""
        if "/" not in inc:
            if not os.path.isfile(os.path.join(libdir, layer, inc)):
                yield f"{where}: not in {layer}/ (name the layer: \"LAYER/{inc}\")"
            continue
        target = inc.split("/")[0]
        if target not in rank:
            yield f"{where}: {target}/ is not a layer"
        elif rank[target] > rank[layer]:
            yield f"{where}: upward ({target} is above {layer})"
        elif not (os.path.isfile(os.path.join(libdir, inc)) or
                  os.path.isfile(os.path.join(libdir, inc + ".in"))):
            # NAME.h.in: a header meson writes at build time (vcs_tag).
            yield f"{where}: no such header"


# app/: the program's rooms (app/meson.build's app_rooms). Each room may
# include its own headers (bare names), those of the rooms its rule names
# ("ROOM/x.h") and lib/'s ("LAYER/x.h"); lib/ never includes app/; and no
# two modules of app/ (NAME.c with NAME.h) include each other's headers,
# directly or round a longer circle.
APP_ARG = "--app"


def app_rule(args):
    """ROOM=BELOW,BELOW... arguments into {room: [rooms it may include]}."""
    rule = {}
    for a in args:
        room, _, below = a.partition("=")
        rule[room] = [b for b in below.split(",") if b]
    return rule


def rule_problems(rule, layers):
    """The rule itself: rooms it names exist, no lib/ name, no circle."""
    for room, below in rule.items():
        if room in layers:
            yield (f"app/{room}/: named as a lib/ layer too: \"{room}/x.h\""
                   f" would mean either")
        for b in below:
            if b not in rule:
                yield f"app/{room}/: its rule names {b}/, which is no room"
    for cycle in circles({r: set(b) & set(rule) for r, b in rule.items()}):
        yield f"app/ rule: the rooms include each other: {' -> '.join(cycle)}"


def circles(graph):
    """Each circle of graph ({node: {nodes}}) once, as a list closed on its
    first node (Tarjan's strongly connected components, then one path)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(circle_path(graph, sorted(comp)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def circle_path(graph, comp):
    """A path from comp[0] back to itself inside comp (breadth first)."""
    start, inside = comp[0], set(comp)
    prev, todo = {}, [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph.get(v, ())):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                return path[::-1] + [start]
            if w in inside and w not in prev:
                prev[w] = v
                todo.append(w)
    return comp + [start]


def app_problems(appdir, rule, libdir, layers):
    """A line per file of appdir that breaks the rule; see APP_ARG."""
    yield from rule_problems(rule, layers)
    for entry in sorted(os.listdir(appdir)):
        path = os.path.join(appdir, entry)
        if os.path.isfile(path) and entry not in ("meson.build", "README.md"):
            yield f"app/{entry}: a source file outside every room"
        elif os.path.isdir(path) and entry not in rule:
            yield f"app/{entry}/: a folder that is not in app_rooms"
    graph = {}
    for room in rule:
        folder = os.path.join(appdir, room)
        if not os.path.isfile(os.path.join(folder, "README.md")):
            yield f"app/{room}/: no README.md saying what the room owns"
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith((".c", ".h")):
                yield from app_file_problems(appdir, room, name, rule,
                                             libdir, layers, graph)
    for cycle in circles(graph):
        yield (f"app/: an include circle: {' -> '.join(cycle)} (cut it with"
               f" a header that declares what both need, or move the"
               f" function to the module that owns it)")


def app_file_problems(appdir, room, name, rule, libdir, layers, graph):
    """The includes of app/ROOM/NAME; its module's edges go into graph."""
    text = open(os.path.join(appdir, room, name), encoding="utf-8").read()
    me = f"{room}/{os.path.splitext(name)[0]}"
    for inc in INCLUDE.findall(text):
        where = f"app/{room}/{name}: #include \"{inc}\""
        target, _, rest = inc.rpartition("/")
        if not target:
            if not os.path.isfile(os.path.join(appdir, room, inc)):
                yield (f"{where}: not in {room}/ (name the room:"
                       f" \"ROOM/{inc}\")")
                continue
            target = room
        elif "/" in target:
            yield f"{where}: one folder deep only (ROOM/x.h or LAYER/x.h)"
            continue
        if target in layers:
            if not (os.path.isfile(os.path.join(libdir, inc)) or
                    os.path.isfile(os.path.join(libdir, inc + ".in"))):
                yield f"{where}: no such header in lib/"
            continue
        if target not in rule:
            yield f"{where}: {target}/ is neither a room nor a lib/ layer"
        elif target != room and target not in rule[room]:
            yield (f"{where}: {room}/ may not include {target}/ (app_rooms:"
                   f" {room} may include {', '.join(rule[room]) or 'no room'})")
        elif not os.path.isfile(os.path.join(appdir, target, rest)):
            yield f"{where}: no such header"
        else:
            other = f"{target}/{os.path.splitext(rest)[0]}"
            if other != me:
                graph.setdefault(me, set()).add(other)


def lib_app_problems(libdir, layers, rule):
    """A line per include of an app/ room's header in lib/."""
    for layer in layers:
        folder = os.path.join(libdir, layer)
        names = os.listdir(folder) if os.path.isdir(folder) else []
        for name in sorted(n for n in names if n.endswith((".c", ".h"))):
            text = open(os.path.join(folder, name), encoding="utf-8").read()
            for inc in INCLUDE.findall(text):
                if inc.split("/")[0] in rule and "/" in inc:
                    yield (f"{layer}/{name}: #include \"{inc}\": lib/ never"
                           f" includes app/")


def app_check(argv):
    """With APP_ARG APPDIR ROOM=BELOW,... at the end of argv: take them out
    of argv, print a line per problem of app/ (app_problems) and of lib/
    including app/, then a summary line. Returns the number of problems
    (0 without APP_ARG)."""
    if APP_ARG not in argv:
        return 0
    i = argv.index(APP_ARG)
    args = argv[i + 1:]
    del argv[i:]
    if not args:
        sys.exit(f"{APP_ARG} APPDIR ROOM=BELOW,BELOW... (app_rooms)")
    appdir, rule = args[0], app_rule(args[1:])
    libdir, layers = argv[1], argv[2:]
    found = list(app_problems(appdir, rule, libdir, layers))
    found += lib_app_problems(libdir, layers, rule)
    for p in found:
        print(p)
    shown = "; ".join(f"{r} > {','.join(b) or '-'}" for r, b in rule.items())
    print(f"layers: {len(found)} problem(s) in {appdir} ({shown})")
    return len(found)


def main():
    nb_app = app_check(sys.argv)
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    found = list(problems(sys.argv[1], sys.argv[2:]))
    found += long_files(os.path.dirname(os.path.abspath(sys.argv[1])))
    for p in found:
        print(p)
    print(f"layers: {len(found)} problem(s) in {sys.argv[1]} "
          f"({' < '.join(sys.argv[2:])})")
    return 1 if found or nb_app else 0


if __name__ == "__main__":
    sys.exit(main())
