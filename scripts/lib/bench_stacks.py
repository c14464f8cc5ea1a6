# SPDX-License-Identifier: BSD-3-Clause
"""The 'stacks' case of bench.py: what a header stack (--stack)
costs per frame, against plain frames of the same size, alternating runs.

  fixed114      --size 114 (IPv4): the reference for VXLAN over IPv4
  vxlan114      eth/ipv4/udp/vxlan/eth/ipv4/udp at 114 B: a 64-byte frame
                inside VXLAN (no checksum changes per frame)
  ipv6_134      --ipv6 --size 134: the reference for ...
  vxlan6_134    eth/ipv6/udp/vxlan/eth/ipv4/udp at 134 B (the outer UDP
                checksum updated per frame, as IPv6's)
  ring114       TX and RX on one core over a net_ring loopback, plain
  ring_vxlan114 the same inside VXLAN: the receiver finds each test header
                by walking the stack (the worker's rare path)

TX variants on net_null (--rx-ports none). Cost = cycles per frame / the
reference's - 1."""
from bench_traffic import markdown_traffic, summarise_traffic

VXLAN4 = "eth/ipv4/udp/vxlan/eth/ipv4/udp"
VXLAN6 = "eth/ipv6/udp/vxlan/eth/ipv4/udp"
TX = ["--rx-ports", "none"]
VARIANTS = {
    "fixed114": ("net_null0", TX + ["--size", "114"]),
    "vxlan114": ("net_null0", TX + ["--size", "114", "--stack", VXLAN4]),
    "ipv6_134": ("net_null0", TX + ["--size", "134", "--ipv6"]),
    "vxlan6_134": ("net_null0", TX + ["--size", "134", "--stack", VXLAN6]),
    "ring114": ("net_ring0", ["--size", "114"]),
    "ring_vxlan114": ("net_ring0", ["--size", "114", "--stack", VXLAN4]),
}
# variant: (reference, goal: the most cost it may have; None: reported only)
GOALS = {"vxlan114": ("fixed114", 0.20), "vxlan6_134": ("ipv6_134", 0.20),
         "ring_vxlan114": ("ring114", None)}


def stacks_cost(args, log, steady, run_wirerate, fmt_run):
    """Each variant once per round, the order reversed every other round.
    A ring run whose frames did not all come back as own is an error."""
    runs = {k: [] for k in VARIANTS}
    tsc_hz = 0
    order = list(VARIANTS)
    for i in range(args.runs):
        for k in (order if i % 2 == 0 else order[::-1]):
            vdev, opts = VARIANTS[k]
            w, d = steady(args, run_wirerate, vdev, opts, "tx_pkts")
            tsc_hz = d["env"]["tsc_hz"]
            if vdev == "net_ring0" and d["totals"][0]["rx_own_pkts"] != d["totals"][0]["tx_pkts"]:
                raise SystemExit("stacks %s: not every frame came back as own: %s"
                                 % (k, d["accounting"]))
            runs[k].append(w.as_dict())
        log("stacks run %d: %s" % (i + 1, "; ".join(
            "%s %s" % (k, fmt_run(runs[k][-1])) for k in order)))
    return {"case": "stacks", "tsc_hz": tsc_hz, "runs": runs}


def summarise_stacks(t):
    """Medians, cycles per frame and costs, in place (bench_traffic's)."""
    summarise_traffic(t, GOALS)


def markdown_stacks(t):
    return markdown_traffic(t, VARIANTS, GOALS, "wirerate, header stacks")
