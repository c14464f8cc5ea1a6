# SPDX-License-Identifier: BSD-3-Clause
"""wirerate on virtual ports: short real runs, checked exactly.
Usage: test_vdev.py CASE (see CASES)."""
import signal
import sys

import wrtest
from wrtest import Checker


def tx_null():
    """TX only on net_null: exactly --count frames leave, none refused."""
    c = Checker("tx_null")
    r = wrtest.run(["net_null0"], ["--rx-ports", "none", "--count", "250k", "--quiet"])
    c.eq(r.rc, 0, "exit code")
    t = r.doc["totals"][0]
    c.eq(t["tx_pkts"], 250000, "tx_pkts")
    c.eq(t["tx_bytes"], 250000 * 64, "tx_bytes")
    c.eq(t["rx_pkts"], 0, "rx_pkts")
    c.eq(r.doc["stop_reason"], "count", "stop reason")
    c.eq(r.doc["ports"][0]["role"], "tx", "role")
    c.true(t["tx_mpps"] > 0, "tx rate measured")
    c.eq(r.doc["accounting"]["mbufs_missing"], 0, "mbufs back")
    c.done(r)


def rx_null():
    """RX on net_null (a frame source): counted, all foreign, none ours."""
    c = Checker("rx_null")
    r = wrtest.run(["net_null0"], ["--tx-ports", "none", "--duration", "1", "--quiet"])
    c.eq(r.rc, 0, "exit code")
    t = r.doc["totals"][0]
    c.true(t["rx_pkts"] > 1000, "frames received: %d" % t["rx_pkts"])
    c.eq(t["rx_foreign_pkts"], t["rx_pkts"], "all foreign")
    c.eq(t["rx_own_pkts"], 0, "none own")
    # net_null hands out 64-byte buffers: 68-byte frames once the FCS counts.
    c.eq(t["rx_bytes"], t["rx_pkts"] * 68, "rx bytes with FCS")
    c.eq(r.doc["streams"], [], "no streams")
    c.done(r)


def ring_loopback():
    """net_ring loops back to itself: every frame sent is received, exactly."""
    c = Checker("ring_loopback")
    r = wrtest.run(["net_ring0"], ["--duration", "1.5", "--quiet"])
    c.eq(r.rc, 0, "exit code")
    t = r.doc["totals"][0]
    c.true(t["tx_pkts"] > 100000, "frames sent: %d" % t["tx_pkts"])
    c.eq(t["rx_pkts"], t["tx_pkts"], "rx = tx")
    c.eq(t["rx_own_pkts"], t["tx_pkts"], "all received are own")
    c.eq(t["rx_bytes"], t["tx_bytes"], "rx bytes = tx bytes")
    s = r.doc["streams"]
    c.eq(len(s), 1, "one stream")
    c.eq(s[0]["lost_pkts"], 0, "no loss")
    c.eq(s[0]["dup_pkts"] + s[0]["late_pkts"], 0, "in order, no dups")
    wrtest.stream_balance(c, r.doc)
    c.done(r)


def ring_pair_count():
    """Two ports wired by rings, 2 queues each way, exact count per queue."""
    c = Checker("ring_pair_count")
    r = wrtest.run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
                        "--txq", "2", "--rxq", "2", "--count", "100001", "--quiet"])
    c.eq(r.rc, 0, "exit code")
    tot = {t["port_id"]: t for t in r.doc["totals"]}
    c.eq(tot[0]["tx_pkts"], 100001, "port 0 sent")
    c.eq(tot[1]["rx_own_pkts"], 100001, "port 1 received")
    sent = sorted((s["tx_queue"], s["sent_pkts"]) for s in r.doc["streams"])
    c.eq(sent, [(0, 50001), (1, 50000)], "exact split over queues")
    c.eq([s["rx_port"] for s in r.doc["streams"]], [1, 1], "received on port 1")
    wrtest.stream_balance(c, r.doc)
    c.done(r)


def json_fields():
    """The JSON result, field by field."""
    c = Checker("json_fields")
    r = wrtest.run(["net_ring0"], ["--duration", "2.2", "--interval", "500ms",
                                   "--size", "128", "--burst", "16", "--quiet"])
    d = r.doc
    c.eq(r.rc, 0, "exit code")
    c.eq(d["schema"], "wirerate-result/1", "schema")
    for k in ("wirerate_version", "dpdk_version", "cpu_model", "tsc_hz",
              "kernel", "hostname", "cmdline"):
        c.true(k in d["env"], "env.%s present" % k)
    c.true(d["env"]["tsc_hz"] > 1e8, "tsc_hz plausible")
    c.true("DPDK 2" in d["env"]["dpdk_version"], "dpdk version string")
    c.eq(d["config"]["frame_size"], 128, "config.frame_size")
    c.eq(d["config"]["burst_pkts"], 16, "config.burst_pkts")
    c.eq(d["config"]["interval_ms"], 500, "config.interval_ms")
    p = d["ports"][0]
    c.eq(p["driver"], "net_ring", "ports[0].driver")
    c.eq(p["role"], "tx+rx", "ports[0].role")
    c.eq(p["link_up"], True, "link up")
    c.eq(d["plan"]["mode"], "auto", "plan mode")
    c.eq(d["plan"]["workers"][0]["tx"], ["0.0"], "plan worker tx")
    c.true(3 <= len(d["samples"]) <= 5, "samples at 500 ms over 2.2 s: %d" % len(d["samples"]))
    prev = 0
    for s in d["samples"]:
        c.true(0.4 < s["dt_s"] < 0.7, "interval length measured: %f" % s["dt_s"])
        sp = s["ports"][0]
        c.true(sp["tx_pkts"] >= prev, "cumulative counters monotonic")
        prev = sp["tx_pkts"]
        # Gbps L1 / L2 = (128 + 20) / 128 exactly from the same counters.
        if sp["tx_gbps_l2"] > 0:
            c.true(abs(sp["tx_gbps_l1"] / sp["tx_gbps_l2"] - 148 / 128) < 1e-6, "L1/L2 ratio")
            c.true(abs(sp["tx_gbps_l2"] * 1e9 / 8 / 128 / (sp["tx_mpps"] * 1e6) - 1) < 1e-6,
                   "Gbps from Mpps")
    t = d["totals"][0]
    c.true(t["tx_pkts"] >= prev, "totals >= last sample")
    c.eq(t["tx_bytes"], t["tx_pkts"] * 128, "tx bytes")
    c.true(abs(t["tx_mpps"] * 1e6 * d["duration_s"] - t["tx_pkts"]) < t["tx_pkts"] * 1e-6 + 1,
           "total rate = frames / duration")
    for k in ("tx_full_pkts", "tx_alloc_fail", "tx_unsent_pkts", "rx_missed_pkts",
              "rx_errors", "tx_errors", "rx_nombuf"):
        c.true(k in t["drops"], "drops.%s present" % k)
    lat = t["latency"]
    c.true(lat["min_ns"] <= lat["p50_ns"] <= lat["p99_ns"] <= lat["max_ns"], "latency order")
    c.eq(lat["samples"], t["rx_own_pkts"], "a latency sample per own frame")
    wrtest.stream_balance(c, d)
    c.done(r)


def sigint():
    """SIGINT mid-run: exit 0, complete JSON, exact accounting."""
    c = Checker("sigint")
    r = wrtest.run_and_signal(["net_ring0"], ["--duration", "0", "--quiet"], after_s=2.5)
    c.eq(r.rc, 0, "exit code")
    c.true(r.doc is not None, "JSON written")
    if r.doc:
        c.eq(r.doc["stop_reason"], "signal", "stop reason")
        c.true(r.doc["totals"][0]["tx_pkts"] > 0, "frames sent")
        wrtest.stream_balance(c, r.doc)
    c.done(r)


def sigterm():
    """SIGTERM behaves like SIGINT."""
    c = Checker("sigterm")
    r = wrtest.run_and_signal(["net_ring0"], ["--quiet"], after_s=2.5, sig=signal.SIGTERM)
    c.eq(r.rc, 0, "exit code")
    c.true(r.doc is not None and r.doc["stop_reason"] == "signal", "stopped by signal")
    c.done(r)


def jumbo():
    """9018-byte frames (MTU 9000) go through a ring pair intact."""
    c = Checker("jumbo")
    r = wrtest.run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
                        "--size", "9018", "--count", "50000", "--quiet"])
    c.eq(r.rc, 0, "exit code")
    tot = {t["port_id"]: t for t in r.doc["totals"]}
    c.eq(tot[1]["rx_own_pkts"], 50000, "all received as own (lengths consistent)")
    c.eq(tot[1]["rx_bytes"], 50000 * 9018, "rx bytes")
    c.eq(tot[1]["rx_malformed_pkts"], 0, "none malformed")
    c.eq(r.doc["ports"][0]["mtu"], 9000, "MTU raised to 9000")
    c.true(any("MTU set to 9000" in n for n in r.doc["ports"][0]["notes"]), "MTU note")
    wrtest.stream_balance(c, r.doc)
    c.done(r)


def pcap_frames(path):
    """Frames of a classic pcap file, as bytes (standard library only)."""
    import struct
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack_from("<I", data, 0)[0]
    end = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
    frames, off = [], 24
    while off + 16 <= len(data):
        incl = struct.unpack_from(end + "I", data, off + 8)[0]
        frames.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return frames


def stamp_run(mode, nb):
    """Send nb 64-byte frames with --stamp mode into a pcap file; return
    (Result, [(magic, stream, seq, tsc_lo, frame bytes)])."""
    import os
    import struct
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "tx.pcap")
        r = wrtest.run(["net_pcap0,tx_pcap=" + path],
                       ["--rx-ports", "none", "--count", str(nb), "--stamp", mode,
                        "--quiet"])
        frames = pcap_frames(path) if os.path.exists(path) else []
    # Untagged: the test header follows 14 + 20 + 8 bytes of headers.
    return r, [struct.unpack_from("<IHQI", f, 42) + (f,) for f in frames]


def stamp_pcap():
    """--stamp full / seq / none, read back from the frames themselves."""
    c = Checker("stamp_pcap")
    nb = 1000
    got = {}
    for mode in ("full", "seq", "none"):
        r, hdrs = stamp_run(mode, nb)
        c.eq(r.rc, 0, "%s: exit code" % mode)
        c.eq(r.doc["config"]["stamp"], mode, "%s: config.stamp" % mode)
        c.eq(len(hdrs), nb, "%s: frames in the pcap file" % mode)
        c.eq(sum(1 for h in hdrs if h[0] == 0x31485257), len(hdrs), "%s: magic" % mode)
        c.eq(sum(1 for h in hdrs if len(h[4]) == 60), len(hdrs), "%s: 60 bytes" % mode)
        got[mode] = hdrs
    full, seq, none = got["full"], got["seq"], got["none"]
    c.eq([h[2] for h in full], list(range(len(full))), "full: seq 0, 1, 2, ...")
    c.true(len(set(h[3] for h in full)) > 1, "full: timestamps written")
    # Stamps of one run lie within a few ms of the first (mod 2^32 cycles).
    c.true(all((h[3] - full[0][3]) % 2**32 < 2**31 for h in full), "full: stamps in order")
    c.eq([h[2] for h in seq], list(range(len(seq))), "seq: seq 0, 1, 2, ...")
    c.eq(set(h[3] for h in seq), {0}, "seq: timestamp left at 0")
    c.eq(set(h[2] for h in none), {0}, "none: every frame seq 0")
    c.eq(set(h[3] for h in none), {0}, "none: timestamp left at 0")
    c.eq(len(set(h[4] for h in none)), 1, "none: every frame the same bytes")
    # The untouched template is a full frame with seq and stamp zeroed.
    if full and none:
        # seq at bytes 48..55, stamp at 56..59 of the 60.
        zeroed = full[5][4][:48] + bytes(12)
        c.eq(none[0][4], zeroed, "none: template = full frame less seq, stamp")
    c.done()


def stamp_ring():
    """Ring loopback: --stamp full arrives in order; --stamp none frames are
    own frames that all carry seq 0, so each one after the first reads as a
    restart of the stream (docs/accounting.md rule 3), never as loss."""
    c = Checker("stamp_ring")
    nb = 100000
    for mode in ("full", "none"):
        r = wrtest.run(["net_ring0"], ["--count", str(nb), "--stamp", mode, "--quiet"])
        c.eq(r.rc, 0, "%s: exit code" % mode)
        t = r.doc["totals"][0]
        c.eq(t["tx_pkts"], nb, "%s: tx_pkts" % mode)
        c.eq(t["rx_own_pkts"], nb, "%s: all received as own" % mode)
        s = r.doc["streams"]
        c.eq(len(s), 1, "%s: one stream" % mode)
        c.eq(s[0]["sent_pkts"], nb, "%s: sent" % mode)
        c.eq(s[0]["rx_pkts"], nb, "%s: rx" % mode)
        c.eq(s[0]["lost_pkts"], 0, "%s: lost" % mode)
        c.eq(s[0]["dup_pkts"], 0, "%s: dup" % mode)
        c.eq(s[0]["late_pkts"], 0, "%s: late" % mode)
        c.eq(s[0]["restarts"], nb - 1 if mode == "none" else 0, "%s: restarts" % mode)
        wrtest.stream_balance(c, r.doc)
    c.done()


def rx_chained():
    """RX frames longer than an mbuf arrive as chains (net_pcap splits
    them); a burst mixing chains and single mbufs must go back to the pool
    whole (the RX free takes the general path for it)."""
    import os
    import struct
    import tempfile
    c = Checker("rx_chained")
    sizes = [3000 if i % 2 == 0 else 60 for i in range(200)]
    with tempfile.TemporaryDirectory() as d:
        rx, tx = os.path.join(d, "rx.pcap"), os.path.join(d, "tx.pcap")
        with open(rx, "wb") as f:
            f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
            for n in sizes:
                f.write(struct.pack("<IIII", 0, 0, n, n) + bytes(n))
        r = wrtest.run(["net_pcap0,rx_pcap=%s,tx_pcap=%s" % (rx, tx)],
                       ["--tx-ports", "none", "--duration", "1", "--quiet"])
    c.eq(r.rc, 0, "exit code")
    t = r.doc["totals"][0]
    c.eq(t["rx_pkts"], len(sizes), "rx_pkts")
    c.eq(t["rx_bytes"], sum(n + 4 for n in sizes), "rx bytes with FCS")
    c.eq(t["rx_foreign_pkts"], len(sizes), "all foreign")
    c.eq(r.doc["accounting"]["mbufs_missing"], 0, "every segment back in its pool")
    c.done(r)


BAD = [
    (["--size", "63"], [], "--size 63: out of range, accepted 64 to 9018"),
    (["--size", "9019"], [], "accepted 64 to 9018"),
    (["--rate-typo", "1"], [], "unknown option"),
    (["--tx-ports", "5"], ["net_null0"], "--tx-ports: port 5 does not exist"),
    (["--map", "7:tx0.0"], ["net_null0"], "lcore 7 is not a worker lcore"),
    (["--txq", "20"], ["net_null0"], "accepted 1 to 16"),
    (["--duration", "soon"], ["net_null0"], "not a duration"),
    ([], [], "no ports"),
    (["--stamp", "some"], [], "--stamp some: expected full"),
]


def bad_inputs():
    """Bad inputs exit 2 with a message saying what is wrong."""
    c = Checker("bad_inputs")
    for opts, vdevs, msg in BAD:
        r = wrtest.run(vdevs, opts, want_json=False)
        c.eq(r.rc, 2, "exit code for %s" % opts)
        c.true(msg in r.err, "message for %s: %r in %r" % (opts, msg, r.err[-300:]))
    c.done()


def help_text():
    """--help lists every option with its default, without EAL."""
    import subprocess
    c = Checker("help_text")
    p = subprocess.run([wrtest.WIRERATE, "--help"], capture_output=True, text=True)
    c.eq(p.returncode, 0, "exit code")
    for o in ("--tx-ports", "--rx-ports", "--txq", "--rxq", "--txd", "--rxd",
              "--burst", "--map", "--ring-pairs", "--size", "--src-mac", "--dst-mac",
              "--src-ip", "--dst-ip", "--sport", "--dport", "--flows", "--vlan",
              "--duration", "--count", "--interval", "--grace", "--link-timeout",
              "--json", "--plain", "--quiet", "--version", "--stamp"):
        c.true(o in p.stdout, "%s documented" % o)
    c.done()


CASES = {f.__name__: f for f in (tx_null, rx_null, ring_loopback, ring_pair_count,
                                  json_fields, sigint, sigterm, jumbo, bad_inputs,
                                  help_text, stamp_pcap, stamp_ring, rx_chained)}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        print("usage: test_vdev.py {%s}" % ",".join(CASES))
        sys.exit(2)
    CASES[sys.argv[1]]()
