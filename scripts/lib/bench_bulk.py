# SPDX-License-Identifier: BSD-3-Clause
"""The conn_bulk and conn_bulk_memif cases of bench.py: TCP bulk goodput
against stateless TX on the same kind of port, alternating run by run,
the order flipping every round. conn_bulk runs both in one process over
a net_ring pair, the sender on port 0 (worker lcore 1 on CPU 0, with
the main lcore), the receiver on port 1 (lcore 2 on CPU 1);
conn_bulk_memif between two processes over memif (one_memif):
  bulk       wirerate's bulk client (--conn-app bulk, one connection
             sending until the run ends, MSS 1460: 1514-byte frames) to
             its own server; the books must close (the bytes the client
             sent = the bytes delivered at the server, no failure)
  stateless  wirerate TX of 1518-byte test frames (--tx-ports 0
             --rx-ports 1 --size 1518), every frame back as an own frame
Per run: L2 Gb/s (bulk: the server port's bytes received, over memif
the client's bytes sent; stateless: the PMD's frames sent times 1518),
bulk goodput (the bytes delivered),
and the busy TSC cycles of the sending port's worker per frame and per
L2 byte (the result's cpu.ports), with Gb/s per busy second of it.
The ring PMD counts frames, not bytes: its frame counts (nic_opackets,
nic_ipackets) are checked against the engines' segments and frames."""
import json
import os
import statistics
import subprocess
import tempfile

import bench_conn
from eal import eal_args, remove_runtime_dir
from stats import median_of

MSS = 1460
FRAME = 1518          # 1514 + FCS: what a full bulk segment is on a wire
TARGET = 0.8          # bulk within 20 % of stateless TX


def run(args, seq, opts):
    """One run of opts over the ring pair; (JSON document, stdout) or
    (None, error)."""
    prefix = "wrbbulk%d_%d" % (os.getpid(), seq)
    eal = eal_args([], prefix=prefix)
    eal = ["--lcores", "0@0,1@0,2@%d" % min(1, os.cpu_count() - 1)] + eal[2:]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        argv = [args.wirerate] + eal + ["--", "--ring-pairs", "1"] + opts + [
            "--duration", "%gs" % args.seconds, "--quiet", "--json", path]
        p = subprocess.run(argv, capture_output=True, text=True,
                           timeout=args.seconds + 120, stdin=subprocess.DEVNULL)
        remove_runtime_dir(prefix)
        if p.returncode != 0 or not os.path.exists(path):
            return None, "exit %d: %s" % (p.returncode, p.stderr[-300:])
        with open(path) as f:
            return json.load(f), p.stdout


def port_busy(doc, port):
    return next(x["busy_tsc"] for x in doc["cpu"]["ports"] if x["port_id"] == port)


def totals(doc):
    return {t["port_id"]: t for t in doc["totals"]}


def bulk_figures(doc):
    """A bulk run's figures and checks from its result document."""
    b, s = doc["connections"]["books"], doc["connections_server"]["books"]
    t = totals(doc)
    secs = doc["duration_s"]
    l2 = t[1]["rx_bytes"]
    busy = port_busy(doc, 0)
    sent = t[0]["nic_opackets"] - t[0]["tx_service_pkts"]
    got = t[1]["nic_ipackets"] - t[1]["rx_service_pkts"]
    return {"l2_gbps": 8e-9 * l2 / secs, "goodput_gbps": 8e-9 * s["l7_rx_bytes"] / secs,
            "bytes_sent": b["l7_tx_bytes"], "bytes_delivered": s["l7_rx_bytes"],
            "frames": got, "full_frames": -(-s["l7_rx_bytes"] // MSS),
            # segments the client sent again: on a lossless ring, tail
            # loss probes of a window the descheduled server held up
            "rtx_segs": (b["rtx_rto_segs"] + b["rtx_fast_segs"] +
                         b.get("rtx_probe_segs", 0)),
            "cycles_per_frame": busy / got if got else None,
            "cycles_per_byte": busy / l2 if l2 else None,
            "server_cycles_per_frame": port_busy(doc, 1) / got if got else None,
            "books_close": (b["l7_tx_bytes"] == s["l7_rx_bytes"] > 0 and
                            b["failed_total"] == 0 and b["completed"] == b["attempted"]
                            and s["accepted"] == s["closed"] == b["completed"] and
                            doc["connections"]["books_check"]["closed"] and
                            doc["connections_server"]["books_check"]["closed"]),
            "pmd_agree": sent == got == b["tx_segs"] == s["rx_segs"] and
            t[1]["nic_opackets"] - t[1]["tx_service_pkts"] == s["tx_segs"],
            "secs": secs, "tsc_hz": doc["env"]["tsc_hz"]}


def stateless_figures(doc):
    """A stateless TX run's figures and checks from its result document."""
    t = totals(doc)
    secs = doc["duration_s"]
    sent = t[0]["nic_opackets"]
    busy = port_busy(doc, 0)
    return {"l2_gbps": 8e-9 * sent * FRAME / secs, "frames": sent,
            "cycles_per_frame": busy / sent if sent else None,
            "cycles_per_byte": busy / (sent * FRAME) if sent else None,
            "receiver_cycles_per_frame": port_busy(doc, 1) / sent if sent else None,
            "tx_refused": t[0]["drops"]["tx_full_pkts"],
            "pmd_agree": sent == t[0]["tx_pkts"] == t[1]["nic_ipackets"] ==
            t[1]["rx_own_pkts"] and t[0]["tx_bytes"] == sent * FRAME,
            "secs": secs, "tsc_hz": doc["env"]["tsc_hz"]}


BULK = ["--conn", "0=client,1=server", "--port-ip", "0=198.18.0.2/15",
        "--port-ip", "1=198.19.0.1/15", "--conn-server", "198.19.0.1:80",
        "--conn-app", "bulk", "--conn-count", "1", "--conn-concurrency", "1",
        "--conn-mss", str(MSS)]
STATELESS = ["--tx-ports", "0", "--rx-ports", "1", "--size", str(FRAME)]


def one(args, seq, kind):
    doc, out = run(args, seq, BULK if kind == "bulk" else STATELESS)
    if doc is None:
        return {"error": out}
    return bulk_figures(doc) if kind == "bulk" else stateless_figures(doc)


def memif_bulk_figures(c, s, out_c, out_s):
    """A bulk run between two processes over memif, from the client's and
    the server's documents and closing lines. The server's memif counters
    read 0 once the client has left, so the frames are checked against
    the client's PMD: its frames sent = its segments less those a full
    ring refused = the server's segments received, and the same the
    other way."""
    b, sb = c["connections"]["books"], s["connections"]["books"]
    t = c["totals"][0]
    secs = c["duration_s"]
    sent = t["nic_opackets"] - t["tx_service_pkts"]
    ref_c = bench_conn.refused_frames(out_c) or 0
    ref_s = bench_conn.refused_frames(out_s) or 0
    busy = port_busy(c, 0)
    return {"l2_gbps": 8e-9 * t["tx_bytes"] / secs,
            "goodput_gbps": 8e-9 * sb["l7_rx_bytes"] / secs,
            "bytes_sent": b["l7_tx_bytes"], "bytes_delivered": sb["l7_rx_bytes"],
            "frames": sent,
            "cycles_per_frame": busy / sent if sent else None,
            "cycles_per_byte": busy / t["tx_bytes"] if t["tx_bytes"] else None,
            "server_cycles_per_frame": port_busy(s, 0) / sent if sent else None,
            "books_close": (b["l7_tx_bytes"] == sb["l7_rx_bytes"] > 0 and
                            b["failed_total"] == 0 and b["completed"] == b["attempted"]
                            and sb["accepted"] == sb["closed"] == b["completed"]),
            "pmd_agree": sent == b["tx_segs"] - ref_c == sb["rx_segs"] and
            t["nic_ipackets"] - t["rx_service_pkts"] == b["rx_segs"] ==
            sb["tx_segs"] - ref_s,
            "refused": ref_c + ref_s, "secs": secs, "tsc_hz": c["env"]["tsc_hz"]}


def memif_stateless_figures(c, s):
    """Stateless TX over memif: the sender's (client) and the receiver's
    (server) documents; lossless: every frame the sender's PMD took is
    an own frame at the receiver."""
    t, r = c["totals"][0], s["totals"][0]
    secs = c["duration_s"]
    sent = t["nic_opackets"]
    busy = port_busy(c, 0)
    return {"l2_gbps": 8e-9 * sent * FRAME / secs, "frames": sent,
            "cycles_per_frame": busy / sent if sent else None,
            "cycles_per_byte": busy / (sent * FRAME) if sent else None,
            "receiver_cycles_per_frame": port_busy(s, 0) / sent if sent else None,
            "tx_refused": t["drops"]["tx_full_pkts"],
            "pmd_agree": sent == t["tx_pkts"] == r["rx_own_pkts"] and
            t["tx_bytes"] == sent * FRAME,
            "secs": secs, "tsc_hz": c["env"]["tsc_hz"]}


def one_memif(args, seq, kind):
    """One run between two processes over memif (bench_conn.memif_pair):
    the receiving side (memif server role, its worker on CPU 1) polls
    until the sender has printed its closing lines (bulk) or for 1.5 s
    after the last frame (stateless); the sender (worker on CPU 0 with
    both main lcores) lingers until it has gone."""
    cpu1 = "0@0,1@%d" % min(1, os.cpu_count() - 1)
    run_s = ["--duration", "%gs" % args.seconds, "--linger", "%ds" % bench_conn.LINGER_S]
    if kind == "bulk":
        srv = ["--conn", "server", "--port-ip", "0=198.19.0.1/15", "--conn-app", "bulk",
               "--duration", "0", "--link-timeout", "0"]
        cli = ["--conn", "client", "--port-ip", "0=198.18.0.2/15", "--conn-server",
               "198.19.0.1:80"] + BULK[BULK.index("--conn-app"):] + run_s
        closing = "frames: "
    else:
        # A frame run prints its summary once its ports are closed: the
        # receiver leaves by itself 1.5 s after the last frame, and the
        # sender, lingering, once its link is down.
        srv = ["--tx-ports", "none", "--rx-ports", "0", "--size", str(FRAME),
               "--start-on-rx", "--idle-timeout", "1500ms", "--link-timeout", "0"]
        cli = ["--tx-ports", "0", "--rx-ports", "none", "--size", str(FRAME)] + run_s
        closing = None
    r = bench_conn.memif_pair(args, "b%d_%d" % (os.getpid(), seq), (cpu1, srv),
                              ("0@0,1@0", cli), closing)
    if isinstance(r, str):
        return {"error": r}
    return memif_bulk_figures(*r) if kind == "bulk" else \
        memif_stateless_figures(r[0], r[1])


def per_core(r):
    """Gb/s a busy second of the sending worker: TSC Hz over its cycles
    a byte."""
    return 8e-9 * r["tsc_hz"] / r["cycles_per_byte"]


def fmt(r):
    if r.get("error"):
        return "FAILED " + r["error"]
    return "%.2f Gb/s L2%s, %.0f cyc/frame, %.3f cyc/B%s" % (
        r["l2_gbps"], ", %.2f goodput" % r["goodput_gbps"] if "goodput_gbps" in r
        else "", r["cycles_per_frame"] or 0, r["cycles_per_byte"] or 0,
        ", PMD %s" % ("agrees" if r["pmd_agree"] else "DISAGREES") +
        (", books %s" % ("close" if r["books_close"] else "OPEN")
         if "books_close" in r else ""))


def conn_bulk(args, log, memif=False):
    """--runs rounds of both (over a ring pair in one process, or between
    two processes over memif); the medians, the ratio and every run."""
    runs = {"bulk": [], "stateless": []}
    name = "conn_bulk_memif" if memif else "conn_bulk"
    for i in range(args.runs):
        for kind in (("bulk", "stateless") if i % 2 == 0 else ("stateless", "bulk")):
            runs[kind].append(one_memif(args, i, kind) if memif else one(args, i, kind))
        log("%s round %d: bulk %s; stateless TX %s" % (
            name, i + 1, fmt(runs["bulk"][-1]), fmt(runs["stateless"][-1])))
    ok = {k: [r for r in v if not r.get("error")] for k, v in runs.items()}
    out = {"runs": runs, "seconds": args.seconds, "mss": MSS, "frame": FRAME,
           "port": "memif, two processes" if memif else "net_ring pair, one process",
           "case": name}
    if not ok["bulk"] or not ok["stateless"]:
        out["error"] = "bulk %d of %d runs, stateless %d of %d completed" % (
            len(ok["bulk"]), args.runs, len(ok["stateless"]), args.runs)
        return out
    b, s = ok["bulk"], ok["stateless"]
    pairs = [(x, y) for x, y in zip(runs["bulk"], runs["stateless"])
             if not x.get("error") and not y.get("error")]
    out.update({
        "bulk_l2_gbps": median_of(b, "l2_gbps"),
        "bulk_goodput_gbps": median_of(b, "goodput_gbps"),
        "stateless_l2_gbps": median_of(s, "l2_gbps"),
        "bulk_cycles_per_frame": median_of(b, "cycles_per_frame"),
        "stateless_cycles_per_frame": median_of(s, "cycles_per_frame"),
        "bulk_cycles_per_byte": median_of(b, "cycles_per_byte"),
        "stateless_cycles_per_byte": median_of(s, "cycles_per_byte"),
        "bulk_per_core_gbps": statistics.median(per_core(r) for r in b),
        "stateless_per_core_gbps": statistics.median(per_core(r) for r in s),
        "books_close": all(r["books_close"] for r in b),
        "pmd_agree": all(r["pmd_agree"] for r in b + s),
        "failed_runs": 2 * args.runs - len(b) - len(s), "tsc_hz": b[0]["tsc_hz"]})
    out["ratio"] = out["bulk_l2_gbps"] / out["stateless_l2_gbps"]
    out["ratio_per_round_median"] = statistics.median(
        x["l2_gbps"] / y["l2_gbps"] for x, y in pairs) if pairs else None
    out["ratio_per_core"] = out["bulk_per_core_gbps"] / out["stateless_per_core_gbps"]
    out["met"] = out["ratio"] >= TARGET
    return out


def markdown_bulk(t):
    """The conn_bulk lines of bench.md."""
    name, port = t.get("case", "conn_bulk"), t.get("port", "net_ring pair, one process")
    if t.get("error"):
        return ["", "## " + name, "", t["error"]]
    rr = t["ratio_per_round_median"]
    return ["", "## %s: TCP bulk against stateless TX, 1518-byte frames, "
            "%s, sender on one worker" % (name, port), "",
            "| | L2 Gb/s (median) | goodput Gb/s | sender cyc/frame | sender "
            "cyc/byte | Gb/s a busy second of the sender |",
            "|---|---|---|---|---|---|",
            "| bulk, MSS %d | %.2f | %.2f | %.0f | %.3f | %.1f |" % (
                t["mss"], t["bulk_l2_gbps"], t["bulk_goodput_gbps"],
                t["bulk_cycles_per_frame"], t["bulk_cycles_per_byte"],
                t["bulk_per_core_gbps"]),
            "| stateless TX, %d B | %.2f | | %.0f | %.3f | %.1f |" % (
                t["frame"], t["stateless_l2_gbps"], t["stateless_cycles_per_frame"],
                t["stateless_cycles_per_byte"], t["stateless_per_core_gbps"]),
            "| bulk / stateless | %.2f (per round %s) | | | | %.2f |" % (
                t["ratio"], "%.2f" % rr if rr is not None else "-",
                t["ratio_per_core"]),
            "", "Goal: bulk L2 Gb/s within %d %% of stateless TX (>= %.2f): %s. "
            "%g s a run; bulk books %s (bytes sent = delivered); PMD "
            "frame counts %s; runs failed: %d." % (
                round(100 * (1 - TARGET)), TARGET, "met" if t["met"] else "MISSED",
                t["seconds"], "close" if t["books_close"] else "DO NOT close",
                "agree" if t["pmd_agree"] else "DISAGREE", t["failed_runs"])]
