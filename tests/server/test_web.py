# SPDX-License-Identifier: BSD-3-Clause
"""wirerate serve --web (docs/web.md) on ring ports. In headless
Chromium, driven over the DevTools protocol on a pipe: the page loads
from the server alone (the browser's network log), a bad option from the
form is shown by its field and starts nothing, a run started from the
form has its live per-interval rates on the page equal to the run's JSON
result (read over the UNIX socket), the lease table says what the
leases method says, the result page and the JSON download open; a
screenshot is kept under the build's meson-logs/web/. Through the API:
bad option values, no token, an unknown token, oversized and malformed
requests, other methods and paths each get a clear error, nothing
starts and the server keeps serving; it listens on loopback only.
--web-history: /history/ is `wirerate history html` of the DB. Options: --web without a token, a bad address, --web-open alone are
refused before EAL (exit 2). Usage: test_web.py CASE."""
import base64
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

import cases
import wrtest
from wrtest import Checker

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_server import Server, pair_ports, wirerate  # noqa: E402

ONE_WAY = {"tx-ports": "0", "rx-ports": "1"}


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class WebServer(Server):
    """wirerate serve with --web on a free loopback port and a token."""

    def __init__(self, extra=()):
        self.tokdir = tempfile.mkdtemp(prefix="wrweb")
        self.token = base64.b16encode(os.urandom(16)).decode().lower()
        self.tokfile = os.path.join(self.tokdir, "token")
        with open(os.open(self.tokfile, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.write(self.token + "\n")
        self.port = free_port()
        super().__init__(extra=["--control-token", self.tokfile, "--web",
                                str(self.port)] + list(extra))

    def http(self, method, path, body=None, token=None, headers=None):
        """One request: (status, body text)."""
        h = dict(headers or {})
        if token is not None:
            h["Authorization"] = "Bearer " + token
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            c.request(method, path, body=body, headers=h)
            r = c.getresponse()
            return r.status, r.read().decode("utf-8", "replace")
        finally:
            c.close()

    def rpc(self, method, params=None, token=None):
        """POST /api/rpc: (status, reply)."""
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method,
                           "params": params or {}})
        st, text = self.http("POST", "/api/rpc", body, token=token,
                             headers={"Content-Type": "application/json"})
        return st, json.loads(text)

    def close(self):
        super().close()
        shutil.rmtree(self.tokdir, ignore_errors=True)


class Browser:
    """Headless Chromium on the DevTools protocol over a pipe (fds 3 and 4,
    NUL-separated JSON): one page, its network requests recorded."""

    def __init__(self, profile):
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        self.cmd_r, self.cmd_w = os.pipe()
        self.ev_r, self.ev_w = os.pipe()
        r, w = self.cmd_r, self.ev_w

        def fds():
            os.dup2(r, 3)
            os.dup2(w, 4)
        self.p = subprocess.Popen(
            [exe, "--headless=new", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-pipe", "--no-first-run", "--disable-sync",
             "--disable-background-networking", "--disable-component-update",
             "--disable-default-apps", "--window-size=1280,1800",
             "--user-data-dir=" + profile, "about:blank"],
            preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(r)
        os.close(w)
        self.lock = threading.Condition()
        self.replies, self.requests, self.next_id = {}, [], 0
        threading.Thread(target=self.reader, daemon=True).start()
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]
        self.send("Network.enable", session=True)
        self.send("Page.enable", session=True)

    def reader(self):
        buf = b""
        while True:
            data = os.read(self.ev_r, 65536)
            if not data:
                return
            buf += data
            while b"\0" in buf:
                msg, buf = buf.split(b"\0", 1)
                m = json.loads(msg)
                with self.lock:
                    if "id" in m:
                        self.replies[m["id"]] = m
                    elif m.get("method") == "Network.requestWillBeSent":
                        self.requests.append(m["params"]["request"]["url"])
                    self.lock.notify_all()

    def send(self, method, session=False, **params):
        with self.lock:
            self.next_id += 1
            i = self.next_id
        m = {"id": i, "method": method, "params": params}
        if session:
            m["sessionId"] = self.session
        os.write(self.cmd_w, json.dumps(m).encode() + b"\0")
        end = time.time() + 60
        with self.lock:
            while i not in self.replies and time.time() < end:
                self.lock.wait(1)
            m = self.replies.pop(i, None)
        if m is None or "error" in m:
            raise AssertionError("%s: %r" % (method, m))
        return m["result"]

    def eval(self, expr):
        r = self.send("Runtime.evaluate", session=True, expression=expr,
                      returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise AssertionError("%s: %r" % (expr, r["exceptionDetails"]))
        return r["result"].get("value")

    def wait(self, expr, timeout=30):
        """Until expr is true in the page; its last value."""
        end = time.time() + timeout
        while True:
            v = self.eval(expr)
            if v or time.time() > end:
                return v
            time.sleep(0.2)

    def open(self, url):
        self.send("Page.navigate", session=True, url=url)
        self.wait("document.readyState === 'complete'")

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", session=True, format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        self.p.kill()
        self.p.wait()
        os.close(self.cmd_w)
        os.close(self.ev_r)


def log_dir():
    """The build's meson-logs/web/: what the case keeps for a person."""
    d = os.path.join(os.path.dirname(os.path.abspath(wrtest.WIRERATE)), "..",
                     "meson-logs", "web")
    os.makedirs(d, exist_ok=True)
    return os.path.normpath(d)


FILL = """(function (opts) {
  document.querySelectorAll('.opt-row').forEach(function (r) { r.remove(); });
  Object.keys(opts).forEach(function (k) { addRow(k, opts[k]); });
  document.getElementById('start').click();
  return true;
})(%s)"""

ROW_ERROR = """(function () {
  var r = [].find.call(document.querySelectorAll('.opt-row'), function (x) {
    return x.querySelector('.name').value === '%s'; });
  return r ? r.querySelector('.error').textContent : null; })()"""


def check_streams(c, b, doc):
    """The page's streams once the run is done: each stream's counts as
    the result has them (the whole run), as the terminal's live view
    lists them; each port's latency p99 as the result's totals."""
    rows = b.eval("[].map.call(document.querySelectorAll('#live-streams tbody tr'),"
                  " function (r) { return [].map.call(r.cells, function (x) {"
                  " return x.textContent; }); })")
    want = [[str(s["stream_id"]), "tx%d.%d" % (s["tx_port"], s["tx_queue"]),
             str(s["rx_port"]), str(s["sent_pkts"]), str(s["rx_pkts"]),
             str(s["gap_pkts"]), str(s["late_pkts"]), str(s["dup_pkts"])]
            for s in doc["streams"]]
    got = [[r[0], r[2], r[3], r[4], r[5], r[6], r[7], r[8]] for r in rows]
    c.true(len(want) > 0 and sorted(got) == sorted(want),
           "the page's streams are the result's: %r, want %r" % (got, want))
    ports = b.eval("[].map.call(document.querySelectorAll('#live-ports tbody tr'),"
                   " function (r) { return [r.cells[0].textContent,"
                   " r.cells[10].textContent]; })")
    for t in doc.get("totals", []):
        lat = (t.get("latency") or {}).get("p99_ns")
        if lat is None:
            continue
        row = [p for p in ports if p[0] == str(t["port_id"])]
        c.true(row and abs(float(row[0][1]) - lat / 1e3) <= 0.005 + 1e-9,
               "port %d's latency p99 on the page: %r, the result's %.2f us" % (
                   t["port_id"], row, lat / 1e3))


def check_rates(c, samples, doc, run):
    """Every interval the page was told of equals the result's sample of
    that interval, port by port (the same figure, printed to the digit)."""
    mine = [s for s in samples if s["run"] == run]
    got = sorted({s["interval"] for s in mine})
    c.true(len(got) >= 2, "the page saw intervals %r of run %d" % (got, run))
    res = doc["samples"]
    for s in mine:
        i = s["interval"] - 1
        c.true(0 <= i < len(res), "interval %d is in the result" % s["interval"])
        if not 0 <= i < len(res):
            continue
        p = [x for x in res[i]["ports"] if x["port_id"] == s["port"]][0]
        for k in ("tx", "rx"):
            want = p[k + "_mpps"] * 1e6
            c.true(abs(s[k + "_pps"] - want) <= 1e-6 * max(want, 1.0),
                   "interval %d port %d %s: page %.3f pps, result %.3f" %
                   (s["interval"], s["port"], k, s[k + "_pps"], want))


def browser_run():
    """The page in Chromium: a bad option by its field, then a run from
    the form, its live rates against its result, leases, the result
    pages, a screenshot, and no request to any other host."""
    c = Checker("browser_run")
    if shutil.which("chromium") is None and shutil.which("chromium-browser") is None:
        c.skip("no chromium binary (Debian package chromium)")
        c.done()
    s = WebServer(extra=["--interval", "500ms"])
    prof = tempfile.mkdtemp(prefix="wrchrome")
    b = None
    base = "http://127.0.0.1:%d" % s.port
    try:
        b = Browser(prof)
        b.open(base + "/")
        b.eval("document.getElementById('token').value = %s;"
               "document.getElementById('token-set').click(); true" % json.dumps(s.token))
        with s.client() as cl:
            try:
                cl.call("leases")
                has_leases = True
            except wirerate.Error:
                has_leases = False
            if not has_leases:
                c.true(b.wait("document.getElementById('leases-note').textContent"
                              " === 'no leases on this server'"),
                       "no lease method: the page says so")
            else:
                # The page runs under this lease: its secret in the header.
                got = cl.call("acquire", ports=[0, 1], owner="web-test",
                              reason="browser", ttl_s=120)
                b.eval("document.getElementById('lease').value = %s;"
                       "document.getElementById('token-set').click(); true"
                       % json.dumps(got["lease"]))
                row = b.wait("(function () { var r = document.querySelector("
                             "'#leases tbody tr'); return r && [].map.call(r.cells,"
                             " function (x) { return x.textContent; }); })()")
                c.eq(row, ["0, 1", "web-test", "browser", got["until"]],
                     "the lease table: ports, holder, reason, until")
            b.eval(FILL % json.dumps(dict(ONE_WAY, rate="fast", duration="3s")))
            err = b.wait(ROW_ERROR % "rate", 10)
            c.true(err and "--rate" in err, "a bad --rate shown by its field: %r" % err)
            c.eq(cl.status()["run"], 0, "the bad form started no run")
            b.eval(FILL % json.dumps(dict(ONE_WAY, rate="20kpps", duration="3s")))
            c.true(b.wait("document.getElementById('run-state').textContent === 'done'"
                          " && document.querySelector('a.report') !== null", 60),
                   "the run from the form is done on the page")
            ports = pair_ports(cl)
            c.eq(len(ports), 2, "the ring pair's ports")
            c.true(b.wait("document.querySelectorAll('#ports tbody tr').length === %d"
                          % len(ports)), "the tester's ports listed")
            rows = b.eval("[].map.call(document.querySelectorAll('#ports tbody tr'),"
                          " function (r) { return [r.cells[1].textContent,"
                          " r.cells[5].textContent]; })")
            c.eq([r[0] for r in rows], [p["name"] for p in ports],
                 "the ports as the ports method names them")
            if has_leases:
                c.eq([r[1] for r in rows], ["web-test", "web-test"],
                     "each port's holder")
            run = cl.status()["run"]
            c.eq(run, 1, "the form started run 1")
            doc = cl.result(run)["result"]
            check_rates(c, b.eval("window.wrSamples"), doc, run)
            check_streams(c, b, doc)
            # As text: JavaScript's numbers would round the 64-bit counters.
            text = b.eval("fetch('/run/%d/result.json').then(function (r) {"
                          " return r.text(); })" % run)
            c.true(json.loads(text) == doc, "the JSON download is the run's "
                   "result (%d bytes)" % len(text))
        shot = os.path.join(log_dir(), "browser_run.png")
        b.screenshot(shot)
        c.true(os.path.getsize(shot) > 10000, "screenshot kept: " + shot)
        b.open(b.eval("document.querySelector('a.report').href"))
        c.eq(b.eval("document.title"), "wirerate report", "the result page opens")
        c.true(b.eval("document.querySelectorAll('table').length") > 0,
               "the result page has its tables")
        b.screenshot(os.path.join(log_dir(), "browser_report.png"))
        with b.lock:
            urls = list(b.requests)
        c.true(len(urls) >= 5, "the network log has the page's requests: %r" % urls)
        away = [u for u in urls if not u.startswith(base + "/")]
        c.eq(away, [], "requests to anything but the server")
    finally:
        if b is not None:
            b.close()
        shutil.rmtree(prof, ignore_errors=True)
        s.close()
    c.done()


def api_bad_input():
    """Bad requests over HTTP each answered with a clear error; nothing
    started, the server still serving; the page on loopback only."""
    c = Checker("api_bad_input")
    s = WebServer()
    try:
        st, r = s.rpc("start", dict(ONE_WAY, rate="12 apples"), token=s.token)
        c.eq(st, 400, "bad option value: 400")
        c.true("--rate" in r["error"]["message"], "it names --rate: %r" % r)
        st, r = s.rpc("start", dict(ONE_WAY, rate="1kpps"))
        c.eq(st, 401, "start without a token: 401")
        st, r = s.rpc("start", dict(ONE_WAY, rate="1kpps"), token="x" * 32)
        c.eq(st, 401, "start with an unknown token: 401")
        c.true("token" in r["error"]["message"], "it says token: %r" % r)
        st, r = s.rpc("status", token="x" * 32)
        c.eq(st, 401, "status with an unknown token: 401 (no --web-open)")
        st, text = s.http("POST", "/api/rpc", "{" * 200000, token=s.token)
        c.eq(st, 413, "a 200 kB body: 413 (%s)" % text[:100])
        st, text = s.http("POST", "/api/rpc", '{"jsonrpc": "2.0", "method": ',
                          token=s.token)
        c.eq((st, json.loads(text)["error"]["code"]), (400, -32700),
             "malformed JSON: 400, parse error")
        st, r = s.rpc("peer_open", {}, token=s.token)
        c.eq(st, 404, "peer_open is not the page's: 404")
        st, r = s.rpc("no_such", {}, token=s.token)
        c.eq(st, 404, "an unknown method: 404")
        st, _ = s.http("GET", "/api/rpc")
        c.eq(st, 405, "GET /api/rpc: 405")
        for path in ("/../etc/passwd", "/run/1/report/../../etc/passwd",
                     "/run/x/result.json", "/nothing"):
            st, _ = s.http("GET", path, token=s.token)
            c.true(st in (400, 404), "%s: %d" % (path, st))
        st, _ = s.http("GET", "/run/1/result.json", token=s.token)
        c.eq(st, 404, "the result of a run that never was: 404")
        raw = socket.create_connection(("127.0.0.1", s.port), timeout=10)
        raw.sendall(os.urandom(4096) + b"\r\n\r\n")
        try:
            raw.recv(4096)
        except OSError:
            pass
        raw.close()
        st, r = s.rpc("status", token=s.token)
        c.eq((st, r["result"]["state"], r["result"]["run"]), (200, "idle", 0),
             "still serving over HTTP, nothing started")
        with s.client() as cl:
            c.eq(cl.status()["run"], 0, "the UNIX socket: no run started")
            # A run on a port another holds, through the page's API: refused
            # naming the holder, nothing started.
            cl.call("acquire", ports=[0], owner="someone-else", reason="bench",
                    ttl_s=60)
            st, r = s.rpc("start", dict(ONE_WAY, rate="1kpps", duration="1s"),
                          token=s.token)
            msg = (r.get("error") or {}).get("message", "")
            c.true(st >= 400 and "someone-else" in msg,
                   "a run on a held port: refused naming the holder (%d, %r)" % (st, msg))
            c.eq(cl.status()["run"], 0, "the held port: no run started")
        ss = wrtest.sh("ss", "-Hltn", "sport = :%d" % s.port).stdout.split()
        c.true("127.0.0.1:%d" % s.port in ss, "--web PORT listens on 127.0.0.1 "
               "only (ss: %r)" % ss)
        st, _ = s.http("GET", "/")
        c.eq(st, 200, "the page itself needs no token")
    finally:
        s.close()
    c.done()


def history_page():
    """--web-history DB: /history/ is what `wirerate history html` writes
    of DB, written again at each visit (two runs added after the server
    started are on it); without the token it is refused."""
    c = Checker("history_page")
    d = tempfile.mkdtemp(prefix="wrwebhist")
    db = os.path.join(d, "h.db")
    s = WebServer(extra=["--web-history", db])
    try:
        st, text = s.http("GET", "/history/", token=s.token)
        c.eq(st, 500, "an empty DB: the page says history html failed (%s)" % text[:200])
        with s.client() as cl:
            for i in range(2):
                doc = cl.run(dict(ONE_WAY, rate="20kpps", count=2000 + i,
                                  label="h%d" % i))
                with open(os.path.join(d, "r%d.json" % i), "w") as f:
                    json.dump(doc, f)
        p = subprocess.run([wrtest.WIRERATE, "history", "add", db] +
                           [os.path.join(d, "r%d.json" % i) for i in range(2)],
                           capture_output=True, text=True, timeout=60)
        c.eq(p.returncode, 0, "history add (%s)" % p.stderr[-200:])
        out = os.path.join(d, "cli")
        p = subprocess.run([wrtest.WIRERATE, "history", "html", "--out", out, db],
                           capture_output=True, text=True, timeout=120)
        c.eq(p.returncode, 0, "history html (%s)" % p.stderr[-200:])
        want = open(os.path.join(out, "history.html")).read()
        st, text = s.http("GET", "/history/", token=s.token)
        c.eq(st, 200, "/history/ with the token")
        c.true(text == want, "the page is the CLI's history.html (%d and %d "
               "bytes)" % (len(text), len(want)))
        c.true(text.count("<svg") >= 1, "it has the series' charts")
        st, _ = s.http("GET", "/history/")
        c.eq(st, 401, "/history/ without the token")
        st, _ = s.http("GET", "/history/../h.db", token=s.token)
        c.eq(st, 404, "nothing but the page's files")
    finally:
        s.close()
        shutil.rmtree(d, ignore_errors=True)
    c.done()


def options_refused():
    """--web and --web-open checked before EAL: exit 2, naming the option."""
    c = Checker("options_refused")
    for extra, word in ((["--control", "/tmp/x.sock", "--web", "9"], "--web needs"),
                        (["--control", "/tmp/x.sock", "--web", "1.2.3:80"], "--web"),
                        (["--control", "/tmp/x.sock", "--web-open"], "--web-open"),
                        (["--control", "/tmp/x.sock", "--web-history", "h.db"],
                         "--web-history")):
        p = subprocess.run([wrtest.WIRERATE, "serve", "--no-pci", "--"] + extra,
                           capture_output=True, text=True, timeout=30)
        c.eq(p.returncode, 2, "%r: exit code" % extra)
        c.true(word in p.stderr, "%r: %r in %r" % (extra, word, p.stderr[-300:]))
    c.done()


CASES = cases.by_name(browser_run, api_bad_input, history_page, options_refused)

if __name__ == "__main__":
    cases.main(CASES)
