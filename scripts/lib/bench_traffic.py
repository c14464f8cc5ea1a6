# SPDX-License-Identifier: BSD-3-Clause
"""The 'traffic' case of bench.py: wirerate TX cost per frame on net_null
for mixes, streams and ranges, against the fixed-size path, alternating runs.

  fixed64    --size 64 (IPv4, one stream): the reference
  imix       --mix imix (per-frame size table)
  streams4   four --stream of 64 B on one port (four TX queues, one core)
  ipv4_84    --size 84, the smallest IPv6 size, in IPv4 (the comparison)
  ipv6_84    --ipv6 --size 84 (UDP checksum updated per frame)
  ranges1024 --size 64, 1024 flows over ranges (256 source addresses x 4
             destination ports: a table row and the IPv4 header checksum
             per frame)

Cost = cycles per frame / the reference's - 1 (fixed64 for imix,
streams4 and ranges1024, ipv4_84 for ipv6_84)."""
from stats import median_of

VARIANTS = {
    "fixed64": ["--size", "64"],
    "imix": ["--mix", "imix"],
    "streams4": ["--stream", "size=64;dport=1", "--stream", "size=64;dport=2",
                 "--stream", "size=64;dport=3", "--stream", "size=64;dport=4"],
    "ipv4_84": ["--size", "84"],
    "ipv6_84": ["--ipv6", "--size", "84"],
    "ranges1024": ["--size", "64", "--src-ip", "10.0.0.0-10.0.0.255",
                   "--dport", "1-4"],
}
GOALS = {"imix": ("fixed64", 0.20), "streams4": ("fixed64", 0.20),
         "ipv6_84": ("ipv4_84", 0.10), "ranges1024": ("fixed64", 0.20)}


def alternate(case, variants, args, log, steady, run_wirerate, fmt_run):
    """wirerate TX on net_null with each of variants ({name: options}) once
    per round, the order reversed every other round (also the replay case)."""
    runs = {k: [] for k in variants}
    tsc_hz = 0
    order = list(variants)
    for i in range(args.runs):
        for k in (order if i % 2 == 0 else order[::-1]):
            w, d = steady(args, run_wirerate, "net_null0",
                          ["--rx-ports", "none"] + variants[k], "tx_pkts")
            tsc_hz = d["env"]["tsc_hz"]
            runs[k].append(w.as_dict())
        log("%s run %d: %s" % (case, i + 1, "; ".join(
            "%s %s" % (k, fmt_run(runs[k][-1])) for k in order)))
    return {"case": case, "tsc_hz": tsc_hz, "runs": runs}


def traffic_cost(args, log, steady, run_wirerate, fmt_run):
    return alternate("traffic", VARIANTS, args, log, steady, run_wirerate, fmt_run)


def summarise(t, goals):
    """Medians per CPU-second, cycles per frame and the costs, in place.
    goals: {variant: (reference, most cost or None: reported only)}."""
    pps = {k: median_of(v, "cpu_pps") for k, v in t["runs"].items()}
    t["mpps"] = {k: v / 1e6 for k, v in pps.items()}
    t["cycles_per_pkt"] = {k: t["tsc_hz"] / v for k, v in pps.items()}
    t["cost"] = {k: t["cycles_per_pkt"][k] / t["cycles_per_pkt"][ref] - 1
                 for k, (ref, _) in goals.items()}
    t["met"] = {k: goal is None or t["cost"][k] <= goal
                for k, (_, goal) in goals.items()}


def markdown(t, goals, variants=None, title="wirerate TX on net_null"):
    """The table of a case summarised against goals, rows in variants'
    order (default: the runs')."""
    out = ["", "| %s | Mpps | cyc/frame | cost | goal |" % title,
           "|---|---|---|---|---|"]
    for k in (variants or t["runs"]):
        cost = goal = ""
        if k in goals:
            ref, g = goals[k]
            cost = "%+.1f %% vs %s" % (100 * t["cost"][k], ref)
            goal = "none" if g is None else "<= %.0f %%: %s" % (
                100 * g, "met" if t["met"][k] else "MISSED")
        out.append("| %s | %.1f | %.1f | %s | %s |" % (
            k, t["mpps"][k], t["cycles_per_pkt"][k], cost, goal))
    return out


def summarise_traffic(t, goals=GOALS):
    summarise(t, goals)


def markdown_traffic(t, variants=VARIANTS, goals=GOALS,
                     title="wirerate TX on net_null"):
    return markdown(t, goals, variants, title)
