#!/usr/bin/env python3
"""The layers of lib/ point one way: a file includes headers of its own
folder and of folders earlier in lib/meson.build's wr_layers, never later.
And the result document has one owner: only results/ writes JSON keys
(the other layers hand it C structs), but for the files of JSON_ELSEWHERE.

usage: layers.py LIBDIR LAYER...   (LAYER in order, lowest first)
Exit 1 with one line per upward or unknown include; 0 when clean.
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
}


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


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    found = list(problems(sys.argv[1], sys.argv[2:]))
    for p in found:
        print(p)
    print(f"layers: {len(found)} problem(s) in {sys.argv[1]} "
          f"({' < '.join(sys.argv[2:])})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
