# SPDX-License-Identifier: BSD-3-Clause
"""The DUT's own share of what the observer sampled (docs/testbeds.md,
"A DUT's cost from any run"): on a machine that also runs the generators,
the machine-wide figures of wr_dut.analyze describe the generators too.
This keeps what belongs to the DUT:
- CPU time: softirq and irq time on the DUT's CPUs only (--cpus, else the
  CPUs its interfaces' IRQs and RPS are set to), plus the CPU time of its
  processes (/proc/PID/stat: the PIDs given, or every process in its
  network namespace);
- NET_RX softirqs on those CPUs only;
- its interfaces' own IRQs (never the machine's timer interrupts);
- its interfaces' counters (wr_dut.analyze, unchanged).
The generators' CPUs (their lcores) are never DUT CPUs: a DUT CPU that is
also a generator's is reported as not separable. Standard library only."""
import re

import wr_dut


def cpu_list(text):
    """CPUs of a list such as "0-2,5" (empty text: none)."""
    cpus = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        a, _, b = part.partition("-")
        cpus.update(range(int(a), int(b or a) + 1))
    return cpus


def mask_cpus(mask):
    """CPUs of a hexadecimal mask such as "00000000,00000005"."""
    v = int(mask.replace(",", "") or "0", 16)
    return {i for i in range(v.bit_length()) if v >> i & 1}


def lcore_cpus(argv):
    """The CPUs a DPDK command line runs its lcores on (-l LIST, -c MASK,
    --lcores MAP: the CPUs after each @, else the lcores themselves), or
    None when it names none."""
    for k, a in enumerate(argv[:-1]):
        v = argv[k + 1]
        if a == "-l":
            return cpu_list(v)
        if a == "-c":
            return mask_cpus(v[2:] if v.startswith("0x") else v)
        if a == "--lcores":
            at = re.findall(r"@(\([^)]*\)|[0-9-]+)", v)
            if at:
                return set().union(*(cpu_list(x.strip("()")) for x in at))
            return cpu_list(re.sub(r"[()]", "", v))
    return None


def where(text):
    """Where the interfaces work, from the observer's first lines:
    {"hz": ticks per second, "rps": {iface: CPUs}, "irq": {iface: CPUs}}."""
    out = {"hz": 100, "rps": {}, "irq": {}}
    for line in text.splitlines():
        w = line.split()
        if line.startswith("@t "):
            break
        if len(w) == 2 and w[0] == "@hz":
            out["hz"] = int(w[1])
        elif len(w) == 3 and w[0] == "@rps":
            out["rps"].setdefault(w[1], set()).update(mask_cpus(w[2]))
        elif len(w) == 3 and w[0] == "@irqcpu":
            out["irq"].setdefault(w[1], set()).update(cpu_list(w[2]))
    return out


def _dut_cpus(meta, cpus):
    """(CPUs, where that came from)."""
    if cpus:
        return set(cpus), "given (--cpus)"
    irq = set().union(*meta["irq"].values()) if meta["irq"] else set()
    rps = set().union(*meta["rps"].values()) if meta["rps"] else set()
    if irq or rps:
        return irq | rps, "the interfaces' %s" % " and ".join(
            n for n, s in (("IRQ affinity", irq), ("RPS", rps)) if s)
    return set(), "none: the interfaces have no IRQ and no RPS CPU"


def _processes(s0, s1, dt, hz):
    """The DUT's processes alive at both ends of the window, each with its
    CPU % of one CPU over it."""
    p0, p1 = s0.get("pids", {}), s1.get("pids", {})
    return [{"pid": p, "comm": p1[p]["comm"],
             "cpu_pct": 100.0 * (p1[p]["ticks"] - p0[p]["ticks"]) / hz / dt}
            for p in sorted(set(p0) & set(p1))]


def own(samples, meta, cpus=None, generator=None):
    """The DUT's own figures over wr_dut's measured window (a dict, the
    "own" key of dut.json), or None without two samples. cpus: the CPUs
    the user named; generator: the generators' CPUs, or None (unknown)."""
    if len(samples) < 2:
        return None
    i, j, how = wr_dut.window(samples)
    s0, s1 = samples[i], samples[j]
    dt = (s1["t"] - s0["t"]) or 1e-9
    dut, origin = _dut_cpus(meta, cpus)
    gen = set(generator or ())
    notes = []
    if not dut:
        notes.append("no DUT CPU: the interfaces' softirq work runs on the CPU "
                     "that sends to them (on one machine, the generator's); name "
                     "--cpus or set the interfaces' rps_cpus")
    if dut & gen:
        notes.append("CPUs %s also run the generator's lcores: their softirq "
                     "time is not the DUT's alone" % _fmt_cpus(dut & gen))
    if generator is None:
        notes.append("the generator's CPUs are unknown (no -l, -c or --lcores)")
    ok = [c for c in sorted(dut) if "cpu%d" % c in s1["cpu"] and "cpu%d" % c in s0["cpu"]]
    pct = {c: wr_dut._cpu(s0["cpu"]["cpu%d" % c], s1["cpu"]["cpu%d" % c]) for c in ok}
    rx0 = s0.get("softirq_cpu", {}).get("NET_RX", [])
    rx1 = s1.get("softirq_cpu", {}).get("NET_RX", [])
    net_rx = sum(rx1[c] - rx0[c] for c in ok if c < min(len(rx0), len(rx1)))
    procs = _processes(s0, s1, dt, meta["hz"])
    soft = sum(p["softirq"] for p in pct.values())
    irq = sum(p["irq"] for p in pct.values())
    proc_pct = sum(p["cpu_pct"] for p in procs)
    return {
        "window": how, "cpus": ok, "cpus_from": origin,
        "generator_cpus": sorted(gen) if generator is not None else None,
        "separable": bool(ok) and not dut & gen,
        "softirq_pct": soft if ok else None, "irq_pct": irq if ok else None,
        "net_rx_softirqs_per_s": net_rx / dt if ok else None,
        "processes": procs, "processes_cpu_pct": proc_pct,
        "cpu_pct": (soft + irq if ok else 0.0) + proc_pct,
        "nic_irqs": sorted(s1["irq"]), "notes": notes,
    }


def _fmt_cpus(cpus):
    return ",".join(str(c) for c in sorted(cpus)) or "none"


def _f(v, unit=""):
    return "-" if v is None else ("%.4g" % v) + unit


def table(d):
    """The DUT table printed after a run (text lines): its own figures,
    then its interfaces' counters; what is not the DUT's is said so."""
    o = d["own"]
    on = "on CPUs %s" % _fmt_cpus(o["cpus"])
    irqs = d["nic_irqs_per_s"]
    rows = [
        ("DUT CPU % (softirq + irq " + on + ", + its processes; % of one CPU)",
         _f(o["cpu_pct"]) if o["separable"] else "not separable"),
        ("softirq % " + on, _f(o["softirq_pct"])),
        ("irq % " + on, _f(o["irq_pct"])),
        ("NET_RX softirqs/s " + on, _f(o["net_rx_softirqs_per_s"])),
        ("its processes' CPU %", "%s (%d processes)" % (_f(o["processes_cpu_pct"]),
                                                       len(o["processes"]))),
        ("its interfaces' IRQs/s", _f(sum(v or 0 for v in irqs.values())) if irqs
         else "none (no IRQ named after its interfaces: veth or the like)"),
    ]
    for n, v in sorted(d["interfaces"].items()):
        t = v["total"]
        rows.append(("%s RX / TX pps" % n, "%s / %s" % (_f(v["rx_pps"]), _f(v["tx_pps"]))))
        rows.append(("%s RX / TX frames (whole observation)" % n,
                     "%d / %d (dropped %d / %d)" % (t["rx_packets"], t["tx_packets"],
                                                    t["rx_dropped"], t["tx_dropped"])))
    w = max(len(r[0]) for r in rows)
    out = ["DUT: CPUs %s (%s); the generator's CPUs %s, excluded; window: %s, %.2f s"
           % (_fmt_cpus(o["cpus"]), o["cpus_from"],
              _fmt_cpus(o["generator_cpus"] or ()) if o["generator_cpus"] is not None
              else "unknown", d["window"], d["window_s"])]
    out += ["  %-*s  %s" % (w, k, v) for k, v in rows]
    out += ["  note: " + n for n in o["notes"]]
    return out
