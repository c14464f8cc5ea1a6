# SPDX-License-Identifier: BSD-3-Clause
"""lib/tcp/wire.c checked by scapy, both ways: segments the C builder
writes (through tests/unit/tcp_wire_tool.c) are read by scapy, which
recomputes the checksums and reads the options; segments scapy crafts
(options of every kind the parser knows, payloads, both families) are read
by the C parser; malformed ones are refused. Exit 0 when all hold, 1 on a
mismatch, 77 (meson's skip) when scapy is not installed.
Usage: test_tcp_wire_scapy.py TOOL"""
import subprocess
import sys

import scapy_probe  # noqa: F401  (skips without python3-scapy)
from scapy.layers.inet import IP, TCP  # noqa: E402
from scapy.layers.inet6 import IPv6  # noqa: E402

TOOL = sys.argv[1]
FAILS = []


def check(ok, what):
    if not ok:
        FAILS.append(what)
        print("FAIL", what)


def c_build(src, sport, dst, dport, seq, ack, flags, wnd, mss, wscale,
            length, off, seed, mode, sack=None):
    """The C builder's packet (None when it refuses the segment)."""
    args = [TOOL, "build", src, str(sport), dst, str(dport), str(seq),
            str(ack), str(flags), str(wnd), str(mss), str(wscale),
            str(length), str(off), str(seed), mode] + \
        ([sack] if sack else [])
    out = subprocess.run(args, check=False, capture_output=True, text=True)
    if out.returncode == 1:
        return None
    out.check_returncode()
    return bytes.fromhex(out.stdout.strip())


def c_parse(raw):
    out = subprocess.run([TOOL, "parse", raw.hex()], check=True,
                         capture_output=True, text=True)
    return dict(line.split("=", 1) for line in out.stdout.split())


def pattern(seed, off, length):
    """The synthetic payload, written from wire.h's definition."""
    out = bytearray()
    for k in range(off, off + length):
        x = (k + seed) & 0xffffffff
        out.append((x + 2 * (x >> 8)) & 0xff)
    return bytes(out)


def scapy_pkt(raw):
    return IP(raw) if raw[0] >> 4 == 4 else IPv6(raw)


def scapy_sums(raw):
    """The checksums scapy computes for raw's fields: (ip, tcp)."""
    p = scapy_pkt(raw)
    del p[TCP].chksum
    if raw[0] >> 4 == 4:
        del p.chksum
    q = scapy_pkt(bytes(p))
    return (q.chksum if raw[0] >> 4 == 4 else None), q[TCP].chksum


def ones_sum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(int.from_bytes(data[i:i + 2], "big")
            for i in range(0, len(data), 2))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


SHAPES = [
    ("10.0.0.1", 40000, "10.0.1.1", 80, 2, 1460, 7, 0),        # SYN
    ("10.0.0.1", 40000, "10.0.1.1", 80, 0x12, 1460, -1, 0),    # SYN-ACK
    ("10.0.0.1", 65535, "10.0.1.1", 8080, 0x18, 0, -1, 1448),  # data
    ("10.0.0.1", 1024, "10.0.1.1", 80, 0x11, 0, -1, 1),        # FIN, odd
    ("2001:db8::1", 40000, "2001:db8::2", 443, 2, 1440, 14, 0),
    ("2001:db8::1", 40001, "2001:db8::2", 443, 0x18, 0, -1, 1001),
]


def test_c_built():
    """What C builds, scapy reads: fields, options, payload, checksums."""
    for i, (src, sp, dst, dp, flags, mss, ws, length) in enumerate(SHAPES):
        seq, ack, off, seed = 0xfffffff0 + i, 123456789 * i, 5000 + i, 77
        raw = c_build(src, sp, dst, dp, seq, ack, flags, 29200, mss, ws,
                      length, off, seed, "sw")
        p = scapy_pkt(raw)
        t = p[TCP]
        check((p.src, p.dst, t.sport, t.dport) == (src, dst, sp, dp),
              "tuple %d" % i)
        check((t.seq, t.ack, int(t.flags), t.window) ==
              (seq & 0xffffffff, ack & 0xffffffff, flags, 29200),
              "header %d" % i)
        want_opts = ([("MSS", mss)] if mss else []) + \
            ([("NOP", None), ("WScale", ws)] if ws >= 0 else [])
        check(t.options == want_opts, "options %d: %s" % (i, t.options))
        check(bytes(t.payload) == pattern(seed, off, length),
              "payload %d" % i)
        ip_sum, tcp_sum = scapy_sums(raw)
        check(t.chksum == tcp_sum, "tcp checksum %d: %#x, scapy %#x" %
              (i, t.chksum, tcp_sum))
        if ip_sum is not None:
            check(p.chksum == ip_sum, "ip checksum %d" % i)


def test_offload():
    """Offload modes: the pseudo-header sum, as DPDK's NICs expect; the
    IPv4 header's checksum left 0 too, or (offload-tcp) computed."""
    for mode in ("offload", "offload-tcp"):
        for i, (src, sp, dst, dp, flags, mss, ws, length) in enumerate(SHAPES):
            raw = c_build(src, sp, dst, dp, 1, 2, flags, 100, mss, ws, length,
                          0, 3, mode)
            p = scapy_pkt(raw)
            v4 = raw[0] >> 4 == 4
            hdr = 20 if v4 else 40
            addrs = raw[12:20] if v4 else raw[8:40]
            tcp_len = len(raw) - hdr
            pseudo = addrs + bytes([0, 6]) + tcp_len.to_bytes(2, "big")
            check(p[TCP].chksum == ones_sum(pseudo),
                  "%s pseudo sum %d" % (mode, i))
            if v4:
                ip_sum, _ = scapy_sums(raw)
                want = 0 if mode == "offload" else ip_sum
                check(p.chksum == want, "%s ip checksum %d: %#x, want %#x" %
                      (mode, i, p.chksum, want))


def test_scapy_built():
    """What scapy crafts, C reads."""
    opts = [("MSS", 1380), ("SAckOK", b""), ("Timestamp", (1, 2)),
            ("NOP", None), ("WScale", 9)]
    cases = [
        IP(src="192.0.2.1", dst="198.51.100.7") /
        TCP(sport=80, dport=41000, seq=7, ack=9, flags="SA", window=65535,
            options=opts),
        IPv6(src="2001:db8::7", dst="2001:db8::9") /
        TCP(sport=443, dport=50000, seq=2**32 - 1, ack=0, flags="PA",
            window=512, options=[("NOP", None), ("NOP", None),
                                 ("SAck", (100, 200, 300, 400))]) /
        (b"x" * 333),
        IP(src="192.0.2.1", dst="198.51.100.7") /
        TCP(sport=1, dport=2, flags="S", options=[("WScale", 15),
                                                  ("EOL", None)]),
    ]
    want = [(1380, 9, 1 | 2 | 4 | 16, 0), (0, -1, 8, 333), (0, 14, 2, 0)]
    for i, pkt in enumerate(cases):
        raw = bytes(pkt)
        got = c_parse(raw)
        t = pkt[TCP]
        check(got["rc"] == "0", "parse rc %d: %s" % (i, got["rc"]))
        if got["rc"] != "0":
            continue
        check((got["src"], got["dst"]) == (pkt.src, pkt.dst), "addr %d" % i)
        check((int(got["sport"]), int(got["dport"]), int(got["seq"]),
               int(got["ack"]), int(got["flags"]), int(got["wnd"])) ==
              (t.sport, t.dport, t.seq, t.ack, int(t.flags), t.window),
              "fields %d" % i)
        mss, ws, opts_seen, length = want[i]
        check((int(got["mss"]), int(got["wscale"]), int(got["opts"]),
               int(got["len"])) == (mss, ws, opts_seen, length),
              "options %d: %s" % (i, got))
        check(int(got["payload_off"]) == len(raw) - length, "off %d" % i)
        check(got["csum_ok"] == "1", "checksum %d" % i)
        bad = bytearray(raw)
        bad[(20 if raw[0] >> 4 == 4 else 40) + 4] ^= 0x40  # in seq
        check(c_parse(bytes(bad))["csum_ok"] == "0", "bad checksum %d" % i)


def test_sack():
    """SACK-permitted and SACK blocks (RFC 2018): what C builds, scapy
    reads, across 2^32; what scapy builds, C reads."""
    raw = c_build("192.0.2.1", 1, "198.51.100.7", 2, 5, 0, 0x02, 100,
                  1460, 7, 0, 0, 1, "sw", "ok")
    t = scapy_pkt(raw)[TCP]
    check(t.options == [("MSS", 1460), ("NOP", None), ("WScale", 7),
                        ("NOP", None), ("NOP", None), ("SAckOK", b"")],
          "SYN's SACK-permitted: %s" % t.options)
    for n in range(1, 5):
        edges = [(2**32 - 3000 + 1000 * k) % 2**32 for k in range(2 * n)]
        spec = ",".join("%d-%d" % (edges[2 * k], edges[2 * k + 1])
                        for k in range(n))
        for src, dst in (("192.0.2.1", "198.51.100.7"),
                         ("2001:db8::7", "2001:db8::9")):
            raw = c_build(src, 1, dst, 2, 5, 6, 0x10, 100, 0, -1, 0, 0, 1,
                          "sw", spec)
            t = scapy_pkt(raw)[TCP]
            check(t.options == [("NOP", None), ("NOP", None),
                                ("SAck", tuple(edges))],
                  "%d SACK blocks: %s" % (n, t.options))
            check(t.dataofs == 5 + 1 + 2 * n, "data offset, %d" % n)
            check(t.chksum == scapy_sums(raw)[1], "checksum, %d" % n)
    check(c_build("192.0.2.1", 1, "198.51.100.7", 2, 5, 0, 0x02, 100,
                  1460, 7, 0, 0, 1, "sw", "ok,1-2,3-4,5-6,7-8") is None,
          "a SYN's options with 4 blocks (48 bytes) refused")
    for n in range(1, 5):
        edges = tuple((2**32 - 1500 + 700 * k) % 2**32
                      for k in range(2 * n))
        pkt = IP(src="192.0.2.1", dst="198.51.100.7") / TCP(
            sport=1, dport=2, flags="A", options=[
                ("NOP", None), ("NOP", None), ("SAck", edges)])
        got = c_parse(bytes(pkt))
        want = ",".join("%d-%d" % (edges[2 * k], edges[2 * k + 1])
                        for k in range(n))
        check((got["rc"], got["sack_ok"], got["sack"]) == ("0", "0", want),
              "C reads %d blocks: %s" % (n, got))
    got = c_parse(bytes(IP() / TCP(flags="S", options=[("SAckOK", b"")])))
    check((got["sack_ok"], got["sack"]) == ("1", "-"),
          "C reads SACK-permitted: %s" % got)


def test_malformed():
    """Malformed options and lengths are refused (-EBADMSG, -74)."""
    base = IP(src="192.0.2.1", dst="198.51.100.7")
    bad_opts = [
        b"\x02\x03\x05\xb4",             # MSS of length 3
        b"\x03\x04\x07\x00",             # window scale of length 4
        b"\x08\x0a\0\0\0\0\0\0\0\0" + b"\x01\x01",  # fine, then below
        b"\x01\x01\x05\x00",             # SACK of length 0
        b"\x01\x01\x01\x22",             # a kind 0x22 option past the end
        b"\x04\x03\x00\x00",             # SACK-permitted of length 3
    ]
    for i, o in enumerate(bad_opts):
        raw = bytes(base / TCP(sport=1, dport=2, options=[]))
        raw = bytearray(raw)
        doff = 5 + len(o) // 4
        raw[40:40] = o
        raw[2:4] = len(raw).to_bytes(2, "big")
        raw[20 + 12] = doff << 4
        got = c_parse(bytes(raw))["rc"]
        check(got == ("0" if i == 2 else "-74"), "bad option %d: %s" %
              (i, got))
    raw = bytearray(bytes(base / TCP()))
    raw[20 + 12] = 4 << 4                # data offset 16 bytes
    check(c_parse(bytes(raw))["rc"] == "-74", "short data offset")
    raw = bytes(base / TCP() / b"abc")
    check(c_parse(raw[:-1])["rc"] == "-74", "truncated packet")


test_c_built()
test_offload()
test_scapy_built()
test_sack()
test_malformed()
print("%d failures" % len(FAILS))
sys.exit(1 if FAILS else 0)
