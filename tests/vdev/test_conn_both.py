# SPDX-License-Identifier: BSD-3-Clause
"""A client port and a server port in one run (--conn 0=client,1=server,
docs/tcp.md) over a net_ring pair: every connection accounted for on
both sides, and the PMD's own frame counters against the segments the
engines sent and received. Usage: test_conn_both.py CASE."""
import os
import re
import subprocess
import tempfile

import cases
import wrtest
from wrtest import Checker

CONNS = 20000
BOTH = ["--ring-pairs", "1", "--conn", "0=client,1=server",
        "--port-ip", "0=198.18.0.2/15", "--port-ip", "1=198.19.0.1/15",
        "--conn-server", "198.19.0.1:80"]


def run_both(opts, timeout=120, workers=2):
    """One run of BOTH + opts on the main lcore and `workers` workers
    (one a queue pair; on a 2-CPU machine the workers share the second
    CPU). Returns wrtest.Result with the parsed JSON."""
    eal = wrtest.eal_args([])
    cpus = os.cpu_count()
    place = ["1@1", "2@%d" % min(2, cpus - 1)] if workers == 2 else \
        ["%d@%d" % (i, (i - 1) % cpus) for i in range(1, workers + 1)]
    eal = ["--lcores", ",".join(["0@0"] + place)] + eal[2:]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        argv = [wrtest.WIRERATE] + eal + ["--"] + BOTH + list(opts) + [
            "--json", path]
        p = subprocess.run(argv, capture_output=True, text=True,
                           timeout=timeout, stdin=subprocess.DEVNULL)
        doc = wrtest.read_result(path) if os.path.exists(path) else None
        prefix = eal[eal.index("--file-prefix") + 1]
        wrtest.eal.remove_runtime_dir(prefix)
    return wrtest.Result(p.returncode, p.stdout, p.stderr, doc)


def conn_both_ring():
    """20,000 one-request HTTP connections from port 0's client to port
    1's server over a net_ring pair: the client attempted = completed,
    the server accepted = closed = the client's completed, requests =
    answers = requests served; each port's PMD counters (nic_ipackets)
    equal the segments its engine received plus the ARP frames of
    --port-ip, the PMDs' nic_opackets the segments the engines sent less
    those the ports refused (a full ring; TCP resends them), and one
    port's sent frames are the other's received. Paced at 5,000 a second
    so that two workers sharing one CPU do not overflow the rings."""
    c = Checker("conn_both_ring")
    r = run_both(["--conn-count", str(CONNS), "--conn-concurrency", "30000",
                  "--conn-rate", "5000", "--conn-body", "100", "--quiet"])
    c.eq(r.rc, 0, "exit code: %r" % r.err[-2000:])
    if r.doc is None:
        c.done(r)
    cl, sv = r.doc.get("connections"), r.doc.get("connections_server")
    c.true(cl is not None and sv is not None, "both sides in the result")
    if cl is None or sv is None:
        c.done(r)
    c.eq((cl["role"], sv["role"]), ("client", "server"), "roles")
    b, s = cl["books"], sv["books"]
    c.eq(b["attempted"], CONNS, "client attempted")
    c.eq(b["completed"], CONNS, "client completed")
    c.eq(b["failed_total"], 0, "client failed")
    c.eq(s["accepted"], CONNS, "server accepted = client completed")
    c.eq(s["closed"], CONNS, "server closed")
    c.eq((b["reqs_sent"], b["resps"]), (CONNS, CONNS), "requests = answers")
    c.eq(s["reqs_served"], CONNS, "server served")
    c.true(cl["books_check"]["closed"] and sv["books_check"]["closed"],
           "both books close")
    tot = {t["port_id"]: t for t in r.doc["totals"]}
    for port, bk in ((0, b), (1, s)):
        t = tot[port]
        c.eq(t["nic_ipackets"], bk["rx_segs"] + t["rx_service_pkts"],
             "port %d: PMD ipackets = segments received + ARP received" % port)
    m = re.search(r"frames: (\d+) refused by the port", r.out)
    c.true(m is not None, "the frames the ports refused on screen")
    refused = int(m.group(1)) if m else 0
    c.eq(sum(t["nic_opackets"] - t["tx_service_pkts"] for t in tot.values()),
         b["tx_segs"] + s["tx_segs"] - refused,
         "PMD opackets = segments sent less those the ports refused")
    c.eq(tot[0]["nic_opackets"] - tot[0]["tx_service_pkts"],
         tot[1]["nic_ipackets"] - tot[1]["rx_service_pkts"], "ring: 0 to 1")
    c.eq(tot[1]["nic_opackets"] - tot[1]["tx_service_pkts"],
         tot[0]["nic_ipackets"] - tot[0]["rx_service_pkts"], "ring: 1 to 0")
    c.true(b["tx_segs"] >= 4 * CONNS and s["tx_segs"] >= 3 * CONNS,
           "at least 4 segments from the client and 3 from the server "
           "a connection")
    c.true("client connections: attempted %d" % CONNS in r.out and
           "server connections: accepted %d" % CONNS in r.out,
           "both books on screen: %r" % r.out[-1500:])
    c.done(r)


def conn_both_full():
    """20,000 connections unpaced (as fast as the pool of 1,000 allows)
    over the 1,024-slot rings, the workers sharing CPUs: a frame a full
    ring refuses waits for the next burst and the client starts no
    connection meanwhile, so the port frees none (on screen: 0 refused;
    before, thousands, each costing its connection a 1 s RTO), the
    client's books close with every connection completed, the PMDs'
    opackets equal the segments the engines sent, and each port's TX
    bytes the other's RX bytes. A worker's busy turns are those that
    moved a frame (docs/metrics.md): no more than the frames it moved,
    though a worker whose peer is descheduled finds its frames refused
    turn after turn (counted busy until 2026-12-07: 678,705 busy turns
    for 140,001 frames in one run)."""
    c = Checker("conn_both_full")
    r = run_both(["--conn-count", str(CONNS), "--conn-concurrency", "1000",
                  "--conn-time-wait", "1ms", "--conn-body", "100",
                  "--quiet"])
    c.eq(r.rc, 0, "exit code: %r" % r.err[-2000:])
    if r.doc is None:
        c.done(r)
    b = r.doc["connections"]["books"]
    s = r.doc["connections_server"]["books"]
    c.eq((b["attempted"], b["completed"], b["failed_total"]),
         (CONNS, CONNS, 0), "client attempted, completed, failed")
    m = re.search(r"frames: (\d+) refused by the port", r.out)
    c.eq(int(m.group(1)) if m else None, 0,
         "frames the ports refused (freed)")
    tot = r.doc["totals"]
    c.eq(sum(t["nic_opackets"] - t["tx_service_pkts"] for t in tot),
         b["tx_segs"] + s["tx_segs"], "PMD opackets = segments sent")
    # Each port's TX bytes (segments of every size, counted as sent) are
    # the other port's RX bytes (counted as received), less the --port-ip
    # service frames it took (ARP, 64 bytes with the FCS).
    for a, z in ((0, 1), (1, 0)):
        c.eq(tot[a]["tx_bytes"], tot[z]["rx_bytes"] - 64 * tot[z]["rx_service_pkts"],
             "port %d's tx_bytes = port %d's rx_bytes, ARP aside" % (a, z))
    for lc in r.doc["cpu"]["lcores"]:
        c.true(0 < lc["busy_polls"] <= lc["tx_pkts"] + lc["rx_pkts"],
               "lcore %d: %d busy turns, each moved a frame (%d moved)" %
               (lc["lcore"], lc["busy_polls"], lc["tx_pkts"] + lc["rx_pkts"]))
    c.done(r)


def conn_both_hold():
    """--mode conn-capacity over the ring pair, the server in the same
    process: 20,000 connections opened at 100,000 a second are all held
    (held = attempted = the server's accepted, none failed), then all
    released at once, 64 a poll: each answers its check (20,000 of
    20,000). Before, the releases overflowed the rings and about 6,000
    checks went unanswered."""
    c = Checker("conn_both_hold")
    r = run_both(["--mode", "conn-capacity", "--conn-count", str(CONNS),
                  "--conn-concurrency", str(CONNS), "--conn-rate", "100000",
                  "--conn-body", "100", "--quiet"])
    c.eq(r.rc, 0, "exit code: %r" % r.err[-2000:])
    if r.doc is None:
        c.done(r)
    cap = r.doc["capacity"]
    c.eq((cap["connections"], cap["attempted"], cap["failed"]),
         (CONNS, CONNS, 0), "held, attempted, failed")
    c.eq(r.doc["connections_server"]["books"]["accepted"], CONNS,
         "server accepted = held")
    c.eq((cap["check"]["held"], cap["check"]["answered"]), (CONNS, CONNS),
         "checks answered")
    c.done(r)


def conn_both_post():
    """2,000 connections of 2 POSTs of 64 kB each (--conn-req-body): every
    request answered (requests sent = answers = the server's served), the
    bytes the server took in are the client's sent (2 x (head + 64 kB) a
    connection), the result says what was asked, and the server port's
    PMD took at least those bytes in frames (its own count, rx_bytes)."""
    c = Checker("conn_both_post")
    n, body = 2000, 64000
    r = run_both(["--conn-count", str(n), "--conn-concurrency", str(n),
                  "--conn-rate", "2000", "--conn-requests", "2",
                  "--conn-req-body", "64k", "--conn-time-wait", "1ms",
                  "--conn-body", "100", "--quiet"])
    c.eq(r.rc, 0, "exit code: %r" % r.err[-2000:])
    if r.doc is None:
        c.done(r)
    cl, sv = r.doc["connections"], r.doc["connections_server"]
    b, s = cl["books"], sv["books"]
    c.eq(cl["asked"].get("req_body_bytes"), body, "asked: req_body_bytes")
    c.eq((b["attempted"], b["completed"], b["failed_total"]), (n, n, 0),
         "client attempted, completed, failed")
    c.eq((b["reqs_sent"], b["resps"], s["reqs_served"]), (2 * n,) * 3,
         "requests sent = answers = served")
    c.eq(s["l7_rx_bytes"], b["l7_tx_bytes"], "server took in what the client sent")
    c.true(2 * n * body < b["l7_tx_bytes"] < 2 * n * (body + 300),
           "client sent 2 x (head + body) a connection: %d" % b["l7_tx_bytes"])
    tot = {t["port_id"]: t for t in r.doc["totals"]}
    c.true(tot[1]["rx_bytes"] >= s["l7_rx_bytes"] + 58 * s["rx_segs"],
           "server port's PMD rx_bytes %d >= payload + 58 a segment" %
           tot[1]["rx_bytes"])
    c.true(cl["books_check"]["closed"] and sv["books_check"]["closed"],
           "both books close")
    c.done(r)


def conn_both_pool_note():
    """A client at 5,000 a second with a pool of 1,000 and the default
    TIME_WAIT (60 s): before traffic a note says the pool holds 17 starts
    a second once full and names --conn-concurrency 5000 (the 1 s run's
    starts); the engine then refuses starts for want of a slot (not
    started, pool) and attempts no more than the pool. With a TIME_WAIT
    of 100 ms (500 slots held at that rate) no note, and no start is
    refused. `wirerate check` of the first says the same and exits 0.
    A --conn-count of 3,000 with no --duration into that pool ends within
    seconds: attempted + not started (pool) = 3,000."""
    c = Checker("conn_both_pool_note")
    base = ["--conn-rate", "5000", "--conn-concurrency", "1000", "--duration", "1s",
            "--conn-body", "100", "--quiet"]
    for tw, full in ((None, True), ("100ms", False)):
        r = run_both(base + (["--conn-time-wait", tw] if tw else []))
        c.eq(r.rc, 0, "TIME_WAIT %s: exit code: %r" % (tw, r.err[-2000:]))
        if r.doc is None:
            c.done(r)
        b = r.doc["connections"]["books"]
        said = "holds 17 starts a second once full" in r.err and \
            "--conn-concurrency 5000 or more" in r.err
        c.eq((said, b["unstarted"]["pool"] > 0), (full, full),
             "TIME_WAIT %s: the note, the pool's refusals (%r): %r" % (
                 tw, b["unstarted"], r.err[-600:]))
        c.true(b["attempted"] <= 1000 if full else b["attempted"] > 4000,
               "TIME_WAIT %s: attempted %d" % (tw, b["attempted"]))
        c.eq(b["attempted"], b["completed"] + b["failed_total"] + b["open"],
             "TIME_WAIT %s: the books close" % tw)
    p = subprocess.run([wrtest.WIRERATE, "check", "--"] + BOTH + base, capture_output=True,
                       text=True, timeout=30, stdin=subprocess.DEVNULL)
    c.eq((p.returncode, "holds 17 starts a second once full" in p.stderr), (0, True),
         "wirerate check: exit 0 and the note: %r" % p.stderr[-600:])
    # A count the pool cannot hold ends the run once its starts are made
    # (until 2026-12-07 it ran on until --duration: the refused starts
    # were never attempted and the run waited for them).
    n = 3000
    r = run_both(["--conn-rate", "5000", "--conn-concurrency", "1000",
                  "--conn-count", str(n), "--conn-body", "100", "--quiet"],
                 timeout=30)
    c.eq(r.rc, 0, "--conn-count %d: exit code: %r" % (n, r.err[-2000:]))
    if r.doc is None:
        c.done(r)
    b = r.doc["connections"]["books"]
    c.eq(b["attempted"] + b["unstarted"]["pool"], n,
         "--conn-count %d: attempted + not started (pool) %r" % (n, b["unstarted"]))
    c.true(b["unstarted"]["pool"] > 0 and b["attempted"] <= 1000,
           "--conn-count %d: the pool refused starts" % n)
    c.true(r.doc["duration_s"] < 10, "the run ended with its count: %r s, %r" % (
        r.doc["duration_s"], r.doc.get("stop_reason")))
    c.done(r)


def conn_both_queues():
    """Two queue pairs a port over a net_ring pair, whose queue n feeds
    the other end's queue n: the client's two workers split --conn-count
    (5,001 and 5,000) and --conn-concurrency; each client worker's
    connections all reach the server worker of its queue, whose books
    match its own (accepted = completed, segments sent one way = received
    the other), no worker gets a segment of a connection it does not own,
    and the PMDs' frame counters equal the segments of all the workers.
    A count too small to share is refused before traffic, naming it."""
    c = Checker("conn_both_queues")
    n = 10001
    r = run_both(["--txq", "2", "--rxq", "2", "--conn-count", str(n),
                  "--conn-concurrency", "3001", "--conn-rate", "4000",
                  "--conn-time-wait", "1ms", "--conn-body", "100", "--quiet"],
                 workers=4)
    c.eq(r.rc, 0, "exit code: %r" % r.err[-2000:])
    if r.doc is None:
        c.done(r)
    cl, sv = r.doc["connections"], r.doc["connections_server"]
    c.eq((cl["books"]["attempted"], cl["books"]["completed"]), (n, n),
         "client attempted = completed")
    c.eq(sv["books"]["accepted"], n, "server accepted")
    qs = {(q["port"], q["queue"]): q["books"] for q in cl["queues"] + sv["queues"]}
    c.eq(sorted(qs), [(0, 0), (0, 1), (1, 0), (1, 1)], "a worker a queue pair")
    for k in (0, 1):
        cb, sb = qs[(0, k)], qs[(1, k)]
        c.eq(cb["attempted"], n // 2 + (1 if k < n % 2 else 0),
             "queue %d: the client's share of --conn-count" % k)
        c.eq(cb["completed"], cb["attempted"], "queue %d: all completed" % k)
        c.eq(sb["accepted"], cb["completed"],
             "queue %d: the server worker accepted its client's" % k)
        c.eq(sb["reqs_served"], cb["resps"], "queue %d: served = answered" % k)
        c.eq((cb["tx_segs"], sb["tx_segs"]), (sb["rx_segs"], cb["rx_segs"]),
             "queue %d: segments sent one way = received the other" % k)
        c.eq((cb["rx_no_conn_segs"], sb["rx_no_conn_segs"]), (0, 0),
             "queue %d: no segment for a connection the worker lacks" % k)
    tot = {t["port_id"]: t for t in r.doc["totals"]}
    for port, side in ((0, cl), (1, sv)):
        c.eq(tot[port]["nic_ipackets"] - tot[port]["rx_service_pkts"],
             sum(q["books"]["rx_segs"] for q in side["queues"]),
             "port %d: PMD ipackets less ARP = its workers' segments" % port)
    c.true(cl["books_check"]["closed"] and sv["books_check"]["closed"],
           "both books close")
    bad = run_both(["--txq", "2", "--rxq", "2", "--conn-count", "1"], workers=4)
    c.eq(bad.rc, 2, "--conn-count 1 on 2 queue pairs: exit 2")
    c.true("--conn-count" in bad.err and "queue pairs" in bad.err,
           "the message names the option: %r" % bad.err[-300:])
    c.done(r)


CASES = cases.by_name(conn_both_ring, conn_both_full, conn_both_hold,
                      conn_both_post, conn_both_pool_note, conn_both_queues)

if __name__ == "__main__":
    cases.main(CASES)
