# SPDX-License-Identifier: BSD-3-Clause
"""The benchmark's connection cases (scripts/lib/bench_conn.py,
bench_bulk.py) on short runs, their figures against counts wirerate did
not make: the PMDs' frame counters and the other end's result; and the
--linger of a connection run they rely on over memif.
Usage: test_bench_conn.py CASE."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
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
    server's segments received and sent, less those a full ring refused
    on each side (on the server's closing lines), and with those at
    least 4 a connection each way; CPS is the completed over the run;
    both rows in the Markdown."""
    c = Checker("bench_conn_memif")
    if wrtest.hugepages_free() < wrtest.eal.HUGEPAGES_MIN:
        c.skip("memif needs hugepages: fewer than %d free" % wrtest.eal.HUGEPAGES_MIN)
        c.done()
    t = bench_conn.conn_memif(ARGS, print)
    m, r = t["memif"][0], t["ring"][0]
    c.true(not m.get("error") and not r.get("error"), "both runs: %r" % t)
    if m.get("error") or r.get("error"):
        c.done()
    c.eq((m["failed"], m["failed_at_end"], r["failed"], r["failed_at_end"]), (0, 0, 0, 0),
         "failed (memif: at the drain too: the server process outlives it)")
    c.true(m["completed"] > 0, "memif: connections completed")
    c.eq(m["attempted"], m["completed"], "memif: attempted = completed")
    c.eq((m["server"]["accepted"], m["server"]["closed"], m["server"]["reqs_served"]),
         (m["completed"],) * 3, "server process: accepted, closed, served")
    p = m["pmd"]
    c.eq(p["client_opackets"], p["server_rx_segs"],
         "client PMD frames sent = server segments received")
    c.eq(p["client_opackets"], p["client_tx_segs"] - p["client_refused"],
         "client PMD frames sent = client segments less those refused")
    c.eq(p["client_ipackets"], p["server_tx_segs"] - p["server_refused"],
         "client PMD frames received = server segments sent less those refused")
    # SYN, ACK with the GET, FIN, ACK; SYN,ACK, the answer, the FIN with
    # the ACK of the client's
    c.true(p["client_opackets"] + p["client_refused"] >= 4 * m["completed"] and
           p["client_ipackets"] + p["server_refused"] >= 3 * m["completed"],
           "at least 4 frames a connection from the client, 3 from the "
           "server: %r" % p)
    c.true(abs(m["cps"] * m["secs"] - m["completed"]) < 1, "CPS = completed / s")
    c.true(m["books_close"] and m["pmd_agree"], "verdicts: %r" % m)
    c.eq(t["ratio"], t["cps"] / t["ring_cps"], "ratio of the medians")
    md = "\n".join(bench_conn.markdown_memif(t))
    c.true("| memif, two processes | %.0f | 0 (0) |" % m["cps"] in md and
           "| net_ring, one process | %.0f | 0 (%d) |" % (
               r["cps"], r["failed_at_end"]) in md, md)
    c.done()


def bulk_round(c, memif):
    """One round of conn_bulk (memif: conn_bulk_memif): the result, its
    bulk run and its stateless run, both without error, the bulk bytes
    delivered and equal to those sent."""
    t = bench_bulk.conn_bulk(ARGS, print, memif=memif)
    b, s = t["runs"]["bulk"][0], t["runs"]["stateless"][0]
    c.true(not b.get("error") and not s.get("error"), "both runs: %r" % t)
    if b.get("error") or s.get("error"):
        c.done()
    c.true(b["bytes_delivered"] > 0, "bulk: bytes delivered")
    c.eq(b["bytes_sent"], b["bytes_delivered"], "bulk: bytes sent = delivered")
    return t, b, s


def bench_conn_bulk():
    """One round of conn_bulk (2 s of one bulk connection, 2 s of 1518-byte
    stateless TX, a ring pair each): the bulk client's bytes sent are the
    bytes the server delivered; the L2 bytes behind its Gb/s lie between
    the full-size frames the bytes need and the frames the ring PMD passed
    (nic_ipackets) at 1518 B each, none more than a handful not full or
    sent again (the client's books: a tail loss probe may resend the
    last segment of a window a descheduled server held up); the
    stateless frames counted by the ring PMD were all received as own
    frames; the ratio is that of the medians."""
    c = Checker("bench_conn_bulk")
    t, b, s = bulk_round(c, False)
    l2 = b["l2_gbps"] * b["secs"] / 8e-9
    full = b["bytes_delivered"] // bench_bulk.MSS
    c.true(full * bench_bulk.FRAME - 1 <= l2 <= b["frames"] * bench_bulk.FRAME + 1,
           "bulk L2 bytes %.0f within the PMD's %d frames: %r" % (l2, b["frames"], b))
    c.true(0 <= b["frames"] - b["full_frames"] - b["rtx_segs"] <= 8,
           "PMD frames less full-size data frames and segments sent "
           "again: %r" % b)
    c.true(b["books_close"] and b["pmd_agree"], "bulk verdicts: %r" % b)
    c.true(s["frames"] > 0 and s["pmd_agree"], "stateless: %r" % s)
    c.eq(t["ratio"], t["bulk_l2_gbps"] / t["stateless_l2_gbps"], "ratio")
    c.eq(t["met"], t["ratio"] >= bench_bulk.TARGET, "verdict")
    c.true("| bulk, MSS 1460 | %.2f |" % b["l2_gbps"] in
           "\n".join(bench_bulk.markdown_bulk(t)), "bulk row")
    c.done()


def bench_conn_bulk_memif():
    """One round of conn_bulk_memif (2 s of one bulk connection, 2 s of
    1518-byte stateless TX, each between two processes over memif): the
    bulk client's bytes sent are the bytes the server delivered, its
    memif PMD's frames sent are its segments and the server's segments
    received, its frames received the server's segments sent; every
    frame of stateless TX the sender's PMD took is an own frame at the
    receiving process; the table names memif."""
    c = Checker("bench_conn_bulk_memif")
    if wrtest.hugepages_free() < wrtest.eal.HUGEPAGES_MIN:
        c.skip("memif needs hugepages: fewer than %d free" % wrtest.eal.HUGEPAGES_MIN)
        c.done()
    t, b, s = bulk_round(c, True)
    c.true(b["books_close"] and b["pmd_agree"], "bulk verdicts: %r" % b)
    c.true(s["frames"] > 0 and s["pmd_agree"], "stateless: %r" % s)
    c.eq(t["ratio"], t["bulk_l2_gbps"] / t["stateless_l2_gbps"], "ratio")
    md = "\n".join(bench_bulk.markdown_bulk(t))
    c.true("## conn_bulk_memif" in md and "memif, two processes" in md and
           "| bulk, MSS 1460 | %.2f |" % b["l2_gbps"] in md, md)
    c.done()


def memif_pair(c, srv, cli, watch=None):
    """A server process (srv: its lcores and options) and a client
    process (cli: the same) joined by memif, the client started once the
    server's socket exists; watch(client), when given, runs once the
    client has printed its closing lines; then the server gets SIGINT.
    Ends the case when either exits other than 0. Returns (client's
    result, server's result, seconds the client took to leave after the
    server, the client's stderr)."""
    if wrtest.hugepages_free() < wrtest.eal.HUGEPAGES_MIN:
        c.skip("memif needs hugepages: fewer than %d free" % wrtest.eal.HUGEPAGES_MIN)
        c.done()
    tag = str(os.getpid())
    with tempfile.TemporaryDirectory() as d:
        sock, sp, cp = (os.path.join(d, x) for x in ("m.sock", "s.json", "c.json"))
        seal = wrtest.eal.eal_args([bench_conn.memif_vdev(sock, "server")],
                                   prefix="wrtls" + tag, huge=True)
        ceal = wrtest.eal.eal_args([bench_conn.memif_vdev(sock, "client")],
                                   prefix="wrtlc" + tag, huge=True)
        proc = subprocess.Popen(
            [wrtest.WIRERATE, "--lcores", srv[0]] + seal[2:] + ["--"] + srv[1] +
            ["--json", sp], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, stdin=subprocess.DEVNULL)
        cli_p = None
        try:
            end = time.monotonic() + 30
            while not os.path.exists(sock) and time.monotonic() < end:
                time.sleep(0.05)
            cli_p = subprocess.Popen(
                [wrtest.WIRERATE, "--lcores", cli[0]] + ceal[2:] + ["--"] + cli[1] +
                ["--json", cp], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, stdin=subprocess.DEVNULL)
            seen = False
            for line in cli_p.stdout:
                if line.startswith("frames: "):
                    seen = True
                    break
            c.true(seen, "the client's closing lines")
            if watch is not None:
                watch(cli_p)
        finally:
            out_s = bench_conn.stop(proc)
            t0 = time.monotonic()
            err = ""
            if cli_p is not None:
                try:
                    err = cli_p.communicate(timeout=15)[1]
                except subprocess.TimeoutExpired:
                    cli_p.kill()
                    err = cli_p.communicate()[1]
            for pfx in ("wrtls", "wrtlc"):
                wrtest.eal.remove_runtime_dir(pfx + tag)
        left = time.monotonic() - t0
        c.eq(proc.returncode, 0, "server exit: %s" % out_s[-1500:])
        c.eq(cli_p.returncode, 0, "client exit: %s" % err[-1500:])
        if proc.returncode != 0 or cli_p.returncode != 0:
            c.done()
        with open(cp) as f:
            cd = json.load(f)
        with open(sp) as f:
            sd = json.load(f)
    return cd, sd, left, err


def conn_linger_memif():
    """A client connection run over memif with --linger 10s against a
    server in another process: after its closing lines the client keeps
    its port open (its workers stopped) while the server still polls, 2 s
    and more; once the server has gone (SIGINT, exit 0) the client leaves
    within 5 s, exit 0, without the note that --linger ran out. Before, a
    connection run ignored --linger and closed at once under the polling
    server, which DPDK's memif crashed now and then (SIGSEGV, about one
    run in fifteen). The server's own result has accepted = the client's
    completed, the client's memif PMD counted the server's segments."""
    c = Checker("conn_linger_memif")

    def still_open(cli):
        time.sleep(2)
        c.true(cli.poll() is None, "the client still open 2 s after its "
               "closing lines (exit %r)" % cli.poll())

    cd, sd, left, err = memif_pair(
        c, ("0@0,1@%d" % min(1, os.cpu_count() - 1),
            ["--conn", "server", "--port-ip", "0=198.19.0.1/15",
             "--conn-concurrency", "1000", "--conn-time-wait", "1ms",
             "--duration", "0", "--link-timeout", "0", "--quiet"]),
        ("0@0,1@0", ["--conn", "client", "--port-ip", "0=198.18.0.2/15",
                     "--conn-server", "198.19.0.1:80", "--duration", "1s",
                     "--conn-concurrency", "1000", "--conn-time-wait", "1ms",
                     "--linger", "10s", "--quiet"]), still_open)
    c.true(left < 5, "the client left %.1f s after the server" % left)
    c.true("--linger" not in err, "no note that --linger ran out: %r" % err)
    b, sb = cd["connections"]["books"], sd["connections"]["books"]
    c.true(b["completed"] > 0, "connections completed")
    c.eq((b["failed_total"], sb["accepted"], sb["closed"]),
         (0, b["completed"], b["completed"]), "failed; server accepted, closed")
    t = cd["totals"][0]
    c.eq(t["nic_opackets"] - t["tx_service_pkts"], sb["rx_segs"],
         "client PMD frames sent = server segments received")
    c.done()


def conn_queues_memif():
    """Two queue pairs a side between two processes over memif, whose
    queue n lands in the peer's queue n: the client's two workers split
    --conn-count (2,001 and 2,000); the server's worker of each queue
    accepted exactly what the client's worker of that queue completed and
    got no segment of a connection it does not own; the client's memif
    PMD counted, less ARP, the segments of its two workers each way."""
    c = Checker("conn_queues_memif")
    n = 4001
    q2 = ["--txq", "2", "--rxq", "2"]
    cpu1 = min(1, os.cpu_count() - 1)
    cd, sd, _, _ = memif_pair(
        c, ("0@0,1@%d,2@%d" % (cpu1, cpu1),
            q2 + ["--conn", "server", "--port-ip", "0=198.19.0.1/15",
                  "--conn-concurrency", "1000", "--conn-time-wait", "1ms",
                  "--duration", "0", "--link-timeout", "0", "--quiet"]),
        ("0@0,1@0,2@0", q2 + ["--conn", "client", "--port-ip", "0=198.18.0.2/15",
                              "--conn-server", "198.19.0.1:80", "--conn-count", str(n),
                              "--conn-concurrency", "1000", "--conn-time-wait", "1ms",
                              "--linger", "10s", "--quiet"]))
    b = cd["connections"]["books"]
    c.eq((b["attempted"], b["completed"]), (n, n), "client attempted = completed")
    cq = {q["queue"]: q["books"] for q in cd["connections"]["queues"]}
    sq = {q["queue"]: q["books"] for q in sd["connections"]["queues"]}
    c.eq((sorted(cq), sorted(sq)), ([0, 1], [0, 1]), "a worker a queue pair, each side")
    for k in sorted(set(cq) & set(sq)):
        c.eq(cq[k]["attempted"], n // 2 + (1 if k < n % 2 else 0),
             "queue %d: the client's share of --conn-count" % k)
        c.eq(sq[k]["accepted"], cq[k]["completed"],
             "queue %d: the server worker accepted its client's" % k)
        c.eq((cq[k]["rx_no_conn_segs"], sq[k]["rx_no_conn_segs"]), (0, 0),
             "queue %d: no segment for a connection the worker lacks" % k)
    t = cd["totals"][0]
    c.eq((t["nic_opackets"] - t["tx_service_pkts"], t["nic_ipackets"] - t["rx_service_pkts"]),
         (sum(x["tx_segs"] for x in cq.values()), sum(x["rx_segs"] for x in cq.values())),
         "client PMD frames sent, received (less ARP) = its workers' segments")
    c.done()

CASES = cases.by_name(bench_conn_memif, bench_conn_bulk, bench_conn_bulk_memif,
                      conn_linger_memif, conn_queues_memif)

if __name__ == "__main__":
    cases.main(CASES)
