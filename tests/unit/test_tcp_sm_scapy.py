# SPDX-License-Identifier: BSD-3-Clause
"""lib/tcp's state machine fed segments that scapy crafts, its answers
read back by scapy: through tests/unit/tcp_wire_tool.c's "listen" mode
(wire.c parses, a passive connection takes them, wire.c builds the
answers). SYN with options (MSS, SACK-permitted, timestamps, window
scale) and the SYN,ACK's SACK-permitted, SACK blocks in the ACKs of
out-of-order data (none without SACK agreed), a duplicate SYN, a SYN
and a RST once synchronized (challenge ACKs, RFC 5961), data outside
the window, data and a FIN across 2^32, a
RST at rcv_nxt; IPv4 and IPv6. Exit 0 when all hold, 1 on a mismatch, 77
(meson's skip) when scapy is not installed.
Usage: test_tcp_sm_scapy.py TOOL"""
import subprocess
import sys

import scapy_probe  # noqa: F401  (skips without python3-scapy)
from scapy.layers.inet import IP, TCP  # noqa: E402
from scapy.layers.inet6 import IPv6  # noqa: E402

TOOL = sys.argv[1]
FAILS = []
ISS = 1000000
# RFC 9293 3.3.2, in conn.h's order
CLOSED, SYN_RCVD, ESTABLISHED, CLOSE_WAIT = 0, 3, 4, 7


def check(ok, what):
    if not ok:
        FAILS.append(what)
        print("FAIL", what)


def run(pkts, mss=1460, wscale=5):
    """The tool's (state, [answers as scapy packets]) for each packet."""
    args = [TOOL, "listen", str(ISS), str(mss), str(wscale)] + \
        [bytes(p).hex() for p in pkts]
    out = subprocess.run(args, check=True, capture_output=True, text=True)
    res = []
    for line in out.stdout.split("\n")[:len(pkts)]:
        st, frames = line.split(" ")
        answers = [] if frames == "-" else [
            IP(bytes.fromhex(h)) if h[0] == "4" else IPv6(bytes.fromhex(h))
            for h in frames.split(",")]
        res.append((int(st), answers))
    check(len(res) == len(pkts), "an answer line per packet: %d of %d" %
          (len(res), len(pkts)))
    return res


def sums_ok(p):
    """scapy's own checksums of p's fields equal those on the wire."""
    q = p.copy()
    del q[TCP].chksum
    if q.version == 4:
        del q.chksum
    q = q.__class__(bytes(q))
    ok = q[TCP].chksum == p[TCP].chksum
    return ok and (p.version == 6 or q.chksum == p.chksum)


def one(res, i, flags, seq, ack, what):
    """Answer i is one segment with these flags, seq and ack."""
    st, ans = res[i]
    check(len(ans) == 1, "%s: one answer, got %d" % (what, len(ans)))
    if len(ans) != 1:
        return None
    t = ans[0][TCP]
    check(str(t.flags) == flags, "%s: flags %s, want %s" %
          (what, t.flags, flags))
    check((t.seq, t.ack) == (seq, ack), "%s: seq/ack %d/%d, want %d/%d" %
          (what, t.seq, t.ack, seq, ack))
    check(sums_ok(ans[0]), "%s: checksums" % what)
    return ans[0]


def test_ipv4():
    """The whole life of a passive connection, IPv4, across 2^32."""
    x = 2**32 - 16          # the peer's ISN: its data crosses 2^32
    ip = IP(src="10.0.0.1", dst="10.0.1.1")

    def seg(**kw):
        return ip / TCP(sport=40000, dport=80, window=1000, **kw)

    syn = seg(seq=x, flags="S", options=[
        ("MSS", 1400), ("SAckOK", b""), ("Timestamp", (1, 0)),
        ("NOP", None), ("WScale", 7)])
    a, n = (x + 1) % 2**32, ISS + 1
    pkts = [syn, syn,
            seg(seq=a, ack=n, flags="A"),
            seg(seq=(a + 5000) % 2**32, flags="S"),
            seg(seq=(a + 100) % 2**32, flags="R"),
            seg(seq=(a + 100000) % 2**32, ack=n, flags="PA") / (b"z" * 100),
            seg(seq=a, ack=n, flags="PA") / (b"y" * 100),
            seg(seq=(a + 300) % 2**32, ack=n, flags="PA") / (b"x" * 50),
            seg(seq=(a + 200) % 2**32, ack=n, flags="PA") / (b"w" * 100),
            seg(seq=(a + 100) % 2**32, ack=n, flags="PA") / (b"v" * 100),
            seg(seq=(a + 350) % 2**32, ack=n, flags="FA"),
            seg(seq=(a + 351) % 2**32, flags="R")]
    res = run(pkts)
    # SYN: SYN,ACK with our MSS, shift and SACK-permitted (the SYN
    # offered it, RFC 2018 2); no timestamps
    sa = one(res, 0, "SA", ISS, a, "SYN")
    if sa is not None:
        check((sa.src, sa.dst, sa.sport, sa.dport) ==
              ("10.0.1.1", "10.0.0.1", 80, 40000), "SYN,ACK's tuple")
        check(sa[TCP].options == [("MSS", 1460), ("NOP", None),
                                  ("WScale", 5), ("NOP", None),
                                  ("NOP", None), ("SAckOK", b"")],
              "SYN,ACK's options: %s" % sa[TCP].options)
        check(sa[TCP].window == 65535, "SYN,ACK's window, unscaled")
    check(res[0][0] == SYN_RCVD, "SYN_RCVD after the SYN")
    one(res, 1, "SA", ISS, a, "duplicate SYN")
    check(res[2] == (ESTABLISHED, []), "the ACK: ESTABLISHED, silent")
    one(res, 3, "A", n, a, "SYN in ESTABLISHED: challenge ACK")
    one(res, 4, "A", n, a, "RST in the window: challenge ACK")
    one(res, 5, "A", n, a, "data outside the window: ACK, not taken")
    d = one(res, 5, "A", n, a, "data outside the window: no SACK block")
    if d is not None:
        check(d[TCP].options == [], "no block: %s" % d[TCP].options)
    check(res[6] == (ESTABLISHED, []), "100 bytes: the ACK delayed")
    # out of order across 2^32: SACK blocks (RFC 2018 4), the range of
    # the latest segment first
    b = [(a + k) % 2**32 for k in (100, 200, 300, 350)]
    want = [(b[2], b[3]), (b[1], b[3])]
    for i in (0, 1):
        d = one(res, 7 + i, "A", n, b[0], "out of order %d" % i)
        if d is not None:
            check(d[TCP].options == [("NOP", None), ("NOP", None),
                                     ("SAck", want[i])],
                  "SACK blocks %d: %s" % (i, d[TCP].options))
    d = one(res, 9, "A", n, b[3], "the hole filled")
    if d is not None:
        check(d[TCP].options == [], "no hole, no block: %s" %
              d[TCP].options)
    fin = one(res, 10, "A", n, (a + 351) % 2**32, "FIN after the data")
    if fin is not None:
        check(fin[TCP].window == 65535 >> 5, "window scaled by our shift")
    check(res[10][0] == CLOSE_WAIT, "CLOSE_WAIT after the FIN")
    check(res[11] == (CLOSED, []), "RST at rcv_nxt: CLOSED, silent")


def test_ipv6():
    """IPv6: a SYN without options (536), then RSTs out of the window;
    no SACK-permitted offered, so out-of-order data gets no block."""
    ip = IPv6(src="2001:db8::1", dst="2001:db8::2")
    syn = ip / TCP(sport=50000, dport=443, seq=7, flags="S", window=4000)
    pkts = [syn,
            ip / TCP(sport=50000, dport=443, seq=8 + 70000, flags="R"),
            ip / TCP(sport=50000, dport=443, seq=8, ack=ISS + 1,
                     flags="A", window=4000),
            ip / TCP(sport=50000, dport=443, seq=1008, ack=ISS + 1,
                     flags="PA", window=4000) / (b"u" * 100)]
    res = run(pkts, mss=1440, wscale=-1)
    sa = one(res, 0, "SA", ISS, 8, "IPv6 SYN")
    if sa is not None:
        check(sa[TCP].options == [("MSS", 1440)],
              "IPv6 SYN,ACK's options: %s" % sa[TCP].options)
    check(res[1] == (SYN_RCVD, []), "RST out of the window: dropped")
    check(res[2] == (ESTABLISHED, []), "IPv6 ESTABLISHED")
    d = one(res, 3, "A", ISS + 1, 8, "IPv6 out of order")
    if d is not None:
        check(d[TCP].options == [], "no SACK agreed, no block: %s" %
              d[TCP].options)


test_ipv4()
test_ipv6()
print("%d failures" % len(FAILS))
sys.exit(1 if FAILS else 0)
