#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Command one: install what is missing, reserve hugepages, build, and run a
# short demo on virtual ports (no NIC needed): two ports wired back to back,
# each sending to the other, live per-port Mpps/Gbps, then the summary.
set -euo pipefail
. "$(dirname "$0")/lib/setup.sh"

usage() {
	cat <<USAGE
Usage: $0 [--duration T] [--size BYTES]
Installs wirerate's dependencies (apt), reserves hugepages (and says how
much, and how to give them back), builds, and runs a demo on a pair of ring
ports with two lcores on the first two CPUs it may use (-l 0,1 on most
machines). Defaults: --duration 5s --size 64.
USAGE
}

duration=5s
size=64
while [ $# -gt 0 ]; do
	case $1 in
	--duration) duration=${2:?--duration needs a value}; shift 2 ;;
	--size) size=${2:?--size needs a value}; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done

wr_need_root
wr_install "${WR_PACKAGES[@]}"
wr_hugepages
wr_build
eal=$(wr_eal_opts)
wr_log "demo: two ring ports back to back, $size-byte frames, $duration (EAL: $eal)"
# shellcheck disable=SC2086
exec "$WR_BUILD/app/wirerate" $eal -- --ring-pairs 1 \
	--duration "$duration" --size "$size" --json "$WR_BUILD/quickstart.json"
