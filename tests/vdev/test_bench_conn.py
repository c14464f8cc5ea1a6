# SPDX-License-Identifier: BSD-3-Clause
"""The benchmark's connection cases (scripts/lib/bench_conn.py,
bench_bulk.py) on short runs, their figures against counts wirerate did
not make: the PMDs' frame counters and the other end's result.
Usage: test_bench_conn.py CASE."""
import os
import sys
import types

import cases
import wrtest
from wrtest import Checker

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts", "lib"))
import bench_bulk  # noqa: E402
import bench_conn  # noqa: E402

ARGS = types.SimpleNamespace(wirerate=wrtest.WIRERATE, runs=1, seconds=2)


def bench_conn_memif():
    """One round of conn_memif (2 s over memif between two processes, 2 s
    of conn_cps over a ring pair): no failure; the client's completed are
    the server process's accepted and closed (its own result); the
    client's memif PMD counters (nic_opackets, nic_ipackets) equal the
    server's segments received and sent, at least 4 a connection each
    way; CPS is the completed over the run; both rows in the Markdown."""
    c = Checker("bench_conn_memif")
    if wrtest.hugepages_free() < wrtest.eal.HUGEPAGES_MIN:
        c.skip("memif needs hugepages: fewer than %d free" % wrtest.eal.HUGEPAGES_MIN)
        c.done()
    t = bench_conn.conn_memif(ARGS, print)
    m, r = t["memif"][0], t["ring"][0]
    c.true(not m.get("error") and not r.get("error"), "both runs: %r" % t)
    if m.get("error") or r.get("error"):
        c.done()
    c.eq((m["failed"], m["failed_at_end"], r["failed"]), (0, 0, 0),
         "failed (memif: at the drain too: the server process outlives it)")
    c.true(m["completed"] > 0, "memif: connections completed")
    c.eq(m["attempted"], m["completed"], "memif: attempted = completed")
    c.eq((m["server"]["accepted"], m["server"]["closed"], m["server"]["reqs_served"]),
         (m["completed"],) * 3, "server process: accepted, closed, served")
    p = m["pmd"]
    c.eq(p["client_opackets"], p["server_rx_segs"],
         "client PMD frames sent = server segments received")
    c.eq(p["client_ipackets"], p["server_tx_segs"],
         "client PMD frames received = server segments sent")
    c.true(p["client_opackets"] >= 4 * m["completed"] and
           p["client_ipackets"] >= 4 * m["completed"],
           "at least 4 frames a connection each way: %r" % p)
    c.true(abs(m["cps"] * m["secs"] - m["completed"]) < 1, "CPS = completed / s")
    c.true(m["books_close"] and m["pmd_agree"], "verdicts: %r" % m)
    c.eq(t["ratio"], t["cps"] / t["ring_cps"], "ratio of the medians")
    md = "\n".join(bench_conn.markdown_memif(t))
    c.true("| memif, two processes | %.0f | 0 (0) |" % m["cps"] in md and
           "| net_ring, one process | %.0f | 0 (%d) |" % (
               r["cps"], r["failed_at_end"]) in md, md)
    c.done()


def bench_conn_bulk():
    """One round of conn_bulk (2 s of one bulk connection, 2 s of 1518-byte
    stateless TX, a ring pair each): the bulk client's bytes sent are the
    bytes the server delivered; the L2 bytes behind its Gb/s lie between
    the full-size frames the bytes need and the frames the ring PMD passed
    (nic_ipackets) at 1518 B each, none more than a handful not full; the
    stateless frames counted by the ring PMD were all received as own
    frames; the ratio is that of the medians."""
    c = Checker("bench_conn_bulk")
    t = bench_bulk.conn_bulk(ARGS, print)
    b, s = t["runs"]["bulk"][0], t["runs"]["stateless"][0]
    c.true(not b.get("error") and not s.get("error"), "both runs: %r" % t)
    if b.get("error") or s.get("error"):
        c.done()
    c.true(b["bytes_delivered"] > 0, "bulk: bytes delivered")
    c.eq(b["bytes_sent"], b["bytes_delivered"], "bulk: bytes sent = delivered")
    l2 = b["l2_gbps"] * b["secs"] / 8e-9
    full = b["bytes_delivered"] // bench_bulk.MSS
    c.true(full * bench_bulk.FRAME - 1 <= l2 <= b["frames"] * bench_bulk.FRAME + 1,
           "bulk L2 bytes %.0f within the PMD's %d frames: %r" % (l2, b["frames"], b))
    c.true(0 <= b["frames"] - b["full_frames"] <= 8,
           "PMD frames less full-size data frames: %r" % b)
    c.true(b["books_close"] and b["pmd_agree"], "bulk verdicts: %r" % b)
    c.true(s["frames"] > 0 and s["pmd_agree"], "stateless: %r" % s)
    c.eq(t["ratio"], t["bulk_l2_gbps"] / t["stateless_l2_gbps"], "ratio")
    c.eq(t["met"], t["ratio"] >= bench_bulk.TARGET, "verdict")
    c.true("| bulk, MSS 1460 | %.2f |" % b["l2_gbps"] in
           "\n".join(bench_bulk.markdown_bulk(t)), "bulk row")
    c.done()


CASES = cases.by_name(bench_conn_memif, bench_conn_bulk)

if __name__ == "__main__":
    cases.main(CASES)
