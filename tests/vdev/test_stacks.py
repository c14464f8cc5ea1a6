# SPDX-License-Identifier: BSD-3-Clause
"""Header stacks (--stack, docs/traffic.md) on real frames: every supported
stack sent into a net_pcap capture and dissected by tshark (an independent
dissector: the layers it finds, every IPv4 header checksum and every UDP
checksum, the test header in the innermost UDP payload); stacked frames
over a ring pair found by the receiver's rare path, every one exactly;
bad input refused."""
import os
import re
import struct
import subprocess
import tempfile
from xml.etree import ElementTree

import cases
import pcapgen
import wrtest
from test_traffic import capture, tshark
from wrtest import Checker

# spec: its layers as tshark names them, in order (one mpls a label).
STACKS = {
    "eth/vlan(id=10)/vlan(id=20)/ipv4/udp": "eth vlan vlan ip udp",
    "eth/svlan(id=100)/vlan(id=20)/ipv6/udp": "eth ieee8021ad vlan ipv6 udp",
    "eth/mpls(label=100)/mpls(label=200)/ipv4/udp": "eth mpls mpls ip udp",
    "eth/ipv4(src=10.0.0.1,dst=10.0.0.2)/udp/vxlan(vni=42)/eth/ipv4/udp":
        "eth ip udp vxlan eth ip udp",
    "eth/ipv6(src=fd00::1,dst=fd00::2)/udp/vxlan/eth/ipv4/udp":
        "eth ipv6 udp vxlan eth ip udp",
    "eth/ipv6/gre/eth/ipv4/udp": "eth ipv6 gre eth ip udp",
    "eth/ipv4/gre(key=7)/ipv6/udp": "eth ip gre ipv6 udp",
    "eth/ipv4/udp/geneve(vni=9)/eth/ipv6/udp": "eth ip udp geneve eth ipv6 udp",
    "eth/ipv6/udp/geneve/ipv4/udp": "eth ipv6 udp geneve ip udp",
}
# A field tshark gives once in each header of a layer (ip.version is not
# one: IPv6 has it too). A frame's layers are these fields in the order of
# their place in the frame, not tshark's frame.protocols, whose wording
# changes between versions (4.4 names an MPLS frame's chain
# eth:ethertype:mpls:udp:data, 4.0 eth:ethertype:mpls:ip:udp:data).
LAYER_FIELDS = {"eth.src": "eth", "ieee8021ad.id": "ieee8021ad", "vlan.id": "vlan",
                "mpls.label": "mpls", "ip.src": "ip", "ipv6.src": "ipv6",
                "udp.dstport": "udp", "gre.proto": "gre", "vxlan.vni": "vxlan",
                "geneve.vni": "geneve"}
NB = 50
PORT0 = 10    # the innermost UDP destination port of stacks_pcap's first stream


def layers(c, path):
    """The layers tshark found in each frame of the capture at path, in
    the order of their place in the frame: [[name, ...]] (LAYER_FIELDS)."""
    p = subprocess.run(["tshark", "-r", path, "-n", "-T", "pdml"], capture_output=True,
                       text=True, timeout=120)
    c.eq(p.returncode, 0, "tshark -T pdml reads %s" % os.path.basename(path))
    out = []
    for pkt in ElementTree.fromstring(p.stdout or "<pdml/>").iter("packet"):
        at = sorted((int(f.get("pos")), LAYER_FIELDS[f.get("name")])
                    for f in pkt.iter("field") if f.get("name") in LAYER_FIELDS)
        out.append([name for _, name in at])
    return out


def tshark_rows(c, path):
    """(frame.len, IPv4 checksum statuses, UDP checksum statuses, UDP
    payloads, layers, UDP destination ports) per frame; several
    occurrences of a field are ';'-joined."""
    rows = tshark(c, path, ["frame.len", "ip.checksum.status", "udp.checksum.status",
                            "udp.payload", "udp.dstport"],
                  ["-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
                   "-E", "aggregator=;"])
    found = layers(c, path)
    c.eq(len(found), len(rows), "tshark -T pdml and -T fields: as many frames")
    return [(int(r[0]), r[1].split(";") if r[1] else [], r[2].split(";"), r[3].split(";"),
             lay, r[4].split(";")) for r, lay in zip(rows, found)]


def check_rows(c, rows, spec, sizes, nb_frames, chain=None):
    """Every frame of rows: one of sizes (FCS included), the layers
    tshark found the stack's, IPv4 headers good, every UDP checksum over
    IPv6 good and none bad, our test header in the innermost UDP. chain:
    the layers of a spec not in STACKS."""
    want = (chain or STACKS[spec]).split()
    c.eq(len(rows), nb_frames, "%s: frames captured" % spec)
    nb_udp6 = sum(1 for a, b in zip(want, want[1:]) if (a, b) == ("ipv6", "udp"))
    bad = {"size": 0, "layers": 0, "ip": 0, "udp": 0, "magic": 0}
    for flen, ipck, udpck, payload, found, _ in rows:
        bad["size"] += flen + 4 not in sizes
        bad["layers"] += found != want
        bad["ip"] += len(ipck) != want.count("ip") or any(s != "1" for s in ipck)
        # 1 good, 3 not present (0 over IPv4): no bad (0) or illegal (4).
        bad["udp"] += udpck.count("1") != nb_udp6 or any(s not in ("1", "3") for s in udpck)
        bad["magic"] += not payload[-1].startswith("57524831")
    c.eq(bad, {k: 0 for k in bad}, "%s: frames with a wrong size, layers, "
         "IPv4 checksum, UDP checksum or test header" % spec)


def check_pcap(c, path, spec, sizes, nb_frames, chain=None):
    """check_rows over every frame of the capture at path."""
    check_rows(c, tshark_rows(c, path), spec, sizes, nb_frames, chain)


def stack_streams(sizes, flows):
    """--stream options: a stream for each stack of STACKS, at its size of
    sizes, its frames told apart by their innermost UDP destination port
    (PORT0 + its index)."""
    return [x for i, (spec, size) in enumerate(zip(STACKS, sizes)) for x in (
        "--stream", "name=s%d;stack=%s;size=%d;dport=%d%s" % (
            i, spec, size, PORT0 + i, ";flows=%d" % flows if flows else ""))]


def stacks_capture(c, d, name, sizes, flows=0):
    """Every stack of STACKS, NB frames each at its size of sizes, in one
    run (a stream a stack, each on its own TX queue: a pcap file each),
    the files joined into one for tshark: each stack's frames checked
    (check_rows) apart. Returns (the run, the joined file's path)."""
    files = [os.path.join(d, "%s-q%d.pcap" % (name, i)) for i in range(len(STACKS))]
    r = wrtest.run(["net_pcap0," + ",".join("tx_pcap=" + f for f in files)],
                   ["--rx-ports", "none", "--quiet", "--count", str(NB * len(STACKS))] +
                   stack_streams(sizes, flows))
    c.eq(r.rc, 0, "%s: exit code (err %r)" % (name, r.err[-300:]))
    path = os.path.join(d, name + ".pcap")
    pcapgen.write_pcap(path, [x for f in files if os.path.exists(f)
                              for x in pcapgen.read_pcap(f)])
    rows = tshark_rows(c, path)
    per = [[x for x in rows if x[5][-1:] == [str(PORT0 + i)]] for i in range(len(STACKS))]
    c.eq(sum(map(len, per)), len(rows), "%s: every frame one stack's (its "
         "innermost UDP port)" % name)
    for spec, size, got in zip(STACKS, sizes, per):
        check_rows(c, got, spec, {size}, NB)
    if r.doc is not None:
        c.eq(r.doc["totals"][0]["nic_opackets"], NB * len(STACKS),
             "%s: the PMD sent all" % name)
    return r, path


def stacks_pcap():
    """Every supported stack at 1518 bytes with 5 flows (the UDP checksum
    that covers the stamps changes per frame), then at its smallest size:
    each a stream of one run, tshark dissects each frame as its stack
    says, checksums good."""
    c = Checker("stacks_pcap")
    with tempfile.TemporaryDirectory() as d:
        stacks_capture(c, d, "1518", [1518] * len(STACKS), flows=5)
        mins = []
        for spec in STACKS:
            # The smallest frame the stack allows, as the error for 64 B names it.
            small = wrtest.run(["net_null0"], ["--stack", spec, "--size", "64",
                                               "--count", "1", "--quiet"])
            c.eq(small.rc, 2, "%s: --size 64 refused" % spec)
            m = re.findall(r"at least (\d+) bytes", small.err)
            c.true(len(m) >= 1, "%s: the error names the minimum (%r)" % (spec, small.err))
            mins.append(int(m[0]) if m else 1518)
        r, path = stacks_capture(c, d, "smallest", mins)
        spec = next(s for s in STACKS if "mpls" in s)
        labels = tshark(c, path, ["mpls.label", "mpls.bottom"], ["-Y", "mpls",
                                                                 "-E", "aggregator=;"])
        c.eq((len(labels), set(labels)), (NB, {("100;200", "0;1")}),
             "%s: its frames' labels, bottom of stack" % spec)
        check_layers_tell(c, d, path, spec)
    c.done(r)


def check_layers_tell(c, d, path, spec):
    """The layers check tells the MPLS stack's frame (the first MPLS one)
    cut here of its IPv4 header, or of its second label and with the
    first one made the bottom, from the stack's."""
    frames = [f for _, f in pcapgen.read_pcap(path) if f[12:14] == b"\x88\x47"]
    if not frames:
        return
    f = frames[0]
    bottom = f[14:16] + bytes([f[16] | 1]) + f[17:18]
    cut = os.path.join(d, "cut.pcap")
    pcapgen.write_pcap(cut, [(0, f[:22] + f[42:]), (0, f[:14] + bottom + f[22:])])
    found = layers(c, cut)
    print("%s cut: without IPv4 %s; one label %s" % (spec, *(found + [None, None])[:2]))
    c.eq(len(found), 2, "%s cut: both frames read" % spec)
    c.eq([x for x in found if x == STACKS[spec].split()], [],
         "%s: a frame without its IPv4 header or a label fails the layers check" % spec)


def ring_run(c, what, opts):
    """20000 frames of opts over a ring pair: exit 0, every stream
    balanced, every frame own (none foreign or malformed), none lost.
    Returns the run."""
    r = wrtest.run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
                        "--count", "20000", "--quiet", "--grace", "50ms"] + opts)
    c.eq(r.rc, 0, "%s: exit code (err %r)" % (what, r.err[-300:]))
    if r.doc is not None:
        wrtest.stream_balance(c, r.doc)
        rx = r.doc["totals"][1]
        c.eq(rx["rx_own_pkts"], 20000, "%s: every frame own" % what)
        c.eq(rx["rx_foreign_pkts"] + rx["rx_malformed_pkts"], 0,
             "%s: none foreign or malformed" % what)
        c.eq(r.doc["streams"][0]["lost_pkts"], 0, "%s: none lost" % what)
    return r


def stacks_ring():
    """Stacked frames over a ring pair (nothing strips them): the receiver
    finds every test header through the stack (rare path), so every frame
    is its stream's, none foreign, sent = received, and the received count
    is the PMD's. Per stream too, each with its own stack."""
    c = Checker("stacks_ring")
    r = None
    for spec in ("eth/ipv6/udp/vxlan/eth/ipv4/udp", "eth/svlan/vlan/mpls/ipv6/udp",
                 "eth/ipv4/gre/eth/vlan(id=5)/ipv4/udp"):
        r = ring_run(c, spec, ["--size", "200", "--stack", spec])
        if r.doc is None:
            continue
        c.eq((r.doc["config"].get("stack"), r.doc["tx_streams"][0].get("stack")),
             (spec, spec), "%s: the result says what was sent" % spec)
    r = wrtest.run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
                        "--rxq", "2", "--count", "20000", "--quiet", "--grace", "50ms",
                        "--size", "200",
                        "--stream", "name=vx;stack=eth/ipv4/udp/vxlan/eth/ipv6/udp",
                        "--stream", "name=plain;dport=9"])
    c.eq(r.rc, 0, "two streams: exit code (err %r)" % r.err[-300:])
    if r.doc is not None:
        wrtest.stream_balance(c, r.doc)
        c.eq(sorted((s["rx_pkts"], s["lost_pkts"]) for s in r.doc["streams"]),
             [(10000, 0), (10000, 0)], "each stream all received")
        c.eq(r.doc["totals"][1]["rx_foreign_pkts"], 0, "two streams: none foreign")
        c.eq(sorted((s["name"], s.get("stack")) for s in r.doc["tx_streams"]),
             [("plain", None), ("vx", "eth/ipv4/udp/vxlan/eth/ipv6/udp")],
             "two streams: each its own stack in tx_streams")
    c.done(r)


def stacks_bad_inputs():
    """Stacks refused before traffic, exit 2, with what was wrong."""
    c = Checker("stacks_bad_inputs")
    for opts, msg in (
            (["--stack", "eth/vlan(id=5000)/ipv4/udp"],
             "--stack eth/vlan(id=5000)/ipv4/udp: layer 2 (vlan): id=5000: expected"),
            (["--stack", "eth/ipv4/udp/vxlan/ipv4/udp"], "layer 5: ipv4 cannot follow vxlan"),
            (["--stack", "eth/vlan/ipv4/udp", "--vlan", "3"], "a VLAN tag beside a stack"),
            (["--stack", "eth/ipv6/udp/vxlan/eth/ipv6/udp", "--mix", "imix"],
             "--mix imix: frame size 64 is below the 154 bytes a stacked frame needs"),
            (["--stack", "eth/vlan/ipv4/udp", "--ipv6"], "the stack ends in ipv4/udp but IPv6"),
            (["--stack", "eth/ipv6/udp/vxlan/eth/ipv6/udp", "--size", "100"],
             "--size 100: a stacked frame needs at least 154 bytes"),
            (["--stream", "stack=eth/ipv4"], "--stream 1: stack=eth/ipv4: it must end in"),
            (["--stream", "l3=ipv4;stack=eth/ipv6/udp"],
             "--stream 1 (stream0): the stack ends in ipv6/udp but IPv4"),
            (["--stack", "eth/vlan/ipv4/udp", "--size", "128", "--src-mac",
              "02:00:00:00:00:01-02:00:00:00:00:04"],
             "--stack: a src-mac range with a stack is not supported"),
            (["--stream", "size=200;dst-ip=10.0.0.1-10.0.0.9;stack=eth/ipv6/udp/vxlan/eth/ipv4/udp"],
             "--stream 1 (stream0): a dst-ip range with a stack that has an outer UDP "
             "over IPv6 is not supported")):
        wrtest.refused(c, ["net_null0"], ["--count", "10", "--quiet"] + opts, msg)
    c.done()


def ip4_cksum(hdr):
    """The IPv4 header checksum of hdr (RFC 791), hdr's own taken as 0."""
    hdr = hdr[:10] + b"\0\0" + hdr[12:]
    s = sum(struct.unpack(">%dH" % (len(hdr) // 2), hdr))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def template_frames():
    """Frames of a template file, built here with struct (not by
    wirerate): 1 an ARP request (no UDP), 2 VLAN 7 / IPv4 with a 4-byte
    option / UDP / VXLAN 77 / Ethernet / IPv6 (flow label 0xabcde) / UDP
    with every length and checksum wrong, 3 IPv4 / GRE with a checksum /
    IPv4 / UDP."""
    arp = bytes.fromhex("ffffffffffff020000000001" "0806" "0001080006040001") + bytes(20)
    inner6 = (struct.pack(">IHBB", 0x60000000 | 0xabcde, 999, 17, 9) +
              bytes.fromhex("fd00" + "00" * 13 + "0a") + bytes.fromhex("fd00" + "00" * 13 + "0b"))
    inner = (bytes.fromhex("02cc00000001" "02dd00000002" "86dd") + inner6 +
             struct.pack(">HHHH", 1, 2, 3, 0xbeef) + b"0123456789")
    vx = struct.pack(">HHHH", 1111, 4789, 7, 0xdead) + struct.pack(">II", 0x08000000, 77 << 8)
    ip = struct.pack(">BBHHHBBH4s4s", 0x46, 10 << 2, 5, 0x1234, 0x4000, 33, 17, 0x1111,
                     bytes([198, 18, 7, 1]), bytes([198, 18, 7, 2])) + bytes([1, 1, 1, 0])
    f2 = (bytes.fromhex("02aa00000001" "02bb00000002" "8100") + struct.pack(">HH", 3 << 13 | 7,
          0x0800) + ip + vx + inner)
    gre = struct.pack(">HHHH", 0x8000, 0x0800, 0, 0)
    ip_in = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 46, 0, 0, 64, 17, 0, bytes(4), bytes(4))
    ip_out = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 70, 0, 0, 64, 47, 0, bytes(4), bytes(4))
    f3 = (bytes.fromhex("02aa00000001" "02bb00000002" "0800") + ip_out + gre + ip_in +
          struct.pack(">HHHH", 1, 2, 26, 0) + bytes(18))
    return [(10**9, arp), (2 * 10**9, f2), (3 * 10**9, f3)]


# What tshark makes of frame 2 of template_frames as wirerate sends it at
# 300 bytes: the template's fields kept, lengths for the size.
TEMPLATE_LAYERS = ["eth", "vlan", "ip", "udp", "vxlan", "eth", "ipv6", "udp"]
TEMPLATE_FIELDS = ["vlan.id", "vlan.priority", "ip.id", "ip.ttl",
                   "ip.dsfield.dscp", "ip.len", "ip.checksum.status", "vxlan.vni",
                   "ipv6.flow", "ipv6.hlim", "ipv6.src", "ipv6.plen", "udp.length",
                   "udp.checksum.status", "udp.srcport", "udp.payload"]
TEMPLATE_WANT = ("7", "3", "0x1234", "33", "10", "278", "1", "77", "0x0abcde", "9",
                 "fd00::a", "184", "254;184", "3;1")


def stacks_template_pcap():
    """--stack template=FILE:N: the headers of frame N of a capture file
    written here, up to its innermost UDP payload, carry the test header;
    tshark finds the template's own fields (VLAN id and priority, IPv4 ID,
    TTL, DSCP, an IPv4 option, the VNI, the inner IPv6 flow label and
    addresses) with every length fixed for the size and every checksum
    good, also with 4 flows (the inner UDP over IPv6 checksum changes per
    frame). A frame captured from a --stack run, used as a template, gives
    the same header bytes back."""
    c = Checker("stacks_template_pcap")
    r = None
    with tempfile.TemporaryDirectory() as d:
        tmpl = os.path.join(d, "tmpl.pcap")
        pcapgen.write_pcap(tmpl, template_frames())
        out = os.path.join(d, "out.pcap")
        r = capture(["--stack", "template=%s:2" % tmpl, "--size", "300", "--count",
                     str(NB), "--flows", "4"], out)
        c.eq(r.rc, 0, "exit code (err %r)" % r.err[-300:])
        rows = tshark(c, out, TEMPLATE_FIELDS,
                      ["-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
                       "-E", "aggregator=;"])
        c.eq(len(rows), NB, "frames captured")
        c.eq({x[:len(TEMPLATE_WANT)] for x in rows}, {TEMPLATE_WANT},
             "the template's fields, lengths for 300 bytes, checksums good")
        c.eq([x for x in layers(c, out) if x != TEMPLATE_LAYERS], [],
             "every frame's layers the template's")
        c.eq(sorted({x[14].split(";")[1] for x in rows}), ["1024", "1025", "1026", "1027"],
             "4 flows on the inner UDP source port")
        c.eq(sum(1 for x in rows if not x[15].split(";")[-1].startswith("57524831")), 0,
             "the test header in the inner UDP payload")
        if r.doc is not None:
            c.eq(r.doc["totals"][0]["nic_opackets"], NB, "the PMD sent all")
            c.eq(r.doc["config"].get("stack"), "template=%s:2" % tmpl, "the result says")
        spec = "eth/ipv4/gre(key=5)/eth/vlan(id=9)/ipv6/udp"
        first, again = os.path.join(d, "first.pcap"), os.path.join(d, "again.pcap")
        r = capture(["--stack", spec, "--size", "200", "--count", "3"], first)
        c.eq(r.rc, 0, "%s: exit code" % spec)
        r = capture(["--stack", "template=" + first, "--size", "200", "--count", "3"], again)
        c.eq(r.rc, 0, "template from a capture: exit code (err %r)" % r.err[-300:])
        a, b = [pcapgen.read_pcap(x) if os.path.exists(x) else [] for x in (first, again)]
        hdr = 14 + 20 + 8 + 14 + 4 + 40 + 8
        c.eq(len(b), 3, "template from a capture: frames")
        if len(a) == 3 and len(b) == 3:
            # Up to the inner UDP checksum, which covers each frame's stamps.
            c.eq(b[0][1][:hdr - 2].hex(), a[0][1][:hdr - 2].hex(),
                 "template from a capture: the same header bytes")
            c.eq(b[0][1][hdr:hdr + 4], b"WRH1", "template from a capture: test header")
    c.done(r)


def stacks_template_ring():
    """A template's frames over a ring pair: the receiver finds every test
    header through the template's headers, sent = received exactly, the
    received count the PMD's."""
    c = Checker("stacks_template_ring")
    r = None
    with tempfile.TemporaryDirectory() as d:
        tmpl = os.path.join(d, "tmpl.pcap")
        pcapgen.write_pcap(tmpl, template_frames())
        r = ring_run(c, "template", ["--size", "200", "--stack", "template=%s:2" % tmpl])
    c.done(r)


def stacks_template_bad():
    """Bad templates refused before traffic, exit 2, naming the file, the
    frame and what is wrong."""
    c = Checker("stacks_template_bad")
    with tempfile.TemporaryDirectory() as d:
        tmpl = os.path.join(d, "tmpl.pcap")
        pcapgen.write_pcap(tmpl, template_frames())
        cut = os.path.join(d, "cut.pcap")
        with open(tmpl, "rb") as f, open(cut, "wb") as g:
            g.write(f.read()[:-10])
        for opts, msg in (
                (["--stack", "template=%s:1" % tmpl],
                 "%s: frame 1: no UDP payload: the walk" % tmpl),
                (["--stack", "template=%s:4" % tmpl], "%s: frame 4: the file holds 3 frames" % tmpl),
                (["--stack", "template=%s:3" % tmpl],
                 "%s: frame 3: layer 3 (gre) has a checksum" % tmpl),
                (["--stack", "template=%s:x0" % tmpl], "%s:x0" % tmpl),
                (["--stack", "template=%s:2" % cut], "%s: frame 3" % cut),
                (["--stack", "template=%s:2" % tmpl, "--size", "100"],
                 "--size 100: a stacked frame needs at least 142 bytes"),
                (["--stack", "template=%s:2" % tmpl, "--size", "200", "--dst-ip",
                  "10.0.0.1-10.0.0.2"], "a dst-ip range with a template"),
                (["--stream", "stack=template=%s:9" % tmpl],
                 "--stream 1: stack=template=%s:9: %s: frame 9" % (tmpl, tmpl))):
            wrtest.refused(c, ["net_null0"], ["--count", "10", "--quiet"] + opts, msg)
    c.done()


# Stacks for a mix: the live UDP checksum outermost (UDP over IPv6, IPv4
# inside), innermost (IPv4 outside, IPv6 inside), with no Ethernet inside;
# each with its header bytes and its outer UDP's offset.
MIX_STACKS = (("eth/ipv6(src=fd00::1,dst=fd00::2)/udp/vxlan/eth/ipv4/udp", 112, 54),
              ("eth/ipv4/udp/geneve(vni=9)/eth/ipv6/udp", 112, 34),
              ("eth/ipv6/udp/geneve/ipv4/udp", 98, 54))


def stacks_mix_pcap():
    """--mix inside a stack: every size of the mix (the stack's smallest,
    an odd one, 1518) in its 3:2:1 share, the layers tshark finds, every
    IPv4 header checksum and UDP over IPv6 checksum good, the outer and
    inner UDP lengths those of each frame's size."""
    c = Checker("stacks_mix_pcap")
    r = None
    with tempfile.TemporaryDirectory() as d:
        for i, (spec, hdr, udp_off) in enumerate(MIX_STACKS):
            path = os.path.join(d, "x%d.pcap" % i)
            small = hdr + 22
            r = capture(["--stack", spec, "--mix", "%d:3,601:2,1518:1" % small,
                         "--count", "600"], path)
            c.eq(r.rc, 0, "%s: exit code (err %r)" % (spec, r.err[-300:]))
            check_pcap(c, path, spec, {small, 601, 1518}, 600)
            rows = tshark(c, path, ["frame.len", "udp.length"], ["-E", "aggregator=;"])
            sizes = [int(x[0]) + 4 for x in rows]
            c.eq({z: sizes.count(z) for z in set(sizes)}, {small: 300, 601: 200, 1518: 100},
                 "%s: every size, 3:2:1" % spec)
            c.eq(sum(1 for x in rows if [int(u) for u in x[1].split(";")] !=
                     [int(x[0]) - udp_off, int(x[0]) - hdr + 8]), 0,
                 "%s: outer and inner UDP lengths of each frame's size" % spec)
    c.done(r)


def stacks_mix_ring():
    """A mix inside VXLAN over a ring pair: every frame found, sent =
    received exactly, bytes too, the PMD agreeing."""
    c = Checker("stacks_mix_ring")
    r = ring_run(c, "mix", ["--mix", "134:7,600:4,1518:1", "--stack", MIX_STACKS[0][0]])
    c.done(r)


# Ranges inside a stack: (options, the stack, the innermost fields tshark
# reports, their values); fixed size (each row's whole IPv4 checksum) and a
# mix (the checksum TX stamped, updated per row).
RANGE_RUNS = (
    (["--size", "200", "--src-ip", "198.18.0.1-198.18.0.4", "--sport", "1000-1002",
      "--dscp", "0-1"], "eth/ipv4(src=10.0.0.1,dst=10.0.0.2)/udp/vxlan(vni=42)/eth/ipv4/udp",
     ["ip.src", "udp.srcport", "ip.dsfield.dscp"],
     {(a, p, d) for a in ("198.18.0.1", "198.18.0.2", "198.18.0.3", "198.18.0.4")
      for p in ("1000", "1001", "1002") for d in ("0", "1")}),
    (["--mix", "150,600", "--src-ip6", "2001:2::1-2001:2::3", "--dport", "7-8"],
     "eth/vlan(id=5)/ipv4/gre(key=3)/eth/ipv6/udp", ["ipv6.src", "udp.dstport"],
     {(a, p) for a in ("2001:2::1", "2001:2::2", "2001:2::3") for p in ("7", "8")}),
)


def stacks_ranges_pcap():
    """Field ranges on the innermost IPv4/IPv6 and UDP inside a stack:
    tshark sees every combination of the ranges' values in the innermost
    headers, the outer ones untouched, every checksum good."""
    c = Checker("stacks_ranges_pcap")
    r = None
    with tempfile.TemporaryDirectory() as d:
        for i, (opts, spec, fields, want) in enumerate(RANGE_RUNS):
            path = os.path.join(d, "r%d.pcap" % i)
            nb = 4 * len(want)
            r = capture(["--stack", spec, "--count", str(nb)] + opts, path)
            c.eq(r.rc, 0, "%s: exit code (err %r)" % (spec, r.err[-300:]))
            sizes = {int(z) for z in opts[1].split(",")} if opts[0] == "--mix" else {200}
            check_pcap(c, path, spec, sizes, nb, "eth vlan ip gre eth ipv6 udp"
                       if "gre" in spec else None)
            rows = tshark(c, path, fields, ["-E", "aggregator=;"])
            got = [tuple(x.split(";")[-1] for x in row) for row in rows]
            c.eq(set(got), want, "%s: every combination in the innermost headers" % spec)
            c.eq({g: got.count(g) for g in set(got)}, {w: 4 for w in want},
                 "%s: each as often" % spec)
            if "vxlan" in spec:
                outer = tshark(c, path, ["ip.src"], ["-E", "aggregator=;"])
                c.eq({x[0].split(";")[0] for x in outer}, {"10.0.0.1"}, "outer source kept")
    c.done(r)


def stacks_ranges_ring():
    """Ranges inside a stack over a ring pair: every frame found, sent =
    received exactly."""
    c = Checker("stacks_ranges_ring")
    r = None
    for opts, spec, _, _ in RANGE_RUNS:
        r = ring_run(c, spec, ["--stack", spec] + opts)
    c.done(r)


CASES = cases.by_name(stacks_pcap, stacks_ring, stacks_bad_inputs, stacks_template_pcap,
                      stacks_template_ring, stacks_template_bad, stacks_mix_pcap,
                      stacks_mix_ring, stacks_ranges_pcap, stacks_ranges_ring)

if __name__ == "__main__":
    cases.main(CASES)
