# SPDX-License-Identifier: BSD-3-Clause
"""--mode conn-load, conn-rate and conn-capacity with --peer (docs/connload.md,
docs/tcp.md, docs/conncap.md):
the far end's wirerate serve, in the namespace on its veth end, runs the
server; after each trial the client reads the far end's own books and
judges the trial's against its own. Each trial's far books (from the far
end's status, a count the client did not make) are compared here with
the client's figures of that trial. The bed is test_conn_live.py's.
Usage: test_connpeer_mode.py CASE (see CASES)."""
import shutil
import tempfile

import cases
import test_conn as tc
import test_conn_live as tl
import wrtest
from wrtest import Checker


def trials_check(c, doc, what):
    """Every trial's far books against its client figures; the trials."""
    trials = [t for t in (doc or {}).get("trials", []) if t.get("what") == what]
    for i, t in enumerate(trials):
        far = t.get("far") or {}
        fb = far.get("books") or {}
        tag = "trial %d (%s)" % (i + 1, t.get("concurrency", t.get("cps")))
        c.true(t.get("completed", 0) > 0, "%s: completed here" % tag)
        c.eq(fb.get("accepted"), t.get("completed"),
             "%s: accepted there = completed here" % tag)
        c.eq(fb.get("closed"), t.get("completed"),
             "%s: closed there = completed here" % tag)
        if "l7_tx_bytes" in t:    # conn-load's trials count bytes
            c.eq(fb.get("l7_rx_bytes"), t.get("l7_tx_bytes"),
                 "%s: bytes delivered there = sent here" % tag)
            c.eq(fb.get("l7_tx_bytes"), t.get("l7_rx_bytes"),
                 "%s: bytes sent there = delivered here" % tag)
        c.eq(far.get("judged"), True, "%s: far.judged" % tag)
        c.eq(far.get("ok"), True, "%s: far.ok" % tag)
    far = (doc or {}).get("conn_far") or {}
    c.eq(far.get("trials_judged"), len(trials), "far.trials_judged")
    c.eq(far.get("trials_disagree"), 0, "far.trials_disagree")
    c.eq(far.get("exit_code"), 0, "the far end's exit code")
    return trials


def load_case(name, extra, served):
    c = Checker(name)
    tc.probe(c)
    d = tempfile.mkdtemp(prefix="wrpm")
    try:
        rc, out, doc = tl.far_run(c, d, ["--mode", "conn-load",
                                         "--conn-concurrency", "1,4",
                                         "--trial", "2s", "--grace", "3s",
                                         "--peer-timeout", "20s", "--plain"] + extra)
        c.eq(rc, 0, "exit code (%s)" % out[-800:])
        trials = trials_check(c, doc, "conn-load")
        c.eq([t.get("concurrency") for t in trials], [1, 4], "one trial a value")
        for t in trials:
            fb = (t.get("far") or {}).get("books") or {}
            if served:
                c.eq(fb.get("reqs_served"), t.get("resps"),
                     "c=%s: served there = answers here" % t.get("concurrency"))
            else:
                c.true((fb.get("l7_rx_bytes") or 0) > 0,
                       "c=%s: bytes delivered there" % t.get("concurrency"))
        c.eq(out.count("far end (unix:"), len(trials) + 1,
             "a far-end line per trial and one at the end")
        c.done(wrtest.Result(rc, out, "", doc))
    finally:
        shutil.rmtree(d, ignore_errors=True)


def connload_peer_http():
    """conn-load at concurrencies 1 and 4, HTTP: each trial's far books
    (accepted, closed, requests served, bytes) equal the client's."""
    load_case("connload_peer_http", [], True)


def connload_peer_bulk():
    """conn-load at concurrencies 1 and 4, bulk of 2 MB a connection:
    each trial's bytes delivered there equal the bytes sent here."""
    load_case("connload_peer_bulk", ["--conn-app", "bulk", "--conn-bulk", "2M"],
              False)


def connrate_peer():
    """A conn-rate search through --peer finds a rate, every trial's far
    books equal to the client's."""
    c = Checker("connrate_peer")
    tc.probe(c)
    d = tempfile.mkdtemp(prefix="wrpm")
    try:
        rc, out, doc = tl.far_run(c, d, [
            "--mode", "conn-rate", "--conn-rate", "400", "--trial", "1s",
            "--grace", "2s", "--max-trials", "3", "--peer-timeout", "20s", "--plain"])
        c.eq(rc, 0, "exit code (%s)" % out[-800:])
        trials = trials_check(c, doc, "conn-rate")
        c.true(len(trials) >= 1, "trials ran: %d" % len(trials))
        found = ((doc or {}).get("conn_rate") or {}).get("max_cps")
        c.true(found is not None and found > 0, "a rate found: %s" % found)
        c.done(wrtest.Result(rc, out, "", doc))
    finally:
        shutil.rmtree(d, ignore_errors=True)


def conncap_peer():
    """conn-capacity through --peer, a ceiling of 300 the far end holds:
    capacity 300 (ended by the ceiling), every held one answered its
    check; the far end's books as the settle ended held 300 open of 300
    accepted; at the end of the run they accepted and closed 300 and
    served the requests answered here."""
    c = Checker("conncap_peer")
    tc.probe(c)
    d = tempfile.mkdtemp(prefix="wrpm")
    try:
        rc, out, doc = tl.far_run(c, d, [
            "--mode", "conn-capacity", "--conn-rate", "500", "--conn-count",
            "300", "--conn-concurrency", "300", "--peer-timeout", "20s",
            "--plain"])
        c.eq(rc, 0, "exit code (%s)" % out[-800:])
        cap = (doc or {}).get("capacity") or {}
        c.eq((cap.get("connections"), cap.get("ended_by")), (300, "ceiling"),
             "capacity: the ceiling")
        c.eq(cap.get("check", {}).get("answered"), 300, "checks answered")
        far = cap.get("far") or {}
        c.eq((far.get("open"), far.get("accepted"), far.get("ok")),
             (300, 300, True), "the far end's books as the settle ended: "
             "300 open of 300 accepted, judged to agree")
        c.true("holds 300 open of 300 accepted; both ends agree" in out,
               "the far end's line before the check")
        b, fb = tl.far_books_check(c, doc, 300)
        c.eq(fb.get("reqs_served"), b.get("resps"),
             "served there = answers here")
        print(out[-1200:])
        c.done(wrtest.Result(rc, out, "", doc))
    finally:
        shutil.rmtree(d, ignore_errors=True)


def connpeer_mode_bad():
    """--peer with a server port here in a connection mode: exit 2 naming
    it, before EAL."""
    c = Checker("connpeer_mode_bad")
    for mode in (["--mode", "conn-load"], ["--mode", "conn-rate",
                                           "--conn-rate", "100"]):
        r = wrtest.run(["net_null0", "net_null1"],
                       ["--port-ip", "0=198.18.0.1/24", "--port-ip",
                        "1=198.18.0.2/24", "--conn", "0=client,1=server",
                        "--conn-server", "198.18.0.2:80", "--peer",
                        "unix:/nonexistent"] + mode, timeout=30, want_json=False)
        c.eq(r.rc, 2, "%s: exit 2" % mode[1])
        c.true("--peer with --mode %s and a server port here" % mode[1] in r.err,
               "%s: names it: %r" % (mode[1], r.err.strip()[-200:]))
        c.true("EAL" not in r.out + r.err, "%s: refused before EAL" % mode[1])
    c.done()


CASES = cases.by_name(connload_peer_http, connload_peer_bulk, connrate_peer,
                      conncap_peer, connpeer_mode_bad)

if __name__ == "__main__":
    cases.main(CASES)
