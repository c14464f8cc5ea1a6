# shellcheck shell=bash
# Two guests of scripts/vnic-lab.sh (sourced), for --placement: guest A
# sends, guest B runs `wirerate serve` and counts (two-ended over --peer).
# Each guest has, per NIC model and placement, one data NIC of that model;
# the host joins A's and B's NIC of a cell in a network namespace:
#   same:      tap A --- bridge --- tap B                    (unshaped)
#   different: tap A --- bridge --- veth =tbf= veth --- bridge --- tap B
# (the veth pair is the "link between the hosts", shaped to --link-rate
# both ways). The peer protocol goes over a management e1000 NIC in each
# guest on QEMU's user-mode network: A reaches B's serve at 10.0.2.2:PORT,
# which QEMU forwards to B's 10.0.2.15:PORT.
# Reads: the options, NICS NIC_DEVICE ACCEL_ARGS KDIR work out_dir smp
# mem_mb guest_timeout quiet tcp_bytes, say die. Sets: PLACES NETNS SMP_B.

readonly PEER_PORT=9400 MGMT_SLOT=1f
declare -A PLACE_NAME=([same]="same host" [different]="different hosts")
NETNS=""

# check_places: --placement's list (same, different), --link-rate's form.
check_places() {
	local p
	IFS=, read -r -a PLACES <<<"$placement"
	[ "${#PLACES[@]}" -ge 1 ] || usage_error "--placement: same, different or both"
	for p in "${PLACES[@]}"; do
		[ -n "${PLACE_NAME[$p]:-}" ] || usage_error "--placement: unknown placement '$p' (same, different)"
	done
	[[ "$link_rate" =~ ^[0-9]+(kbit|mbit|gbit)$ ]] ||
		usage_error "--link-rate '$link_rate': a number with kbit, mbit or gbit (1gbit)"
	[ "$app" = wirerate ] || usage_error "--placement runs wirerate at both ends (not --app $app)"
	[ -z "$scenario$tx_model" ] || usage_error "--placement makes its own runs (no --scenario, --tx, --rx)"
}

# link_bps: --link-rate in bits per second.
link_bps() {
	local n=${link_rate%%[a-z]*}
	case "$link_rate" in
	*kbit) echo $((n * 1000)) ;;
	*mbit) echo $((n * 1000000)) ;;
	*gbit) echo $((n * 1000000000)) ;;
	esac
}

# Cell k (model i, placement j) is data NIC k of each guest: PCI slot 4 + k,
# MAC 52:54:00:0a:00:k (A) and 52:54:00:0b:00:k (B).
cell_pci() { printf '0000:00:%02x.0' $((4 + $1)); }
cell_mac() { printf '52:54:00:%s:00:%02x' "$1" "$2"; }

# add_run NAME FILE ARGS: a run of guest A, its wirerate options ARGS
# (ending in --peer-token) checked by wirerate check, added to FILE in work.
add_run() {
	set -f
	WR_CHECK_CPUS=0-$((smp - 1)) "$WR_BIN" check $3 "$work/token" ||
		usage_error "run $1: wirerate refused its options (above)"
	set +f
	printf '%s\twirerate %s /lab/token --json $OUT/result.json\n' "$1" "$3" >>"$work/$2"
}

# cell_tcp NAME MODEL PLACEMENT K: the cell's TCP transfer (--tcp), NAME.tcp
# in runs-tcp.list, which follows every cell's frames in runs.list (B's
# ports are set up for the connection servers once): one bulk connection
# from A's NIC of the cell (client, 198.18.K.2) to the server that B's
# serve starts on its NIC of the cell (198.18.K.1, --peer).
cell_tcp() {
	local args
	args="-l 0-1 -n 1 --file-prefix lab -a $(cell_pci "$4") -- --conn client"
	args+=" --conn-app bulk --port-ip 0=198.18.$4.2/24 --conn-server 198.18.$4.1:$TCP_PORT"
	args+=" --conn-count 1 --conn-concurrency 1 --conn-bulk $tcp_bytes"
	args+=" --duration ${TCP_LIMIT_S}s --quiet --label $2/$3"
	# Each transfer's start sets up B's data NICs for its server: under
	# TCG with two models (four NICs) about 10 s, longer than the default
	# 5 s --peer-timeout ("the far end's server was not running").
	args+=" --peer tcp:10.0.2.2:$PEER_PORT --peer-timeout ${TCP_LIMIT_S}s --peer-token"
	add_run "$1.tcp" runs-tcp.list "$args"
}

# Writes runs.list (guest A), serve.cmd (guest B) and plan.tsv from the
# models x placements, each sender's options checked by wirerate check.
# With --tcp, B's serve gives each of its data NICs an address and a
# worker (a connection server takes one a port): B gets the vCPUs.
plan_places() {
	local i j k=0 name args pcis="" ips="" traffic size=${sizes%% *}
	size=${size:-64}
	printf '%s\n' "$(head -c 24 /dev/urandom | base64)" >"$work/token"
	chmod 600 "$work/token"
	: >"$work/runs.list"
	: >"$work/runs-tcp.list"
	printf 'name\tmodel\tplacement\tsize\tcell\ttx_pci\trx_pci\ttcp\n' >"$work/plan.tsv"
	if [ -n "$count" ]; then traffic="--count $count"; else traffic="--duration ${duration:-3}s"; fi
	MAX_DUR=${duration:-3}
	MAX_DUR=${MAX_DUR%.*}
	for i in "${!NICS[@]}"; do
		for j in "${PLACES[@]}"; do
			name=${NICS[$i]}-$j
			args="-l 0-1 -n 1 --file-prefix lab -a $(cell_pci "$k") -- --rx-ports none"
			args+=" --size $size --dst-mac $(cell_mac 0b "$k") $traffic --grace 2s --quiet"
			[ -z "$rate" ] || args+=" --rate $rate"
			args+=" --label ${NICS[$i]}/$j --peer tcp:10.0.2.2:$PEER_PORT --peer-token"
			add_run "$name" runs.list "$args"
			[ "$tcp_bytes" = 0 ] || cell_tcp "$name" "${NICS[$i]}" "$j" "$k"
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "${NICS[$i]}" "$j" "$size" "$k" \
				"$(cell_pci "$k")" "$(cell_pci "$k")" "$([ "$tcp_bytes" = 0 ] && echo - || echo "$tcp_bytes")" \
				>>"$work/plan.tsv"
			pcis+=" -a $(cell_pci "$k")"
			ips+=" --port-ip $k=198.18.$k.1/24"
			k=$((k + 1))
		done
	done
	cat "$work/runs-tcp.list" >>"$work/runs.list"
	# The far end: every data NIC of B, counting only (the sender's
	# peer_open sets --tx-ports none, its frame size and grace); with
	# --tcp, an address each for the servers the TCP clients start.
	SMP_B=$smp
	if [ "$tcp_bytes" = 0 ]; then
		ips=" --tx-ports none"
	elif [ "$SMP_B" -le "$k" ]; then
		SMP_B=$((k + 1))
	fi
	echo "wirerate serve -l 0-$((SMP_B - 1)) -n 1 --file-prefix lab$pcis -- --control /tmp/wr.sock" \
		"--control-listen 10.0.2.15:$PEER_PORT --control-token /lab/token" \
		"--rxd $rxd$ips --quiet" >"$work/serve.cmd"
	NRUNS=$(($(wc -l <"$work/runs.list")))
}

# --- the host's links

# Runs a command in the lab's network namespace.
in_ns() {
	ip netns exec "$NETNS" "$@"
}

# Creates the namespace and, per cell, its bridge(s), taps and shaped veth.
links_up() {
	local k=0 i j bps burst limit
	NETNS=wrlab-$$
	ip netns add "$NETNS" || die "cannot create network namespace $NETNS (root needed)"
	in_ns ip link set lo up
	# Nothing of the host's own (IPv6 neighbour discovery) on the lab's links.
	in_ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
	bps=$(link_bps)
	burst=$((bps * 48 / 80000 > 3200 ? bps * 48 / 80000 : 3200))
	limit=$((bps * 96 / 80000 > 6400 ? bps * 96 / 80000 : 6400))
	for i in "${!NICS[@]}"; do
		for j in "${PLACES[@]}"; do
			in_ns ip tuntap add "ta$k" mode tap
			in_ns ip tuntap add "tb$k" mode tap
			in_ns ip link add "ba$k" type bridge
			in_ns ip link set "ta$k" master "ba$k"
			if [ "$j" = same ]; then
				in_ns ip link set "tb$k" master "ba$k"
			else
				in_ns ip link add "bb$k" type bridge
				in_ns ip link add "va$k" type veth peer name "vb$k"
				in_ns ip link set "va$k" master "ba$k"
				in_ns ip link set "vb$k" master "bb$k"
				in_ns ip link set "tb$k" master "bb$k"
				in_ns tc qdisc replace dev "va$k" root tbf rate "$link_rate" burst "$burst" limit "$limit"
				in_ns tc qdisc replace dev "vb$k" root tbf rate "$link_rate" burst "$burst" limit "$limit"
				in_ns ip link set "bb$k" up
				in_ns ip link set "va$k" up
				in_ns ip link set "vb$k" up
			fi
			in_ns ip link set "ba$k" up
			in_ns ip link set "ta$k" up
			in_ns ip link set "tb$k" up
			k=$((k + 1))
		done
	done
}

links_down() {
	[ -z "$NETNS" ] || ip netns del "$NETNS" 2>/dev/null || true
	NETNS=""
}

# Host counters of cell k, counted by the kernel, not by wirerate:
# "host_from_a host_to_b tc_sent tc_dropped" ('-' where there is no shaper).
link_counts() {
	local k=$1 a b tc="- -"
	a=$(in_ns ip -s -j link show dev "ta$k" | jq '.[0].stats64.rx.packets')
	b=$(in_ns ip -s -j link show dev "tb$k" | jq '.[0].stats64.tx.packets')
	if in_ns ip link show dev "va$k" >/dev/null 2>&1; then
		tc=$(in_ns tc -s -j qdisc show dev "va$k" root | jq -r '.[0] | "\(.packets) \(.drops)"')
	fi
	echo "$a $b $tc"
}

# --- the two guests

# Packs guest A's (send) and B's (serve) initramfs from the stage that
# build_initramfs left: each gets the token, the e1000 module and its role.
build_pair() {
	cp "$KDIR/e1000.ko" "$stage/lib/modules/"
	install -m 600 "$work/token" "$stage/lab/token"
	printf 'ROLE=send\nMGMT_PCI=0000:00:%s.0\nMGMT_IP=10.0.2.16\nPEER=10.0.2.2:%s\n' \
		"$MGMT_SLOT" "$PEER_PORT" >>"$stage/lab/env"
	pack_initramfs "$work/initrd-a.cpio"
	sed -i -e 's/^ROLE=send$/ROLE=serve/' -e 's/^MGMT_IP=.*/MGMT_IP=10.0.2.15/' "$stage/lab/env"
	cp "$work/serve.cmd" "$stage/lab/serve.cmd"
	: >"$stage/lab/runs.list"
	pack_initramfs "$work/initrd-b.cpio"
}

# QEMU command of guest $1 (a or b) in the namespace, in background; sets
# qemu_pid_$1.
start_guest() {
	local g=$1 k=0 i j args=() net
	for i in "${!NICS[@]}"; do
		for j in "${PLACES[@]}"; do
			args+=(-netdev "tap,id=n$k,ifname=t$g$k,script=no,downscript=no"
				-device "${NIC_DEVICE[${NICS[$i]}]},netdev=n$k,mac=$(cell_mac "0$g" "$k"),addr=0x$(printf %x $((4 + k)))")
			k=$((k + 1))
		done
	done
	net="user,id=mgmt,net=10.0.2.0/24"
	[ "$g" = a ] || net+=",hostfwd=tcp:127.0.0.1:$PEER_PORT-10.0.2.15:$PEER_PORT"
	args+=(-netdev "$net" -device "e1000,netdev=mgmt,addr=0x$MGMT_SLOT")
	QEMU_NICS=("${args[@]}")
	# B's vCPUs (plan_places), seen by start_qemu.
	[ "$g" = a ] || local smp=$SMP_B
	start_qemu "-$g" in_ns
	printf -v "qemu_pid_$g" '%s' "$QEMU_PID"
}

qemu_pid_a="" qemu_pid_b=""
stop_pair() {
	local p
	for p in "$qemu_pid_a" "$qemu_pid_b"; do
		[ -n "$p" ] && kill -0 "$p" 2>/dev/null || continue
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	qemu_pid_a="" qemu_pid_b=""
	links_down
}

# Boots B (serve) and A (sender) together; A waits for B's serve, runs the
# cells and stops B's serve. Returns A's QEMU status (124: timed out).
boot_pair() {
	local rc=0 shown_a=0 shown_b=0 t0
	start_guest b
	start_guest a
	while kill -0 "$qemu_pid_a" 2>/dev/null; do
		shown_a=$(progress_of "$work/console-a.log" "guest a" "$shown_a")
		shown_b=$(progress_of "$work/console-b.log" "guest b" "$shown_b")
		sleep 0.5
	done
	wait "$qemu_pid_a" || rc=$?
	qemu_pid_a=""
	# B powers off once its serve ended (A's shutdown); a B that does not
	# is stopped after 30 s.
	t0=$(date +%s)
	while kill -0 "$qemu_pid_b" 2>/dev/null && [ $(($(date +%s) - t0)) -lt 30 ]; do
		sleep 0.5
	done
	progress_of "$work/console-a.log" "guest a" "$shown_a" >/dev/null
	progress_of "$work/console-b.log" "guest b" "$shown_b" >/dev/null
	return "$rc"
}

# --- results

# The placement run: links, two guests, results, the table.
run_places() {
	local rc=0 ok=0
	links_up
	build_pair
	say "booting guests A (sender) and B (wirerate serve) ($ACCEL_NAME, ${NICS[*]} x ${PLACES[*]}), limit ${guest_timeout}s"
	boot_pair || rc=$?
	[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || say "guest A timed out after ${guest_timeout}s"
	cp "$work/results-a.txt" "$work/results.txt"
	collect_results && ok=1
	local g
	for g in a b; do
		cp "$work/console-$g.log" "$out_dir/console-$g.log"
	done
	[ "$ok" -eq 1 ] || say "guest A did not finish (QEMU rc=$rc); consoles: $out_dir/console-a.log, console-b.log"
	print_places || ok=0
	stop_pair
	[ "$ok" -eq 1 ]
}

# Fields of summary.tsv after "rc": extract-far.jq's, then the host's.
readonly PLACE_FIELDS="sent tx_nic_opackets far_sent far_received far_lost balanced
far_port_rx far_nic_ipackets far_rx_mpps far_rx_gbps_l2 far_rx_bytes tx_driver
rx_driver host_from_a host_to_b tc_sent tc_dropped"
# Then the TCP transfer's (--tcp): extract-tcp-far.jq's.
readonly PLACE_TCP_FIELDS="tcp_mbps tcp_completed tcp_failed tcp_sent
far_delivered far_accepted far_closed far_judged far_agree tcp_rtx tcp_tx_segs
tcp_rx_segs far_rx_segs far_tx_segs tcp_opackets tcp_tx_service tcp_ipackets
tcp_rx_service tcp_driver tcp_arp_requests"

# summary.tsv, a line a cell, and the table model x placement (MB/s and
# Mpps at the far end, the TCP goodput); returns 1 if a cell or its TCP
# transfer failed or is missing.
print_places() {
	local name model place size k txpci rxpci tcp rc trc note i bad=0 bps
	local -a f t names
	local -A v cell tcpcell
	read -r -a names <<<"$(echo $PLACE_FIELDS)"
	bps=$(link_bps)
	echo
	echo "vnic-lab: ${#NICS[@]} models x ${#PLACES[@]} placements, two guests (A sends, B: wirerate serve), wirerate $WR_BIN"
	[ "$ACCEL_NAME" != tcg ] ||
		echo "EMULATED (QEMU TCG, no KVM): rates and TCP goodput show the emulator on this host, not the NICs; counts and loss are exact"
	echo name model placement size accel rc link_bps $PLACE_FIELDS tcp_bytes tcp_rc \
		$PLACE_TCP_FIELDS note | tr ' ' '\t' >"$out_dir/summary.tsv"
	printf '%-22s %10s %10s %8s %8s  %-7s %9s\n' run sent far-rx lost MB/s Mpps "TCP MB/s"
	while IFS=$'\t' read -r name model place size k txpci rxpci tcp; do
		rc=$(cat "$out_dir/$name/rc" 2>/dev/null || echo -)
		f=(- - - - - - - - - - - - -)
		[ ! -s "$out_dir/$name/result.json" ] ||
			read -r -a f < <(jq -r --arg tx "$txpci" --arg rx "$rxpci" \
				-f "$LAB_DIR/lab/extract-far.jq" "$out_dir/$name/result.json")
		read -r -a h < <(link_counts "$k")
		f+=("${h[@]}")
		for i in "${!names[@]}"; do v[${names[$i]}]=${f[$i]:--}; done
		note=""
		[ "$rc" = 0 ] || note="FAILED (rc $rc)"
		[ "${v[far_received]}" != - ] || note+=" no far-end result"
		[ "${v[balanced]}" = true ] || note+=" books do not balance"
		trc=-
		read -r -a t <<<"$(echo $PLACE_TCP_FIELDS | sed 's/[^ ]*/-/g')"
		if [ "$tcp" != - ]; then
			trc=$(cat "$out_dir/$name.tcp/rc" 2>/dev/null || echo -)
			[ ! -s "$out_dir/$name.tcp/result.json" ] ||
				read -r -a t < <(jq -r --arg c "$txpci" -f "$LAB_DIR/lab/extract-tcp-far.jq" \
					"$out_dir/$name.tcp/result.json")
			[ "$trc" = 0 ] || note+=" TCP FAILED (rc $trc)"
			[ "${t[4]}" = "$tcp" ] || note+=" TCP: the far end delivered ${t[4]} of $tcp B"
		fi
		tcpcell[$model/$place]=${t[0]}
		[ -z "$note" ] || bad=1
		cell[$model/$place]=$(awk -v g="${v[far_rx_gbps_l2]}" -v m="${v[far_rx_mpps]}" \
			'BEGIN { if (g == "-") print "-"; else printf "%.2f MB/s %.4f Mpps", g * 125, m }')
		{
			printf '%s\t' "$name" "$model" "$place" "$size" "$ACCEL_NAME" "$rc" \
				"$([ "$place" = different ] && echo "$bps" || echo -)" "${f[@]}" \
				"$tcp" "$trc" "${t[@]}"
			printf '%s\n' "${note# }"
		} >>"$out_dir/summary.tsv"
		printf '%-22s %10s %10s %8s %8s  %-7s %9s%s\n' "$name" "${v[sent]}" "${v[far_received]}" \
			"${v[far_lost]}" "${cell[$model/$place]% MB/s*}" "$(awk '{print $3}' <<<"${cell[$model/$place]}")" \
			"${t[0]}" "${note:+  ${note# }}"
	done < <(tail -n +2 "$work/plan.tsv")
	place_table cell tcpcell
	report_tables || { say "wirerate report failed on the results"; bad=1; }
	echo "(far-rx: frames the far end's serve counted by sequence number; MB/s: its"
	echo " frames' bytes, FCS included, per second; TCP: payload MB/s of one bulk"
	echo " connection A -> B's serve after the frames; host counters in summary.tsv)"
	echo "results: $out_dir/summary.tsv, $out_dir/report/"
	return "$bad"
}

# The blog's table: a row per model, a column per placement (frames;
# with --tcp, a TCP goodput column beside each).
place_table() {
	local -n c=$1 tc=$2
	local m p line
	echo
	line=$(printf '| %-8s |' model)
	for p in "${PLACES[@]}"; do
		[ "$p" = same ] && line+=$(printf ' %-26s |' "same host") ||
			line+=$(printf ' %-26s |' "different hosts ($link_rate)")
		[ "$tcp_bytes" = 0 ] || line+=$(printf ' %-12s |' "TCP MB/s")
	done
	echo "$line"
	echo "$line" | sed 's/[^|]/-/g'
	for m in "${NICS[@]}"; do
		line=$(printf '| %-8s |' "$m")
		for p in "${PLACES[@]}"; do
			line+=$(printf ' %-26s |' "${c[$m/$p]}")
			[ "$tcp_bytes" = 0 ] || line+=$(printf ' %-12s |' "${tc[$m/$p]}")
		done
		echo "$line"
	done
	[ "$ACCEL_NAME" != tcg ] || echo "EMULATED (QEMU TCG): figures of the emulator on this host, not of the NIC models"
}
