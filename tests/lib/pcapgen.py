# SPDX-License-Identifier: BSD-3-Clause
"""Capture files for the --replay tests, written with struct (no scapy), and
an independent reader of classic pcap (what net_pcap's tx_pcap writes):
  frames(n, seed)        n Ethernet frames of known, varied sizes
  write_pcap(path, fr)   classic pcap, either byte order, us or ns
  write_pcapng(path, fr) pcapng: SHB, IDB (if_tsresol), EPB or SPB
  read_pcap(path)        [(ts_ns, bytes)] of a classic pcap
Each frame is (ts_ns, bytes)."""
import random
import struct


def frame_bytes(i, size, rng):
    """An IPv4/UDP frame of size bytes (FCS excluded) that is not
    wirerate's (no test header): frame number i in its UDP payload."""
    payload = struct.pack(">I", i) + bytes(rng.randrange(256) for _ in range(size - 46))
    udp = struct.pack(">HHHH", 5000, 6000, 8 + len(payload), 0) + payload
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), i & 0xffff, 0, 64, 17,
                     0, bytes([198, 18, 0, 1]), bytes([198, 19, 0, 1]))
    s = sum(struct.unpack(">10H", ip))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    ip = ip[:10] + struct.pack(">H", ~s & 0xffff) + ip[12:]
    eth = bytes.fromhex("02000000000202000000000108 00".replace(" ", ""))
    return eth + ip + udp


def frames(n, gaps_ns, seed=1, sizes=(60, 128, 590, 1514)):
    """n frames, sizes cycling through sizes, frame k at the sum of the
    first k gaps (gaps_ns cycles), starting at 1.5 s after the epoch."""
    rng = random.Random(seed)
    ts, out = 1500000000, []
    for i in range(n):
        out.append((ts, frame_bytes(i, sizes[i % len(sizes)], rng)))
        ts += gaps_ns[i % len(gaps_ns)]
    return out


def write_pcap(path, frs, big=False, nsec=False, linktype=1, snaplen=65535):
    e = ">" if big else "<"
    with open(path, "wb") as f:
        f.write(struct.pack(e + "IHHiIII", 0xa1b23c4d if nsec else 0xa1b2c3d4, 2, 4,
                            0, 0, snaplen, linktype))
        for ts, data in frs:
            frac = ts % 10**9 if nsec else ts % 10**9 // 1000
            f.write(struct.pack(e + "IIII", ts // 10**9, frac, len(data), len(data)))
            f.write(data)


def _block(e, btype, body):
    body += b"\0" * (-len(body) % 4)
    n = 12 + len(body)
    return struct.pack(e + "II", btype, n) + body + struct.pack(e + "I", n)


def write_pcapng(path, frs, big=False, tsresol=9, simple=False, linktype=1):
    """tsresol: the if_tsresol byte (9: ns; 6: us; 0x80|k: 2^-k s)."""
    e = ">" if big else "<"
    shb = struct.pack(e + "IHHq", 0x1a2b3c4d, 1, 0, -1)
    opts = struct.pack(e + "HHB3x", 9, 1, tsresol) + struct.pack(e + "HH", 0, 0)
    idb = struct.pack(e + "HHI", linktype, 0, 0) + opts
    with open(path, "wb") as f:
        f.write(_block(e, 0x0a0d0d0a, shb) + _block(e, 1, idb))
        for ts, data in frs:
            if simple:
                f.write(_block(e, 3, struct.pack(e + "I", len(data)) + data))
                continue
            if tsresol & 0x80:
                t = ts * (1 << (tsresol & 0x7f)) // 10**9
            else:
                t = ts * 10**tsresol // 10**9
            f.write(_block(e, 6, struct.pack(e + "IIIII", 0, t >> 32, t & 0xffffffff,
                                             len(data), len(data)) + data))


def read_pcap(path):
    """[(ts_ns, bytes)] of a classic pcap, as written by libpcap."""
    with open(path, "rb") as f:
        d = f.read()
    magic = struct.unpack("<I", d[:4])[0]
    e = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
    nsec = struct.unpack(e + "I", d[:4])[0] == 0xa1b23c4d
    off, out = 24, []
    while off + 16 <= len(d):
        sec, frac, incl, _ = struct.unpack(e + "IIII", d[off:off + 16])
        out.append((sec * 10**9 + (frac if nsec else frac * 1000),
                    d[off + 16:off + 16 + incl]))
        off += 16 + incl
    return out


def _eth(ethertype, vlan=None):
    tag = struct.pack(">HH", 0x8100, vlan) if vlan is not None else b""
    return bytes.fromhex("020000000002020000000001") + tag + struct.pack(">H", ethertype)


def _ip4(proto, i, l4):
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), i & 0xffff, 0, 64, proto,
                     0, bytes([198, 18, 0, 1]), bytes([198, 19, 0, 1]))
    return ip[:10] + struct.pack(">H", ~_sum16(ip) & 0xffff) + ip[12:] + l4


def _sum16(b):
    b = b + b"\x00" * (len(b) % 2)
    s = sum(struct.unpack(">%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def udp_checksum_ok(frame):
    """(True/False, or None for no UDP or checksum 0 over IPv4) the UDP
    checksum of an Ethernet [802.1Q] IPv4/IPv6 UDP frame, computed here
    (RFC 768, RFC 8200 section 8.1), not by wirerate."""
    off, et = 14, struct.unpack(">H", frame[12:14])[0]
    if et == 0x8100:
        off, et = 18, struct.unpack(">H", frame[16:18])[0]
    if et == 0x0800 and frame[off + 9] == 17:
        ihl = (frame[off] & 0xf) * 4
        pseudo, u = frame[off + 12:off + 20], off + ihl
    elif et == 0x86dd and frame[off + 6] == 17:
        pseudo, u = frame[off + 8:off + 40], off + 40
    else:
        return None
    ulen = struct.unpack(">H", frame[u + 4:u + 6])[0]
    if et == 0x0800 and frame[u + 6:u + 8] == b"\x00\x00":
        return None
    return _sum16(pseudo + struct.pack(">HH", 17, ulen) + frame[u:u + ulen]) == 0xffff


def mixed_frames(n, gap_ns, seed=1):
    """n frames cycling through kinds (a list of (ts_ns, bytes, room)):
    IPv4/UDP with 14 and 60 payload bytes, TCP, 802.1Q-tagged IPv4/UDP and
    IPv6/UDP (valid checksum) with 100; room: a UDP payload of 18 bytes
    or more, where wirerate's 18-byte test header fits."""
    rng, out = random.Random(seed), []
    for i in range(n):
        pl = struct.pack(">I", i) + bytes(rng.randrange(256) for _ in range(96))
        k = i % 5
        if k == 3:
            udp = struct.pack(">HHHH", 5000, 6000, 8 + len(pl), 0) + pl
            src, dst = bytes(15) + b"\x01", bytes(15) + b"\x02"
            ck = ~_sum16(src + dst + struct.pack(">HH", 17, len(udp)) + udp) & 0xffff
            udp = udp[:6] + struct.pack(">H", ck or 0xffff) + udp[8:]
            f = _eth(0x86dd) + struct.pack(">IHBB", 0x60000000, len(udp), 17, 64) + \
                src + dst + udp
        elif k == 2:
            tcp = struct.pack(">HHIIBBHHH", 80, 5000, i, 0, 0x50, 0x18, 512, 0, 0) + pl
            f = _eth(0x0800) + _ip4(6, i, tcp)
        else:
            size = (14, 60, 0, 0, 100)[k]
            udp = struct.pack(">HHHH", 5000, 6000, 8 + size, 0) + pl[:size]
            f = _eth(0x0800, vlan=10 if k == 4 else None) + _ip4(17, i, udp)
            f += bytes(max(0, 60 - len(f)))
        out.append((1500000000 + i * gap_ns, f, k != 0 and k != 2))
    return out
