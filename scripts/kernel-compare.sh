#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The kernel path next to the DPDK path, on the same veth pair between two
# network namespaces: iperf3 TCP, iperf3 UDP and wirerate (net_af_packet on
# both ends, sender and receiver in separate processes, balance checked by
# `wirerate merge`) in one table; and TCP bulk transfers: iperf3, wirerate's
# client to a kernel socket, wirerate's client to wirerate's server, on 1
# and more connections, every byte counted by the receiver. Everything it
# creates is removed on exit.
#
# Usage: scripts/kernel-compare.sh [--duration S] [--sizes 64,1518]
#                                  [--conns 1,4]
#   --duration S   seconds per measurement [3]
#   --sizes LIST   frame sizes with FCS for the UDP rows, 64..1518 [64,1518]
#   --conns LIST   connections at once for the TCP rows, 1..64 [1,4]
# Environment: WR_WIRERATE (the binary; default build/app/wirerate, built
# when missing).
set -euo pipefail
. "$(dirname "$0")/lib/setup.sh"

duration=3
sizes=64,1518
conns=1,4
while [ $# -gt 0 ]; do
	case $1 in
	--duration) duration=${2:?--duration needs seconds}; shift 2 ;;
	--sizes) sizes=${2:?--sizes needs a list}; shift 2 ;;
	--conns) conns=${2:?--conns needs a list}; shift 2 ;;
	-h|--help) sed -n '3,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "error: $1: unknown option (see --help)" >&2; exit 2 ;;
	esac
done
[[ $duration =~ ^[0-9]+$ ]] && [ "$duration" -ge 1 ] ||
	{ echo "error: --duration $duration: whole seconds, at least 1" >&2; exit 2; }
for s in ${sizes//,/ }; do
	[[ $s =~ ^[0-9]+$ ]] && [ "$s" -ge 64 ] && [ "$s" -le 1518 ] ||
		{ echo "error: --sizes: $s is not a frame size 64..1518" >&2; exit 2; }
done
for n in ${conns//,/ }; do
	[[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] && [ "$n" -le 64 ] ||
		{ echo "error: --conns: $n is not a count of connections 1..64" >&2; exit 2; }
done

wr_need_root
wr_install iperf3 iproute2 python3 ethtool
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
row() { rows+=("$(printf '| %-8s | %-4s | %-28s | %7s | %8s | %9s | %14s | %7s |' "$@")"); }

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

for n in ${conns//,/ }; do
	wr_log "iperf3 TCP, $n connection(s), ${duration}s"
	iperf "$tmp/tcp$n.json" -P "$n"
	row iperf3 TCP "kernel socket, veth, $n" "mtu1500" "-" "-" "$(python3 - "$tmp/tcp$n.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if "error" in d: sys.exit("iperf3: " + d["error"])
print("%.3f" % (d["end"]["sum_received"]["bits_per_second"] / 1e9))
PY
)" "-"
done

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

# TCP bulk from wirerate's client (af_packet in A): to a kernel socket in B
# that counts what it read per connection, then to wirerate's server on
# af_packet in B. The receiver's count is the figure; the client's count of
# bytes sent must equal it (every connection ends with its FIN handshake).
cat >"$tmp/sink.py" <<'PY'
import json, os, socket, sys, threading
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("10.99.0.2", 5201))
srv.listen(64)
counts, lock = [], threading.Lock()
def drain(c):
    n = 0
    while True:
        b = c.recv(1 << 20)
        if not b:
            break
        n += len(b)
    c.close()
    with lock:
        counts.append(n)
        with open(sys.argv[1] + ".tmp", "w") as f:
            json.dump(counts, f)
        os.replace(sys.argv[1] + ".tmp", sys.argv[1])
while True:
    c, _ = srv.accept()
    threading.Thread(target=drain, args=(c,), daemon=True).start()
PY
# The kernel's segments to an af_packet reader carry a checksum left to an
# offload that never happens: the kernel computes it instead. A's kernel
# gives up its address: it would answer our connections' segments by RST.
ip netns exec "$nsb" ethtool -K "$vb" tx off >/dev/null
ip -n "$nsa" addr flush dev "$va"
client() {   # N OUT: wirerate's bulk client in A for the run's duration
	ip netns exec "$nsa" "$WIRERATE" -l 0,1 $eal --file-prefix ${tag}a \
		--vdev net_af_packet0,iface=$va,framecnt=8192 -- --conn client \
		--conn-app bulk --port-ip 0=10.99.0.1/24 --conn-server 10.99.0.2:5201 \
		--conn-concurrency "$1" --conn-count "$1" --duration "$duration" \
		--quiet --json "$2" >"$tmp/cli.log" 2>&1 ||
		wr_die "the wirerate client failed: $(tail -5 "$tmp/cli.log")"
}
tcp_row() {  # PATH N CLIENT.json RECEIVER-KIND RECEIVER-FILE
	row wirerate TCP "$1, $2" "mtu1500" "-" "-" "$(python3 - "$3" "$4" "$5" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["connections"]
b = c["books"]
if sys.argv[2] == "sink":
    got = sum(json.load(open(sys.argv[3])))
else:
    got = json.load(open(sys.argv[3]))["connections"]["books"]["l7_rx_bytes"]
if b["failed_total"] or b["open"] or got != b["l7_tx_bytes"]:
    sys.exit("books: %d failed, %d open, %d bytes sent, %d received"
             % (b["failed_total"], b["open"], b["l7_tx_bytes"], got))
print("%.3f" % (got * 8 / c["duration_s"] / 1e9))
PY
)" "-"
}
for n in ${conns//,/ }; do
	wr_log "wirerate TCP to a kernel socket, $n connection(s), ${duration}s"
	rm -f "$tmp/sink$n.json"
	ip netns exec "$nsb" taskset -c 0 python3 "$tmp/sink.py" "$tmp/sink$n.json" &
	sink=$!
	pids+=("$sink")
	for _ in $(seq 50); do
		ip netns exec "$nsb" ss -Hltn 'sport = :5201' | grep -q . && break
		sleep 0.1
	done
	client "$n" "$tmp/cli$n.json"
	for _ in $(seq 50); do
		[ -f "$tmp/sink$n.json" ] &&
			[ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' \
				"$tmp/sink$n.json")" -ge "$n" ] && break
		sleep 0.1
	done
	kill "$sink" 2>/dev/null || true
	wait "$sink" 2>/dev/null || true
	[ -f "$tmp/sink$n.json" ] || wr_die "the kernel socket counted no connection"
	tcp_row "DPDK af_packet -> kernel" "$n" "$tmp/cli$n.json" sink "$tmp/sink$n.json"
done
ip -n "$nsb" addr flush dev "$vb"   # B's kernel too, for wirerate's server
for n in ${conns//,/ }; do
	wr_log "wirerate TCP to wirerate's server, $n connection(s), ${duration}s"
	ip netns exec "$nsb" "$WIRERATE" -l 0,1 --main-lcore 1 $eal --file-prefix ${tag}b \
		--vdev net_af_packet0,iface=$vb,framecnt=8192 -- --conn server \
		--conn-app bulk --conn-listen 5201 --port-ip 0=10.99.0.2/24 \
		--conn-concurrency 64 --duration 0 --json "$tmp/srv$n.json" \
		>"$tmp/srv.log" 2>&1 &
	srv=$!
	pids+=("$srv")
	for _ in $(seq 300); do
		grep -q '^  lcore' "$tmp/srv.log" && break
		kill -0 "$srv" 2>/dev/null || break
		sleep 0.1
	done
	client "$n" "$tmp/dcli$n.json"
	kill -INT "$srv" 2>/dev/null || true
	wait "$srv" || wr_die "the wirerate server failed: $(tail -5 "$tmp/srv.log")"
	tcp_row "DPDK af_packet -> DPDK" "$n" "$tmp/dcli$n.json" wirerate "$tmp/srv$n.json"
done

echo
echo "Kernel path vs DPDK path on one veth pair, ${duration}s each ($(nproc) CPUs;"
echo "sender on CPU 1, receiver on CPU 0; rates as received; payload: UDP's or TCP's;"
echo "TCP path: after the comma, connections at once):"
printf '| %-8s | %-4s | %-28s | %7s | %8s | %9s | %14s | %7s |\n' tool prot path "frame B" \
	"Mpps" "Gbit/s L2" "Gbit/s payload" "lost %"
echo "|----------|------|------------------------------|---------|----------|-----------|----------------|---------|"
printf '%s\n' "${rows[@]}"
