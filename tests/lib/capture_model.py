# SPDX-License-Identifier: BSD-3-Clause
"""What a --capture pcapng file must hold, and how to read it without
wirerate: the --impair fixture's arrival order and capture.h's keep rule as
models, tshark and tcpdump as readers. Shared by tests/vdev/test_capture.py
and tests/twoend/test_veth_methods.py. Standard library only."""
import struct
import subprocess

MAGIC = 0x31485257  # WR_FRAME_MAGIC, little-endian on the wire


def tshark_fields(path, fields):
    """Rows of the given tshark fields, one per frame, in file order."""
    argv = ["tshark", "-r", path, "-T", "fields", "-E", "separator=|"]
    for f in fields:
        argv += ["-e", f]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise RuntimeError("tshark -r %s: %s" % (path, p.stderr))
    return [line.split("|") for line in p.stdout.splitlines()]


def tcpdump_times(path):
    """Epoch seconds of each frame as tcpdump -tt prints them."""
    p = subprocess.run(["tcpdump", "-n", "-tt", "-r", path], capture_output=True,
                       text=True, timeout=60)
    if p.returncode != 0:
        raise RuntimeError("tcpdump -r %s: %s" % (path, p.stderr))
    return [float(line.split()[0]) for line in p.stdout.splitlines()]


def tcpdump_count(path):
    p = subprocess.run(["tcpdump", "-n", "-r", path], capture_output=True,
                       text=True, timeout=60)
    return p.returncode, len(p.stdout.splitlines())


def seq_of(payload_hex):
    """Sequence of one of our frames from its UDP payload (test header)."""
    b = bytes.fromhex(payload_hex.replace(":", ""))
    magic, stream, seq = struct.unpack_from("<IHQ", b, 0)
    return seq if magic == MAGIC else None


def arrival(n, drop, dup, reorder, late=None):
    """Sequences in the order the fixture hands them to the receiver
    (impair.h: drop/dup/reorder=N@K on seq % N == K). late: the reorder
    frames that did pass after their successor (None: all of them); a
    held frame released on an empty poll stays in order."""
    out, held = [], None
    for s in range(n):
        if s % drop[0] == drop[1]:
            continue
        if s % reorder[0] == reorder[1] and held is None and (late is None or s in late):
            held = s
            continue
        out.append(s)
        if s % dup[0] == dup[1]:
            out.append(s)
        if held is not None:
            out.append(held)
            held = None
    if held is not None:
        out.append(held)
    return out


def expected(arr, around, last):
    """What capture.h promises to keep of arrival list arr: around frames
    each side of every frame whose sequence is not the expected next one,
    and the last frames at the stop. Budget not reached here."""
    keep, nxt, after, started = [], 0, 0, False
    for i, s in enumerate(arr):
        odd = started and s != nxt
        started = True
        if s >= nxt:
            nxt = s + 1
        if odd:
            lo = max(i - around, keep[-1] + 1 if keep else 0)
            keep.extend(range(lo, i + 1))
            after = around
        elif after:
            keep.append(i)
            after -= 1
    lo = max(len(arr) - last, keep[-1] + 1 if keep else 0)
    keep.extend(range(lo, len(arr)))
    return [arr[i] for i in keep]
