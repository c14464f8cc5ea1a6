#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# wirerate against dpdk-testpmd (txonly / rxonly) on the same net_null ports,
# one worker core, 64 and 1518 bytes, alternating runs; then the cost of the
# test header (--stamp) and RX keeping up on a net_ring loopback. Prints a
# Markdown table (medians, ratios, TSC cycles per packet) and writes JSON.
set -euo pipefail
. "$(dirname "$0")/lib/setup.sh"

usage() {
	cat <<USAGE
Usage: $0 [--runs N] [--seconds S] [--cases LIST] [--out DIR]
       [--min-share F] [--attempts N] [--workers LIST] [--link KIND]
  --runs N       runs of each program per figure, alternating [5]
  --seconds S    length of each run, >= 2 [3]
  --cases LIST   comma-separated, from tx64,tx1518,rx64,rx1518,stamp,traffic,
                 ring64,ring1518,rxmemif64,rxmemif1518,replay,scale,stacks,
                 nginx,conn_cps,conn_hold,conn_memif,conn_bulk,
                 conn_bulk_memif,conn_tbf [all]
  --out DIR      where bench.json and bench.md go [build-bench]
  --min-share F  repeat a run whose worker thread got less than this share
                 of its CPU (other processes took the rest) [0.5]
  --attempts N   tries per run at most, the best share kept [3]
  --workers LIST worker lcore counts of the scale case, e.g. 1,2,4,8,15 [1,2]
  --link KIND    shared: DPDK's shared libraries, as Debian's package links
                 them; static: its static libraries in the program
                 (-Ddpdk_link=static, built in build-bench-static/) [shared]
Installs what is missing (apt), reserves hugepages, builds a release build
in build-bench/ (or build-bench-static/), then measures. Needs both CPUs:
run it on a quiet machine (the load average before and after is part of
the report).
USAGE
}

runs=5
seconds=3
cases=tx64,tx1518,rx64,rx1518,stamp,ring64,ring1518,traffic,rxmemif64,rxmemif1518,replay,scale,stacks,nginx,conn_cps,conn_hold,conn_memif,conn_bulk,conn_bulk_memif,conn_tbf
out=
min_share=0.5
attempts=3
workers=1,2
link=shared
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=${2:?--runs needs a value}; shift 2 ;;
	--seconds) seconds=${2:?--seconds needs a value}; shift 2 ;;
	--cases) cases=${2:?--cases needs a value}; shift 2 ;;
	--out) out=${2:?--out needs a value}; shift 2 ;;
	--min-share) min_share=${2:?--min-share needs a value}; shift 2 ;;
	--attempts) attempts=${2:?--attempts needs a value}; shift 2 ;;
	--workers) workers=${2:?--workers needs a value}; shift 2 ;;
	--link) link=${2:?--link needs a value}; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "--runs $runs: expected a whole number >= 1" >&2; exit 2; }
case $link in
shared) bench_dir=build-bench ;;
static) bench_dir=build-bench-static ;;
*) echo "--link $link: expected shared or static" >&2; exit 2 ;;
esac

# A build of its own, release, so the test build's settings never leak in.
WR_BUILD=${WR_BENCH_BUILD:-$WR_ROOT/$bench_dir}
out=${out:-$WR_BUILD}

wr_need_root
# dpdk (in WR_PACKAGES) provides dpdk-testpmd; coreutils provides stdbuf;
# the nginx case drives nginx and wrk, and ethtool on its veth.
wr_install "${WR_PACKAGES[@]}" coreutils nginx-light wrk ethtool
command -v dpdk-testpmd >/dev/null || wr_die "dpdk-testpmd not found (package dpdk)"
wr_hugepages
wr_build -Dbuildtype=release -Dwerror=true -Ddpdk_link="$link"
mkdir -p "$out"
wr_log "load average now: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
wr_log "benchmark: $runs runs x ${seconds}s per program and case"
exec python3 "$WR_ROOT/scripts/lib/bench.py" --wirerate "$WR_BUILD/app/wirerate" \
	--runs "$runs" --seconds "$seconds" --cases "$cases" \
	--min-share "$min_share" --attempts "$attempts" --workers "$workers" \
	--json "$out/bench.json" --md "$out/bench.md"
