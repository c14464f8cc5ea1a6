#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The kernel path next to the DPDK path, on the same veth pair between two
# network namespaces: iperf3 TCP, iperf3 UDP and wirerate (net_af_packet on
# both ends, sender and receiver in separate processes, balance checked by
# `wirerate merge`) in one table. Everything it creates is removed on exit.
#
# Usage: scripts/kernel-compare.sh [--duration S] [--sizes 64,1518]
#   --duration S   seconds per measurement [3]
#   --sizes LIST   frame sizes with FCS for the UDP rows, 64..1518 [64,1518]
# Environment: WR_WIRERATE (the binary; default build/app/wirerate, built
# when missing).
set -euo pipefail
. "$(dirname "$0")/lib/setup.sh"

duration=3
sizes=64,1518
while [ $# -gt 0 ]; do
	case $1 in
	--duration) duration=${2:?--duration needs seconds}; shift 2 ;;
	--sizes) sizes=${2:?--sizes needs a list}; shift 2 ;;
	-h|--help) sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "error: $1: unknown option (see --help)" >&2; exit 2 ;;
	esac
done
[[ $duration =~ ^[0-9]+$ ]] && [ "$duration" -ge 1 ] ||
	{ echo "error: --duration $duration: whole seconds, at least 1" >&2; exit 2; }
for s in ${sizes//,/ }; do
	[[ $s =~ ^[0-9]+$ ]] && [ "$s" -ge 64 ] && [ "$s" -le 1518 ] ||
		{ echo "error: --sizes: $s is not a frame size 64..1518" >&2; exit 2; }
done

wr_need_root
wr_install iperf3 iproute2 python3
WIRERATE=${WR_WIRERATE:-$WR_BUILD/app/wirerate}
if [ ! -x "$WIRERATE" ]; then
	wr_hugepages
	wr_build
fi

tag=wrkc$$
nsa=${tag}A nsb=${tag}B va=${tag}a vb=${tag}b
mac_a=02:00:00:00:0a:01 mac_b=02:00:00:00:0b:01
tmp=$(mktemp -d /tmp/wirerate-kc.XXXXXX)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	ip netns del "$nsa" 2>/dev/null || true
	ip netns del "$nsb" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# Two namespaces, IPv6 off (its chatter would be foreign frames), one veth.
for ns in "$nsa" "$nsb"; do
	ip netns add "$ns"
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1
	ip -n "$ns" link set lo up
done
ip link add "$va" type veth peer name "$vb"
ip link set "$va" netns "$nsa"
ip link set "$vb" netns "$nsb"
ip -n "$nsa" link set "$va" address $mac_a mtu 1500 up
ip -n "$nsb" link set "$vb" address $mac_b mtu 1500 up
ip -n "$nsa" addr add 10.99.0.1/24 dev "$va"
ip -n "$nsb" addr add 10.99.0.2/24 dev "$vb"

# Sender on CPU 1, receiver on CPU 0, for iperf3 as for the two DPDK
# processes below (each wirerate's stats core sleeps on the other CPU).
rows=()
row() { rows+=("$(printf '| %-8s | %-4s | %-22s | %7s | %8s | %9s | %14s | %7s |' "$@")"); }

iperf() {
	local out=$1; shift
	ip netns exec "$nsb" iperf3 -s -1 -A 0 >"$tmp/server.log" 2>&1 &
	local srv=$!
	pids+=("$srv")
	sleep 0.5
	ip netns exec "$nsa" iperf3 -c 10.99.0.2 -A 1 -t "$duration" -J \
		"$@" >"$out" || true
	wait "$srv" 2>/dev/null || true
}

wr_log "iperf3 TCP, ${duration}s"
iperf "$tmp/tcp.json"
row iperf3 TCP "kernel socket, veth" "mtu1500" "-" "-" "$(python3 - "$tmp/tcp.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if "error" in d: sys.exit("iperf3: " + d["error"])
print("%.3f" % (d["end"]["sum_received"]["bits_per_second"] / 1e9))
PY
)" "-"

for size in ${sizes//,/ }; do
	wr_log "iperf3 UDP, $size-byte frames, ${duration}s"
	iperf "$tmp/udp$size.json" -u -b 0 -l $((size - 46))
	row iperf3 UDP "kernel socket, veth" "$size" $(python3 - "$tmp/udp$size.json" "$size" <<'PY'
import json, sys
d, size = json.load(open(sys.argv[1])), int(sys.argv[2])
if "error" in d: sys.exit("iperf3: " + d["error"])
r = d["end"]["sum_received"]
rx = r["packets"] - r["lost_packets"]
print("%.3f %.3f %.3f %.2f" % (rx / r["seconds"] / 1e6, rx * size * 8 / r["seconds"] / 1e9,
                               rx * (size - 46) * 8 / r["seconds"] / 1e9, r["lost_percent"]))
PY
)
done

eal="--no-pci --log-level=*:error"
if [ "$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)" -ge 128 ]; then
	eal="$eal --in-memory"
else
	eal="$eal --no-huge -m 512"
fi
for size in ${sizes//,/ }; do
	wr_log "wirerate af_packet, $size-byte frames, ${duration}s"
	ip netns exec "$nsb" "$WIRERATE" -l 0,1 --main-lcore 1 $eal --file-prefix ${tag}b \
		--vdev net_af_packet0,iface=$vb,framecnt=8192 -- --tx-ports none \
		--start-on-rx --idle-timeout 1s --size "$size" --quiet \
		--json "$tmp/rcv$size.json" >"$tmp/rcv.log" 2>&1 &
	rcv=$!
	pids+=("$rcv")
	for _ in $(seq 300); do
		grep -q 'waiting for the first frame' "$tmp/rcv.log" && break
		kill -0 "$rcv" 2>/dev/null || break
		sleep 0.1
	done
	grep -q 'waiting for the first frame' "$tmp/rcv.log" ||
		wr_die "the wirerate receiver did not start: $(tail -5 "$tmp/rcv.log")"
	ip netns exec "$nsa" "$WIRERATE" -l 0,1 $eal --file-prefix ${tag}a \
		--vdev net_af_packet0,iface=$va,framecnt=8192 -- --rx-ports none \
		--duration "$duration" --size "$size" --src-mac $mac_a --dst-mac $mac_b \
		--quiet --json "$tmp/snd$size.json" >"$tmp/snd.log" 2>&1 ||
		wr_die "the wirerate sender failed: $(tail -5 "$tmp/snd.log")"
	wait "$rcv" || wr_die "the wirerate receiver failed: $(tail -5 "$tmp/rcv.log")"
	"$WIRERATE" merge "$tmp/snd$size.json" "$tmp/rcv$size.json" --quiet \
		--json "$tmp/m$size.json" >/dev/null ||
		wr_die "wirerate merge: the balance of the $size-byte run does not close"
	row wirerate UDP "DPDK af_packet, veth" "$size" $(python3 - "$tmp/rcv$size.json" \
		"$tmp/m$size.json" "$size" <<'PY'
import json, sys
r, m = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
size = int(sys.argv[3])
t = r["totals"][0]
print("%.3f %.3f %.3f %.2f" % (t["rx_mpps"], t["rx_gbps_l2"],
                               t["rx_mpps"] * 1e6 * (size - 46) * 8 / 1e9,
                               100 * m["totals"]["loss_ratio"]))
PY
)
done

echo
echo "Kernel path vs DPDK path on one veth pair, ${duration}s each ($(nproc) CPUs;"
echo "sender on CPU 1, receiver on CPU 0; rates as received; payload: UDP's or TCP's):"
printf '| %-8s | %-4s | %-22s | %7s | %8s | %9s | %14s | %7s |\n' tool prot path "frame B" \
	"Mpps" "Gbit/s L2" "Gbit/s payload" "lost %"
echo "|----------|------|------------------------|---------|----------|-----------|----------------|---------|"
printf '%s\n' "${rows[@]}"
