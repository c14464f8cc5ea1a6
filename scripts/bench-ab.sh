#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Two wirerate programs (before / after a change) on one benchmark case,
# alternating, by the CPU time the worker thread got per frame: perf
# samples the worker's on-CPU time (software clock, 1 kHz: works in VMs
# without hardware counters), wirerate's JSON counts the frames. Time the
# worker spent waiting for a CPU is not counted, so the figure holds on a
# loaded machine better than a rate does (caches others evict still count).
set -euo pipefail
. "$(dirname "$0")/lib/setup.sh"

usage() {
	cat <<USAGE
Usage: $0 CASE RUNS PROGRAM...
  CASE     rx64 (net_null RX, frames of zeros: all foreign), ring64
           (net_ring loopback: TX and RX of own frames on one core),
           ring64seq (the same with --stamp seq: no latency counted),
           tx64, tx84 (IPv4), tx84v6 (IPv6, UDP checksum per frame)
  RUNS     rounds; each round runs every PROGRAM once, the order reversed
           every other round
Prints per run: samples (ms on the CPU), frames, ns of worker CPU per
frame; then the median per program. Needs root; installs linux-perf and
reserves hugepages (runs on 4 KiB pages where it cannot).
USAGE
}

[ $# -ge 3 ] || { usage >&2; exit 2; }
case=$1 runs=$2
shift 2
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "RUNS $runs: expected a whole number >= 1" >&2; exit 2; }
case $case in
rx64) vdev=net_null0,size=60 opts="--tx-ports none --size 64" key=rx_pkts ;;
ring64) vdev=net_ring0 opts="--size 64" key=rx_pkts ;;
ring64seq) vdev=net_ring0 opts="--size 64 --stamp seq" key=rx_pkts ;;
tx64) vdev=net_null0 opts="--rx-ports none --size 64" key=tx_pkts ;;
tx84) vdev=net_null0 opts="--rx-ports none --size 84" key=tx_pkts ;;
tx84v6) vdev=net_null0 opts="--rx-ports none --ipv6 --size 84" key=tx_pkts ;;
*) echo "CASE $case: expected rx64, ring64, ring64seq, tx64, tx84 or tx84v6" >&2; exit 2 ;;
esac
wr_need_root
wr_install linux-perf
wr_hugepages
# Hugepages where there are (as scripts/lib/bench.py runs): with 4 KiB pages
# the TLB misses of the pool's mbufs hide most of the worker's own cost.
eal=$(wr_eal_opts)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wr_log "load average now: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
progs=("$@")
for ((r = 1; r <= runs; r++)); do
	order=("${progs[@]}")
	((r % 2 == 1)) || mapfile -t order < <(printf '%s\n' "${progs[@]}" | tac)
	for p in "${order[@]}"; do
		# shellcheck disable=SC2086 # eal and opts are words
		perf record -q -F 1000 -o "$tmp/s.data" -- "$p" $eal --file-prefix "wrab$$" \
			--vdev "$vdev" -- $opts --duration 4s --plain --json "$tmp/s.json" \
			>"$tmp/out" 2>&1 || wr_die "$p failed: $(tail -5 "$tmp/out")"
		s=$(perf script -i "$tmp/s.data" --comms rte-worker-1 2>/dev/null | wc -l)
		python3 - "$p" "$r" "$s" "$tmp/s.json" "$key" <<'PY'
import json, sys
p, r, s, path, key = sys.argv[1:]
f = json.load(open(path))["totals"][0][key]
print("%s run %s: %s samples, %d frames, %.2f ns/frame" % (p, r, s, f, int(s) * 1e6 / f))
PY
	done
done | tee "$tmp/runs"
python3 - "$tmp/runs" <<'PY'
import statistics, sys
v = {}
for line in open(sys.argv[1]):
    p, rest = line.split(" run ", 1)
    v.setdefault(p, []).append(float(rest.split(", ")[-1].split()[0]))
for p, x in v.items():
    print("%s: median %.2f ns/frame over %d runs" % (p, statistics.median(x), len(x)))
PY
wr_log "load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
