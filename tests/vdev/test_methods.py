# SPDX-License-Identifier: BSD-3-Clause
"""--mode mlr (MLRsearch) and latency under load on a ring pair, against
the --impair fixture as the device: a 500 kpps policer with a 20 ms bucket,
a fixed delay. Counts are checked against the fixture's own counters.
Usage: test_methods.py CASE (see CASES)."""

import re

import cases
import wrtest
from wrtest import Checker

RING = ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1", "--quiet"]
# police=500kpps passes R x T + 20 ms of R in a trial of T seconds: the
# highest rate without loss over 0.5 s trials is 520 kpps.
KNEE_PPS = 500e3 * (1 + 0.020 / 0.5)


def mode_mlr():
    """NDR and PDR goals in one search: each goal's bounds bracket the
    policer's knee, every trial is recorded with its intended and offered
    load, and each trial's loss equals what the policer dropped."""
    c = Checker("mode_mlr")
    r = wrtest.run([], RING + ["--mode", "mlr", "--size", "128", "--rate", "1Mpps",
                               "--trial", "500ms", "--mlr-initial", "100ms",
                               "--goals", "0:0.5:1s:0.01,0.005:0.5:1s:0.01",
                               "--impair", "police=500kpps", "--lat-loads", "none"],
                   timeout=180)
    c.eq(r.rc, 0, "exit code")
    res = r.doc["results"][0]
    c.eq(r.doc["mode"], "mlr", "mode")
    c.eq(len(res["goals"]), 2, "two goals")
    for g in res["goals"]:
        c.eq(g["done"], True, "goal %r done" % g["loss_ratio"])
        c.true(g["rlb_pps"] < g["rub_pps"], "RLB below RUB")
        c.true((g["rub_pps"] - g["rlb_pps"]) / g["rub_pps"] <= 0.01 + 1e-12,
               "within the goal width")
        c.true(abs(g["conditional_throughput_pps"] / KNEE_PPS - 1) < 0.04,
               "conditional throughput %r within 4%% of the knee" %
               g["conditional_throughput_pps"])
    ndr, pdr = res["goals"]
    c.true(pdr["rlb_pps"] >= ndr["rlb_pps"], "PDR at or above NDR")
    mlr = [t for t in r.doc["trials"] if t["what"] in ("mlr", "mlr short")]
    c.true(len(mlr) >= res["search_trials"], "every trial in the result's trials")
    c.eq(len(res["mlr_trials"]), res["search_trials"], "every search trial listed")
    shorts = [t for t in res["mlr_trials"] if not t["full_length"]]
    c.true(len(shorts) >= 3, "short trials narrowed first: %d" % len(shorts))
    c.eq(res["mlr_trials"][0]["intended_pps"], 1e6, "first trial at the maximum")
    for t in res["mlr_trials"]:
        if not t["rate_reached"]:
            c.true(t["loss_ratio"] >= 1 - t["offered_pps"] / t["intended_pps"] - 1e-9,
                   "a trial short of its load counts the shortfall as loss")
    for t in mlr:
        imp = t["totals"][1]["impair"]
        c.eq(t["lost_pkts"], imp["policed_pkts"], "lost = policed (%s at %r)" %
             (t["what"], t["requested_pps"]))
    wrtest.rx_matches_pmd(c, r.doc)
    c.eq(r.doc["accounting"]["mbufs_missing"] if "accounting" in r.doc else
         r.doc["mbufs_missing"], 0, "mbufs back")
    c.done(r)


def lat_under_load():
    """Latency at 0, 10, 50 and 90% of the rate found, through a fixture
    that delays every poll by 30 us: every figure at least the delay,
    percentiles in order, the histogram holding every received frame, the
    clock and its resolution given."""
    c = Checker("lat_under_load")
    r = wrtest.run([], RING + ["--mode", "mlr", "--size", "64", "--rate", "200kpps",
                               "--trial", "300ms", "--goals", "0:0.5:300ms:0.01",
                               "--impair", "delay=30us", "--lat-trial", "300ms"],
                   timeout=180)
    c.eq(r.rc, 0, "exit code")
    res = r.doc["results"][0]
    g = res["goals"][0]
    c.eq(g["no_loss_up_to_max"], True, "no loss up to the maximum")
    lul = res["latency_under_load"]
    c.eq(lul["base_pps"], g["conditional_throughput_pps"], "base = conditional throughput")
    levels = lul["levels"]
    c.eq([lv["pct"] for lv in levels], [0, 10, 50, 90], "default load levels")
    c.eq(levels[0]["intended_pps"], 10000, "0% is a 10 kpps trickle")
    c.true(abs(levels[2]["intended_pps"] - 0.5 * lul["base_pps"]) < 1e-6, "50% of base")
    for lv in levels:
        lat = lv["latency"]
        p = lat["percentiles_ns"]
        c.true(lat["min_ns"] >= 30000, "min >= delay at %r%%: %r" % (lv["pct"], lat["min_ns"]))
        c.true(lat["min_ns"] <= p["p50"] <= p["p90"] <= p["p99"] <= p["p99.9"] <= lat["max_ns"],
               "percentiles in order at %r%%" % lv["pct"])
        c.eq(sum(b[2] for b in lat["histogram"]), lat["count"], "histogram holds every frame")
        c.eq(lat["count"], lv["sent_pkts"] - lv["lost_pkts"], "one latency per frame received")
        c.true(lat["resolution_ns"] > 0 and lat["tsc_hz"] > 0 and "TSC" in lat["clock"],
               "clock and resolution given")
        lows = [b[0] for b in lat["histogram"]]
        c.true(all(a < b for a, b in zip(lows, lows[1:])), "buckets in order")
    c.true("latency under load" in r.out, "table printed")
    c.done(r)


def no_latency_keys(obj):
    """The latency keys of a result object (latency, latency_*, jitter_ns)."""
    return sorted(k for k in obj if k.startswith("latency") or k == "jitter_ns")


def mlr_generator_capped():
    """MLRsearch with a generator capped below the maximum:
    the fixture's 100 us delay per non-empty poll holds the one worker
    (TX and RX on one lcore, bursts of 32) to at most 320 kpps, below the
    1 Mpps maximum. A trial still short of its intended load after three
    attempts counts the shortfall as loss, so the search moves down and ends with
    bounds within the goal width, at or below the cap, instead of stalling
    at the maximum with trials that prove nothing."""
    c = Checker("mlr_generator_capped")
    r = wrtest.run([], RING + ["--mode", "mlr", "--size", "64", "--rate", "1Mpps",
                               "--trial", "200ms", "--mlr-initial", "100ms",
                               "--goals", "0:0.5:200ms:0.05", "--impair", "delay=100us",
                               "--lat-loads", "none"], timeout=180)
    c.eq(r.rc, 0, "exit code")
    res = r.doc["results"][0]
    g = res["goals"][0]
    c.eq((res["converged"], g["done"], g["no_loss_up_to_max"]), (True, True, False),
         "converged, done, not 'no loss up to the maximum'")
    c.true(0 < g["rlb_pps"] < g["rub_pps"] and
           (g["rub_pps"] - g["rlb_pps"]) / g["rub_pps"] <= 0.05 + 1e-12,
           "bounds within the width: %r .. %r" % (g["rlb_pps"], g["rub_pps"]))
    c.true(g["rlb_pps"] <= 32 / 100e-6, "lower bound at or below the cap: %r" % g["rlb_pps"])
    c.true(res["generator_limited_trials"] >= 1, "the maximum was out of reach")
    c.true(res["search_trials"] < 64, "not every trial the search may run: %d" %
           res["search_trials"])
    phases = len([t for t in r.doc["trials"] if t["what"] in ("mlr", "mlr short")])
    c.true(res["search_trials"] < phases <= 3 * res["search_trials"],
           "a trial short of its load tried up to 3 times: %d phases, %d trials" % (
               phases, res["search_trials"]))
    for t in res["mlr_trials"]:
        if not t["rate_reached"]:
            c.true(t["loss_ratio"] >= 1 - t["offered_pps"] / t["intended_pps"] - 1e-9,
                   "shortfall counted as loss at %r" % t["intended_pps"])
    lost = [t["lost_pkts"] for t in r.doc["trials"]]
    c.eq([x for x in lost if x != 0], [], "the fixture only delays: no frame lost")
    c.done(r)


def lat_without_stamps():
    """--stamp seq or none: the frames carry no TX timestamp, so there is no
    latency figure anywhere: not in totals, streams,
    samples, the live view, trials nor latency under load, which says why
    it was skipped."""
    c = Checker("lat_without_stamps")
    live = [a for a in RING if a != "--quiet"]
    for stamp in ("seq", "none"):
        r = wrtest.run([], live + ["--count", "300k", "--rate", "500kpps",
                                   "--interval", "100ms", "--stamp", stamp])
        c.eq(r.rc, 0, "%s: exit code" % stamp)
        c.eq(r.doc["config"]["stamp"], stamp, "%s: config says it" % stamp)
        c.eq([no_latency_keys(t) for t in r.doc["totals"]], [[], []],
             "%s: no port latency" % stamp)
        c.eq([no_latency_keys(s) for s in r.doc["streams"] if no_latency_keys(s)], [],
             "%s: no stream latency" % stamp)
        c.true(len(r.doc["samples"]) >= 3, "%s: samples" % stamp)
        c.eq([p for smp in r.doc["samples"] for p in smp["ports"] if no_latency_keys(p)],
             [], "%s: no sample latency" % stamp)
        rows = re.findall(r"^ +1 +\d+ +\d+ +\d+ +\d+ +(\S+) +(\S+) +(\S+)$",
                          r.out, re.M)
        c.true(len(rows) >= 3 and all(x == ("-", "-", "-") for x in rows),
               "%s: live latency cells all '-': %r" % (stamp, rows[:4]))
    r = wrtest.run([], RING + ["--mode", "mlr", "--size", "64", "--rate", "200kpps",
                               "--trial", "100ms", "--goals", "0:0.5:100ms:0.05",
                               "--lat-trial", "100ms", "--stamp", "seq"], timeout=120)
    c.eq(r.rc, 0, "mlr: exit code")
    c.true(len(r.doc["trials"]) > 0, "mlr: trials recorded")
    c.eq([t["what"] for t in r.doc["trials"] if no_latency_keys(t)], [],
         "mlr: no trial latency")
    lul = r.doc["results"][0].get("latency_under_load", {})
    c.true("--stamp" in lul.get("skipped", "") and "levels" not in lul,
           "latency under load skipped, saying why: %r" % lul)
    c.done(r)


def methods_bad():
    """Bad --goals, --lat-loads, --mlr-initial: exit 2 naming the field."""
    c = Checker("methods_bad")
    for opts, msg in [
        (["--mode", "mlr", "--goals", "0:0.5:1s"], "expected LOSS:EXCEED:SUM:WIDTH"),
        (["--mode", "mlr", "--goals", "0:1.5:1s:0.01"], "exceed ratio '1.5'"),
        (["--mode", "mlr", "--goals", "0:0.5:1s:0"], "width must be above 0"),
        (["--lat-loads", "0,150"], "'150' is not a percentage from 0 to 100"),
        (["--mode", "mlr", "--trial", "1s", "--mlr-initial", "2s"],
         "--mlr-initial 2000ms is longer than --trial 1000ms"),
        (["--mode", "fast"], "mlr, y1564, addr-capacity, addr-learning, conn-rate, conn-capacity, mesh, conn-load or conn-teardown (--help lists what each does)"),
        (["--mode", "sweep", "--sizes", "64,512,64"], "64 is listed twice"),
    ]:
        wrtest.refused(c, ["net_null0"], opts, msg)
    c.done()


def methods_stalled():
    """A search trial that sends nothing (1 pps for 100 ms) is a failed run,
    exit 1 with the reason. The old mapping took the search's bare -EINVAL
    for bad usage: exit 2, with an unset message buffer printed."""
    c = Checker("methods_stalled")
    r = wrtest.run([], ["--ring-pairs", "1", "--tx-ports", "0", "--rx-ports", "1",
                        "--mode", "throughput", "--rate", "1pps", "--trial", "100ms",
                        "--quiet"], want_json=False)
    c.eq(r.rc, 1, "exit code (a failed run, not bad usage)")
    c.true("trial at 1 pps sent no frame" in r.err, "says why: %r" % r.err[-300:])
    c.done()



def drain_never_idle():
    """Between trials the RX queues are drained until they stay empty; a
    source that never runs dry (net_null's RX makes a burst at every poll)
    held the run in that drain for ever (and SIGTERM could not end it).
    Now the drain ends after the grace period: the stalled search on a
    net_null port (TX and RX) ends like on a ring pair, exit 1 with why."""
    c = Checker("drain_never_idle")
    r = wrtest.run(["net_null0"], ["--mode", "throughput", "--rate", "1pps",
                                   "--trial", "100ms", "--quiet"], want_json=False)
    c.eq(r.rc, 1, "exit code (a failed run)")
    c.true("trial at 1 pps sent no frame" in r.err, "says why: %r" % r.err[-300:])
    c.done()


CASES = cases.by_name(mode_mlr, mlr_generator_capped, lat_under_load, lat_without_stamps,
                      methods_bad, methods_stalled,
                      drain_never_idle)

if __name__ == "__main__":
    cases.main(CASES)
