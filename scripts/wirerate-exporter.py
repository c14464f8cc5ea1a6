#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Prometheus exporter for wirerate: serves /metrics over HTTP, built on each
scrape from wirerate's /wirerate/... commands on the DPDK telemetry socket.
Python 3 standard library only. See docs/metrics.md.

  wirerate-exporter.py [--file-prefix P | --socket PATH] [--listen ADDR:PORT]
  wirerate-exporter.py --once ...    print one scrape to stdout and exit
"""
import argparse
import json
import os
import socket
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DEFAULT_LISTEN = "127.0.0.1:9477"
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


class Metrics:
    """Prometheus text exposition format 0.0.4, grouped by metric family."""

    def __init__(self):
        self.families = {}

    def add(self, name, mtype, help_text, value, labels=None):
        fam = self.families.setdefault(name, (mtype, help_text, []))
        fam[2].append((labels or {}, value))

    def text(self):
        out = []
        for name, (mtype, help_text, samples) in self.families.items():
            out.append("# HELP %s %s" % (name, help_text))
            out.append("# TYPE %s %s" % (name, mtype))
            for labels, value in samples:
                suffix = labels.get("__suffix", "")
                lab = ",".join('%s="%s"' % kv for kv in sorted(labels.items())
                               if kv[0] != "__suffix")
                out.append("%s%s%s %s" % (name, suffix, "{%s}" % lab if lab else "",
                                          fmt(value)))
        return "\n".join(out) + "\n"


def fmt(v):
    if isinstance(v, float):
        return repr(v)
    return str(int(v))


def add_state(m, st):
    state = st["state"]
    for i, name in enumerate(STATES):
        m.add("wirerate_run_state", "gauge", "Run state: 1 for the current one.",
              1 if i == state else 0, {"state": name})
    m.add("wirerate_run_stop_reason", "gauge", "Why the run stopped, once it did.",
          1, {"reason": STOP_REASONS[st["stop_reason"]]
              if st["stop_reason"] < len(STOP_REASONS) else "unknown"})
    m.add("wirerate_run_elapsed_seconds", "gauge", "Time since traffic started.",
          st["elapsed_ms"] / 1e3)
    m.add("wirerate_run_trial", "gauge",
          "Trials started; counters restart with each.", st["trial"])
    m.add("wirerate_run_duration_seconds", "gauge",
          "Configured run length; 0 runs until the count or a signal.",
          st["duration_ms"] / 1e3)
    m.add("wirerate_run_count_frames", "gauge",
          "Configured frames per TX port; 0 is unlimited.", st["count_pkts"])
    m.add("wirerate_frame_size_bytes", "gauge",
          "Frame size, FCS included (RFC 2544).", st["frame_size"])
    m.add("wirerate_snapshots_total", "counter",
          "Snapshots the stats core published (one per interval and state "
          "change).", st["seq"])
    m.add("wirerate_tsc_hertz", "gauge", "TSC frequency of the host.", st["tsc_hz"])


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


def add_port_drops(m, p, lab):
    m.add("wirerate_port_tx_refused_frames_total", "counter",
          "Frames the PMD did not take (ring full); they are retried.",
          p["tx_full_pkts"], lab)
    m.add("wirerate_port_tx_alloc_failures_total", "counter",
          "TX bursts that found the mempool empty.", p["tx_alloc_fail"], lab)
    m.add("wirerate_port_tx_unsent_frames_total", "counter",
          "Frames built but pending at stop, freed unsent.", p["tx_unsent_pkts"], lab)
    m.add("wirerate_port_nic_missed_frames_total", "counter",
          "Frames the NIC dropped for want of RX descriptors (imissed).",
          p["nic_imissed"], lab)
    m.add("wirerate_port_nic_rx_nombuf_total", "counter",
          "RX mbuf allocation failures in the PMD.", p["nic_rx_nombuf"], lab)
    m.add("wirerate_port_missing_frames", "gauge",
          "Frames the peer port sent that have not arrived: in flight or lost.",
          p["missing_pkts"], lab)
    m.add("wirerate_port_lost_frames", "gauge",
          "Frames lost by sequence accounting; final once the run is done.",
          p["lost_pkts"], lab)
    m.add("wirerate_port_sequence_gap_frames", "gauge",
          "Sequence numbers skipped and not yet filled (in flight included).",
          p["gap_pkts"], lab)
    m.add("wirerate_port_late_frames_total", "counter",
          "Own frames that arrived after a higher sequence (reordered).",
          p["late_pkts"], lab)
    m.add("wirerate_port_duplicate_frames_total", "counter",
          "Further copies of a sequence already seen.", p["dup_pkts"], lab)


def add_port_latency(m, p, lab, done):
    """Latency series only where wirerate knows them: an absent lat_ key
    means unknown (no own frame in the interval, or latency not valid),
    and is never exported as 0. Quantiles are of the last interval while
    running and of the whole run once done (docs/metrics.md)."""
    if "lat_samples" not in p:
        return
    name = "wirerate_port_latency_seconds"
    helps = "Latency of own frames, TX stamp to RX (TSC)."
    m.add(name, "summary", helps, p["lat_sum_ns"] / 1e9, dict(lab, __suffix="_sum"))
    m.add(name, "summary", helps, p["rx_own_pkts"], dict(lab, __suffix="_count"))
    for q, k in (("0", "lat_min_ns"), ("0.5", "lat_p50_ns"), ("0.99", "lat_p99_ns"),
                 ("0.999", "lat_p999_ns"), ("1", "lat_max_ns")):
        m.add(name, "summary", helps, p[k] / 1e9, dict(lab, quantile=q))
    m.add("wirerate_port_latency_mean_seconds", "gauge",
          "Mean latency of own frames over the last interval (whole run once done).",
          p["lat_mean_ns"] / 1e9, lab)
    m.add("wirerate_port_latency_max_seconds", "gauge",
          "Largest latency of an own frame over the last interval (whole run once "
          "done).", p["lat_max_ns"] / 1e9, lab)


def add_port_cpu(m, p, lab):
    m.add("wirerate_port_busy_cycles_total", "counter",
          "The port's share of its lcores' busy TSC cycles (split by frames).",
          p["busy_tsc"], lab)
    m.add("wirerate_port_cycles_per_frame", "gauge",
          "Busy TSC cycles per frame moved, last interval.",
          p["tsc_per_kpkt"] / 1e3, lab)
    m.add("wirerate_port_cycles_per_byte", "gauge",
          "Busy TSC cycles per frame byte moved, last interval.",
          p["tsc_per_kbyte"] / 1e3, lab)


def add_bursts(m, lc, lab, d):
    """Frames per poll as a Prometheus histogram (cumulative buckets)."""
    bins = sorted((int(k.rsplit("_", 1)[1]), v) for k, v in lc.items()
                  if k.startswith(d + "_bursts_"))
    name = "wirerate_lcore_burst_frames"
    helps = "Frames moved per poll of a queue (0: empty poll)."
    dl = dict(lab, direction=d)
    cum = 0
    for i, (lo, n) in enumerate(bins):
        cum += n
        hi = bins[i + 1][0] - 1 if i + 1 < len(bins) else lo
        m.add(name, "histogram", helps, cum, dict(dl, le=str(hi), __suffix="_bucket"))
    m.add(name, "histogram", helps, cum, dict(dl, le="+Inf", __suffix="_bucket"))
    m.add(name, "histogram", helps, lc[d + "_pkts"], dict(dl, __suffix="_sum"))
    m.add(name, "histogram", helps, cum, dict(dl, __suffix="_count"))


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
    m.add("wirerate_lcore_busy_ratio", "gauge",
          "Busy share of the lcore's TSC cycles, last interval.",
          lc["busy_permille"] / 1e3, lab)
    m.add("wirerate_lcore_cycles_per_frame", "gauge",
          "Busy TSC cycles per frame moved, last interval.",
          lc["tsc_per_kpkt"] / 1e3, lab)
    m.add("wirerate_lcore_cycles_per_byte", "gauge",
          "Busy TSC cycles per frame byte moved, last interval.",
          lc["tsc_per_kbyte"] / 1e3, lab)


def scrape(path):
    """One scrape: query every command, return the exposition text."""
    m = Metrics()
    try:
        t = Telemetry(path)
    except OSError:
        m.add("wirerate_up", "gauge", "1 when wirerate's telemetry answered.", 0)
        return m.text()
    try:
        st = t.query("/wirerate/state")
        ports = [t.query("/wirerate/port,%d" % i) for i in t.query("/wirerate/ports") or []]
        lcores = [t.query("/wirerate/lcore,%d" % i) for i in t.query("/wirerate/lcores") or []]
    except (OSError, ValueError, KeyError):
        m.add("wirerate_up", "gauge", "1 when wirerate's telemetry answered.", 0)
        return m.text()
    finally:
        t.close()
    up = st is not None
    m.add("wirerate_up", "gauge", "1 when wirerate's telemetry answered.", 1 if up else 0)
    if not up:
        return m.text()
    add_state(m, st)
    for p in ports:
        if p is None:
            continue
        lab = {"port": str(p["port_id"])}
        add_port_traffic(m, p, lab)
        add_port_drops(m, p, lab)
        add_port_latency(m, p, lab, st["state"] == 3)
        add_port_cpu(m, p, lab)
    for lc in lcores:
        if lc is not None:
            add_lcore(m, lc)
    return m.text()


def make_handler(path, verbose):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path.split("?")[0] == "/metrics":
                body = scrape(path).encode()
                ctype = "text/plain; version=0.0.4; charset=utf-8"
                code = 200
            elif self.path == "/":
                body = b"wirerate exporter: see /metrics\n"
                ctype, code = "text/plain", 200
            else:
                body, ctype, code = b"not found\n", "text/plain", 404
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, fmt_, *args):
            if verbose:
                sys.stderr.write("%s %s\n" % (self.address_string(), fmt_ % args))
    return Handler


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--file-prefix", default="rte",
                     help="EAL --file-prefix of the wirerate process [rte]")
    src.add_argument("--socket", help="path of its dpdk_telemetry.v2 socket")
    ap.add_argument("--listen", default=DEFAULT_LISTEN,
                    help="address:port to serve /metrics on [%s]" % DEFAULT_LISTEN)
    ap.add_argument("--once", action="store_true",
                    help="print one scrape to stdout and exit")
    ap.add_argument("--verbose", action="store_true", help="log every request")
    args = ap.parse_args()
    path = args.socket or os.path.join(runtime_dir(args.file_prefix),
                                       "dpdk_telemetry.v2")
    if args.once:
        sys.stdout.write(scrape(path))
        return 0
    host, _, port = args.listen.rpartition(":")
    if not host or not port.isdigit():
        ap.error("--listen %s: expected ADDRESS:PORT, e.g. %s" % (args.listen,
                                                                   DEFAULT_LISTEN))
    server = ThreadingHTTPServer((host.strip("[]"), int(port)),
                                 make_handler(path, args.verbose))
    print("wirerate exporter: http://%s:%d/metrics from %s" % (
        host, server.server_address[1], path), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
