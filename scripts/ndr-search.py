#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""An example harness: its own NDR (or PDR) binary search through a
running `wirerate serve`, one run per trial, with the Python client
(python/wirerate, docs/api.md). The server keeps EAL and its ports; this
script only decides the next rate.

  scripts/ndr-search.py --socket /run/wr.sock --lo 100k --hi 10M \\
      --resolution 10k --trial 2s --opt tx-ports=0 --opt rx-ports=1

A trial passes when its loss is at most --pdr percent (0: none, the NDR)
and each TX port offered at least --offered percent of the rate (a
generator that could not offer the load says nothing of the device). Prints each trial and the result; exit
0 with the rate found, 1 when even --lo fails, 2 on bad usage."""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "python"))
sys.path.insert(0, "/usr/share/wirerate/python")
import wirerate  # noqa: E402

PREFIX = {"k": 1e3, "M": 1e6, "G": 1e9}


def pps(text):
    """'250k', '1.5M', '2000' -> frames per second."""
    mult = PREFIX.get(text[-1:], 1.0)
    try:
        return float(text[:-1] if mult != 1.0 else text) * mult
    except ValueError:
        raise argparse.ArgumentTypeError("%s: a rate in frames/s (250k, 1.5M)" % text)


def option(text):
    """key=value -> (key, value), the value as JSON when it reads so."""
    key, eq, value = text.partition("=")
    if not eq or not key:
        raise argparse.ArgumentTypeError("%s: expected key=value" % text)
    return key, value


def trial(client, opts, rate, a):
    """One run at rate; (passed, loss %)."""
    doc = client.run(dict(opts, rate="%.0fpps" % rate, duration=a.trial),
                     check=False)
    acc = doc["accounting"]
    sent, lost = acc["sent_pkts"], acc["lost_pkts"]
    loss = 100.0 * lost / sent if sent else 100.0
    reached = all(t["rate"]["achieved_pps"] >=
                  t["rate"]["requested_pps"] * a.offered / 100.0
                  for t in doc["totals"] if t.get("rate") and t["tx_pkts"])
    ok = sent > 0 and loss <= a.pdr and reached
    print("trial %.0f pps: sent %d lost %d (%.4g%%)%s -> %s" % (
        rate, sent, lost, loss, "" if reached else ", rate not reached",
        "pass" if ok else "fail"), flush=True)
    return ok, loss


def search(client, opts, a):
    """Binary search between lo and hi: the highest passing rate, or None."""
    lo, hi = a.lo, a.hi
    if not trial(client, opts, lo, a)[0]:
        return None
    if trial(client, opts, hi, a)[0]:
        return hi
    while hi - lo > a.resolution:
        mid = (lo + hi) / 2
        if trial(client, opts, mid, a)[0]:
            lo = mid
        else:
            hi = mid
    return lo


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--socket", required=True, help="the server's control socket")
    ap.add_argument("--lo", type=pps, required=True, help="lowest rate, frames/s")
    ap.add_argument("--hi", type=pps, required=True, help="highest rate, frames/s")
    ap.add_argument("--resolution", type=pps, required=True,
                    help="stop when the bounds are this close, frames/s")
    ap.add_argument("--trial", default="2s", help="each trial's duration [2s]")
    ap.add_argument("--pdr", type=float, default=0.0,
                    help="loss accepted, percent [0: NDR]")
    ap.add_argument("--offered", type=float, default=95.0,
                    help="percent of the rate each TX port must reach for "
                    "a trial to count [95]")
    ap.add_argument("--opt", type=option, action="append", default=[],
                    help="a run option key=value, repeatable")
    a = ap.parse_args()
    if not 0 < a.lo < a.hi or a.resolution <= 0:
        ap.error("want 0 < --lo < --hi and --resolution > 0")
    try:
        with wirerate.Client(a.socket) as client:
            found = search(client, dict(a.opt), a)
    except wirerate.Error as e:
        print("ndr-search: %s" % e, file=sys.stderr)
        return 1
    if found is None:
        print("%s: even %.0f pps fails" % ("PDR" if a.pdr else "NDR", a.lo))
        return 1
    print("%s: %.0f pps" % ("PDR" if a.pdr else "NDR", found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
