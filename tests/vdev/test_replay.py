# SPDX-License-Identifier: BSD-3-Clause
"""--replay FILE on virtual ports (docs/replay.md): captures written here
with known sizes and gaps (tests/lib/pcapgen.py), replayed into net_pcap's
tx_pcap, whose file is read back by tcpdump and by pcapgen's own reader
(not by wirerate): every frame byte for byte and in order, gaps against the
capture's; a ring pair accounted by the PMD counters; bad files refused.
Gaps are milliseconds and every timing check is relative to the capture's
own and robust to a worker descheduled for a while (check_timing): a
timing or speed bug fails them, a loaded machine does not.
Usage: test_replay.py CASE (see CASES)."""
import os
import struct
import subprocess
import tempfile

import cases
import pcapgen
import wrtest
from wrtest import Checker

GAPS_MS = (1000000, 3000000, 2000000, 2000000)


def replay(path, out, opts, queues=1):
    """Replay path into a net_pcap port writing out (a list of files with
    queues > 1, one TX queue each); the Result."""
    outs = out if isinstance(out, list) else [out]
    vdev = "net_pcap0," + ",".join("tx_pcap=" + o for o in outs)
    return wrtest.run([vdev], ["--replay", path, "--rx-ports", "none", "--quiet",
                               "--txq", str(queues)] + opts, timeout=120)


def tcpdump_count(path):
    p = subprocess.run(["tcpdump", "-n", "-r", path], capture_output=True, text=True)
    return p.returncode, len(p.stdout.splitlines())


def same_frames(c, got, want, what):
    """got's frames are want's, byte for byte, in order (timestamps aside)."""
    c.eq(len(got), len(want), "%s: frames" % what)
    bad = next((i for i, (g, w) in enumerate(zip(got, want)) if g[1] != w[1]), None)
    c.eq(bad, None, "%s: first frame that differs" % what)


def check_sent(c, r, frs, loops=1):
    """The result's TX count and bytes (FCS included) and the PMD's own."""
    c.eq(r.rc, 0, "exit code")
    if r.doc is None:
        c.true(False, "a result written")
        return
    t = r.doc["totals"][0]
    c.eq(t["tx_pkts"], loops * len(frs), "tx_pkts")
    c.eq(t["nic_opackets"], loops * len(frs), "the PMD's opackets")
    c.eq(t["tx_bytes"], loops * sum(len(f) + 4 for _, f in frs), "tx_bytes")


def offsets(frs):
    return [t - frs[0][0] for t, _ in frs]


def check_timing(c, got, want, speed=1.0, tol=0.03):
    """Against the capture's own timing over speed, robust to load (a
    worker descheduled for a while sends what fell due at once, then keeps
    the schedule again: frames are late, never early): the span from the
    first frame to the last within tol of the capture's; and frames back
    on schedule, at least 10 % of them within 0.5 ms of the earliest-aligned
    schedule (a speed or timing bug leaves almost none there)."""
    go, wo = offsets(got), [o / speed for o in offsets(want)]
    if len(go) != len(wo) or len(go) < 3:
        c.true(False, "timing: %d frames to compare with %d" % (len(go), len(wo)))
        return
    c.true(abs(go[-1] / wo[-1] - 1) <= tol, "span %.4f s against the capture's "
           "%.4f s (within %g %%)" % (go[-1] / 1e9, wo[-1] / 1e9, tol * 100))
    late = [g - w for g, w in zip(go, wo)]
    base = min(late)
    on = sum(x - base <= 500000 for x in late) / len(late)
    c.true(on >= 0.1, "%.1f %% of the frames on schedule" % (100 * on))


def replay_timing():
    """1500 frames of 60..1514 bytes, gaps of 1 to 3 ms, at their own
    timing: tcpdump and our reader see every frame, byte for byte, in
    order, with the capture's gaps; the counts and bytes are exact."""
    c = Checker("replay_timing")
    frs = pcapgen.frames(1500, GAPS_MS)
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "in.pcap"), os.path.join(d, "out.pcap")
        pcapgen.write_pcap(src, frs)
        r = replay(src, out, [])
        check_sent(c, r, frs)
        rc, nb = tcpdump_count(out)
        c.eq((rc, nb), (0, len(frs)), "tcpdump -r: exit code and frames")
        got = pcapgen.read_pcap(out)
    same_frames(c, got, frs, "own timing")
    check_timing(c, got, frs)
    span = frs[-1][0] - frs[0][0]
    loop = span + span // (len(frs) - 1)
    if r.doc is not None:
        rp = dict(r.doc.get("replay") or {})
        c.true(rp.pop("pool_bytes", 0) >= len(frs) * 1514, "replay.pool_bytes: "
               "at least the frames' room")
        c.eq(rp, {"frames": len(frs), "span_ns": span, "loop_ns": loop,
                  "mbufs": len(frs), "schedule_s": loop / 1e9},
             "result: replay{} (one copy: more frames than txd + 2 bursts)")
        c.true(r.doc["duration_s"] >= span / 1e9, "the run (%.4f s) not shorter than "
               "the capture's span (%.4f s)" % (r.doc["duration_s"], span / 1e9))
    c.done(r)


def replay_speed():
    """--replay-speed 2 and 0.5: the capture's gaps halved and doubled."""
    c = Checker("replay_speed")
    frs = pcapgen.frames(1500, GAPS_MS, seed=2)
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "in.pcap")
        for speed, n in ((2.0, 1500), (0.5, 300)):
            out = os.path.join(d, "out%g.pcap" % speed)
            pcapgen.write_pcap(src, frs[:n], nsec=True)
            r = replay(src, out, ["--replay-speed", "%g" % speed])
            check_sent(c, r, frs[:n])
            got = pcapgen.read_pcap(out)
            same_frames(c, got, frs[:n], "speed %g" % speed)
            check_timing(c, got, frs[:n], speed, tol=0.05)
    c.done(r)


def replay_loop():
    """--replay-loop 3 as fast as possible: the file three times, in order;
    and timed, each loop keeps the capture's gaps."""
    c = Checker("replay_loop")
    frs = pcapgen.frames(400, GAPS_MS, seed=3)
    small = frs[:60]
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "in.pcap"), os.path.join(d, "out.pcap")
        pcapgen.write_pcap(src, frs, big=True)
        r = replay(src, out, ["--replay-loop", "3", "--replay-speed", "max"])
        check_sent(c, r, frs, 3)
        same_frames(c, pcapgen.read_pcap(out), frs * 3, "3 loops")
        pcapgen.write_pcap(src, small)
        r = replay(src, out, ["--replay-loop", "2"])
        check_sent(c, r, small, 2)
        got = pcapgen.read_pcap(out)
        same_frames(c, got, small * 2, "2 timed loops")
        # The second loop starts one mean gap after the first one's end.
        span = small[-1][0] - small[0][0]
        want = small + [(t + span + span // (len(small) - 1), f) for t, f in small]
        check_timing(c, got, want, tol=0.2)
    c.done(r)


def replay_rate():
    """--rate 2kpps instead of the capture's timing: 2000 frames in 1 s
    (within 10 %), in order."""
    c = Checker("replay_rate")
    frs = pcapgen.frames(2000, GAPS_MS, seed=4)
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "in.pcap"), os.path.join(d, "out.pcap")
        pcapgen.write_pcap(src, frs)
        r = replay(src, out, ["--rate", "2kpps"])
        check_sent(c, r, frs)
        got = pcapgen.read_pcap(out)
    same_frames(c, got, frs, "--rate")
    span = (got[-1][0] - got[0][0]) / 1e9 if got else 0
    c.true(abs(span / 0.9995 - 1) <= 0.1, "2000 frames at 2 kpps in %.4f s" % span)
    c.done(r)


def replay_formats():
    """pcapng (ns, us, 2^-20 s resolution, big-endian, simple packet
    blocks) and pcap (big-endian, ns): each file's frames, byte for byte."""
    c = Checker("replay_formats")
    frs = pcapgen.frames(200, (1000000, 2000000), seed=5)
    variants = [
        ("pcap-be-ns", lambda p: pcapgen.write_pcap(p, frs, big=True, nsec=True)),
        ("ng-ns", lambda p: pcapgen.write_pcapng(p, frs)),
        ("ng-be-us", lambda p: pcapgen.write_pcapng(p, frs, big=True, tsresol=6)),
        ("ng-2^-20", lambda p: pcapgen.write_pcapng(p, frs, tsresol=0x80 | 20)),
        ("ng-spb", lambda p: pcapgen.write_pcapng(p, frs, simple=True)),
    ]
    r = None
    with tempfile.TemporaryDirectory() as d:
        for name, write in variants:
            src, out = os.path.join(d, name), os.path.join(d, name + ".out")
            write(src)
            speed = ["--replay-speed", "max"] if name == "ng-spb" else []
            r = replay(src, out, speed)
            check_sent(c, r, frs)
            got = pcapgen.read_pcap(out)
            same_frames(c, got, frs, name)
            if not speed:
                check_timing(c, got, frs, tol=0.2)
    c.done(r)


def replay_queues():
    """Two TX queues: frames split round robin, even ones on queue 0 and
    odd ones on queue 1, each at its own time."""
    c = Checker("replay_queues")
    frs = pcapgen.frames(301, GAPS_MS, seed=6)
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "in.pcap")
        outs = [os.path.join(d, "q0.pcap"), os.path.join(d, "q1.pcap")]
        pcapgen.write_pcap(src, frs)
        r = replay(src, outs, [], queues=2)
        check_sent(c, r, frs)
        for q in (0, 1):
            got = pcapgen.read_pcap(outs[q])
            same_frames(c, got, frs[q::2], "queue %d" % q)
            check_timing(c, got, frs[q::2], tol=0.2)
    c.done(r)


def ring_replay(frs, write, opts):
    """frs written by write(path, frs), replayed from port 0 of a ring pair
    to port 1 with opts; the Result."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "in")
        write(src, frs)
        return wrtest.run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
                               "--replay", src, "--quiet"] + opts)


def replay_ring():
    """A ring pair, the file looped 4 times: the receiver counts every
    frame foreign (none is wirerate's), and the PMDs agree exactly: what
    port 0's ring sent, port 1's received, bytes included."""
    c = Checker("replay_ring")
    frs = pcapgen.frames(1000, GAPS_MS, seed=7)
    r = ring_replay(frs, pcapgen.write_pcapng, ["--replay-loop", "4",
                                                "--replay-speed", "max"])
    c.eq(r.rc, 0, "exit code")
    if r.doc is not None:
        tx, rx = r.doc["totals"]
        n, b = 4 * len(frs), 4 * sum(len(f) + 4 for _, f in frs)
        c.eq((tx["tx_pkts"], tx["nic_opackets"], tx["tx_bytes"]), (n, n, b),
             "port 0 sent, by us and by the PMD, and bytes")
        c.eq((rx["rx_pkts"], rx["nic_ipackets"], rx["rx_bytes"]), (n, n, b),
             "port 1 received, by us and by the PMD, and bytes")
        c.eq((rx["rx_foreign_pkts"], rx["rx_own_pkts"], rx["rx_malformed_pkts"]),
             (n, 0, 0), "foreign, own, malformed")
        c.eq(r.doc["streams"], [], "no stream: replayed frames carry no test header")
        c.eq(r.doc["accounting"]["mbufs_missing"], 0, "every mbuf back (the replay "
             "pool's too)")
        wrtest.rx_matches_pmd(c, r.doc)
    c.done(r)


def replay_ports():
    """Two ring pairs, ports 0 and 2 sending, 1 and 3 receiving: each TX
    port sends the whole file (twice), from the same mbufs; each receiver
    counts all of it foreign, as its PMD does."""
    c = Checker("replay_ports")
    frs = pcapgen.frames(300, GAPS_MS, seed=9)
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "in.pcap")
        pcapgen.write_pcap(src, frs)
        r = wrtest.run([], ["--ring-pairs", "2", "--tx-ports", "0,2", "--rx-ports", "1,3",
                            "--replay", src, "--replay-loop", "2", "--replay-speed",
                            "max", "--quiet"])
    c.eq(r.rc, 0, "exit code")
    n = 2 * len(frs)
    for t in (r.doc["totals"] if r.doc is not None else []):
        if t["port_id"] % 2 == 0:
            c.eq((t["tx_pkts"], t["nic_opackets"]), (n, n), "port %d sent" % t["port_id"])
        else:
            c.eq((t["rx_foreign_pkts"], t["nic_ipackets"]), (n, n),
                 "port %d received foreign" % t["port_id"])
    if r.doc is not None:
        c.eq(len(r.doc["totals"]), 4, "ports")
        # Each TX port's queue its own copies, the file repeated to cover its
        # descriptors, the ring's 1024 slots and two bursts (docs/replay.md).
        window = {p["port_id"]: p["txd"] + 1024 + 2 * r.doc["config"]["burst_pkts"]
                  for p in r.doc["ports"]}
        c.eq(r.doc["replay"]["mbufs"], sum(-(-window[p] // len(frs)) * len(frs)
                                           for p in (0, 2)), "replay.mbufs")
        c.eq(r.doc["accounting"]["mbufs_missing"], 0, "every mbuf back")
        wrtest.rx_matches_pmd(c, r.doc)
    c.done(r)


def replay_few_frames():
    """Fewer frames in the file than TX queues: a queue with
    none of the file's frames sends nothing and touches no other queue's
    copies. One frame, two ring pairs of two TX queues each, looped
    without end for 1 s: each port sends queue 0's frame only, the PMDs
    agree and every mbuf is back; three frames over four queues, looped 5
    times: exactly 15 sent, as the PMDs count, the fourth queue none."""
    c = Checker("replay_few_frames")
    frs = pcapgen.frames(3, GAPS_MS, seed=10)
    with tempfile.TemporaryDirectory() as d:
        one, three = os.path.join(d, "one.pcap"), os.path.join(d, "three.pcap")
        pcapgen.write_pcap(one, frs[:1])
        pcapgen.write_pcap(three, frs)
        r = wrtest.run([], ["--ring-pairs", "2", "--tx-ports", "0,2", "--rx-ports", "1,3",
                            "--txq", "2", "--rxq", "2", "--replay", one,
                            "--replay-loop", "0", "--replay-speed", "max",
                            "--duration", "1", "--quiet"])
        c.eq(r.rc, 0, "one frame, two queues a port: exit code")
        if r.doc is not None:
            for t in r.doc["totals"]:
                if t["port_id"] % 2 == 0:
                    c.true(t["tx_pkts"] > 0, "port %d sent" % t["port_id"])
                    c.eq(t["tx_bytes"], t["tx_pkts"] * (len(frs[0][1]) + 4),
                         "port %d: only the file's frame" % t["port_id"])
                    c.eq(t["tx_pkts"], t["nic_opackets"], "port %d: as its PMD "
                         "counts" % t["port_id"])
            c.eq(r.doc["accounting"]["mbufs_missing"], 0, "every mbuf back")
            wrtest.rx_matches_pmd(c, r.doc)
        r = wrtest.run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
                            "--txq", "4", "--rxq", "4", "--replay", three,
                            "--replay-loop", "5", "--replay-speed", "max", "--quiet"])
        c.eq(r.rc, 0, "three frames, four queues, 5 loops: exit code")
        if r.doc is not None:
            tx, rx = r.doc["totals"]
            c.eq((tx["tx_pkts"], tx["nic_opackets"], rx["nic_ipackets"]), (15,) * 3,
                 "5 loops of 3 frames: sent, the PMDs' counts")
            c.eq(r.doc["accounting"]["mbufs_missing"], 0, "every mbuf back")
            wrtest.rx_matches_pmd(c, r.doc)
    c.done(r)


def replay_repeat():
    """--repeat 2: each trial replays the file from its first frame, at its
    own timing; both trials accounted exactly by the PMDs."""
    c = Checker("replay_repeat")
    frs = pcapgen.frames(100, GAPS_MS, seed=8)
    r = ring_replay(frs, pcapgen.write_pcap, ["--replay-loop", "2", "--repeat", "2"])
    c.eq(r.rc, 0, "exit code")
    trials = r.doc["trials"] if r.doc is not None else []
    c.eq(len(trials), 2, "trials")
    for i, t in enumerate(trials):
        tx, rx = t["totals"]
        c.eq((tx["tx_pkts"], tx["nic_opackets"], rx["rx_foreign_pkts"],
              rx["nic_ipackets"]), (200,) * 4, "trial %d: sent, the PMDs' and "
             "received foreign" % (i + 1))
    if r.doc is not None:
        wrtest.rx_matches_pmd(c, r.doc)
        c.eq(r.doc["accounting"]["mbufs_missing"], 0, "every mbuf back")
    c.done(r)


def replay_memory():
    """A capture larger than the memory EAL has (--no-huge -m 256): exit 1
    and a message naming the memory its frames need."""
    c = Checker("replay_memory")
    frame = pcapgen.frame_bytes(0, 1514, pcapgen.random.Random(1))
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "big.pcap")
        pcapgen.write_pcap(src, ((i * 1000, frame) for i in range(200000)))
        argv = [wrtest.WIRERATE] + wrtest.eal_args(["net_null0"], huge=False,
                                                   no_huge_mb=256)
        p = subprocess.run(argv + ["--", "--replay", src, "--rx-ports", "none",
                                   "--quiet"], capture_output=True, text=True,
                           timeout=120)
    c.eq(p.returncode, 1, "exit code (the machine, not the request)")
    c.true("its 200000 frames (up to 1514 bytes) need" in p.stderr and
           "MiB of hugepage memory" in p.stderr, "message: %r" % p.stderr[-400:])
    c.done()


def replay_bad():
    """Bad files and options: exit 2, the file, the frame and what is wrong."""
    c = Checker("replay_bad")
    frs = pcapgen.frames(10, (1000000,), sizes=(60, 100))
    with tempfile.TemporaryDirectory() as d:
        good = os.path.join(d, "good.pcap")
        pcapgen.write_pcap(good, frs)
        data = open(good, "rb").read()
        files = {
            "trunc.pcap": data[:-7],
            "magic.pcap": b"\x00" * 40,
            "short.pcap": data[:10],
        }
        for name, b in files.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(b)
        cut = bytearray(data)
        off = 24 + 16 + 60 + 16 + 100 + 16 + 60 + 12   # frame 4's orig_len
        cut[off:off + 4] = (200).to_bytes(4, "little")
        with open(os.path.join(d, "cut.pcap"), "wb") as f:
            f.write(cut)
        pcapgen.write_pcap(os.path.join(d, "raw.pcap"), frs, linktype=101)
        pcapgen.write_pcapng(os.path.join(d, "ng.pcapng"), frs, linktype=105)
        pcapgen.write_pcapng(os.path.join(d, "ok.pcapng"), frs)
        ng = open(os.path.join(d, "ok.pcapng"), "rb").read()
        with open(os.path.join(d, "ngtrail.pcapng"), "wb") as f:
            f.write(ng[:-4] + b"\x01\0\0\0")
        with open(os.path.join(d, "ngcut.pcapng"), "wb") as f:
            f.write(ng[:-20])
        back = frs[:3] + [(0, frs[3][1])] + frs[4:]
        pcapgen.write_pcap(os.path.join(d, "back.pcap"), back)
        p = lambda n: os.path.join(d, n)
        for opts, msg in [
            (["--replay", p("trunc.pcap")], p("trunc.pcap") + ": frame 10: truncated: "
             "93 of its 100 bytes"),
            (["--replay", p("magic.pcap")], "wrong magic 0x00000000: not a pcap"),
            (["--replay", p("short.pcap")], "truncated pcap header (10 of 24 bytes)"),
            (["--replay", p("cut.pcap")], "frame 4: cut by the snap length: 100 of "
             "its 200 bytes"),
            (["--replay", p("raw.pcap")], "link type 101 is not Ethernet"),
            (["--replay", p("ng.pcapng")], "interface 0: link type 105 is not Ethernet"),
            (["--replay", p("back.pcap")], "frame 4: its timestamp is"),
            (["--replay", p("ngtrail.pcapng")], "offset 1048: block length 132 does not match its "
             "trailer 1"),
            (["--replay", p("ngcut.pcapng")], "offset 1048: block length 132 is past the end of "
             "the file (truncated)"),
            (["--replay", p("none.pcap")], p("none.pcap") + ": No such file"),
            (["--replay", good, "--mix", "imix"], "--replay with --mix"),
            (["--replay", good, "--count", "5"], "give --replay-loop"),
            (["--replay", good, "--rate", "1Gbps"], "give frames per second"),
            (["--replay", good, "--rate", "1kpps", "--replay-speed", "2"],
             "--replay-speed with --rate"),
            (["--replay", good, "--replay-speed", "0"], "--replay-speed"),
            (["--replay-loop", "2"], "--replay-loop without --replay"),
            (["--replay-stamp"], "--replay-stamp without --replay"),
        ]:
            wrtest.refused(c, ["net_null0"], opts, msg)
    c.done()


def replay_capture():
    """A ring pair whose receiver keeps the last 4096 frames (--capture):
    on a ring pair those are the sender's own copies, so the sender needs
    more copies than are kept or it waits for one until --duration; the
    file of 100 frames, 50 loops, all sent and received, 4096 in the
    capture."""
    c = Checker("replay_capture")
    frs = pcapgen.frames(100, GAPS_MS, seed=13)
    with tempfile.TemporaryDirectory() as d:
        cap = os.path.join(d, "cap.pcapng")
        r = ring_replay(frs, pcapgen.write_pcap, [
            "--replay-loop", "50", "--replay-speed", "max", "--duration", "20s",
            "--capture", cap, "--capture-what", "last", "--capture-last", "4096"])
        kept = tcpdump_count(cap) if os.path.exists(cap) else None
    c.eq(r.rc, 0, "exit code")
    c.eq(kept, (0, 4096), "tcpdump -r of the capture: exit code, frames")
    if r.doc is not None:
        tx, rx = r.doc["totals"]
        n = 50 * len(frs)
        c.eq((tx["tx_pkts"], tx["nic_opackets"], rx["rx_foreign_pkts"], rx["nic_ipackets"]),
             (n,) * 4, "sent, the PMDs', received foreign")
        c.eq(r.doc["accounting"]["mbufs_missing"], 0, "every mbuf back")
    c.done(r)


def stamped_pcap(c, frs, out):
    """The frames net_pcap wrote to out against the capture frs (with
    room flags): each stamped frame differs from its original only in the
    test header (magic, stream 0, seq 0, 1, ... in order) and the UDP
    checksum, which this reader and tshark both find valid; the others
    are byte for byte the same. Returns frames stamped."""
    got = pcapgen.read_pcap(out)
    c.eq(len(got), len(frs), "frames in tx_pcap")
    seq, bad = 0, []
    for i, ((_, g), (_, f, room)) in enumerate(zip(got, frs)):
        th = 62 if f[12:14] == b"\x86\xdd" else 46 if f[12:14] == b"\x81\x00" else 42
        if not room:
            bad += [] if g == f else [i]
            continue
        magic, sid, sq, _ = struct.unpack("<IHQI", g[th:th + 18])
        ck = th - 2
        same = g[:ck] + g[th + 18:] == f[:ck] + f[th + 18:]
        if not (same and (magic, sid, sq) == (0x31485257, 0, seq) and
                pcapgen.udp_checksum_ok(g)):
            bad.append(i)
        seq += 1
    c.eq(bad[:5], [], "frames not as captured, or stamped wrong (first 5)")
    p = subprocess.run(["tshark", "-r", out, "-o", "udp.check_checksum:TRUE", "-T",
                        "fields", "-e", "udp.checksum.status"],
                       capture_output=True, text=True)
    st = p.stdout.split()
    c.eq((p.returncode, st.count("1"), st.count("0")), (0, seq, 0),
         "tshark: exit code, UDP checksums good and bad")
    return seq


def replay_stamp():
    """--replay-stamp: a capture of IPv4/UDP without and with room for the
    test header, TCP, tagged IPv4/UDP and IPv6/UDP. Into net_pcap: the
    stamped frames carry the header and a valid UDP checksum (this reader
    and tshark), the rest are as captured. Over a ring pair, 3 loops: the
    stamped frames are one stream, sent = received exactly, with latency;
    the rest foreign; both PMDs' counters agree."""
    c = Checker("replay_stamp")
    frs = pcapgen.mixed_frames(500, 1000, seed=12)
    room = sum(r for _, _, r in frs)
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "in.pcap"), os.path.join(d, "out.pcap")
        pcapgen.write_pcap(src, [(t, f) for t, f, _ in frs])
        r = replay(src, out, ["--replay-stamp", "--replay-speed", "max"])
        check_sent(c, r, [(t, f) for t, f, _ in frs])
        c.eq(stamped_pcap(c, frs, out), room, "frames stamped")
        r = wrtest.run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
                            "--replay", src, "--replay-stamp", "--replay-loop", "3",
                            "--replay-speed", "max", "--quiet"])
    c.eq(r.rc, 0, "exit code")
    if r.doc is not None:
        c.eq(r.doc["config"]["replay"]["stamp"], True, "config.replay.stamp")
        tx, rx = r.doc["totals"]
        n, own = 3 * len(frs), 3 * room
        c.eq((tx["tx_pkts"], tx["nic_opackets"], rx["nic_ipackets"]), (n, n, n),
             "sent by us and by the PMD, received by the PMD")
        c.eq((rx["rx_own_pkts"], rx["rx_foreign_pkts"], rx["rx_malformed_pkts"]),
             (own, n - own, 0), "own, foreign, malformed")
        st = r.doc["streams"]
        c.eq([(s["stream_id"], s["sent_pkts"], s["rx_pkts"], s["lost_pkts"])
              for s in st], [(0, own, own, 0)], "one stream: sent, received, lost")
        c.true(st != [] and st[0].get("latency_mean_ns", 0) > 0, "the stream has latency")
        wrtest.stream_balance(c, r.doc)
    c.done(r)


CASES = cases.by_name(replay_timing, replay_speed, replay_loop, replay_rate,
                      replay_formats, replay_queues, replay_ring, replay_ports, replay_few_frames,
                      replay_repeat, replay_memory, replay_bad, replay_stamp,
                      replay_capture)

if __name__ == "__main__":
    cases.main(CASES)
