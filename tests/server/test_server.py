# SPDX-License-Identifier: BSD-3-Clause
"""wirerate serve through the Python client (python/wirerate) on ring
ports: runs back to back on one server, each balanced against the PMDs'
counts, the ports kept up between them (an EAL --vdev too); a live change
from 1 to 2 Mpps and a pause seen in the interval samples; bad
requests answered with errors while the server stays up; a client killed
mid-run; shutdown (exit 0, socket and hugepage files gone); memory over
many runs; --control on a plain run with `wirerate ctl`; TCP with a
token, idle TCP connections that never lock the UNIX socket out; random
byte streams on TCP, each closed at its first bad line; an
error message cut inside a UTF-8 character still answered; ctl's
--timeout against a socket that never answers. Usage:
test_server.py CASE."""
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import cases
import wrtest
from wrtest import Checker

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python"))
import wirerate  # noqa: E402

RING = ["--ring-pairs", "1", "--quiet"]
ONE_WAY = {"tx-ports": "0", "rx-ports": "1"}


class Server:
    """wirerate serve on ring ports, its own prefix, socket and output."""

    def __init__(self, extra=(), in_memory=True, n=0, vdevs=(), ports=RING):
        self.dir = tempfile.mkdtemp(prefix="wrserve")
        self.sock = os.path.join(self.dir, "s.sock")
        self.prefix = "%s_s%d" % (wrtest.PREFIX, n)
        self.out = open(os.path.join(self.dir, "out"), "w+")
        self.err = open(os.path.join(self.dir, "err"), "w+")
        argv = ([wrtest.WIRERATE, "serve"] +
                wrtest.eal_args(list(vdevs), prefix=self.prefix,
                                in_memory=in_memory) +
                ["--", "--control", self.sock] + list(ports) + list(extra))
        self.p = subprocess.Popen(argv, stdout=self.out, stderr=self.err)
        end = time.time() + 60
        while not os.path.exists(self.sock) and self.p.poll() is None \
                and time.time() < end:
            time.sleep(0.05)
        if not os.path.exists(self.sock):
            err = self.stderr()[-1000:]
            self.close()
            raise AssertionError("wirerate serve did not start: %s" % err)

    def client(self):
        return wirerate.Client(self.sock)

    def stderr(self):
        self.err.seek(0)
        return self.err.read()

    def wait(self, timeout=60):
        try:
            return self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def close(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            if self.wait(30) is None:
                self.p.kill()
                self.p.wait()
        wrtest.eal.remove_runtime_dir(self.prefix)
        self.out.close()
        self.err.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def balanced(c, doc, what):
    """The result is valid and every frame is accounted for, against the
    PMDs' own counts (wrtest.stream_balance)."""
    wrtest.validate(doc, what)
    c.true(doc["accounting"]["sent_pkts"] > 0, "%s: frames were sent" % what)
    wrtest.stream_balance(c, doc)


def pair_ports(cl):
    """The ring pair's ports as the ports method lists them."""
    return sorted((p for p in cl.ports() if "wr_pair0" in p["name"]),
                  key=lambda p: p["port_id"])


def serve_back_to_back():
    """Three runs on one server, each balanced and complete on its own
    counts: the ring PMD's opackets and ipackets of each run are that
    run's frames (reset per run, not the sum so far). The ports came up
    once: the first run set them up, the next two took them as they were
    (result ports[].kept, setups; the ports method counts one set-up and
    two reuses per port). A fourth run with other RX descriptors sets
    them up again, a fifth with two queues makes the ring pair again, and
    their ports' notes say why; the server's stderr has no error."""
    c = Checker("serve_back_to_back")
    s = Server()
    try:
        with s.client() as cl:
            for i in range(3):
                doc = cl.run(dict(ONE_WAY, rate="20kpps", count=5000 + i))
                what = "run %d" % (i + 1)
                balanced(c, doc, what)
                c.eq(doc["accounting"]["sent_pkts"], 5000 + i,
                     "%s: --count frames sent" % what)
                c.eq([(t["port_id"], t["nic_opackets"], t["nic_ipackets"])
                      for t in doc["totals"]], [(0, 5000 + i, 0),
                                                (1, 0, 5000 + i)],
                     "%s: the PMD's counts are this run's" % what)
                c.eq([(p.get("kept"), p.get("setups")) for p in doc["ports"]],
                     [(i > 0, 1)] * 2, "%s: ports kept, set up once" % what)
                c.eq(cl.status()["run"], i + 1, "run id")
            c.eq([p.get("kept") for p in pair_ports(cl)],
                 [{"setups": 1, "reuses": 2}] * 2, "ports: set up once, "
                 "taken as they were twice")
            r = subprocess.run([wrtest.WIRERATE, "ctl", s.sock, "result"],
                               capture_output=True, text=True)
            c.eq(r.returncode, 0, "ctl result (%s)" % r.stderr[-300:])
            c.eq(json.loads(r.stdout or "{}").get("result"), doc,
                 "ctl result: the last run's whole document")
            doc = cl.run(dict(ONE_WAY, rate="20kpps", count=1000, rxd=512))
            balanced(c, doc, "run 4 (--rxd 512)")
            c.eq([(p.get("kept"), p.get("setups")) for p in doc["ports"]],
                 [(False, 2)] * 2, "run 4: ports set up again")
            c.true(all("set up again: RX descriptors 1024 -> 512" in p["notes"]
                       for p in doc["ports"]),
                   "run 4: the notes say why: %s" %
                   [p["notes"] for p in doc["ports"]])
            c.eq([p.get("kept") for p in pair_ports(cl)],
                 [{"setups": 2, "reuses": 2}] * 2, "ports after run 4")
            doc = cl.run(dict(ONE_WAY, rate="20kpps", count=1000, txq=2, rxq=2))
            balanced(c, doc, "run 5 (2 queues)")
            c.eq([(p.get("kept"), p.get("setups")) for p in doc["ports"]],
                 [(False, 3)] * 2, "run 5: the ring pair made again")
            c.true(all(any("ring pairs made again" in n for n in p["notes"])
                       for p in doc["ports"]),
                   "run 5: the notes say why: %s" %
                   [p["notes"] for p in doc["ports"]])
        c.true("Invalid" not in s.stderr() and "error" not in s.stderr(),
               "the server's stderr: %r" % s.stderr()[-500:])
    finally:
        s.close()
    c.done()


def serve_ports_during_setup():
    """The ports method while runs make their ring pair again (one and two
    queues in turn: the pair's ports closed and made anew):
    each reply lists ports that exist, named with a driver, or says the
    ports are being set up or closed (-32000), never a port half made;
    every run balances; the server stays up with a clean stderr."""
    import threading
    c = Checker("serve_ports_during_setup")
    s = Server()
    replies, busy, other, done = [], [], [], threading.Event()

    def poll():
        with s.client() as cl:
            while not done.is_set():
                try:
                    replies.append(cl.ports())
                except wirerate.ServerError as e:
                    (busy if e.code == wirerate.client.BAD_STATE and
                     "setting its ports up or closing them" in e.message
                     else other).append(e)
    t = threading.Thread(target=poll, daemon=True)
    try:
        t.start()
        with s.client() as cl:
            for i in range(8):
                q = 1 + i % 2
                balanced(c, cl.run(dict(ONE_WAY, rate="50kpps", count=2000,
                                        txq=q, rxq=q)), "run %d" % (i + 1))
        done.set()
        t.join(30)
        c.eq(other, [], "no other error")
        c.true(len(replies) > 0, "ports answered %d times (%d busy)" % (
            len(replies), len(busy)))
        bad = [p for r in replies for p in r if not p.get("name") or not p.get("driver")]
        c.eq(bad, [], "every port listed has its name and driver")
        c.eq(s.p.poll(), None, "the server is up")
        c.true("error" not in s.stderr(), "the server's stderr: %r" % s.stderr()[-500:])
        print("ports: %d replies, %d busy" % (len(replies), len(busy)))
    finally:
        done.set()
        s.close()
    c.done()


def serve_eal_ports():
    """A port EAL probed (--vdev net_ring0: its TX ring is its RX ring)
    outlives the runs: kept up by the next run, set up again in place when
    a run asks for other descriptors (not closed: closing releases an EAL
    port for good), then kept again; every run balanced against the
    PMD's counts of that run."""
    c = Checker("serve_eal_ports")
    s = Server(n=3, vdevs=["net_ring0"], ports=["--quiet"])
    loop = {"tx-ports": "0", "rx-ports": "0"}
    runs = [({}, True, 1), ({"rxd": 512}, False, 2), ({"rxd": 512}, True, 2)]
    try:
        with s.client() as cl:
            doc = cl.run(dict(loop, count=2000))
            balanced(c, doc, "run 1")
            for i, (opts, kept, setups) in enumerate(runs):
                what = "run %d %s" % (i + 2, opts)
                doc = cl.run(dict(loop, count=3000 + i, **opts))
                balanced(c, doc, what)
                c.eq([(t["nic_opackets"], t["nic_ipackets"])
                      for t in doc["totals"]], [(3000 + i, 3000 + i)],
                     "%s: the PMD's counts are this run's" % what)
                c.eq([(p.get("kept"), p.get("setups")) for p in doc["ports"]],
                     [(kept, setups)], "%s: kept, set-ups" % what)
            c.eq([p.get("kept") for p in cl.ports()],
                 [{"setups": 2, "reuses": 2}], "ports: the port's set-ups")
    finally:
        s.close()
    c.done()


def connect_error(path, timeout):
    """The Python client's error connecting to path, or None."""
    try:
        wirerate.Client(path, timeout=timeout).close()
    except wirerate.client.Error as e:
        return str(e)
    return None


def client_full_backlog():
    """The Python client against a control socket whose queue of
    connections not yet accepted is full (a busy server): it waits, as a
    blocking connect would, and connects once the server accepts; with no
    server accepting it gives up after its timeout, saying so. A plain
    listening socket stands in for the server."""
    c = Checker("client_full_backlog")
    d = tempfile.mkdtemp(prefix="wrbacklog")
    path = os.path.join(d, "s.sock")
    srv = socket.socket(socket.AF_UNIX)
    srv.bind(path)
    srv.listen(1)
    queued = []
    try:
        while True:   # fill the queue: the next connect is refused with EAGAIN
            k = socket.socket(socket.AF_UNIX)
            k.setblocking(False)
            try:
                k.connect(path)
            except BlockingIOError:
                k.close()
                break
            queued.append(k)
        t0 = time.monotonic()
        msg = connect_error(path, 0.3)
        c.true(msg and "accepted no connection" in msg and
               time.monotonic() - t0 >= 0.3, "no server accepting: gave up "
               "after its timeout: %r" % msg)

        def accept_later():
            time.sleep(0.3)
            for _ in range(len(queued) + 1):
                srv.accept()[0].close()
        t = threading.Thread(target=accept_later)
        t.start()
        try:
            c.eq(connect_error(path, 10), None, "connected once the server accepted")
        finally:
            t.join()
    finally:
        for k in queued:
            k.close()
        srv.close()
        shutil.rmtree(d, ignore_errors=True)
    c.done()


def serve_csum_ports():
    """A net_tap port (its PMD computes and checks checksums) kept between
    runs only while the run asks for the same offloads: a frame run sets
    it up without them, a connection server after it sets it up again with
    them (its notes say why), the next connection server takes it as it
    is, and one with --conn-csum software sets it up again without."""
    c = Checker("serve_csum_ports")
    if not wrtest.have_tun():
        c.skip("no /dev/net/tun")
        c.done()
    tap = "wrcs%d" % (os.getpid() % 100000)
    s = Server(n=4, vdevs=["net_tap0,iface=" + tap], ports=["--quiet"])
    conn = {"conn": "server", "port-ip": "0=198.18.0.1/24", "conn-listen": "80",
            "duration": "0.2"}
    runs = [("frames", {"tx-ports": "0", "rx-ports": "none", "count": "100"},
             False, (False, 1), None),
            ("server", conn, True, (False, 2), "TCP checksum offload on TX 0 -> 1"),
            ("server again", conn, True, (True, 2), None),
            ("server, software sums", dict(conn, **{"conn-csum": "software"}),
             False, (False, 3), "TCP checksum offload on TX 1 -> 0")]
    try:
        with s.client() as cl:
            for what, params, offload, kept, why in runs:
                doc = cl.run(dict(params))
                port = doc["ports"][0]
                c.eq([port.get(k) for k in ("tcp_csum_tx_offload",
                                            "ipv4_csum_tx_offload",
                                            "tcp_csum_rx_offload")],
                     [offload] * 3, "%s: the offloads" % what)
                c.eq((port.get("kept"), port.get("setups")), kept,
                     "%s: kept, set-ups" % what)
                if why:
                    c.true(any("set up again: " + why in n for n in port["notes"]),
                           "%s: the notes say why: %r" % (what, port["notes"]))
    finally:
        s.close()
    c.done()


def rate_of(sample, port=0):
    return sample["ports"][port]["tx_mpps"] * 1e6


# A pacer's catch-up backlog at most (lib/setup/run.h): what a stall at a
# sample's edge may move into the next sample.
PACE_MAX_BACKLOG = 16384


def live_rate_budget(c, doc, phases):
    """The samples of a run whose rate changed live, tolerant of stalls as
    tests/vdev/test_vdev.py check_stalled is: each whole sample inside a
    phase (t0, t1, pps) sends at most its rate (+3%%: a catch-up backlog
    in a 0.5 s sample), and what they sent short of their rates is no
    more than the frames the pacer clamped after stalls, every clamp
    followed a stall (none CPU bound) and the kernel confirms the stalls
    (the worker's off-CPU time covers them); 0.5%% and a backlog at each
    edge of a phase for the counters' edges. A change the workers missed
    leaves a phase short by far more than any stall clamped."""
    rate = doc["totals"][0]["rate"]
    st = rate["stalls"]
    short = want = 0.0
    for t0, t1, pps in phases:
        got = [(x["dt_s"], rate_of(x)) for x in doc["samples"]
               if t0 <= x["t_s"] - x["dt_s"] and x["t_s"] <= t1]
        c.true(len(got) >= 2, "samples in %.2f..%.2f s: %s" % (t0, t1, got))
        c.true(all(r <= pps * 1.03 for _, r in got),
               "at most %.0f pps (+3%%) in %.2f..%.2f s: %s" % (pps, t0, t1, got))
        short += sum(dt * (pps - r) for dt, r in got)
        want += sum(dt * pps for dt, _ in got)
    slack = st["clamped_pkts"] + 0.005 * want + 2 * len(phases) * PACE_MAX_BACKLOG
    c.true(short <= slack, "the samples' shortfall %.0f frames is within "
           "the stalls' clamps %d + 0.5%% + a backlog per edge (%.0f)" %
           (short, st["clamped_pkts"], slack))
    c.eq(st["clamped_pkts"], rate["clamped_pkts"],
         "every clamp after a stall, none CPU bound (%s)" % rate.get("reason"))
    c.true(wrtest.stalls_confirmed(st), wrtest.stalls_text(st))
    print("samples %s; stalls %s" % ([round(rate_of(x)) for x in doc["samples"]], st))


def serve_live_rate():
    """1 Mpps, then 2 Mpps by update, on ring ports: the interval samples
    show each rate, stalls allowed for as check_stalled does. The shared
    2-core CI VM carries it: on 2026-12-02 at a load average of 7-9 (other
    builds beside it), 4 runs of 4 passed with samples of 1.73-2.00 Mpps
    at 2 Mpps, every frame short clamped after a stall the kernel
    confirms; one run with another suite running beside it in the same
    VM failed, 41 of its 1.06 M clamped frames judged CPU bound. A run
    with stalls the kernel does not account for runs again (once). Then, in
    a second run on the same server at 10 kpps, TX paused and resumed: a
    sample while paused sent nothing, one after sent again. Both runs
    balanced."""
    c = Checker("serve_live_rate")
    s = Server()
    try:
        with s.client() as cl:
            for attempt in range(LIVE_RATE_ATTEMPTS):
                doc, t_a, t_b, reply = live_rate_run(cl)
                c.eq([q["pps"] for q in reply["tx_pps"]], [2e6],
                     "update's reply: the new rate per TX queue")
                balanced(c, doc, "live run %d" % attempt)
                st = doc["totals"][0]["rate"]["stalls"]
                if wrtest.stalls_confirmed(st) or attempt == LIVE_RATE_ATTEMPTS - 1:
                    break
                print("note: live run %d: %s; not the kernel's, so run again"
                      % (attempt, wrtest.stalls_text(st)))
            live_rate_budget(c, doc, [(0.0, t_a, 1e6), (t_b, 6.0, 2e6)])
            cl.start(dict(ONE_WAY, rate="10kpps", duration="5s",
                          interval="0.5s"))
            t_pause = wait_elapsed(cl, 1000)
            cl.update(pause=True)
            t_resume = wait_elapsed(cl, 2600)
            cl.update(pause=False)
            doc = cl.wait(60)["result"]
        balanced(c, doc, "paused run")
        held = [rate_of(x) for x in doc["samples"]
                if t_pause + 0.5 <= x["t_s"] <= t_resume]
        resumed = [rate_of(x) for x in doc["samples"]
                   if x["t_s"] - x["dt_s"] >= t_resume]
        c.true(held and min(held) == 0.0, "a sample while paused sent "
               "nothing: %s" % held)
        c.true(resumed and max(resumed) > 0.0, "sending again after the "
               "resume: %s" % resumed)
    finally:
        s.close()
    c.done()


# A live run whose stalls the kernel does not account for runs again, once
# (as check_rate in tests/vdev/test_vdev.py): on 2026-12-07 one CI run's
# worker lost 49 ms with no time off its CPU, in the kernel or stolen by
# the hypervisor (steal, which this kernel takes out of a thread's CPU
# time), a pause of the VM its guest cannot see. A stall of wirerate's own
# would come back in the second run.
LIVE_RATE_ATTEMPTS = 2


def live_rate_run(cl):
    """1 Mpps for 2.5 s, then 2 Mpps by update, 6 s in all: the result,
    the trial's clock before the update and after it, the update's
    reply."""
    cl.start(dict(ONE_WAY, rate="1Mpps", duration="6s", interval="0.5s"))
    # The clock status gives is the last sample's: t_a is before the
    # update, and every sample after the one status gives once it is done
    # starts after it.
    t_a = wait_elapsed(cl, 2500)
    reply = cl.update(rate="2Mpps")
    t_b = wait_elapsed(cl, 0) + 0.5
    return cl.wait(60)["result"], t_a, t_b, reply


def wait_elapsed(cl, ms):
    """Wait until the trial's clock (status live.elapsed_ms) reaches ms;
    the time in seconds, as the samples' t_s count it."""
    end = time.time() + 60
    while time.time() < end:
        live = cl.status().get("live") or {}
        if live.get("state") == "running" and live.get("elapsed_ms", 0) >= ms:
            return live["elapsed_ms"] / 1000.0
        time.sleep(0.05)
    raise AssertionError("the run's clock never reached %d ms" % ms)


def code_of(fn):
    try:
        fn()
    except wirerate.ServerError as e:
        return e.code, e.message
    return None, None


def raw_error(cl, data):
    return cl.send_raw(data).get("error", {}).get("code")


def serve_bad_requests():
    """Malformed JSON, a request over 1 MiB, unknown methods, bad options
    (the CLI's message), requests in the wrong state, many clients: each
    an error, and the server keeps answering."""
    c = Checker("serve_bad_requests")
    s = Server()
    try:
        with s.client() as cl:
            c.eq(raw_error(cl, b"{not json\n"), wirerate.client.PARSE_ERROR,
                 "malformed JSON")
            c.eq(raw_error(cl, b'{"id": 1, "method": "status"}\n'),
                 wirerate.client.INVALID_REQUEST, "no jsonrpc member")
            c.eq(raw_error(cl, b'{"jsonrpc": "2.0", "id": 1, "method": '
                           b'"status", "params": [1]}\n'),
                 wirerate.client.BAD_PARAMS, "params by position")
            big = b'{"jsonrpc": "2.0", "id": 1, "method": "' + \
                b"x" * (2 << 20) + b'"}\n'
            c.eq(raw_error(cl, big), wirerate.client.TOO_LONG,
                 "a 2 MiB request")
            c.eq(code_of(lambda: cl.call("frobnicate"))[0],
                 wirerate.client.NO_METHOD, "unknown method")
            code, msg = code_of(lambda: cl.start(rate="bogus"))
            cli = subprocess.run([wrtest.WIRERATE, "check", "--", "--rate",
                                  "bogus"], capture_output=True, text=True)
            c.eq(code, wirerate.client.BAD_PARAMS, "bad option's code")
            c.true(msg and msg in cli.stderr, "bad option: the CLI's message "
                   "%r in %r" % (msg, cli.stderr))
            code, msg = code_of(lambda: cl.start(sise=64))
            c.true(code == wirerate.client.BAD_PARAMS and "--size" in msg,
                   "unknown option: did you mean --size: %r" % msg)
            c.eq(code_of(lambda: cl.result())[0], wirerate.client.BAD_STATE,
                 "result before any run")
            cl.start(dict(ONE_WAY, rate="10kpps", duration="3s"))
            wait_elapsed(cl, 100)
            names = [p["name"] for p in cl.ports()]
            c.eq(sorted(n for n in names if "wr_pair0" in n),
                 ["net_ring_wr_pair0_a", "net_ring_wr_pair0_b"],
                 "ports lists the run's ring pair")
            c.eq(code_of(lambda: cl.start())[0], wirerate.client.BAD_STATE,
                 "start while a run is on")
            c.eq(code_of(lambda: cl.result())[0], wirerate.client.BAD_STATE,
                 "result while a run is on")
            c.eq(code_of(lambda: cl.update(rate="1kpps", port=7))[0],
                 wirerate.client.BAD_PARAMS, "update of a port not in the run")
            many = [s.client() for _ in range(5)]
            c.eq([m.status()["state"] for m in many], ["running"] * 5,
                 "five clients at once answered")
            for m in many:
                m.close()
            crowd = [socket.socket(socket.AF_UNIX) for _ in range(20)]
            for k in crowd:
                k.connect(s.sock)
            extra = wirerate.Client(s.sock)
            code, msg = code_of(extra.status)
            c.true(code == wirerate.client.BAD_STATE and "too many" in msg,
                   "a client beyond %d is told so: %r" % (16, msg))
            extra.close()
            for k in crowd:
                k.close()
            doc = cl.wait(60)["result"]
            balanced(c, doc, "the run under bad requests")
            c.eq(cl.status()["state"], "done", "the server still answers")
    finally:
        s.close()
    c.done()


def serve_conn_start():
    """start takes a connection run's options as the command line does:
    each bad connection request refused with the code of a bad option and
    exactly the message `wirerate check` prints for the same options; the
    server stays idle and answers."""
    c = Checker("serve_conn_start")
    client = {"conn": "client", "port-ip": "0=198.18.0.2/15",
              "conn-server": "198.19.0.1:80"}
    bad = [(dict(client, **{"conn-rate": "0"}), "--conn-rate 0: out of range"),
           (dict(client, **{"conn-sport": "2000-1000"}),
            "--conn-sport 2000-1000: the range runs backwards"),
           (dict(client, **{"conn-body": "1k"}),
            "--conn-body with --conn client"),
           (dict(client, rate="1Mpps"), "--conn with --rate"),
           ({"conn": "client", "conn-server": "198.19.0.1:80"},
            "--conn: port 0 has no IPv4 address"),
           ({"conn-concurrency": "100"}, "--conn-concurrency needs --conn")]
    s = Server()
    try:
        with s.client() as cl:
            for params, want in bad:
                code, msg = code_of(lambda: cl.start(params))
                argv = []
                for k, v in params.items():
                    argv += ["--" + k, v]
                cli = subprocess.run([wrtest.WIRERATE, "check", "--"] + argv,
                                     capture_output=True, text=True)
                c.eq(code, wirerate.client.BAD_PARAMS, "%r: code" % params)
                c.eq(cli.returncode, 2, "%r: wirerate check exit code" % params)
                c.true(msg and want in msg, "%r: says %r: %r" % (params, want,
                                                              msg))
                c.true(msg and msg in cli.stderr,
                       "%r: the CLI's message %r in %r" % (params, msg,
                                                           cli.stderr))
            c.eq(cl.status()["state"], "idle", "no run started")
    finally:
        s.close()
    c.done()


KILLED_CLIENT = """
import sys, time
sys.path.insert(0, sys.argv[1])
import wirerate
cl = wirerate.Client(sys.argv[2])
cl.start({"tx-ports": "0", "rx-ports": "1", "rate": "10kpps",
          "duration": "3s"})
print("started", flush=True)
time.sleep(60)
"""


def serve_client_killed():
    """The client that started a run is killed mid-run: the run goes on
    to its end, and another client gets its whole, balanced result."""
    c = Checker("serve_client_killed")
    s = Server()
    py = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                      "python")
    try:
        k = subprocess.Popen([sys.executable, "-c", KILLED_CLIENT, py, s.sock],
                             stdout=subprocess.PIPE, text=True)
        c.eq(k.stdout.readline().strip(), "started", "the client started a run")
        with s.client() as cl:
            wait_elapsed(cl, 1000)
            k.kill()
            k.wait()
            c.eq(cl.status()["state"], "running", "the run goes on")
            reply = cl.wait(60)
        c.eq(reply["exit_code"], 0, "the run's exit code")
        c.eq(reply["result"]["stop_reason"], "duration", "it ran its duration")
        balanced(c, reply["result"], "the orphaned run")
    finally:
        s.close()
    c.done()


def hugepage_files(prefix):
    try:
        return [f for f in os.listdir("/dev/hugepages") if prefix in f]
    except OSError:
        return []


def serve_shutdown():
    """shutdown during a run: the run stops and is recorded, the server
    exits 0 and leaves no socket, runtime directory or hugepage file."""
    c = Checker("serve_shutdown")
    if wrtest.hugepages_free() < wrtest.eal.HUGEPAGES_MIN:
        wrtest.skip("fewer than %d free hugepages" % wrtest.eal.HUGEPAGES_MIN)
    s = Server(in_memory=False, n=1)
    try:
        with s.client() as cl:
            cl.start(dict(ONE_WAY, rate="10kpps", duration="30s"))
            wait_elapsed(cl, 500)
            c.eq(cl.shutdown(), {"state": "shutting down", "run_stopped": True},
                 "shutdown's reply")
        c.eq(s.wait(60), 0, "the server's exit code")
        c.true("error" not in s.stderr(), "no error: %r" % s.stderr()[-500:])
        c.true(not os.path.exists(s.sock), "the socket file is removed")
        c.eq(hugepage_files(s.prefix), [], "hugepage files of its prefix")
        c.true(not os.path.exists("/var/run/dpdk/" + s.prefix),
               "its runtime directory is removed")
    finally:
        s.close()
    c.done()


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def serve_memory_flat():
    """120 short runs on one server: its resident memory after them is
    within 640 KiB of what it was after the first 20 (a leak of 6.4 KiB a
    run shows over the 100 runs after those; 500 runs once read 25684 and
    25696 KiB after 20 and after all of them), and DPDK's
    heaps (status heap_bytes: every pool, ring and queue) hold exactly
    what they held then, each run's TX pools and queues given back; the
    ports stayed up through all of them (set up by the first run, taken
    as they were by the others)."""
    c = Checker("serve_memory_flat")
    s = Server()
    nb = int(os.environ.get("WR_SERVE_RUNS", "120"))
    try:
        with s.client() as cl:
            for i in range(nb):
                doc = cl.run(dict(ONE_WAY, count=64, grace="20ms"))
                if doc["accounting"]["sent_pkts"] != 64 or \
                        not doc["accounting"]["balanced"]:
                    balanced(c, doc, "run %d" % (i + 1))
                    break
                if i + 1 == 20:
                    base, heap = rss_kib(s.p.pid), cl.status()["heap_bytes"]
            end, heap_end = rss_kib(s.p.pid), cl.status()["heap_bytes"]
            c.eq([p.get("kept") for p in pair_ports(cl)],
                 [{"setups": 1, "reuses": nb - 1}] * 2,
                 "the ports stayed up through the %d runs" % nb)
        print("RSS after 20 runs %d KiB, after %d %d KiB; DPDK heap %d and "
              "%d bytes" % (base, nb, end, heap, heap_end))
        c.true(end <= base + 640, "RSS after %d runs %d KiB, after "
               "20 %d KiB" % (nb, end, base))
        c.eq(heap_end, heap, "DPDK heap bytes after %d runs, as after 20" % nb)
    finally:
        s.close()
    c.done()


@contextlib.contextmanager
def control_run(rate, duration):
    """A plain run from port 0 to 1 of a ring pair at rate for duration,
    with --control: yields (the process, ctl(*args) -> CompletedProcess,
    the result's path, the folder of both) once its socket answers status
    (or 60 s passed); the process killed if still running and the folder
    removed after."""
    d = tempfile.mkdtemp(prefix="wrctl")
    sock, path = os.path.join(d, "c.sock"), os.path.join(d, "r.json")
    p = subprocess.Popen([wrtest.WIRERATE] + wrtest.eal_args([]) + [
        "--", "--control", sock, "--json", path, "--tx-ports", "0",
        "--rx-ports", "1", "--rate", rate, "--duration", duration] + RING,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def ctl(*a):
        return subprocess.run([wrtest.WIRERATE, "ctl", sock] + list(a),
                              capture_output=True, text=True)
    try:
        end = time.time() + 60
        while ctl("status").returncode != 0 and time.time() < end and p.poll() is None:
            time.sleep(0.1)
        yield p, ctl, path, d
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        shutil.rmtree(d, ignore_errors=True)


def control_plain_run():
    """--control on a plain run: wirerate ctl reads its status, changes
    its rate and stops it; start is the server's alone."""
    c = Checker("control_plain_run")
    with control_run("10kpps", "60s") as (p, ctl, path, d):
        c.eq(ctl("status").returncode, 0, "ctl status")
        r = ctl("update", "rate=20kpps")
        c.true(r.returncode == 0 and "20000" in r.stdout, "ctl update: %r %r"
               % (r.stdout, r.stderr))
        r = ctl("start")
        c.true(r.returncode == 1 and "only wirerate serve" in r.stderr,
               "start on a plain run: %r" % r.stderr)
        r = ctl("update", "rate=fast")
        c.true(r.returncode == 1 and "--rate fast" in r.stderr,
               "a bad rate: %r" % r.stderr)
        c.eq(ctl("update", "bad").returncode, 2, "ctl usage error")
        c.eq(ctl("stop").returncode, 0, "ctl stop")
        out, err = p.communicate(timeout=60)
        c.eq(p.returncode, 0, "the run's exit code")
        doc = wrtest.read_result(path)
        c.true(doc["duration_s"] < 30, "stopped early: %s s" % doc["duration_s"])
        wrtest.stream_balance(c, doc)
        c.true(not os.path.exists(os.path.join(d, "c.sock")), "the socket file is removed")
    c.done()


def control_update_keeps_clamps():
    """A live update keeps what the pacer counted: 300 Mpps
    asked of a ring pair (no worker here reaches it: the pacer clamps
    most of the budget), the same rate given again by `wirerate ctl
    update` half way. What the PMD sent plus what the pacer clamped is
    what the rate earned over the run (less the pacer's start and a
    backlog: 5 %), not only since the update, and the rate stays not
    reached."""
    c = Checker("control_update_keeps_clamps")
    with control_run("300Mpps", "4s") as (p, ctl, path, d):
        time.sleep(2)
        r = ctl("update", "rate=300Mpps")
        c.eq(r.returncode, 0, "ctl update: %r" % r.stderr)
        out, err = p.communicate(timeout=60)
        c.eq(p.returncode, 0, "the run's exit code")
        doc = wrtest.read_result(path)
        t = doc["totals"][0]
        earned = t["rate"]["requested_pps"] * doc["duration_s"]
        got = t["nic_opackets"] + t["rate"]["clamped_pkts"]
        c.true(got >= 0.95 * earned, "sent (by the PMD) %d + clamped %d = %d of the "
               "%.0f frames the rate earned in %.2f s" % (
                   t["nic_opackets"], t["rate"]["clamped_pkts"], got, earned,
                   doc["duration_s"]))
        c.true(t["rate"]["clamped_pkts"] >= t["rate"]["stalls"]["clamped_pkts"],
               "stall clamps are a part of all clamps: %s" % t["rate"])
        c.eq(t["rate"]["reached"], False, "the rate was not reached")
        wrtest.stream_balance(c, doc)
    c.done()


def ndr_search_script():
    """scripts/ndr-search.py through the client against a device with a
    known limit (--impair police=5kpps, a token bucket of 5 kpps): the NDR
    it finds is below that limit and above the lowest rate, and every
    trial it ran is a run of the server."""
    c = Checker("ndr_search_script")
    s = Server(["--impair", "police=5kpps"])
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                          "..", "scripts", "ndr-search.py")
    try:
        r = subprocess.run([sys.executable, script, "--socket", s.sock,
                            "--lo", "1k", "--hi", "20k", "--resolution", "1k",
                            "--trial", "1s", "--opt", "tx-ports=0",
                            "--opt", "rx-ports=1"],
                           capture_output=True, text=True, timeout=240)
        c.eq(r.returncode, 0, "exit code (%s)" % r.stderr[-500:])
        found = [float(line.split()[1]) for line in r.stdout.splitlines()
                 if line.startswith("NDR: ")]
        c.true(len(found) == 1 and 1000 <= found[0] <= 5000 * 1.05,
               "NDR within [1k, 5.25k] pps: %s" % r.stdout[-800:])
        trials = [line for line in r.stdout.splitlines()
                  if line.startswith("trial ")]
        with s.client() as cl:
            c.eq(cl.status()["run"], len(trials), "one server run per trial")
    finally:
        s.close()
    c.done()


def free_port():
    with socket.socket() as k:
        k.bind(("127.0.0.1", 0))
        return k.getsockname()[1]


def serve_tcp_token():
    """--control-listen: a TCP client gets nothing before auth with the
    --control-token secret (a wrong one is refused and dropped), then the
    same methods; a token file others can read, or --control-listen
    without a token, is refused before anything listens."""
    c = Checker("serve_tcp_token")
    d = tempfile.mkdtemp(prefix="wrtok")
    tok = os.path.join(d, "token")
    with open(tok, "w") as f:
        f.write("s3cret-s3cret-s3cret\n")
    os.chmod(tok, 0o600)
    port = free_port()
    addr = ("127.0.0.1", port)
    s = Server(["--control-listen", "127.0.0.1:%d" % port,
                "--control-token", tok], n=2)
    try:
        raw = wirerate.Client(address=addr)
        c.eq(code_of(raw.status)[0], wirerate.client.DENIED,
             "a request before auth")
        raw.close()
        c.eq(code_of(lambda: wirerate.Client(address=addr, token="guess-guess-guess"))[0],
             wirerate.client.DENIED, "a wrong token")
        with wirerate.Client(address=addr, token="s3cret-s3cret-s3cret") as cl:
            doc = cl.run(dict(ONE_WAY, count=1000))
            balanced(c, doc, "a run over TCP")
    finally:
        s.close()
    os.chmod(tok, 0o644)
    r = subprocess.run([wrtest.WIRERATE, "serve"] + wrtest.eal_args([]) + [
        "--", "--control", os.path.join(d, "x.sock"), "--control-listen",
        "127.0.0.1:%d" % port, "--control-token", tok] + RING,
        capture_output=True, text=True, timeout=60)
    c.true(r.returncode == 2 and "chmod 600" in r.stderr,
           "a token others can read: %d %r" % (r.returncode, r.stderr[-300:]))
    r = subprocess.run([wrtest.WIRERATE, "check", "--", "--control", "x.sock",
                        "--control-listen", "127.0.0.1:%d" % port],
                       capture_output=True, text=True)
    c.true(r.returncode == 2 and "never goes without a token" in r.stderr,
           "--control-listen without a token: %r" % r.stderr)
    shutil.rmtree(d, ignore_errors=True)
    c.done()


def read_to_close(k, end):
    """Bytes a socket receives until its peer closes it, or None when it
    is still open at time end."""
    data = b""
    while time.time() < end:
        k.settimeout(max(0.01, end - time.time()))
        try:
            chunk = k.recv(4096)
        except socket.timeout:
            return None
        except OSError:
            return data
        if not chunk:
            return data
        data += chunk
    return None


def serve_tcp_crowd():
    """20 TCP connections that never send auth take no slot of the UNIX
    socket: its client still gets status; each idle one is told and
    closed after the auth deadline (5 s), after which an authenticated
    TCP client gets in; the UNIX client's shutdown ends the server."""
    c = Checker("serve_tcp_crowd")
    d = tempfile.mkdtemp(prefix="wrtok")
    tok = os.path.join(d, "token")
    with open(tok, "w") as f:
        f.write("s3cret-s3cret-s3cret\n")
    os.chmod(tok, 0o600)
    port = free_port()
    s = Server(["--control-listen", "127.0.0.1:%d" % port,
                "--control-token", tok], n=5)
    crowd = []
    try:
        t0 = time.time()
        crowd = [socket.create_connection(("127.0.0.1", port), 10)
                 for _ in range(20)]
        # 16 hold the TCP slots; each newer one takes the oldest's slot.
        time.sleep(0.5)
        with s.client() as cl:
            c.eq(code_of(cl.status), (None, None), "the UNIX client's "
                 "status with 20 idle TCP connections")
            got = [read_to_close(k, t0 + 12) for k in crowd]
            waited = time.time() - t0
            c.true(all(g is not None for g in got), "every idle TCP "
                   "connection is closed: %d still open" %
                   sum(g is None for g in got))
            c.true(sum(b"auth" in (g or b"") for g in got) >= 16,
                   "the idle ones are told why: %r" % got[:1])
            c.true(4 <= waited < 12, "closed after the deadline: %.1f s" % waited)
            tcp = lambda: wirerate.Client(address=("127.0.0.1", port),
                                          token="s3cret-s3cret-s3cret")
            c.eq(code_of(lambda: tcp().status()), (None, None),
                 "an authenticated TCP client after the crowd left")
            c.eq(cl.shutdown()["state"], "shutting down", "the UNIX "
                 "client's shutdown")
        c.eq(s.wait(60), 0, "the server's exit code")
    finally:
        for k in crowd:
            k.close()
        s.close()
        shutil.rmtree(d, ignore_errors=True)
    c.done()


# The fuzz case's byte streams: each built from these pieces, from one
# seed per stream, cut at random points.
FUZZ_SEED = 20261204
FUZZ_STREAMS = 160
MAX_LINE = 1 << 20  # WR_RPC_MAX_LINE
FUZZ_BITS = [b"\x00" * 7, b"\xff\xfe\xc0\x80\xed\xa0\x80", b"\xc3(", b"{\"jsonrpc\": \"2.0\"",
             b"\"id\": 1, \"meth", b"od\": \"status\"}", b"[]", b"null", b"\r", b" ",
             b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"status\"}",
             b"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"auth\",\"params\":"
             b"{\"token\":\"guess-guess-guess\"}}"]


def fuzz_stream(rnd):
    """A stream's pieces: random bytes, NULs, bad UTF-8, JSON cut anywhere,
    and (unless the stream is one long unfinished line) newlines and now
    and then a line over the limit."""
    lines = rnd.random() >= 0.1
    parts = []
    for _ in range(rnd.randint(1, 30)):
        r = rnd.random()
        if r < 0.3:
            parts.append(bytes(rnd.randrange(256) for _ in range(rnd.randint(0, 80))))
        elif r < 0.8:
            parts.append(rnd.choice(FUZZ_BITS))
        elif lines and r < 0.97:
            parts.append(rnd.choice([b"\n", b"\r\n", b"\n\n"]))
        elif lines:
            parts.append(b"y" * (MAX_LINE + rnd.randint(1, 4096)))
    data = b"".join(parts)
    if not lines:
        data = data.replace(b"\n", b"")
    cuts = sorted(rnd.randrange(len(data) + 1) for _ in range(rnd.randint(0, 6)))
    return [data[a:b] for a, b in zip([0] + cuts, cuts + [len(data)])]


def first_offence(data):
    """Where the server has its first reason to close a connection that
    did not authenticate: the end of its first non-empty line (one '\r'
    before the '\n' stripped), or the first byte of a line past the
    limit; None when there is none."""
    start = 0
    while True:
        nl = data.find(b"\n", start)
        end = len(data) if nl < 0 else nl
        if end - start > MAX_LINE:
            return start + MAX_LINE + 1
        if nl < 0:
            return None
        line = data[start:nl]
        if line.endswith(b"\r"):
            line = line[:-1]
        if line:
            return nl + 1
        start = nl + 1


def fuzz_one(addr, pieces):
    """Send pieces (a short random pause now and then); then read until
    the server closes: {offence_s, closed_s, early}, times after connect."""
    rnd = random.Random(len(pieces))
    at = first_offence(b"".join(pieces))
    k = socket.create_connection(addr, 10)
    t0, sent, out = time.monotonic(), 0, {}
    try:
        for p in pieces:
            while p:
                n = k.send(p)
                sent, p = sent + n, p[n:]
                if at is not None and sent >= at and "offence_s" not in out:
                    out["offence_s"] = time.monotonic() - t0
            if rnd.random() < 0.3:
                time.sleep(0.003)
    except OSError:
        out["early"] = at is None or sent < at
    if at is not None and "offence_s" not in out:
        out["offence_s"] = time.monotonic() - t0
    got = read_to_close(k, time.time() + 8)
    out["closed_s"] = None if got is None else time.monotonic() - t0
    k.close()
    return out


def fuzz_verdict(out):
    """What is wrong with one fuzzed connection's fate, or None."""
    if out.get("early"):
        return "closed before any reason: %r" % out
    if out["closed_s"] is None:
        return "never closed: %r" % out
    if "offence_s" in out:
        if out["closed_s"] - out["offence_s"] > 1.0:
            return "closed %.2f s after its first bad line" % (
                out["closed_s"] - out["offence_s"])
    elif not 4.0 <= out["closed_s"] <= 6.5:
        return "no bad line, closed at %.2f s, not at the 5 s deadline" % out["closed_s"]
    return None


def serve_tcp_fuzz():
    """160 TCP connections, 8 at a time, each sending a random byte stream
    (fixed seed): bytes cut at random points, partial lines, lines over
    1 MiB, NUL bytes, bad UTF-8. Each is closed by the server within 1 s
    of its first non-empty line (or line over the limit), or at the 5 s
    auth deadline when it sent none; an authenticated client's status,
    called every 50 ms throughout, is answered within 1 s each time; the
    server then shuts down with exit 0."""
    c = Checker("serve_tcp_fuzz")
    d = tempfile.mkdtemp(prefix="wrtok")
    tok = os.path.join(d, "token")
    with open(tok, "w") as f:
        f.write("s3cret-s3cret-s3cret\n")
    os.chmod(tok, 0o600)
    port = free_port()
    addr = ("127.0.0.1", port)
    s = Server(["--control-listen", "127.0.0.1:%d" % port,
                "--control-token", tok], n=7)
    lat, errors, stop = [], [], threading.Event()

    def monitor():
        with wirerate.Client(address=addr, token="s3cret-s3cret-s3cret",
                             timeout=10) as cl:
            while not stop.is_set():
                t0 = time.monotonic()
                try:
                    cl.status()
                except (OSError, ValueError, wirerate.ServerError) as e:
                    errors.append(repr(e))
                    return
                lat.append(time.monotonic() - t0)
                time.sleep(0.05)
    streams = [fuzz_stream(random.Random(FUZZ_SEED + i)) for i in range(FUZZ_STREAMS)]
    fates = [None] * len(streams)
    todo = list(range(len(streams)))
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                if not todo:
                    return
                i = todo.pop()
            try:
                fates[i] = fuzz_one(addr, streams[i])
            except OSError as e:
                fates[i] = {"early": True, "error": repr(e)}
    try:
        mon = threading.Thread(target=monitor, daemon=True)
        mon.start()
        time.sleep(0.2)
        workers = [threading.Thread(target=worker, daemon=True) for _ in range(8)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(120)
        stop.set()
        mon.join(15)
        bad = [(i, fuzz_verdict(f)) for i, f in enumerate(fates) if f is not None]
        bad = [b for b in bad if b[1] is not None]
        print("%d streams (%d with a bad line, %d over 1 MiB); status called %d "
              "times, slowest %.3f s" % (
                  len(streams), sum("offence_s" in (f or {}) for f in fates),
                  sum(sum(map(len, st)) > MAX_LINE for st in streams), len(lat),
                  max(lat or [0])))
        c.eq(sum(f is None for f in fates), 0, "every stream sent")
        c.eq(bad[:3], [], "every fuzzed connection closed when it should be "
             "(%d not)" % len(bad))
        c.eq(errors, [], "the authenticated client's calls all answered")
        c.true(len(lat) >= 20 and max(lat) < 1.0, "each of its %d calls within "
               "1 s: slowest %.3f s" % (len(lat), max(lat or [99])))
        with s.client() as cl:
            c.eq(cl.shutdown()["state"], "shutting down", "shutdown after the fuzz")
        c.eq(s.wait(60), 0, "the server's exit code: it never crashed")
    finally:
        stop.set()
        s.close()
        shutil.rmtree(d, ignore_errors=True)
    c.done()


def serve_long_error():
    """An error message over WR_ERROR_MSG_LEN (1024 bytes) cut where a
    UTF-8 character would be split still gets its reply: an unknown
    method's name echoed, 'é' across the cut, and one past it."""
    c = Checker("serve_long_error")
    s = Server(n=6)
    try:
        with wirerate.Client(s.sock, timeout=10) as cl:
            for pad in (1021, 1022, 1023):
                name = "a" * pad + "\u00e9" * 4
                try:
                    code, msg = code_of(lambda: cl.call(name))
                except socket.timeout:
                    code, msg = "no reply in 10 s", None
                c.eq(code, wirerate.client.NO_METHOD,
                     "%d bytes then 'é': the unknown method's reply" % pad)
                c.true(msg is not None and msg.startswith("a" * pad) and
                       len(msg.encode()) < 1024, "its message is cut whole: "
                       "%r" % (msg or "")[-20:])
            c.eq(cl.status()["state"], "idle", "the server still answers")
    finally:
        s.close()
    c.done()


def ctl_timed(argv, limit_s):
    """wirerate ctl ARGV: (exit code, stderr, seconds), exit None when it
    still ran after limit_s seconds (then killed)."""
    t0 = time.time()
    try:
        r = subprocess.run([wrtest.WIRERATE, "ctl"] + argv, capture_output=True,
                           text=True, timeout=limit_s)
    except subprocess.TimeoutExpired:
        return None, "", time.time() - t0
    return r.returncode, r.stderr, time.time() - t0


def ctl_timeout():
    """wirerate ctl against a socket that accepts and never answers: exit
    1 with the timeout's message within --timeout (1 s) and within its
    default (10 s); a bad --timeout exits 2 naming it, a misspelt one
    with did-you-mean."""
    c = Checker("ctl_timeout")
    d = tempfile.mkdtemp(prefix="wrctl")
    path = os.path.join(d, "silent.sock")
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(8)
    held = []

    def accept_all():
        # Accept every connection, read nothing, answer nothing.
        while True:
            try:
                held.append(srv.accept()[0])
            except OSError:
                return
    threading.Thread(target=accept_all, daemon=True).start()
    try:
        rc, err, t = ctl_timed(["--timeout", "1", path, "status"], 30)
        c.true(rc == 1 and "no reply within 1 s" in err and t < 5,
               "--timeout 1: exit %s in %.1f s: %r" % (rc, t, err))
        c.true(len(held) >= 1, "the silent server accepted ctl's connection")
        rc, err, t = ctl_timed([path, "status"], 30)
        c.true(rc == 1 and "no reply within 10 s" in err and 9 < t < 15,
               "the default timeout: exit %s in %.1f s: %r" % (rc, t, err))
        for bad in ("0", "soon", "-1", "25h"):
            rc, err, t = ctl_timed(["--timeout", bad, path, "status"], 30)
            c.true(rc == 2 and "--timeout %s:" % bad in err,
                   "--timeout %s: exit %s: %r" % (bad, rc, err))
        rc, err, t = ctl_timed(["--timout", "1", path, "status"], 30)
        c.true(rc == 2 and "--timout: unknown option; did you mean --timeout?" in err,
               "--timout: exit %s: %r" % (rc, err))
    finally:
        srv.shutdown(socket.SHUT_RDWR)
        srv.close()
        for k in held:
            k.close()
        shutil.rmtree(d, ignore_errors=True)
    c.done()


CASES = cases.by_name(serve_back_to_back, serve_ports_during_setup, serve_eal_ports,
                      serve_csum_ports, client_full_backlog,
                      serve_live_rate, serve_bad_requests, serve_conn_start,
                      serve_client_killed,
                      serve_shutdown, serve_memory_flat, control_plain_run,
                      control_update_keeps_clamps, ndr_search_script, serve_tcp_token,
                      serve_tcp_crowd, serve_tcp_fuzz, serve_long_error,
                      ctl_timeout)

if __name__ == "__main__":
    cases.main(CASES)
