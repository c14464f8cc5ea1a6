# SPDX-License-Identifier: BSD-3-Clause
"""The DUT observer's figures (docs/campaigns.md, "The DUT's cost"): read
the samples `wr-host.sh dut-start` took on the DUT during one cell, and
make the campaign report's DUT table. Used by wr-record.py; standard
library only.

The measured window is the DUT's own traffic: the intervals between
samples in which its interfaces received frames, less the first and the
last of them (partly ramp: the sender's start and stop fall inside them).
A cell too short for that keeps its edges, and says so ("window":
"with edges"). Totals (every frame the interfaces counted) span every
sample, from before the sender started to after the receiver ended."""
import re

CPU_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


def parse(text):
    """Samples of a dut-start output: [{"t", "cpu": {name: [ticks]},
    "intr", "softirq": {NET_RX: n, NET_TX: n}, "irq": {name: n},
    "net": {iface: {...}}}], and {iface: {"start"|"end": {counter: n}}}
    from ethtool -S."""
    samples, ethtool, eth = [], {}, None
    for line in text.splitlines():
        w = line.split()
        if not w:
            continue
        if w[0] == "@t":
            samples.append({"t": float(w[1]), "cpu": {}, "intr": 0, "softirq": {},
                            "irq": {}, "net": {}})
            eth = None
        elif w[0] == "@ethtool" and len(w) == 3:
            eth = ethtool.setdefault(w[1], {}).setdefault(w[2], {})
        elif eth is not None:
            _ethtool_line(eth, line)     # after "@ethtool IFACE WHEN"
        elif samples:
            _sample_line(samples[-1], w)
    # A sample cut short by dut-stop (the sampler's last one is whole).
    ifaces = set().union(*(x["net"] for x in samples)) if samples else set()
    whole = [x for x in samples if set(x["net"]) == ifaces and "cpu" in x["cpu"]
             and len(x["softirq"]) == 2]
    return whole, ethtool


def _ethtool_line(eth, line):
    k, _, v = line.partition(":")
    if v.strip().isdigit():
        eth[k.strip()] = int(v)


def _sample_line(s, w):
    if w[0].startswith("cpu"):
        s["cpu"][w[0]] = [int(x) for x in w[1:1 + len(CPU_FIELDS)]]
    elif w[0] == "intr":
        s["intr"] = int(w[1])
    elif w[0] in ("NET_RX:", "NET_TX:"):
        s["softirq"][w[0][:-1]] = sum(int(x) for x in w[1:])
        s.setdefault("softirq_cpu", {})[w[0][:-1]] = [int(x) for x in w[1:]]
    elif w[0] == "@pid" and len(w) >= 5:
        s.setdefault("pids", {})[int(w[1])] = {
            "ppid": int(w[2]), "ticks": int(w[3]) + int(w[4]), "comm": " ".join(w[5:])}
    elif w[0] == "@irq":
        # "@irq  42:  10  20  IR-PCI-MSI ...  eth0-TxRx-0": counts, then names
        counts = [int(x) for x in w[2:] if x.isdigit()]
        s["irq"][w[-1]] = s["irq"].get(w[-1], 0) + sum(counts)
    elif w[0] == "@net" and len(w) == 8:
        s["net"][w[1]] = dict(zip(("rx_packets", "tx_packets", "rx_bytes", "tx_bytes",
                                   "rx_dropped", "tx_dropped"), map(int, w[2:])))


def _rx(s):
    return sum(n["rx_packets"] for n in s["net"].values())


def window(samples):
    """(first, last, how) sample indexes of the measured window."""
    active = [i for i in range(len(samples) - 1)
              if _rx(samples[i + 1]) > _rx(samples[i])]
    if not active:
        return 0, len(samples) - 1, "no traffic"
    a, b = active[0], active[-1]
    if b - a >= 2:
        return a + 1, b, "traffic, less its first and last interval"
    return a, b + 1, "with edges"


def _cpu(c0, c1):
    """CPU % of each field between two readings of one CPU line."""
    d = [y - x for x, y in zip(c0, c1)]
    total = sum(d) or 1
    pct = {k: 100.0 * v / total for k, v in zip(CPU_FIELDS, d)}
    return {"user": pct["user"] + pct["nice"], "system": pct["system"],
            "irq": pct["irq"], "softirq": pct["softirq"],
            "idle": pct["idle"] + pct["iowait"], "steal": pct["steal"],
            "busy": 100.0 - pct["idle"] - pct["iowait"]}


def analyze(samples, ethtool):
    """The figures of one cell (dut.json), or None without two samples."""
    if len(samples) < 2:
        return None
    i, j, how = window(samples)
    s0, s1, first, last = samples[i], samples[j], samples[0], samples[-1]
    dt = s1["t"] - s0["t"]

    def per_s(a, b):
        return (b - a) / dt if dt > 0 else None
    net = {n: {"rx_pps": per_s(s0["net"][n]["rx_packets"], s1["net"][n]["rx_packets"]),
               "tx_pps": per_s(s0["net"][n]["tx_packets"], s1["net"][n]["tx_packets"]),
               "total": {k: last["net"][n][k] - first["net"][n][k] for k in last["net"][n]}}
           for n in s1["net"]}
    return {
        "schema": "wirerate-dut/1", "window": how, "window_s": dt,
        "samples": len(samples), "observed_s": last["t"] - first["t"],
        "interrupts_per_s": per_s(s0["intr"], s1["intr"]),
        "nic_irqs_per_s": {q: per_s(s0["irq"].get(q, 0), n) for q, n in s1["irq"].items()},
        "cpu": {c: _cpu(s0["cpu"][c], s1["cpu"][c]) for c in s1["cpu"]},
        "net_rx_softirqs_per_s": per_s(s0["softirq"]["NET_RX"], s1["softirq"]["NET_RX"]),
        "net_tx_softirqs_per_s": per_s(s0["softirq"]["NET_TX"], s1["softirq"]["NET_TX"]),
        "net_rx_softirqs_total": last["softirq"]["NET_RX"] - first["softirq"]["NET_RX"],
        "baseline_net_rx_softirqs_per_s": _baseline(samples, i),
        "rx_pps": sum(v["rx_pps"] or 0 for v in net.values()) if dt > 0 else None,
        "tx_pps": sum(v["tx_pps"] or 0 for v in net.values()) if dt > 0 else None,
        "interfaces": net,
        "ethtool": {n: {k: e["end"][k] - v for k, v in e.get("start", {}).items()
                        if k in e.get("end", {}) and e["end"][k] != v}
                    for n, e in ethtool.items()},
    }


def _baseline(samples, i):
    """NET_RX softirqs per second before the traffic (the samples before
    the window's first interval with frames), or None."""
    quiet = [k for k in range(i) if _rx(samples[k + 1]) == _rx(samples[k])]
    if not quiet:
        return None
    a, b = samples[quiet[0]], samples[quiet[-1] + 1]
    dt = b["t"] - a["t"]
    return (b["softirq"]["NET_RX"] - a["softirq"]["NET_RX"]) / dt if dt > 0 else None


# The DUT table: wirerate's columns from the report's campaign table, by
# their header, then the DUT's. (name in the table, function of dut.json)
WR_COLS = ("Mpps", "sent / lost (loss)", "cycles/frame TX", "cycles/frame RX")
DUT_COLS = (
    ("DUT interrupts/s", lambda d: d["interrupts_per_s"]),
    ("DUT CPU busy %", lambda d: d["cpu"]["cpu"]["busy"]),
    ("user %", lambda d: d["cpu"]["cpu"]["user"]),
    ("system %", lambda d: d["cpu"]["cpu"]["system"]),
    ("softirq %", lambda d: d["cpu"]["cpu"]["softirq"]),
    ("NET_RX softirqs/s", lambda d: d["net_rx_softirqs_per_s"]),
    ("DUT NICs RX pps", lambda d: d["rx_pps"]),
    ("DUT NICs TX pps", lambda d: d["tx_pps"]),
)


def _fmt(v):
    if v is None:
        return "-"
    return "%.4g" % v if abs(v) < 1e6 else "%.0f" % v


def _num(text):
    m = re.match(r"\s*([0-9.]+(?:e[+-]?[0-9]+)?)\s*$", text)
    return float(m.group(1)) if m else None


def campaign_rows(md):
    """The rows of the report's campaign table in its order, which is that
    of the cells given to `wirerate report`: [{column: text}]."""
    head, rows = None, []
    for line in md.splitlines():
        cols = [x.strip() for x in line.strip().strip("|").split("|")]
        if cols[:2] == ["cell", "frame B"] and head is None:
            head = cols
        elif head and not line.startswith("|"):
            break
        elif head and len(cols) == len(head) and cols[1].isdigit():
            rows.append(dict(zip(head, cols)))
    return rows


def _wr_row(rows, n, label, size):
    """Row n of the campaign table, {} when it is not that cell's."""
    w = rows[n] if 0 <= n < len(rows) else {}
    return w if (w.get("cell"), w.get("frame B")) == (label, str(size)) else {}


def table(md, cells):
    """The "## DUT" section: one row per cell with DUT figures (cells:
    [(label, size, repeat, n, dut.json)], n: the cell's row in the
    campaign table), then the ratios between cells."""
    wr = campaign_rows(md)
    head = ["cell", "frame B", "repeat"] + list(WR_COLS) + [n for n, _ in DUT_COLS]
    out = ["## DUT", "", "Measured on the DUT during each cell's traffic "
           "(docs/campaigns.md, \"The DUT's cost\").", "",
           "| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    vals = {}
    for label, size, rep, n, d in cells:
        w = _wr_row(wr, n, label, size)
        row = [w.get(k, "-") for k in WR_COLS] + [_fmt(f(d)) for _, f in DUT_COLS]
        vals[(label, size, rep)] = row
        out.append("| %s | %d | %d | %s |" % (label, size, rep, " | ".join(row)))
    out += _ratios(vals)
    return "\n".join(out) + "\n"


def _ratio_row(name, a, b):
    r = []
    for x, y in zip(a, b):
        x, y = _num(x), _num(y)
        r.append("x %.3g" % (y / x) if x and y is not None else "-")
    return "| %s | | | %s |" % (name, " | ".join(r))


def _ratios(vals):
    """Within each repeat: each further size of a label against its first
    size, and each further label of a size against its first label (the
    repeat named when there are several)."""
    out, labels, sizes = [], {}, {}
    several = len({rep for _, _, rep in vals}) > 1
    for (label, size, rep) in vals:
        labels.setdefault((label, rep), []).append(size)
        sizes.setdefault((size, rep), []).append(label)
    for (label, rep), ss in labels.items():
        name = "%s r%d" % (label, rep) if several else label
        for s in ss[1:]:
            out.append(_ratio_row("%s: %d B / %d B" % (name, s, ss[0]),
                                  vals[(label, ss[0], rep)], vals[(label, s, rep)]))
    for (size, rep), ls in sizes.items():
        name = "%d B r%d" % (size, rep) if several else "%d B" % size
        for lab in ls[1:]:
            out.append(_ratio_row("%s: %s / %s" % (name, lab, ls[0]),
                                  vals[(ls[0], size, rep)], vals[(lab, size, rep)]))
    return out
