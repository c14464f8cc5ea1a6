#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR/../../scripts
# The 'lab' suite's RSS case: a NIC's receive side scaling steering TCP
# connections to their workers. One guest (the lab's, scripts/lab/) with
# two virtio-net NICs of 2 queue pairs each, RSS on (QEMU's software RSS
# with the key and table the guest's PMD programs), on multi-queue taps
# joined by a bridge in a namespace where nginx listens. Runs, each with
# one worker lcore a queue pair:
#   nginx:  a wirerate client on NIC A to nginx (the kernel's TCP);
#   both:   a client on A to a wirerate server on B, through the bridge.
# Checks: every connection completed, none failed, each worker of each
# side completed some (the hash spread them), no segment reached a worker
# that did not own its connection; nginx's access log holds a line a
# connection; the PMD's own per-queue RX counters equal what each worker
# received. TAP output.
set -euo pipefail

readonly CONNS=300
usage() {
	cat <<USAGE
Usage: ${0##*/} --bin WIRERATE --work DIR
Runs the lab's RSS case; the kernel cache and results go under DIR.
USAGE
}

bin="" work_root=""
while [ "$#" -gt 0 ]; do
	case "$1" in
	--work) work_root=$2; shift ;;
	--bin) bin=$2; shift ;;
	-h | --help) usage; exit 0 ;;
	*) echo "${0##*/}: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
	shift
done
if [ ! -x "$bin" ] || [ -z "$work_root" ]; then
	usage >&2
	exit 2
fi

LAB_DIR=$(cd "$(dirname "$0")/../../scripts" && pwd)
readonly PROG=rss-test
readonly PMDS="bus_pci mempool_ring net_virtio"
die() { echo "# $PROG: error: $*" >&2; echo "Bail out! $*"; exit 1; }
say() { [ "$quiet" -eq 1 ] || echo "# $*" >&2; }
# What the lab's host.sh and boot.sh read.
quiet=0 keep_work=0 install=1 accel=auto smp=2 mem_mb=1024
cache_dir=$work_root/lab-cache
APP=wirerate
declare -a QEMU_NICS=()
# shellcheck source=lab/host.sh
. "$LAB_DIR/lab/host.sh"
# shellcheck source=lab/boot.sh
. "$LAB_DIR/lab/boot.sh"
# shellcheck source=lab/runs.sh
. "$LAB_DIR/lab/runs.sh"

NETNS=wrrss$$
readonly BR=rssbr TAP_A=rssa TAP_B=rssb
readonly NGX_IP=198.18.0.1 CLI_IP=198.18.0.2 SRV_IP=198.18.0.3
ngx_dir=""
in_ns() { ip netns exec "$NETNS" "$@"; }

bed_down() {
	[ -z "$ngx_dir" ] || [ ! -s "$ngx_dir/nginx.pid" ] ||
		kill "$(cat "$ngx_dir/nginx.pid")" 2>/dev/null || true
	ip netns del "$NETNS" 2>/dev/null || true
	cleanup
}

# The namespace: two multi-queue taps on a bridge holding nginx's address.
bed_up() {
	local t
	ip netns add "$NETNS" || die "cannot create network namespace $NETNS"
	in_ns ip link set lo up
	in_ns ip link add "$BR" type bridge
	for t in "$TAP_A" "$TAP_B"; do
		in_ns ip tuntap add name "$t" mode tap multi_queue
		in_ns ip link set "$t" master "$BR"
		in_ns ip link set "$t" up
	done
	in_ns ip addr add "$NGX_IP/24" dev "$BR"
	in_ns ip link set "$BR" up
	ngx_dir=$work/nginx
	mkdir -p "$ngx_dir"
	cat >"$ngx_dir/nginx.conf" <<NGX
worker_processes 1;
daemon on;
pid $ngx_dir/nginx.pid;
error_log $ngx_dir/error.log;
events { worker_connections 1024; }
http {
    access_log $ngx_dir/access.log;
    client_body_temp_path $ngx_dir/body;
    proxy_temp_path $ngx_dir/proxy;
    fastcgi_temp_path $ngx_dir/fastcgi;
    uwsgi_temp_path $ngx_dir/uwsgi;
    scgi_temp_path $ngx_dir/scgi;
    server {
        listen $NGX_IP:80 backlog=1024;
        location / { return 200 "wirerate\\n"; }
    }
}
NGX
	in_ns nginx -c "$ngx_dir/nginx.conf" -e "$ngx_dir/error.log" ||
		die "nginx did not start (see $ngx_dir/error.log)"
}

# The guest's runs: NAME<TAB>COMMAND (guest-init.sh runs each in turn).
write_runs() {
	local eal="-n 1 --file-prefix lab --log-level=*:warning"
	local conn="--txq 2 --rxq 2 --conn-count $CONNS --conn-concurrency 32 --conn-time-wait 1ms --rxd 1024 --quiet"
	# $OUT is the guest's (guest-init.sh), expanded there.
	# shellcheck disable=SC2016
	{
		printf 'nginx\twirerate --lcores 0@0,1@0,2@1 %s -a 0000:00:04.0 -- --conn client --port-ip 0=%s/24 --conn-server %s:80 %s --json $OUT/result.json\n' \
			"$eal" "$CLI_IP" "$NGX_IP" "$conn"
		printf 'both\twirerate --lcores 0@0,1@0,2@1,3@0,4@1 %s -a 0000:00:04.0 -a 0000:00:05.0 -- --conn 0=client,1=server --port-ip 0=%s/24 --port-ip 1=%s/24 --conn-server %s:80 %s --json $OUT/result.json\n' \
			"$eal" "$CLI_IP" "$SRV_IP" "$SRV_IP" "$conn"
	} >"$work/runs.list"
}

boot_rss_guest() {
	local i t
	QEMU_NICS=()
	for i in 0 1; do
		t=$TAP_A
		[ "$i" = 0 ] || t=$TAP_B
		QEMU_NICS+=(-netdev "tap,id=n$i,ifname=$t,script=no,downscript=no,queues=2,vhost=off"
			-device "virtio-net-pci,netdev=n$i,mq=on,rss=on,vectors=6,rx_queue_size=1024,mac=52:54:00:00:00:$((20 + i)),addr=0x$((4 + i))")
	done
	start_qemu "" in_ns
	qemu_pid=$QEMU_PID
	wait "$qemu_pid" || true
	qemu_pid=""
}

n=0 failed=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi
}
check() {
	local desc=$1
	shift
	if "$@"; then ok 0 "$desc"; else ok 1 "$desc"; fi
}
jqr() { jq -r "$@"; }
# Whether "A,B" are two counts above 0: both workers had some.
both_some() { [[ "$1" =~ ^[1-9][0-9]*,[1-9][0-9]*$ ]]; }

# The checks of run $1 (its result in $out_dir/$1); $2: "server" when
# the run's server is wirerate's (port 1), "" for nginx.
check_run() {
	local r=$out_dir/$1/result.json got nq=4
	check "$1: the run ended with 0 (rc $(cat "$out_dir/$1/rc" 2>/dev/null))" \
		[ "$(cat "$out_dir/$1/rc" 2>/dev/null)" = 0 ]
	[ -s "$r" ] || { ok 1 "$1: result.json came back"; return; }
	got=$(jqr '.connections.books | "\(.completed) \(.failed_total) \(.open)"' "$r")
	check "$1: completed, failed, open: $got (of $CONNS)" [ "$got" = "$CONNS 0 0" ]
	got=$(jqr '[.connections.queues[].books.completed] | map(tostring) | join(",")' "$r")
	check "$1: both client workers completed some ($got)" \
		both_some "$got"
	got=$(jqr '[.connections.queues[], .connections_server.queues[]? | .books.rx_no_conn_segs] | add' "$r")
	check "$1: no segment reached a worker without its connection ($got)" [ "$got" = 0 ]
	if [ -n "$2" ]; then
		nq=8
		got=$(jqr '[.connections_server.queues[].books.closed] | map(tostring) | join(",")' "$r")
		check "$1: both server workers closed some ($got)" \
			both_some "$got"
		got=$(jqr '.connections_server.books | "\(.accepted) \(.closed) \(.open)"' "$r")
		check "$1: the server accepted, closed, open: $got" [ "$got" = "$CONNS $CONNS 0" ]
	else
		got=$(wc -l <"$ngx_dir/access.log")
		check "nginx's access log holds $got lines, one a connection ($CONNS)" [ "$got" = "$CONNS" ]
	fi
	# The PMD's per-queue counters against wirerate's, queue by queue.
	got=$(jqr '"\(.cross_checked.queues) \(.warnings | length)"' "$r")
	check "$1: queues cross-checked with the PMD's counters, warnings: $got" [ "$got" = "$nq 0" ]
	got=$(jqr '.ports[0].notes | map(select(startswith("RSS over TCP"))) | length' "$r")
	check "$1: the client port says RSS over TCP steers it" [ "$got" = 1 ]
}

# Skips (TAP) when the machine cannot do what the bed needs: a tap
# device (/dev/net/tun) or a network namespace of its own.
probe() {
	local ns=wrrssprobe$$
	if [ ! -c /dev/net/tun ]; then
		echo "1..0 # SKIP no /dev/net/tun: no tap device for QEMU's NICs"
		exit 0
	fi
	if ! ip netns add "$ns" 2>/dev/null; then
		echo "1..0 # SKIP this process cannot create a network namespace"
		exit 0
	fi
	ip netns del "$ns"
}

main() {
	probe
	mkdir -p "$work_root" "$cache_dir"
	work=$(mktemp -d "$work_root/rss-work.XXXXXX")
	out_dir=$work/out
	mkdir -p "$out_dir"
	trap bed_down EXIT
	ensure_tools
	fetch_kernel
	pick_accel
	APP_BIN=$(realpath "$bin")
	why=$(guest_usable "$APP_BIN") || die "the guest cannot run $bin: $why"
	RUN_TIMEOUT=100
	guest_timeout=250  # under the meson timeout (300 s)
	write_runs
	build_initramfs
	bed_up
	echo "1..15"
	boot_rss_guest
	collect_results || say "the guest did not finish; console: $work/console.log"
	check_run nginx ""
	check_run both server
	[ "$failed" = 0 ] || { sed 's/^/# /' "$work/console.log" >&2; exit 1; }
}

main
