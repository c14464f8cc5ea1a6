# SPDX-License-Identifier: BSD-3-Clause
"""Live metrics on virtual ports: DPDK telemetry read with dpdk-telemetry.py
while a run is going, and a real Prometheus server scraping the exporter.
Usage: test_metrics.py CASE (see CASES). Standard library only."""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

import cases
import wrtest
from wrtest import Checker

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DOC = os.path.join(ROOT, "docs", "metrics.md")
EXPORTER = os.path.join(ROOT, "scripts", "wirerate-exporter.py")
TELEMETRY_PY = shutil.which("dpdk-telemetry.py") or "/usr/bin/dpdk-telemetry.py"
RING_PAIR = ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1"]


class LiveRun:
    """A wirerate process in the background with its own file prefix; the
    context exit stops it (SIGINT, then SIGKILL) and removes its runtime
    directory."""

    def __init__(self, opts, tmp):
        self.json = os.path.join(tmp, "r.json")
        eal = wrtest.eal_args([])
        self.prefix = eal[eal.index("--file-prefix") + 1]
        self.rundir = os.path.join("/var/run/dpdk", self.prefix)
        self.sock = os.path.join(self.rundir, "dpdk_telemetry.v2")
        argv = [wrtest.WIRERATE] + eal + ["--"] + opts + ["--json", self.json]
        self.out = open(os.path.join(tmp, "wirerate.out"), "w+")
        self.p = subprocess.Popen(argv, stdout=self.out, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL)
        self.rc = None

    def stop(self, timeout=60):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGINT)
        try:
            self.rc = self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.rc = self.p.wait()
        return self.rc

    def result(self):
        if not os.path.exists(self.json):
            return None
        return wrtest.read_result(self.json)

    def output(self):
        self.out.seek(0)
        return self.out.read()[-3000:]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        self.out.close()
        if os.path.isdir(self.rundir):
            shutil.rmtree(self.rundir, ignore_errors=True)


def telemetry(prefix, cmds):
    """Send cmds through dpdk-telemetry.py in one session; return the
    replies in order (the script prints one JSON line per command), or
    None when the session did not answer every command (it died)."""
    p = subprocess.run([sys.executable, TELEMETRY_PY, "-f", prefix],
                       input="\n".join(cmds) + "\n", capture_output=True,
                       text=True, timeout=30)
    replies = []
    for line in p.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            replies.append(list(json.loads(line).values())[0])
    return replies if len(replies) == len(cmds) else None


def wait_until(cond, timeout, step=0.2):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = cond()
        if v:
            return v
        time.sleep(step)
    return None


def documented_keys():
    """Keys per command from docs/metrics.md ('### `/wirerate/...`' tables)."""
    keys, cmd = {}, None
    with open(DOC) as f:
        for line in f:
            m = re.match(r"### `(/wirerate/[a-z]+)", line)
            if m:
                cmd = m.group(1)
                keys[cmd] = set()
                continue
            if line.startswith("## "):
                cmd = None
            m = re.match(r"\| `([a-z0-9_{},]+)` \|", line)
            if cmd and m:
                keys[cmd].update(expand(m.group(1)))
    return keys


def expand(name):
    """tx_bursts_{0,1,2} -> tx_bursts_0, tx_bursts_1, tx_bursts_2."""
    m = re.match(r"(.*)\{([0-9,]+)\}$", name)
    if not m:
        return [name]
    return [m.group(1) + v for v in m.group(2).split(",")]


def telegraf_commands():
    """additional_commands of the Telegraf snippet in docs/metrics.md."""
    import tomllib
    with open(DOC) as f:
        text = f.read()
    m = re.search(r"```toml\n(.*?)```", text, re.S)
    conf = tomllib.loads(m.group(1))
    return conf["inputs"]["dpdk"][0]["additional_commands"]


def check_telegraf(c, prefix):
    """What Telegraf's dpdk input requires of each command: it starts with
    '/', is shorter than 56 characters without its parameter, and answers
    a non-empty object (flattened into numeric fields)."""
    cmds = telegraf_commands()
    c.true(len(cmds) >= 3, "Telegraf snippet lists commands")
    replies = telemetry(prefix, cmds)
    c.true(replies is not None, "telemetry session answered %s" % cmds)
    for cmd, reply in zip(cmds, replies or []):
        c.true(cmd.startswith("/") and len(cmd.split(",")[0]) < 56,
               "%s: a valid Telegraf command" % cmd)
        c.true(isinstance(reply, dict) and len(reply) > 0 and
               all(isinstance(v, (int, float)) for v in reply.values()),
               "%s: answers a dictionary of numbers" % cmd)


def running(prefix):
    st = (telemetry(prefix, ["/wirerate/state"]) or [None])[0]
    return st if st and st["running"] == 1 and st["intervals"] >= 1 else None


def check_fields(c, replies, docs):
    for cmd, doc in (("/wirerate/state", "/wirerate/state"),
                     ("/wirerate/port,0", "/wirerate/port"),
                     ("/wirerate/port,1", "/wirerate/port"),
                     ("/wirerate/lcore,1", "/wirerate/lcore")):
        got = replies.get(cmd)
        c.true(isinstance(got, dict), "%s answers a dictionary" % cmd)
        if not isinstance(got, dict):
            continue
        want = set(docs[doc])
        if cmd == "/wirerate/port,0":
            # TX only: no own frame received, so no latency figure at all.
            want = {k for k in want if not k.startswith("lat_")}
        c.eq(sorted(set(got) - want), [], "%s: keys not documented" % cmd)
        c.eq(sorted(want - set(got)), [], "%s: documented keys missing" % cmd)
        c.true(all(isinstance(v, int) for v in got.values()),
               "%s: every value an integer" % cmd)
    c.eq(replies.get("/wirerate/ports"), [0, 1], "/wirerate/ports")
    c.eq(replies.get("/wirerate/lcores"), [1], "/wirerate/lcores")


def query_all(prefix):
    """Every command in one session, bracketed by /wirerate/state: retried
    until both states carry the same snapshot number, so all replies come
    from one snapshot."""
    cmds = ["/wirerate/state", "/wirerate/ports", "/wirerate/lcores",
            "/wirerate/port,0", "/wirerate/port,1", "/wirerate/lcore,1",
            "/wirerate/state"]
    r = None
    for _ in range(20):
        r = telemetry(prefix, cmds)
        if r and r[0] and r[-1] and r[0]["seq"] == r[-1]["seq"]:
            return dict(zip(cmds, r))
    return dict(zip(cmds, r or []))


def check_live(c, a, b):
    """Two readings one interval or more apart: live and moving."""
    sa, sb = a["/wirerate/state"], b["/wirerate/state"]
    c.eq(sb["state"], 1, "state running")
    c.true(sb["seq"] > sa["seq"], "new snapshot between readings")
    c.true(sb["elapsed_ms"] > sa["elapsed_ms"], "elapsed_ms moves")
    c.eq(sb["frame_size"], 128, "frame_size")
    c.eq(sb["interval_ms"], 500, "interval_ms")
    p0a, p0b = a["/wirerate/port,0"], b["/wirerate/port,0"]
    p1a, p1b = a["/wirerate/port,1"], b["/wirerate/port,1"]
    c.true(p0b["tx_pkts"] > p0a["tx_pkts"] > 0, "port 0 tx_pkts grows")
    # Frames and bytes are two counters: a reading may fall between them,
    # one burst (32 frames) apart at most.
    c.true(abs(p0b["tx_bytes"] - p0b["tx_pkts"] * 128) <= 32 * 128,
           "tx_bytes = tx_pkts x 128 (within a burst)")
    c.true(p1b["rx_own_pkts"] > p1a["rx_own_pkts"] > 0, "port 1 rx_own_pkts grows")
    # Ports are read one after the other, so a live reading may see a frame
    # received but not yet sent; missing never goes below 0.
    c.eq(p1b["missing_pkts"], max(0, p0b["tx_pkts"] - p1b["rx_own_pkts"]),
         "missing = sent by peer - received, same snapshot")
    c.true(p0b["tx_pps"] > 0 and p1b["rx_pps"] > 0, "rates measured")
    c.true(p0b["tx_l1_bps"] > p0b["tx_l2_bps"] > 0, "L1 above L2")
    c.true(p1b["lat_sum_ns"] > p1a["lat_sum_ns"], "latency sum grows")
    c.true(0 < p1b["lat_mean_ns"] <= p1b["lat_max_ns"], "mean <= max latency")
    c.true("lat_min_ns" not in p0b, "TX-only port: no latency keys (not 0)")
    c.eq(p1b["peer_port_id"], 0, "peer of port 1")
    la, lb = a["/wirerate/lcore,1"], b["/wirerate/lcore,1"]
    c.true(lb["busy_tsc"] > la["busy_tsc"] > 0, "lcore busy cycles grow")
    # Read a moment after the port counters of the same snapshot.
    c.true(lb["tx_pkts"] >= p0b["tx_pkts"], "lcore 1 sent what port 0 sent")
    c.true(lb["rx_pkts"] >= p1b["rx_pkts"], "lcore 1 received what port 1 did")
    c.true(lb["tsc_per_kpkt"] > 0 and lb["tsc_per_kbyte"] > 0, "CPU cost figures")
    c.true(sum(v for k, v in lb.items() if k.startswith("tx_bursts_")) >=
           lb["busy_polls"], "a TX burst counted per busy poll at least")


def check_live_latency(c, prefix, nb=4):
    """Live latency of a ring loopback, nb readings an interval apart: each
    has min <= p50 <= p99 <= p99.9 <= max, all > 0 (the old snapshot read
    min, p50 and p99.9 as 0 until the run was done)."""
    keys = ["lat_min_ns", "lat_p50_ns", "lat_p99_ns", "lat_p999_ns", "lat_max_ns"]
    seen = 0
    for _ in range(nb):
        r = telemetry(prefix, ["/wirerate/port,1"])
        p = r[0] if r else None
        c.true(isinstance(p, dict), "live reading of port 1")
        if not isinstance(p, dict):
            break
        v = [p.get(k) for k in keys]
        c.true(None not in v and all(x > 0 for x in v) and v == sorted(v),
               "live latency 0 < min <= p50 <= p99 <= p99.9 <= max: %r" % v)
        c.true(p.get("lat_samples", 0) > 0, "live latency has samples")
        seen += 1
        time.sleep(0.6)
    c.eq(seen, nb, "live latency readings")


def telemetry_live():
    """dpdk-telemetry.py reads /wirerate/ commands while the run goes on."""
    c = Checker("telemetry_live")
    docs = documented_keys()
    c.true(len(docs.get("/wirerate/port", ())) > 20, "docs list the port keys")
    with tempfile.TemporaryDirectory() as tmp, \
            LiveRun(RING_PAIR + ["--size", "128", "--interval", "500ms",
                                 "--duration", "0", "--quiet"], tmp) as run:
        c.true(wait_until(lambda: os.path.exists(run.sock), 60) is not None,
               "telemetry socket %s appears" % run.sock)
        c.true(wait_until(lambda: running(run.prefix), 60) is not None,
               "state running with an interval taken")
        a = query_all(run.prefix)
        time.sleep(1.2)
        b = query_all(run.prefix)
        check_fields(c, b, docs)
        if c.failed == 0:
            check_live(c, a, b)
        check_live_latency(c, run.prefix)
        check_telegraf(c, run.prefix)
        # A dead session answers None, not [None, None]: only a live one
        # saying null for each passes.
        bad = telemetry(run.prefix, ["/wirerate/port,9", "/wirerate/lcore,0"])
        c.eq(bad, [None, None], "unknown port or lcore answers null")
        c.eq(run.stop(), 0, "exit code after SIGINT")
        doc = run.result()
        c.true(doc is not None, "JSON written")
        if doc and c.failed == 0:
            tot = {t["port_id"]: t for t in doc["totals"]}
            c.true(tot[0]["tx_pkts"] >= b["/wirerate/port,0"]["tx_pkts"],
                   "final total >= live reading")
            wrtest.stream_balance(c, doc)
        if c.failed:
            print(run.output())
    c.done()


STREAM_CMDS = ["/wirerate/state", "/wirerate/streams", "/wirerate/stream,0",
               "/wirerate/stream,1", "/wirerate/port,0"]


def telemetry_streams():
    """/wirerate/stream,<id> on a ring pair with two streams at 20 and 5
    kpps: each stream's receiver count against its sender's, their sum
    against the sending PMD's count, the rates apart, the final JSON at
    least the live reading."""
    c = Checker("telemetry_streams")
    docs = documented_keys().get("/wirerate/stream", set())
    with tempfile.TemporaryDirectory() as tmp, \
            LiveRun(RING_PAIR + ["--rxq", "2", "--interval", "250ms", "--duration", "0",
                                 "--quiet", "--stream", "name=fast;size=128;rate=20kpps",
                                 "--stream", "name=slow;size=300;rate=5kpps;dport=9"],
                    tmp) as run:
        c.true(wait_until(lambda: running(run.prefix), 60) is not None,
               "state running with an interval taken")
        wait_until(lambda: (telemetry(run.prefix, ["/wirerate/stream,1"]) or [{}])[0]
                   .get("rx_pkts", 0) > 0, 30)
        a = telemetry(run.prefix, STREAM_CMDS) or [{}] * len(STREAM_CMDS)
        time.sleep(1.5)
        # The port's PMD count first: a snapshot may be published between
        # two requests, and counts only grow, so the streams' sent, read
        # after it, are at least that count.
        port = (telemetry(run.prefix, ["/wirerate/port,0"]) or [{}])[0] or {}
        b = telemetry(run.prefix, STREAM_CMDS) or [{}] * len(STREAM_CMDS)
        c.eq(b[1], [0, 1], "/wirerate/streams: the two stream ids")
        for k in (2, 3):
            c.eq(set(b[k] or {}), docs, "%s keys as documented" % STREAM_CMDS[k])
        if c.failed == 0:
            check_stream_live(c, a, b, port)
        c.eq(telemetry(run.prefix, ["/wirerate/stream,9"]), [None],
             "unknown stream answers null")
        c.eq(run.stop(), 0, "exit code after SIGINT")
        doc = run.result()
        if doc and c.failed == 0:
            tx = {t["stream_id"]: t["sent_pkts"] for t in doc["tx_streams"]}
            for k in (2, 3):
                s = b[k]
                c.true(tx[s["stream_id"]] >= s["sent_pkts"],
                       "stream %d: final sent >= live" % s["stream_id"])
            wrtest.stream_balance(c, doc)
        if c.failed:
            print(run.output())
    c.done()


def check_stream_live(c, a, b, port):
    fast, slow = b[2], b[3]
    for s in (fast, slow):
        c.true(0 < s["rx_pkts"] <= s["sent_pkts"],
               "stream %d: received %d <= sent %d" % (s["stream_id"], s["rx_pkts"],
                                                     s["sent_pkts"]))
        c.eq((s["tx_port"], s["rx_port"], s["gap_pkts"]), (0, 1, 0),
             "stream %d ports, no gap" % s["stream_id"])
        c.true(s.get("lat_mean_ns", 0) > 0, "stream %d latency" % s["stream_id"])
    # The streams were read after the port's PMD counters.
    c.true(fast["sent_pkts"] + slow["sent_pkts"] >= port["nic_opackets"] > 0,
           "sum sent %d >= the sending PMD's %d" % (
               fast["sent_pkts"] + slow["sent_pkts"], port["nic_opackets"]))
    df = fast["sent_pkts"] - a[2]["sent_pkts"]
    ds = slow["sent_pkts"] - a[3]["sent_pkts"]
    c.true(ds > 0 and 3.0 < df / ds < 5.0,
           "fast sent %d, slow %d between readings (20 vs 5 kpps)" % (df, ds))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def prom_query(base, q):
    url = base + "/api/v1/query?" + urllib.parse.urlencode({"query": q})
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            doc = json.load(r)
    except (OSError, ValueError):
        return None
    return doc["data"]["result"] if doc.get("status") == "success" else None


def prom_range(base, q, seconds):
    now = time.time()
    url = base + "/api/v1/query_range?" + urllib.parse.urlencode(
        {"query": q, "start": now - seconds, "end": now, "step": "1"})
    with urllib.request.urlopen(url, timeout=5) as r:
        doc = json.load(r)
    return doc["data"]["result"] if doc.get("status") == "success" else None


PROM_CONFIG = """global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: wirerate
    static_configs:
      - targets: ["127.0.0.1:%d"]
"""


def start_exporter(prefix, tmp):
    log = open(os.path.join(tmp, "exporter.out"), "w+")
    # By its #! line (Debian's python3, which has python3-prometheus-client).
    p = subprocess.Popen([EXPORTER, "--file-prefix", prefix,
                          "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE,
                         stderr=log, text=True, stdin=subprocess.DEVNULL)
    line = p.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/metrics", line)
    return p, int(m.group(1)) if m else None


def start_prometheus(tmp, target_port):
    cfg = os.path.join(tmp, "prometheus.yml")
    with open(cfg, "w") as f:
        f.write(PROM_CONFIG % target_port)
    port = free_port()
    log = open(os.path.join(tmp, "prometheus.out"), "w+")
    p = subprocess.Popen(["prometheus", "--config.file=" + cfg,
                          "--storage.tsdb.path=" + os.path.join(tmp, "data"),
                          "--web.listen-address=127.0.0.1:%d" % port,
                          "--log.level=warn"], stdout=log, stderr=log,
                         stdin=subprocess.DEVNULL)
    return p, "http://127.0.0.1:%d" % port


def stop_proc(p):
    if p is not None and p.poll() is None:
        p.terminate()
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def positive(base, q):
    r = prom_query(base, q)
    return r if r and all(float(s["value"][1]) > 0 for s in r) else None


def check_prometheus(c, base, tmp):
    tx = 'wirerate_port_frames_per_second{direction="tx",port="0"}'
    r = wait_until(lambda: positive(base, tx), 90, step=1)
    c.true(r is not None, "Prometheus holds %s > 0" % tx)
    if r is None:
        with open(os.path.join(tmp, "prometheus.out")) as f:
            print(f.read()[-2000:])
        return
    c.eq(r[0]["metric"].get("job"), "wirerate", "series scraped by job wirerate")
    up = prom_query(base, "wirerate_up")
    c.true(up and up[0]["value"][1] == "1", "wirerate_up is 1")
    rx = positive(base, 'wirerate_port_bits_per_second{direction="rx",layer="l1",port="1"}')
    c.true(rx is not None, "port 1 RX L1 bit rate > 0")
    rate = wait_until(lambda: positive(
        base, 'rate(wirerate_port_frames_total{direction="tx",port="0"}[5s])'), 30, step=1)
    c.true(rate is not None, "rate() over the frame counter > 0")
    series = prom_range(base, tx, 60)
    c.true(series and len(series[0]["values"]) >= 2,
           "query_range returns the rate series (%d points)" %
           (len(series[0]["values"]) if series else 0))
    cost = positive(base, 'rate(wirerate_lcore_cycles_total{state="busy"}[5s]) / '
                    'ignoring(state) sum without(direction) '
                    '(rate(wirerate_lcore_frames_total[5s]))')
    c.true(cost is not None, "cycles per frame from counters (docs query)")
    lat = wait_until(lambda: positive(
        base, 'wirerate_port_latency_seconds{port="1",quantile="0.5"}'), 30, step=1)
    c.true(lat is not None, "live median latency of port 1 > 0 (not 0 until done)")
    c.eq(prom_query(base, 'wirerate_port_latency_seconds{port="0"}'), [],
         "no latency series for the TX-only port (unknown is absent, not 0)")


def prometheus_scrape():
    """A real Prometheus scrapes the exporter; its query API has the rates."""
    c = Checker("prometheus_scrape")
    if shutil.which("prometheus") is None:
        c.true(False, "prometheus installed (scripts/test.sh installs it; "
               "or apt-get install prometheus)")
        c.done()
    exporter = prom = None
    with tempfile.TemporaryDirectory() as tmp, \
            LiveRun(RING_PAIR + ["--interval", "500ms", "--duration", "0",
                                 "--quiet"], tmp) as run:
        try:
            c.true(wait_until(lambda: running(run.prefix), 60) is not None,
                   "wirerate running")
            exporter, eport = start_exporter(run.prefix, tmp)
            c.true(eport is not None, "exporter listening")
            if eport is not None:
                prom, base = start_prometheus(tmp, eport)
                check_prometheus(c, base, tmp)
        finally:
            stop_proc(prom)
            stop_proc(exporter)
        c.eq(run.stop(), 0, "wirerate exit code after SIGINT")
        doc = run.result()
        c.true(doc is not None and doc["stop_reason"] == "signal", "JSON written")
    c.done()


CONFIG = os.path.join(ROOT, "config")


def served_names(text):
    """Names of the samples and families a Prometheus text scrape holds."""
    names = set()
    for line in text.splitlines():
        m = re.match(r"# TYPE (\w+) ", line) or re.match(r"(\w+)[{ ]", line)
        if m:
            names.add(m.group(1))
    return names


def dashboard_metrics():
    """Every wirerate_* metric the shipped Grafana dashboard queries."""
    with open(os.path.join(CONFIG, "grafana", "wirerate-dashboard.json")) as f:
        dash = json.load(f)
    found = set()
    for panel in dash["panels"]:
        for t in panel["targets"]:
            found.update(re.findall(r"\bwirerate_\w+", t["expr"]))
    return found


def exporter_default_urls():
    """http://ADDR:PORT/metrics of each address of the exporter's default
    --listen, as its --help says it."""
    p = subprocess.run([EXPORTER, "--help"], capture_output=True, text=True)
    m = re.search(r"--listen LISTEN .*?\[([^ ]+:\d+)\]", " ".join(p.stdout.split()))
    if not m:
        return []
    hosts, _, port = m.group(1).rpartition(":")
    return ["http://%s:%s/metrics" % (h, port) for h in hosts.split(",")]


def exporter_configs():
    """Every metric the Grafana dashboard (config/grafana) queries is one
    the exporter serves during a real run; the Telegraf input
    (config/telegraf) scrapes an address the exporter listens on."""
    import tomllib
    c = Checker("exporter_configs")
    want = dashboard_metrics()
    c.true(len(want) >= 10, "the dashboard queries %d metrics" % len(want))
    with open(os.path.join(CONFIG, "telegraf", "wirerate.conf"), "rb") as f:
        urls = tomllib.load(f)["inputs"]["prometheus"][0]["urls"]
    defaults = exporter_default_urls()
    c.true(len(defaults) == 2, "the exporter's default addresses: %s" % defaults)
    c.true(urls and all(u in defaults for u in urls),
           "Telegraf scrapes %s, the exporter serves %s" % (urls, defaults))
    with tempfile.TemporaryDirectory() as tmp, \
            LiveRun(RING_PAIR + ["--interval", "500ms", "--duration", "0",
                                 "--quiet"], tmp) as run:
        c.true(wait_until(lambda: running(run.prefix), 60) is not None,
               "wirerate running")
        # A scrape while frames have passed: every family has its series.
        time.sleep(1.5)
        p = subprocess.run([EXPORTER, "--file-prefix", run.prefix, "--once"],
                           capture_output=True, text=True, timeout=60)
        served = served_names(p.stdout)
        c.true("wirerate_up" in served and "wirerate_up 1.0" in p.stdout,
               "the exporter read the run (%s)" % p.stderr[-200:])
        for name in sorted(want):
            c.true(name in served, "dashboard metric %s is served" % name)
        c.eq(run.stop(), 0, "wirerate exit code after SIGINT")
    c.done()


def exporter_ipv6():
    """The exporter's default addresses, 127.0.0.1 and ::1, and [::] (both
    families on one socket) each serve /metrics."""
    c = Checker("exporter_ipv6")
    if not wrtest.have_ipv6_loopback():
        c.skip("no IPv6 on this machine: ::1 cannot be bound")
        c.done()
    for listen in ("127.0.0.1,[::1]:0", "[::]:0"):
        p = subprocess.Popen([EXPORTER, "--socket", "/nonexistent/sock", "--listen",
                              listen], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, stdin=subprocess.DEVNULL)
        try:
            line = p.stdout.readline()
            m = re.search(r":(\d+)/metrics", line)
            c.true(m is not None, "--listen %s: listening (%r)" % (listen, line))
            for host in ("127.0.0.1", "[::1]"):
                url = "http://%s:%s/metrics" % (host, m.group(1) if m else "0")
                try:
                    body = urllib.request.urlopen(url, timeout=10).read().decode()
                except OSError as e:
                    body = str(e)
                c.true("wirerate_up 0.0" in body, "--listen %s: %s answers (%s)" % (
                    listen, url, body[:80]))
        finally:
            stop_proc(p)
    c.done()


def check_bins(c, lc, d, bins):
    """Frames per poll: every poll in one bin, frames within the bins' bounds."""
    lo = hi = 0
    for (b_lo, b_hi), n in zip(bins, lc[d + "_bursts"]):
        lo += b_lo * n
        hi += b_hi * n
    c.true(lo <= lc[d + "_pkts"] <= hi, "%s frames %d within bins [%d, %d]" %
           (d, lc[d + "_pkts"], lo, hi))


def parse_bins(names):
    out = []
    for n in names:
        lo, _, hi = n.partition("-")
        out.append((int(lo), int(hi or lo)))
    return out


def cpu_cost():
    """CPU cost in the JSON: exact identities between the counters."""
    c = Checker("cpu_cost")
    r = wrtest.run([], RING_PAIR + ["--duration", "1", "--size", "1518",
                                    "--interval", "250ms"])
    c.eq(r.rc, 0, "exit code")
    if r.doc is None:
        c.done(r)
    cpu = r.doc["cpu"]
    bins = parse_bins(cpu["burst_bins"])
    c.eq(bins[0], (0, 0), "bin 0 holds empty polls")
    c.eq(bins[-1], (512, 512), "last bin holds 512")
    tot = {t["port_id"]: t for t in r.doc["totals"]}
    c.eq(len(cpu["lcores"]), 1, "one worker")
    lc = cpu["lcores"][0]
    c.eq(lc["tx_pkts"], tot[0]["tx_pkts"], "lcore sent what port 0 sent")
    c.eq(lc["rx_pkts"], tot[1]["rx_pkts"], "lcore received what port 1 did")
    moved = lc["tx_pkts"] + lc["rx_pkts"]
    c.true(lc["tx_pkts"] > 1000, "frames sent: %d" % lc["tx_pkts"])
    c.eq(lc["tx_bytes"] + lc["rx_bytes"], moved * 1518, "bytes moved")
    polls = lc["busy_polls"] + lc["idle_polls"]
    c.eq(sum(lc["rx_bursts"]), polls, "one RX poll per loop iteration")
    c.true(sum(lc["tx_bursts"]) <= polls, "TX polled only until TX stopped")
    c.true(sum(lc["tx_bursts"][1:]) + sum(lc["rx_bursts"][1:]) >= lc["busy_polls"],
           "a busy iteration moved frames on some queue")
    check_bins(c, lc, "tx", bins)
    check_bins(c, lc, "rx", bins)
    busy = lc["busy_tsc"]
    c.true(0 < lc["busy_ratio"] <= 1, "busy ratio in (0, 1]")
    c.true(abs(lc["busy_ratio"] - busy / (busy + lc["idle_tsc"])) < 1e-9, "busy ratio")
    c.true(abs(lc["tsc_per_pkt"] - busy / moved) < 1e-6 * lc["tsc_per_pkt"],
           "cycles per frame = busy / (tx + rx)")
    c.true(abs(lc["tsc_per_byte"] - busy / (moved * 1518)) < 1e-6 * lc["tsc_per_byte"],
           "cycles per byte = busy / bytes")
    ports = {p["port_id"]: p for p in cpu["ports"]}
    c.true(abs(ports[0]["busy_tsc"] + ports[1]["busy_tsc"] - busy) <= 1e-6 * busy,
           "ports' shares add up to the lcore's busy cycles")
    c.eq((ports[0]["pkts"], ports[1]["pkts"]), (lc["tx_pkts"], lc["rx_pkts"]),
         "frames per port")
    c.true(len(r.doc["samples"]) >= 3, "samples: %d" % len(r.doc["samples"]))
    for s in r.doc["samples"]:
        c.eq([x["lcore"] for x in s["lcores"]], [1], "samples[].lcores")
        c.true(s["lcores"][0]["tsc_per_pkt"] > 0, "interval cost measured")
        c.true(all(p["tsc_per_pkt"] > 0 for p in s["ports"]), "port cost measured")
    c.true("CPU cost" in r.out and "cyc/frame" in r.out, "summary shows the cost")
    c.done(r)


def cpu_two_lcores():
    """TX and RX on separate lcores: each port is charged its own lcore."""
    c = Checker("cpu_two_lcores")
    # Two workers sharing the second CPU: counts stay exact, rates do not.
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        eal = wrtest.eal_args([])
        eal = ["--lcores", "0@0,1@1,2@1"] + eal[2:]
        argv = [wrtest.WIRERATE] + eal + ["--"] + RING_PAIR + [
            "--count", "100k", "--quiet", "--json", path]
        p = subprocess.run(argv, capture_output=True, text=True, timeout=120,
                           stdin=subprocess.DEVNULL)
        c.eq(p.returncode, 0, "exit code")
        doc = wrtest.read_result(path) if os.path.exists(path) else None
        prefix = eal[eal.index("--file-prefix") + 1]
        shutil.rmtree(os.path.join("/var/run/dpdk", prefix), ignore_errors=True)
    if doc is None:
        c.done()
    lcores = {lc["lcore"]: lc for lc in doc["cpu"]["lcores"]}
    ports = {pt["port_id"]: pt for pt in doc["cpu"]["ports"]}
    c.eq(sorted(lcores), [1, 2], "two workers")
    c.eq((lcores[1]["tx_pkts"], lcores[1]["rx_pkts"]), (100000, 0), "lcore 1 sends")
    c.eq((lcores[2]["tx_pkts"], lcores[2]["rx_pkts"]), (0, 100000), "lcore 2 receives")
    c.eq(sum(lcores[1]["rx_bursts"]), 0, "no RX polls on the TX lcore")
    c.eq(sum(lcores[2]["tx_bursts"]), 0, "no TX polls on the RX lcore")
    c.eq(ports[0]["busy_tsc"], float(lcores[1]["busy_tsc"]), "port 0 = lcore 1")
    c.eq(ports[1]["busy_tsc"], float(lcores[2]["busy_tsc"]), "port 1 = lcore 2")
    c.done()


SWEEP_SIZES = [64, 128, 256]


def telemetry_progress():
    """/wirerate/progress during a sweep of three sizes: the keys as
    documented, size i of 3 with its frame size, one trial per size, the
    bound of trials left, a time bound and elapsed time that moves; the
    exporter's --once scrape carries the same; the JSON's trials after."""
    c = Checker("telemetry_progress")
    docs = documented_keys().get("/wirerate/progress", set())
    c.true(len(docs) >= 10, "docs list the progress keys")
    with tempfile.TemporaryDirectory() as tmp, \
            LiveRun(RING_PAIR + ["--mode", "sweep", "--sizes",
                                 ",".join(map(str, SWEEP_SIZES)), "--duration", "2",
                                 "--quiet"], tmp) as run:
        got = wait_until(lambda: (lambda p: p if p and p.get("trial", 0) >= 2 else None)(
            (telemetry(run.prefix, ["/wirerate/progress"]) or [None])[0]), 60)
        c.true(got is not None, "/wirerate/progress reaches trial 2")
        if got is not None:
            c.eq(set(got), docs, "/wirerate/progress keys as documented")
            c.eq((got.get("mode"), got.get("what")), ("sweep", "sweep"), "mode and kind")
            k = got.get("trial", 0)
            c.eq((got.get("size_idx"), got.get("nb_sizes")), (k, 3),
                 "size i of 3: one trial per size")
            c.eq(got.get("frame_size"), SWEEP_SIZES[k - 1] if 0 < k <= 3 else None,
                 "the size being tried")
            c.eq(got.get("trials_left_max"), 3 - k, "trials left after this one")
            c.true(got.get("left_max_ms", 0) >= (3 - k) * 2000,
                   "time left bounds the trials to come: %r" % got)
            time.sleep(0.5)
            later = (telemetry(run.prefix, ["/wirerate/progress"]) or [{}])[0] or {}
            c.true(later.get("elapsed_ms", 0) > got.get("elapsed_ms", 0),
                   "elapsed_ms moves: %r" % later)
            p = subprocess.run([EXPORTER, "--file-prefix", run.prefix, "--once"],
                               capture_output=True, text=True, timeout=30)
            for m in ("wirerate_progress_trial", "wirerate_progress_left_max_seconds",
                      'wirerate_progress_info{mode="sweep"'):
                c.true(m in p.stdout, "exporter: %s" % m)
        # The sweep ends on its own (stop() would interrupt it).
        wait_until(lambda: run.p.poll() is not None, 90)
        c.eq(run.stop(), 0, "exit code")
        doc = run.result()
        c.true(doc is not None and [t["frame_size"] for t in doc["trials"]] == SWEEP_SIZES,
               "the JSON records a trial per size")
        if c.failed:
            print(run.output())
    c.done()


CASES = cases.by_name(telemetry_live, prometheus_scrape, cpu_cost, cpu_two_lcores,
                      telemetry_streams, exporter_configs, exporter_ipv6,
                      telemetry_progress)

if __name__ == "__main__":
    cases.main(CASES)
