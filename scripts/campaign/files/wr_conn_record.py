# SPDX-License-Identifier: BSD-3-Clause
"""Connection cells of a campaign (conn:, docs/campaigns.md "Connection
cells"), the controller's side: the client's figures from its result
(docs/results.md, `connections`), the cell's goal (connections that may
fail), and the report's "Connections" table with the DUT's figures beside
them (CPU of its process, softirqs, interrupts, its interfaces' packets)
and the ratio of each further MTU of a label to its first. Used by
wr-record.py; standard library only."""
import json
import os

import wr_dut


def figures(doc):
    """A connection run's figures for the record and the table, or None
    when the result has no `connections` object."""
    conn = doc.get("connections") if isinstance(doc, dict) else None
    if not isinstance(conn, dict):
        return None
    b, r = conn.get("books") or {}, conn.get("rates") or {}
    return {"attempted": b.get("attempted", 0), "completed": b.get("completed", 0),
            "failed": b.get("failed_total", 0), "failed_by_class": b.get("failed", {}),
            "unstarted": sum((b.get("unstarted") or {}).values()),
            "requests": b.get("resps", 0), "requests_sent": b.get("reqs_sent", 0),
            "open": b.get("open", 0), "duration_s": conn.get("duration_s"),
            "cps": r.get("completed_cps"), "requests_per_s": r.get("requests_per_s"),
            "goodput_bps": r.get("goodput_bps"), "failed_ratio": conn.get("failed_ratio"),
            "asked_cps": (conn.get("asked") or {}).get("cps")}


def result(d):
    """(figures, None) from the cell's snd.json, or (None, why)."""
    try:
        with open(os.path.join(d, "snd.json")) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        return None, "no result from the client: %s" % e
    fig = figures(doc)
    if fig is None:
        return None, "the client's result has no connections (not a --conn run)"
    if fig["completed"] == 0:
        return fig, "no connection completed (attempted %d, failed %d)" % (
            fig["attempted"], fig["failed"])
    return fig, None


def goal(want, fig):
    """A connection cell's goal: the ratio of its attempted connections
    that may fail ({"loss_ratio": x} as a frame cell's), judged on the
    client's books."""
    g = {"want": None if want is None else "failed connections <= %.4g%%" % (
        100 * want["loss_ratio"]), "loss_ratio": None if want is None else
        want["loss_ratio"], "met": None, "why": ""}
    if fig is None:
        g["why"] = "did not run"
        return g
    ratio = fig["failed"] / fig["attempted"] if fig["attempted"] else 0.0
    if want is None:
        g["why"] = "no goal set (%d of %d connections failed)" % (fig["failed"],
                                                                 fig["attempted"])
        return g
    g["met"] = ratio <= want["loss_ratio"]
    g["why"] = "%d of %d connections failed (%.4g%%), %s the goal %.4g%%" % (
        fig["failed"], fig["attempted"], 100 * ratio,
        "within" if g["met"] else "above", 100 * want["loss_ratio"])
    return g


def processes(text, samples):
    """The DUT's named processes over the measured window: {"cpu_pct" (of
    one CPU, summed), "pids"}, or None when the samples hold none."""
    hz = 100
    for line in text.splitlines():
        if line.startswith("@hz "):
            hz = int(line.split()[1])
            break
    if len(samples) < 2 or not any(s.get("pids") for s in samples):
        return None
    i, j, _ = wr_dut.window(samples)
    p0, p1 = samples[i].get("pids", {}), samples[j].get("pids", {})
    dt = (samples[j]["t"] - samples[i]["t"]) or 1e-9
    both = sorted(set(p0) & set(p1))
    return {"pids": both, "comm": sorted({p1[p]["comm"] for p in both}),
            "cpu_pct": sum(100.0 * (p1[p]["ticks"] - p0[p]["ticks"]) / hz / dt
                           for p in both)}


def _dut(d):
    try:
        with open(os.path.join(d, "dut.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _row(c, dut):
    """One cell's values, in COLS order (None: not known)."""
    f = c.get("conn") or {}
    proc = (dut or {}).get("processes") or {}
    rps = f.get("requests_per_s")
    cpu = proc.get("cpu_pct")
    cpu_us = 1e4 * cpu / rps if cpu is not None and rps else None
    nic_irqs = (dut or {}).get("nic_irqs_per_s") or {}
    return [f.get("cps"), rps, (f.get("goodput_bps") or 0) / 1e6 if f else None,
            cpu, cpu_us,
            (dut or {}).get("cpu", {}).get("cpu", {}).get("softirq"),
            (dut or {}).get("net_rx_softirqs_per_s"),
            (dut or {}).get("interrupts_per_s"),
            sum(v or 0 for v in nic_irqs.values()) if nic_irqs else None,
            (dut or {}).get("rx_pps"), (dut or {}).get("tx_pps")]


COLS = ("connections/s", "requests/s", "goodput Mb/s", "DUT process CPU %",
        "DUT process CPU us/request", "machine softirq %", "machine NET_RX softirqs/s",
        "machine interrupts/s", "DUT NIC IRQs/s", "DUT NICs RX pps", "DUT NICs TX pps")


def table(cells):
    """The "## Connections" section (text) for [(dir, cell.json)] of the
    connection cells, or None when there are none."""
    rows = [(c, _dut(d)) for d, c in cells if c and c.get("kind") == "conn"]
    if not rows:
        return None
    head = ["cell", "MTU", "result", "completed / failed"] + list(COLS)
    out = ["## Connections", "",
           "Connection cells (wirerate's HTTP client against a server; docs/campaigns.md, "
           "\"Connection cells\"). The DUT's process: its CPU time over the "
           "measured window (% of one CPU). The machine's columns are the "
           "whole DUT machine's: on one machine they include the generators.",
           "", "| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    first = {}
    for c, dut in rows:
        f = c.get("conn") or {}
        vals = _row(c, dut)
        res = c["status"] if c["ran"] else "FAILED: " + c["reason"]
        out.append("| %s | %d | %s | %s | %s |" % (
            c["label"], c["frame_size"] - 18, res,
            "%d / %d" % (f["completed"], f["failed"]) if f else "-",
            " | ".join(wr_dut._fmt(v) for v in vals)))
        key = (c["label"], c.get("repeat", 1))
        if key not in first:
            first[key] = (c, vals)
        elif c["ran"] and first[key][0]["ran"]:
            base = first[key][1]
            out.append("| %s: MTU %d / %d | | | | %s |" % (
                c["label"], c["frame_size"] - 18, first[key][0]["frame_size"] - 18,
                " | ".join("x %.3g" % (v / b) if v is not None and b else "-"
                           for v, b in zip(vals, base))))
    return "\n".join(out) + "\n"
