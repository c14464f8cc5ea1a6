#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Prometheus exporter for wirerate: serves /metrics over HTTP, built on each
scrape from wirerate's /wirerate/... commands on the DPDK telemetry socket.
Built on Debian's python3-prometheus-client (a custom collector; the client
writes the text format and serves it). See docs/metrics.md.

  wirerate-exporter.py [--file-prefix P | --socket PATH] [--listen ADDR[,ADDR]:PORT]
  wirerate-exporter.py --once ...    print one scrape to stdout and exit
"""
import argparse
import json
import os
import socket
import sys
import threading
from http.server import ThreadingHTTPServer

# Without the client --help still works (the man page is made from it at
# build time); main() says what is missing after parsing the command line.
try:
    from prometheus_client import CollectorRegistry, generate_latest
    from prometheus_client.core import (CounterMetricFamily, GaugeMetricFamily,
                                        HistogramMetricFamily, SummaryMetricFamily)
    from prometheus_client.exposition import MetricsHandler
    KINDS = {"gauge": GaugeMetricFamily, "counter": CounterMetricFamily,
             "summary": SummaryMetricFamily, "histogram": HistogramMetricFamily}
except ImportError:
    KINDS = None

DEFAULT_LISTEN = "127.0.0.1,[::1]:9477"   # loopback, IPv4 and IPv6
STATES = ("idle", "running", "stopping", "done")
STOP_REASONS = ("none", "duration", "count", "signal", "error", "idle")  # enum wr_stop_reason


def runtime_dir(prefix):
    """Where DPDK puts a process's sockets (as dpdk-telemetry.py finds it)."""
    if os.getuid() == 0:
        base = "/var/run"
    else:
        base = os.environ.get("XDG_RUNTIME_DIR", "/tmp")
    return os.path.join(base, "dpdk", prefix)


class Telemetry:
    """One connection to a dpdk_telemetry.v2 socket (SOCK_SEQPACKET)."""

    def __init__(self, path, timeout=2.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        hello = json.loads(self.sock.recv(1024).decode())
        self.max_len = int(hello["max_output_len"])
        self.pid = hello.get("pid")

    def query(self, cmd):
        self.sock.send(cmd.encode())
        reply = json.loads(self.sock.recv(self.max_len).decode())
        return reply.get(cmd.split(",")[0])

    def close(self):
        self.sock.close()


# Series read straight from one key of a telemetry reply: name, type, key,
# divisor (ms, ns and per-1000 figures to base units), help.
STATE_SERIES = (
    ("wirerate_run_elapsed_seconds", "gauge", "elapsed_ms", 1e3,
     "Time since traffic started."),
    ("wirerate_run_trial", "gauge", "trial", 1,
     "Trials started; counters restart with each."),
    ("wirerate_run_duration_seconds", "gauge", "duration_ms", 1e3,
     "Configured run length; 0 runs until the count or a signal."),
    ("wirerate_run_count_frames", "gauge", "count_pkts", 1,
     "Configured frames per TX port; 0 is unlimited."),
    ("wirerate_frame_size_bytes", "gauge", "frame_size", 1,
     "Frame size, FCS included (RFC 2544)."),
    ("wirerate_snapshots_total", "counter", "seq", 1,
     "Snapshots the stats core published (one per interval and state change)."),
    ("wirerate_tsc_hertz", "gauge", "tsc_hz", 1, "TSC frequency of the host."),
)
# /wirerate/progress: a test mode's or --repeat's place; the bounds only
# while known (absent keys are never exported as 0).
PROGRESS_SERIES = (
    ("wirerate_progress_size_index", "gauge", "size_idx", 1,
     "Frame size being tried, 1-based, of wirerate_progress_sizes."),
    ("wirerate_progress_sizes", "gauge", "nb_sizes", 1, "Frame sizes of the run."),
    ("wirerate_progress_trial", "gauge", "trial", 1,
     "Trials of the test mode started, the current one included."),
    ("wirerate_progress_elapsed_seconds", "gauge", "elapsed_ms", 1e3,
     "Time since the first trial of the test mode began."),
)
PROGRESS_BOUNDS = (
    ("wirerate_progress_trials_left_max", "gauge", "trials_left_max", 1,
     "Upper bound of the trials after the current one."),
    ("wirerate_progress_left_max_seconds", "gauge", "left_max_ms", 1e3,
     "Upper bound of the time the test mode may still take."),
)
PORT_SERIES = (
    ("wirerate_port_tx_refused_frames_total", "counter", "tx_full_pkts", 1,
     "Frames the PMD did not take (ring full); they are retried."),
    ("wirerate_port_tx_alloc_failures_total", "counter", "tx_alloc_fail", 1,
     "TX bursts that found the mempool empty."),
    ("wirerate_port_tx_unsent_frames_total", "counter", "tx_unsent_pkts", 1,
     "Frames built but pending at stop, freed unsent."),
    ("wirerate_port_nic_missed_frames_total", "counter", "nic_imissed", 1,
     "Frames the NIC dropped for want of RX descriptors (imissed)."),
    ("wirerate_port_nic_rx_nombuf_total", "counter", "nic_rx_nombuf", 1,
     "RX mbuf allocation failures in the PMD."),
    ("wirerate_port_missing_frames", "gauge", "missing_pkts", 1,
     "Frames the peer port sent that have not arrived: in flight or lost."),
    ("wirerate_port_lost_frames", "gauge", "lost_pkts", 1,
     "Frames lost by sequence accounting; final once the run is done."),
    ("wirerate_port_sequence_gap_frames", "gauge", "gap_pkts", 1,
     "Sequence numbers skipped and not yet filled (in flight included)."),
    ("wirerate_port_late_frames_total", "counter", "late_pkts", 1,
     "Own frames that arrived after a higher sequence (reordered)."),
    ("wirerate_port_duplicate_frames_total", "counter", "dup_pkts", 1,
     "Further copies of a sequence already seen."),
    ("wirerate_port_busy_cycles_total", "counter", "busy_tsc", 1,
     "The port's share of its lcores' busy TSC cycles (split by frames)."),
    ("wirerate_port_cycles_per_frame", "gauge", "tsc_per_kpkt", 1e3,
     "Busy TSC cycles per frame moved, last interval."),
    ("wirerate_port_cycles_per_byte", "gauge", "tsc_per_kbyte", 1e3,
     "Busy TSC cycles per frame byte moved, last interval."),
)
PORT_LATENCY_SERIES = (
    ("wirerate_port_latency_mean_seconds", "gauge", "lat_mean_ns", 1e9,
     "Mean latency of own frames over the last interval (whole run once done)."),
    ("wirerate_port_latency_max_seconds", "gauge", "lat_max_ns", 1e9,
     "Largest latency of an own frame over the last interval (whole run once done)."),
)
LCORE_SERIES = (
    ("wirerate_lcore_busy_ratio", "gauge", "busy_permille", 1e3,
     "Busy share of the lcore's TSC cycles, last interval."),
    ("wirerate_lcore_cycles_per_frame", "gauge", "tsc_per_kpkt", 1e3,
     "Busy TSC cycles per frame moved, last interval."),
    ("wirerate_lcore_cycles_per_byte", "gauge", "tsc_per_kbyte", 1e3,
     "Busy TSC cycles per frame byte moved, last interval."),
)


class Families:
    """The metric families of one scrape, made on first use, in that order.
    A family's label names are those of its first sample."""

    def __init__(self):
        self.fams = {}

    def family(self, name, kind, help_text, labels):
        fam = self.fams.get(name)
        if fam is None:
            fam = self.fams[name] = KINDS[kind](name, help_text, labels=list(labels))
        return fam

    def add(self, name, kind, help_text, value, labels=None):
        labels = labels or {}
        self.family(name, kind, help_text, labels).add_metric(list(labels.values()), value)

    def series(self, table, reply, labels=None):
        """One sample of each series of table from the telemetry reply."""
        for name, kind, key, div, help_text in table:
            v = reply[key]
            self.add(name, kind, help_text, v if div == 1 else v / div, labels)


def add_state(m, st):
    state = st["state"]
    for i, name in enumerate(STATES):
        m.add("wirerate_run_state", "gauge", "Run state: 1 for the current one.",
              1 if i == state else 0, {"state": name})
    m.add("wirerate_run_stop_reason", "gauge", "Why the run stopped, once it did.",
          1, {"reason": STOP_REASONS[st["stop_reason"]]
              if st["stop_reason"] < len(STOP_REASONS) else "unknown"})
    m.series(STATE_SERIES, st)


def add_progress(m, pr):
    """Where a test mode or --repeat stands; nothing before its first trial."""
    if not pr or not pr.get("trial"):
        return
    m.add("wirerate_progress_info", "gauge", "The test mode, the current "
          "trial's kind and the method's step.", 1,
          {"mode": pr["mode"], "what": pr["what"], "phase": pr["phase"]})
    m.series(PROGRESS_SERIES, pr)
    if "left_max_ms" in pr:
        m.series(PROGRESS_BOUNDS, pr)


def add_port_traffic(m, p, lab):
    for d in ("tx", "rx"):
        dl = dict(lab, direction=d)
        m.add("wirerate_port_frames_total", "counter",
              "Frames sent or received by wirerate's queues.", p[d + "_pkts"], dl)
        m.add("wirerate_port_bytes_total", "counter",
              "Frame bytes (FCS included) sent or received.", p[d + "_bytes"], dl)
        m.add("wirerate_port_frames_per_second", "gauge",
              "Frame rate over the last stats interval.", p[d + "_pps"], dl)
        for layer in ("l1", "l2"):
            m.add("wirerate_port_bits_per_second", "gauge",
                  "Bit rate over the last interval; l1 adds 20 B of preamble "
                  "and inter-frame gap per frame, l2 counts frame bytes.",
                  p["%s_%s_bps" % (d, layer)], dict(dl, layer=layer))
        m.add("wirerate_port_nic_frames_total", "counter",
              "The PMD's own frame counters (ipackets, opackets).",
              p["nic_ipackets" if d == "rx" else "nic_opackets"], dl)
        m.add("wirerate_port_nic_errors_total", "counter",
              "The PMD's ierrors and oerrors.",
              p["nic_ierrors" if d == "rx" else "nic_oerrors"], dl)
    for c in ("own", "foreign", "malformed"):
        m.add("wirerate_port_rx_classified_frames_total", "counter",
              "Received frames by class: own (wirerate test header), foreign, "
              "malformed.", p["rx_%s_pkts" % c], dict(lab, **{"class": c}))


def add_port_latency(m, p, lab):
    """Latency series only where wirerate knows them: an absent lat_ key
    means unknown (no own frame in the interval, or latency not valid),
    and is never exported as 0. Quantiles are of the last interval while
    running and of the whole run once done (docs/metrics.md)."""
    if "lat_samples" not in p:
        return
    name = "wirerate_port_latency_seconds"
    fam = m.family(name, "summary", "Latency of own frames, TX stamp to RX (TSC).", lab)
    fam.add_metric(list(lab.values()), p["rx_own_pkts"], p["lat_sum_ns"] / 1e9)
    for q, k in (("0", "lat_min_ns"), ("0.5", "lat_p50_ns"), ("0.99", "lat_p99_ns"),
                 ("0.999", "lat_p999_ns"), ("1", "lat_max_ns")):
        fam.add_sample(name, dict(lab, quantile=q), p[k] / 1e9)
    m.series(PORT_LATENCY_SERIES, p, lab)


def add_bursts(m, lc, lab, d):
    """Frames per poll as a Prometheus histogram (cumulative buckets; a bin
    LO-HI of wirerate's is the bucket le=HI)."""
    bins = sorted((int(k.rsplit("_", 1)[1]), v) for k, v in lc.items()
                  if k.startswith(d + "_bursts_"))
    dl = dict(lab, direction=d)
    buckets, cum = [], 0
    for i, (lo, n) in enumerate(bins):
        cum += n
        buckets.append((str(bins[i + 1][0] - 1 if i + 1 < len(bins) else lo), cum))
    buckets.append(("+Inf", cum))
    m.family("wirerate_lcore_burst_frames", "histogram",
             "Frames moved per poll of a queue (0: empty poll).", dl).add_metric(
                 list(dl.values()), buckets, lc[d + "_pkts"])


def add_lcore(m, lc):
    lab = {"lcore": str(lc["lcore"])}
    for s in ("busy", "idle"):
        m.add("wirerate_lcore_cycles_total", "counter",
              "TSC cycles of polling that moved frames (busy) or not (idle).",
              lc[s + "_tsc"], dict(lab, state=s))
        m.add("wirerate_lcore_polls_total", "counter",
              "Loop iterations that moved frames (busy) or found none (idle).",
              lc[s + "_polls"], dict(lab, state=s))
    for d in ("tx", "rx"):
        m.add("wirerate_lcore_frames_total", "counter", "Frames the lcore moved.",
              lc[d + "_pkts"], dict(lab, direction=d))
        m.add("wirerate_lcore_bytes_total", "counter", "Frame bytes the lcore moved.",
              lc[d + "_bytes"], dict(lab, direction=d))
        add_bursts(m, lc, lab, d)
    m.series(LCORE_SERIES, lc, lab)


def query_all(path):
    """state, ports and lcores from the socket at path; None where it did
    not answer."""
    try:
        t = Telemetry(path)
    except OSError:
        return None
    try:
        st = t.query("/wirerate/state")
        ports = [t.query("/wirerate/port,%d" % i) for i in t.query("/wirerate/ports") or []]
        lcores = [t.query("/wirerate/lcore,%d" % i) for i in t.query("/wirerate/lcores") or []]
        progress = t.query("/wirerate/progress")
    except (OSError, ValueError, KeyError):
        return None
    finally:
        t.close()
    return None if st is None else (st, ports, lcores, progress)


class WirerateCollector:
    """Collects on each scrape: queries every command of the socket."""

    def __init__(self, path):
        self.path = path

    def collect(self):
        m = Families()
        got = query_all(self.path)
        m.add("wirerate_up", "gauge", "1 when wirerate's telemetry answered.",
              0 if got is None else 1)
        if got is not None:
            st, ports, lcores, progress = got
            add_state(m, st)
            add_progress(m, progress)
            for p in filter(None, ports):
                lab = {"port": str(p["port_id"])}
                add_port_traffic(m, p, lab)
                m.series(PORT_SERIES, p, lab)
                add_port_latency(m, p, lab)
            for lc in filter(None, lcores):
                add_lcore(m, lc)
        return iter(m.fams.values())


def listen_addrs(listen):
    """(family, sockaddr) for each address ADDR[,ADDR...]:PORT names (an
    IPv6 address in brackets, a name: each of its addresses); [::] is every
    IPv6 and IPv4 address."""
    hosts, _, port = listen.rpartition(":")
    out = []
    for host in hosts.split(","):
        for fam, _, _, _, addr in socket.getaddrinfo(
                host.strip("[]"), int(port), type=socket.SOCK_STREAM,
                flags=socket.AI_PASSIVE):
            if (fam, addr) not in out:
                out.append((fam, addr))
    return out


def make_server(fam, addr, handler, v6only):
    """A ThreadingHTTPServer of family fam bound to addr; an IPv6 one also
    takes IPv4 unless v6only (another server has the IPv4 address)."""
    class Server(ThreadingHTTPServer):
        address_family = fam

        def server_bind(self):
            if fam == socket.AF_INET6:
                self.socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY,
                                       1 if v6only else 0)
            super().server_bind()
    return Server(addr, handler)


def serve(registry, listen, path, verbose):
    """HTTP server of /metrics (prometheus_client's handler) on every
    address of listen, IPv4 and IPv6; port 0 picks a free one (the same
    for all), printed on stdout, a line per address."""
    class Handler(MetricsHandler):
        def log_message(self, fmt_, *args):
            if verbose:
                super().log_message(fmt_, *args)
    Handler.registry = registry
    addrs = listen_addrs(listen)
    has_v4 = any(fam == socket.AF_INET for fam, _ in addrs)
    servers, port = [], None
    for fam, addr in addrs:
        if port is not None:
            addr = (addr[0], port) + tuple(addr[2:])
        srv = make_server(fam, addr, Handler, has_v4)
        port = srv.server_address[1]
        servers.append(srv)
        shown = "[%s]" % addr[0] if fam == socket.AF_INET6 else addr[0]
        print("wirerate exporter: http://%s:%d/metrics from %s" % (shown, port, path),
              flush=True)
    for srv in servers[1:]:
        threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        servers[0].serve_forever()
    except KeyboardInterrupt:
        pass
    for srv in servers:
        srv.server_close()


def parser():
    """The command line; buildtools/gen_docs.py makes the man page from its
    --help."""
    ap = argparse.ArgumentParser(description="Prometheus exporter for wirerate: "
                                 "serves a running wirerate's live metrics on /metrics")
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--file-prefix", default="rte",
                     help="EAL --file-prefix of the wirerate process [rte]")
    src.add_argument("--socket", help="path of its dpdk_telemetry.v2 socket")
    ap.add_argument("--listen", default=DEFAULT_LISTEN,
                    help="ADDR[,ADDR...]:PORT to serve /metrics on, IPv6 "
                    "addresses in brackets; [::]:PORT is every address, IPv4 "
                    "and IPv6 [%s]" % DEFAULT_LISTEN)
    ap.add_argument("--once", action="store_true",
                    help="print one scrape to stdout and exit")
    ap.add_argument("--verbose", action="store_true", help="log every request")
    return ap


def main():
    args = parser().parse_args()
    if KINDS is None:
        sys.exit("wirerate-exporter.py: error: needs python3-prometheus-client "
                 "(apt-get install python3-prometheus-client), run by /usr/bin/python3")
    path = args.socket or os.path.join(runtime_dir(args.file_prefix),
                                       "dpdk_telemetry.v2")
    registry = CollectorRegistry()
    registry.register(WirerateCollector(path))
    if args.once:
        sys.stdout.write(generate_latest(registry).decode())
        return 0
    host, _, port = args.listen.rpartition(":")
    if not host or not port.isdigit():
        ap.error("--listen %s: expected ADDRESS:PORT, e.g. %s or [::]:9477" % (
            args.listen, DEFAULT_LISTEN))
    try:
        serve(registry, args.listen, path, args.verbose)
    except OSError as e:
        sys.exit("wirerate-exporter.py: error: --listen %s: %s" % (args.listen, e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
