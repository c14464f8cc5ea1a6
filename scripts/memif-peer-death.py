#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""How often a memif survivor crashes when its peer dies (docs/testbeds.md).

Usage: memif-peer-death.py N WIRERATE [WIRERATE ...]

For each of N rounds and each binary (the order flips every round): a
TX-only wirerate sends as memif server for 6 s, a wirerate receiver
(memif client, its worker on the other CPU) joins and is SIGKILLed 2.5 s
later. The sender's exit is recorded: an exit code is a survivor, a
signal (DPDK 22.11's memif unmapping its regions under a burst) a crash.
Needs root and hugepages (both --in-memory). Standard library only.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

EAL = ["--no-pci", "--in-memory", "--log-level=*:error"]


def memif(sock, role):
    return "net_memif0,role=%s,socket=%s,socket-abstract=no" % (role, sock)


def one(wr, d):
    """One round with binary wr in directory d: the sender's exit status
    and what its result file says (None when the sender crashed before
    writing a final one)."""
    sock, out = os.path.join(d, "m.sock"), os.path.join(d, "snd.json")
    for f in (sock, out):
        if os.path.exists(f):
            os.unlink(f)
    snd = subprocess.Popen([wr, "-l", "0,1", "--file-prefix", "mpds%d" % os.getpid()] +
                           EAL + ["--vdev", memif(sock, "server"), "--", "--rx-ports",
                                  "none", "--duration", "6", "--quiet", "--json", out],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 20
    while not os.path.exists(sock) and time.monotonic() < end:
        time.sleep(0.05)
    rcv = subprocess.Popen([wr, "-l", "0,1", "--main-lcore", "1", "--file-prefix",
                            "mpdr%d" % os.getpid()] + EAL +
                           ["--vdev", memif(sock, "client"), "--", "--tx-ports", "none",
                            "--duration", "30", "--quiet"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(2.5)
    rcv.send_signal(signal.SIGKILL)
    rcv.wait()
    try:
        rc = snd.wait(timeout=30)
    except subprocess.TimeoutExpired:
        snd.kill()
        snd.wait()
        rc = "hang"
    try:
        with open(out) as f:
            stop = json.load(f).get("stop_reason")
    except (OSError, ValueError):
        stop = None
    return rc, stop


def main():
    if len(sys.argv) < 3 or not sys.argv[1].isdigit():
        sys.exit(__doc__)
    n, builds = int(sys.argv[1]), sys.argv[2:]
    res = {b: [] for b in builds}
    with tempfile.TemporaryDirectory() as d:
        for i in range(n):
            for b in (builds if i % 2 == 0 else builds[::-1]):
                rc, stop = one(b, d)
                res[b].append(rc)
                print("round %d %s: exit %s, result %s" % (i + 1, b, rc, stop), flush=True)
    for b in builds:
        bad = sum(1 for r in res[b] if r == "hang" or r < 0)
        print("%s: %d runs, %d crashed or hung" % (b, len(res[b]), bad))


if __name__ == "__main__":
    main()
