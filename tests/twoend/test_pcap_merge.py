# SPDX-License-Identifier: BSD-3-Clause
"""The file and tool side of the two-ended beds: frames written by net_pcap
checked byte by byte through tcpdump, the `wirerate merge` command line on
crafted results, and the kernel-path comparison script."""
import json
import os
import re
import shutil
import struct
import subprocess

import cases
import twoend
from twoend import Bed, skip
from wrtest import Checker

SRC_MAC, DST_MAC = "02:00:00:00:00:01", "02:00:00:00:00:02"
SRC_IP, DST_IP, SPORT, DPORT = "10.1.0.1", "10.2.0.2", 4000, 5000
PCAP_COUNT = 300


def ip_csum(hdr):
    """RFC 1071 one's complement sum of 16-bit words, complemented."""
    s = sum(struct.unpack("!%dH" % (len(hdr) // 2), hdr))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def expected_frame(size, seq):
    """The frame wirerate documents (docs/results.md, lib/base/frame.h), built
    independently: Ethernet / IPv4 (DF, TTL 64, valid checksum) / UDP
    (checksum 0) / test header (WRH1, stream 0, seq, tsc) / byte pattern.
    The 4 TSC bytes are returned as None: they vary."""
    data_len = size - 4
    mac = lambda s: bytes(int(x, 16) for x in s.split(":"))
    ipb = lambda s: bytes(int(x) for x in s.split("."))
    eth = mac(DST_MAC) + mac(SRC_MAC) + b"\x08\x00"
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, data_len - 14, 0, 0x4000, 64, 17,
                     0, ipb(SRC_IP), ipb(DST_IP))
    ip = ip[:10] + struct.pack("!H", ip_csum(ip)) + ip[12:]
    udp = struct.pack("!HHHH", SPORT, DPORT, data_len - 34, 0)
    th = b"WRH1" + struct.pack("<HQ", 0, seq)
    frame = list(eth + ip + udp + th) + [None] * 4
    frame += [i & 0xff for i in range(len(frame), data_len)]
    return frame


def tcpdump_frames(path):
    """(header text, bytes) per frame, as tcpdump -v -xx reads the file."""
    p = subprocess.run(["tcpdump", "-r", path, "-nn", "-e", "-v", "-xx"],
                       capture_output=True, text=True, timeout=60)
    frames = []
    for line in p.stdout.splitlines():
        if line[:1].isdigit():
            frames.append([line, bytearray()])
        elif line.startswith("\t0x") and frames:
            hexpart = line.split(":", 1)[1]
            frames[-1][1] += bytes.fromhex(hexpart.replace(" ", ""))
        elif frames:
            frames[-1][0] += "\n" + line
    return p, frames


def pcap_size(c, bed, size):
    path = bed.path("out%d.pcap" % size)
    res = bed.wirerate("a", ["net_pcap0,tx_pcap=" + path], [
        "--rx-ports", "none", "--count", str(PCAP_COUNT), "--size", str(size),
        "--src-mac", SRC_MAC, "--dst-mac", DST_MAC, "--src-ip", SRC_IP,
        "--dst-ip", DST_IP, "--sport", str(SPORT), "--dport", str(DPORT),
        "--quiet", "--json", bed.path("p%d.json" % size)], name="pcap%d" % size)
    c.eq(res.wait(60), 0, "%d B: exit code" % size)
    doc = twoend.load_json(bed.path("p%d.json" % size))
    c.eq(doc and doc["totals"][0]["tx_pkts"], PCAP_COUNT, "%d B: frames sent" % size)
    p, frames = tcpdump_frames(path)
    c.eq(p.returncode, 0, "%d B: tcpdump reads the file" % size)
    c.true("link-type EN10MB" in p.stderr, "%d B: Ethernet capture" % size)
    c.eq(len(frames), PCAP_COUNT, "%d B: frames in the file" % size)
    bad = 0
    for seq, (hdr, data) in enumerate(frames):
        want = expected_frame(size, seq)
        same = len(data) == len(want) and all(w is None or w == d
                                              for w, d in zip(want, data))
        ok = (same and "length %d:" % (size - 4) in hdr and "bad cksum" not in hdr
              and "UDP, length %d" % (size - 46) in hdr)
        if not ok and bad < 3:
            diff = next((i for i, (w, d) in enumerate(zip(want, data))
                         if w is not None and w != d), None)
            print("%d B frame %d differs (len %d, want %d, first byte %s)\n%s" %
                  (size, seq, len(data), len(want), diff, hdr))
        bad += not ok
    c.eq(bad, 0, "%d B: frames identical byte by byte to the documented "
         "format, IPv4 checksum valid per tcpdump" % size)


def pcap():
    """net_pcap writes 64, 1518 and 9018-byte frames; tcpdump reads them
    back and each is compared byte by byte with a frame built here."""
    if shutil.which("tcpdump") is None:
        skip("tcpdump is not installed (scripts/lib/setup.sh installs it)")
    c, bed = Checker("pcap"), Bed("pcap")
    for size in (64, 1518, 9018):
        pcap_size(c, bed, size)
    if c.failed:
        bed.dump()
    bed.close()
    c.done()


def result(tx=None, rx=None, schema="wirerate-result/1"):
    # The receiver times another process's frames: --latency tsc, one host.
    d = {"schema": schema, "env": {"hostname": "h", "cmdline": "wirerate ..."},
         "config": {"latency": "tsc"},
         "stop_reason": "idle", "duration_s": 1.0, "streams": rx or []}
    if tx is not None:
        d["tx_streams"] = tx
    return d


def rx_stream(sid, rx, first, nxt, gaps, restarts=0, own=False):
    return {"stream_id": sid, "rx_port": 0, "sender_in_run": own, "rx_pkts": rx,
            "gap_pkts": gaps, "late_pkts": 2, "dup_pkts": 1, "old_pkts": 0,
            "restarts": restarts, "first_seq": first, "next_seq": nxt,
            "latency_mean_ns": 1000.0}


TX = [{"stream_id": 0, "port": 0, "queue": 0, "sent_pkts": 1000},
      {"stream_id": 1, "port": 0, "queue": 1, "sent_pkts": 500}]
GOOD_RX = [rx_stream(0, 990, 3, 997, 4)]  # head 3 + gaps 4 + tail 3 = 10

# (what, sender doc, receiver doc or raw text, expected exit code)
MERGES = [
    ("balanced with loss", result(TX), result(rx=GOOD_RX), 0),
    ("receiver saw beyond the sent count", result(TX),
     result(rx=[rx_stream(0, 990, 3, 1001, 8)]), 1),
    ("restart", result(TX), result(rx=[rx_stream(0, 990, 3, 997, 4, restarts=1)]), 1),
    ("stream the sender did not send", result(TX),
     result(rx=GOOD_RX + [rx_stream(7, 10, 0, 10, 0)]), 1),
    ("stream id collision", result(TX),
     result(rx=GOOD_RX + [rx_stream(1, 10, 0, 10, 0, own=True)]), 1),
    ("terms do not add up", result(TX), result(rx=[rx_stream(0, 990, 3, 997, 5)]), 1),
    ("no tx_streams", result(), result(rx=GOOD_RX), 2),
    ("empty tx_streams (swapped files)", result([]), result(rx=GOOD_RX), 2),
    ("wrong schema", result(TX, schema="other/1"), result(rx=GOOD_RX), 2),
    ("field missing", result(TX),
     result(rx=[{k: v for k, v in GOOD_RX[0].items() if k != "next_seq"}]), 2),
    ("not JSON", result(TX), "{not json", 2),
]


def merge_cli():
    """wirerate merge on crafted results: exact arithmetic, exit 0 / 1 / 2
    and a message naming what is wrong."""
    c, bed = Checker("merge_cli"), Bed("merge_cli")
    snd, rcv, out = bed.path("s.json"), bed.path("r.json"), bed.path("m.json")
    for what, s, r, want in MERGES:
        with open(snd, "w") as f:
            json.dump(s, f)
        with open(rcv, "w") as f:
            f.write(r if isinstance(r, str) else json.dumps(r))
        rc, text, m = twoend.merge(snd, rcv, out)
        c.eq(rc, want, "exit code for %s: %s" % (what, text.strip()[-300:]))
        if want == 2:
            c.true("error:" in text, "%s: message given" % what)
        if what == "balanced with loss" and m:
            row = m["streams"][0]
            c.eq((row["lost_pkts"], row["head_lost_pkts"], row["gap_pkts"],
                  row["tail_lost_pkts"]), (10, 3, 4, 3), "head/gaps/tail")
            c.eq(row["latency_mean_ns"], 1000.0, "receiver latency carried over")
            c.eq(m["streams"][1]["tail_lost_pkts"], 500, "unseen stream all lost")
            c.eq((m["totals"]["sent_pkts"], m["totals"]["rx_pkts"],
                  m["totals"]["lost_pkts"]), (1500, 990, 510), "totals")
            c.eq(m["schema"], "wirerate-merge/1", "schema")
            c.eq(m["sender"]["file"], snd, "sender file named")
    for argv, want in (([], 2), (["only-one.json"], 2), (["--help"], 0),
                       ([bed.path("missing.json"), rcv], 2)):
        p = subprocess.run([twoend.WIRERATE, "merge"] + argv, capture_output=True,
                           text=True, timeout=30)
        c.eq(p.returncode, want, "merge %s" % argv)
    p = subprocess.run([twoend.WIRERATE, "--help"], capture_output=True, text=True)
    for o in ("--start-on-rx", "--idle-timeout", "--reflect", "\n  merge "):
        c.true(o in p.stdout, "%s in --help" % o)
    bed.close()
    c.done()


def kernel_compare():
    """scripts/kernel-compare.sh: iperf3 (TCP, UDP) and wirerate (UDP
    frames; TCP to a kernel socket and to wirerate's server, the receiver's
    byte count equal to the client's, or the script fails) on one veth
    pair, one table with a figure in every row."""
    if shutil.which("iperf3") is None:
        skip("iperf3 is not installed (scripts/lib/setup.sh installs it)")
    c = Checker("kernel_compare")
    script = os.path.join(os.path.dirname(__file__), "..", "..", "scripts",
                          "kernel-compare.sh")
    env = dict(os.environ, WR_WIRERATE=twoend.WIRERATE)
    p = subprocess.run(["bash", script, "--duration", "1", "--sizes", "64",
                        "--conns", "1"],
                       capture_output=True, text=True, timeout=120, env=env)
    print(p.stdout[-3000:], p.stderr[-2000:])
    c.eq(p.returncode, 0, "exit code")
    rows = [l for l in p.stdout.splitlines() if l.startswith("|") and "---" not in l]
    names = [" ".join(x.strip() for x in r.split("|")[1:3]) for r in rows[1:]]
    for want in ("iperf3 TCP", "iperf3 UDP", "wirerate UDP", "wirerate TCP"):
        c.true(want in names, "row for %s in %s" % (want, names))
    paths = [r.split("|")[3].strip() for r in rows[1:]]
    for want in ("DPDK af_packet -> kernel, 1", "DPDK af_packet -> DPDK, 1"):
        c.true(want in paths, "row for %s in %s" % (want, paths))
    num = r"^\d+(\.\d+)?$"
    head = [x.strip() for x in rows[0].split("|")[1:-1]]
    c.eq(head[5:7], ["Gbit/s L2", "Gbit/s payload"], "the Gbit/s columns")
    for r in rows[1:]:
        cells = [x.strip() for x in r.split("|")[1:-1]]
        c.true(re.match(num, cells[6] or "") is not None, "payload Gbit/s in %s" % cells)
        if cells[1] == "TCP":     # segments through GSO: no L2 figure
            c.eq(cells[5], "-", "no L2 figure for TCP: %s" % cells)
        else:
            c.true(re.match(num, cells[5] or "") is not None, "L2 Gbit/s in %s" % cells)
    c.done()


def kernel_compare_help():
    """scripts/kernel-compare.sh --help: the usage text, no line of the
    script's shell after it."""
    c = Checker("kernel_compare_help")
    script = os.path.join(os.path.dirname(__file__), "..", "..", "scripts",
                          "kernel-compare.sh")
    p = subprocess.run(["bash", script, "--help"], capture_output=True, text=True,
                       timeout=30)
    c.eq(p.returncode, 0, "exit code")
    body = open(script).read()
    code = [ln for ln in body.splitlines() if ln and not ln.startswith("#")]
    lines = p.stdout.splitlines()
    c.true(lines and lines[0].startswith("The kernel path"), "starts with the text: %r" % lines[:1])
    c.eq([ln for ln in lines if ln in code], [], "no line of the script's code")
    c.true(lines and lines[-1] == "when missing).", "ends with the text: %r" % lines[-1:])
    c.done()


CASES = cases.by_name(pcap, merge_cli, kernel_compare, kernel_compare_help)
