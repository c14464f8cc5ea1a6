# SPDX-License-Identifier: BSD-3-Clause
"""What the tbf bed of twoend conn_bulk_tbf and the benchmark's conn_tbf
case share: the shaper's settings and the payload rate it lets through,
and the receiver they both read (a small Python server run in the
receiving namespace: python3 -c RECEIVER ADDR PORT OUT, which writes a
JSON line per connection it closes: the sender's address and port, its
bytes, the times of its first and last read, the longest wait between
two reads, how it ended; OUT.ready once it listens). Figures the senders
did not make."""

SHAPER_BPS = 100 * 1000 * 1000
# What tbf counts of a full segment: Ethernet header 14 B (no FCS, no
# preamble: the qdisc sees the frame as the kernel built it), IPv4 20 B,
# TCP 20 B (no option: wirerate offers no timestamps), payload 1460 B
# (the MSS both ends announce on a 1500 B MTU). 1460 / 1514 of the rate.
FRAME_BYTES, PAYLOAD_BYTES = 14 + 20 + 20 + 1460, 1460
GOODPUT_BPS = SHAPER_BPS * PAYLOAD_BYTES / FRAME_BYTES
TBF = ["tbf", "rate", "100mbit", "burst", "4k", "limit", str(8 * FRAME_BYTES)]

RECEIVER = r"""
import json, selectors, socket, sys, time
addr, port, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sel = selectors.DefaultSelector()
ls = socket.socket()
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind((addr, port))
ls.listen(1024)
ls.setblocking(False)
sel.register(ls, selectors.EVENT_READ, None)
f = open(out, "a")
open(out + ".ready", "w").close()
while True:
    for key, _ in sel.select():
        if key.data is None:
            s, peer = ls.accept()
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ, {
                "addr": peer[0], "port": peer[1], "bytes": 0, "first": None,
                "last": None, "gap": 0.0})
            continue
        st, s = key.data, key.fileobj
        try:
            b = s.recv(1 << 20)
            end = None if b else "fin"
        except ConnectionResetError:
            b, end = b"", "reset"
        now = time.monotonic()
        if b:
            if st["first"] is not None:
                st["gap"] = max(st["gap"], now - st["last"])
            else:
                st["first"] = now
            st["last"] = now
            st["bytes"] += len(b)
        if end:
            st["end"] = end
            sel.unregister(s)
            s.close()
            f.write(json.dumps(st) + "\n")
            f.flush()
"""
