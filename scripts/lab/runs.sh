# shellcheck shell=bash
# The runs of scripts/vnic-lab.sh (sourced): scenario rows to guest
# commands, each checked by `wirerate check` on the host first, and each
# run's files to one summary line. The only place that knows how the
# generator is invoked and what its output looks like.
# Reads: the options and NICS (vnic-lab.sh), TOP_DIR LAB_DIR, say die
# usage_error. Sets: WR_BIN APP APP_BIN, runs.list and plan.tsv in $work,
# NRUNS (guest runs, TCP transfers included) NTCP MAX_DUR.

# The DPDK library directory whose PMD plugins the guest gets (boot.sh).
system_dpdk_libdir() {
	realpath "$(pkg-config --variable=libdir libdpdk 2>/dev/null ||
		echo /usr/lib/x86_64-linux-gnu)"
}

# guest_usable PATH: whether the guest can run wirerate binary PATH; if
# not, why on stdout. The guest gets the system DPDK's PMD plugins, so the
# binary must load the system DPDK's EAL (a build against another DPDK
# sees no ports there) and carry no sanitizer runtime.
guest_usable() {
	local libs eal want
	[ -x "$1" ] || { echo "not an executable file"; return 1; }
	libs=$(ldd "$1" 2>/dev/null) || { echo "not a dynamic executable"; return 1; }
	eal=$(awk '/librte_eal\.so/ {print $3; exit}' <<<"$libs")
	[ -n "$eal" ] || { echo "not linked with DPDK's EAL"; return 1; }
	want=$(system_dpdk_libdir)
	if [ "$(dirname "$(realpath "$eal")")" != "$want" ]; then
		echo "linked with the DPDK in $(dirname "$eal"), the guest gets $want's PMDs"
		return 1
	fi
	if grep -q 'libasan\|libubsan' <<<"$libs"; then
		echo "a sanitizer build"
		return 1
	fi
}

# Sets WR_BIN (wirerate on the host: it checks every run and tabulates the
# results), APP_BIN (the program copied into the guest) and APP. Without
# --bin: the first build*/app/wirerate (then PATH's) the guest can run;
# the others are named with the reason they were left.
pick_app() {
	local c why tried=""
	APP=$app
	if [ -n "$bin" ]; then
		why=$(guest_usable "$bin") ||
			die "--bin $bin: the guest cannot run it: $why (build against the system DPDK: scripts/quickstart.sh)"
	else
		for c in "$TOP_DIR"/build*/app/wirerate "$(command -v wirerate || true)"; do
			[ -n "$c" ] && [ -e "$c" ] || continue
			if why=$(guest_usable "$c"); then
				bin=$c
				break
			fi
			tried+=$'\n'"  $c: $why"
		done
		[ -n "$bin" ] || die "no wirerate the guest can run${tried:-: none built}"$'\n'"build one against the system DPDK (scripts/quickstart.sh) or give --bin PATH"
		[ -z "$tried" ] || say "left aside:$tried"
	fi
	WR_BIN=$(realpath "$bin")
	say "wirerate: $WR_BIN"
	APP_BIN=$WR_BIN
	if [ "$APP" = testpmd ]; then
		APP_BIN=$(command -v dpdk-testpmd || true)
		[ -n "$APP_BIN" ] || die "dpdk-testpmd not found (apt-get install dpdk)"
	fi
}

# wirerate_args TX RX TX_PCI RX_PCI_LIST SIZE COUNT RATE DURATION -> the
# command line of a run, "EAL options -- wirerate options", without the
# result file (the generator raises the MTU from the frame size).
wirerate_args() {
	local tx=$1 rx=$2 txpci=$3 rxpci=$4 size=$5 cnt=$6 rt=$7 dur=$8
	local a eal="" txp="" rxp="" rxmap="" i=0 args
	# DPDK numbers the allowed ports in PCI order.
	for a in $(printf '%s\n' "$txpci" ${rxpci//,/ } | sort -u); do
		eal+=" -a $a"
		[ "$a" = "$txpci" ] && txp=$i
		if [[ ",$rxpci," == *",$a,"* ]]; then
			rxp+=${rxp:+,}$i
			rxmap+=${rxmap:+,}rx$i.0
		fi
		i=$((i + 1))
	done
	# Large RX rings: under TCG the receiver is slower than the sender.
	# grace 2s: QEMU's e1000 delivers 1 s after the port starts.
	args="--tx-ports $txp --rx-ports $rxp --size $size --rxd $rxd --grace 2s --quiet"
	# TX and RX on their own lcores, so each worker's cost is one NIC's.
	[ "$smp" -lt 3 ] || args+=" --map 1:tx$txp.0 --map 2:$rxmap"
	if [ -n "$dur" ]; then args+=" --duration ${dur}s"; else args+=" --count ${cnt:-2048}"; fi
	[ -z "$rt" ] || args+=" --rate $rt"
	# The label ROW/COLUMN gives wirerate report its TX x RX matrix.
	args+=" --label $tx/${rx//,/+}"
	echo "-l 0-$((smp < 3 ? smp - 1 : 2)) -n 1 --file-prefix lab$eal -- $args"
}

# The TCP transfer beside a run (--tcp, scenario key tcp): one bulk
# connection from the TX NIC (client) to the first RX NIC (server).
readonly TCP_CLIENT_IP=198.18.0.2 TCP_SERVER_IP=198.18.0.1 TCP_PORT=5201
# Its bound: a transfer that has not ended by then is cut (and fails).
readonly TCP_LIMIT_S=60

# tcp_args TX RX TX_PCI RX_PCI_LIST BYTES -> the command line of the TCP
# transfer of a run: client and server in one process, a worker each.
tcp_args() {
	local tx=$1 rx=${2%%,*} txpci=$3 rxpci=${4%%,*} bytes=$5 c=0 s=1
	[[ "$txpci" < "$rxpci" ]] || { c=1; s=0; }
	echo "-l 0-2 -n 1 --file-prefix lab -a $txpci -a $rxpci --" \
		"--conn $c=client,$s=server --conn-app bulk" \
		"--port-ip $c=$TCP_CLIENT_IP/24 --port-ip $s=$TCP_SERVER_IP/24" \
		"--conn-server $TCP_SERVER_IP:$TCP_PORT --conn-count 1 --conn-concurrency 1" \
		"--conn-bulk $bytes --rxd $rxd --duration ${TCP_LIMIT_S}s --quiet --label $tx/$rx"
}

# tcp_extract DIR CLIENT_PCI SERVER_PCI -> the TCP_FIELDS of a transfer.
readonly TCP_FIELDS="tcp_mbps tcp_completed tcp_failed tcp_sent tcp_delivered
tcp_rtx tcp_client_tx_segs tcp_client_rx_segs tcp_server_tx_segs
tcp_server_rx_segs tcp_client_opackets tcp_client_tx_service
tcp_client_ipackets tcp_client_rx_service tcp_server_opackets
tcp_server_tx_service tcp_server_ipackets tcp_server_rx_service
tcp_client_driver tcp_server_driver tcp_client_csum tcp_server_csum"
tcp_extract() {
	if [ -s "$1/result.json" ]; then
		jq -r --arg c "$2" --arg s "$3" -f "$LAB_DIR/lab/extract-tcp.jq" \
			"$1/result.json" && return 0
		say "$1/result.json: unreadable"
	fi
	echo $TCP_FIELDS | sed 's/[^ ]*/-/g'
}

# app_cmd NAME TX_PCI RX_PCI_LIST SIZE COUNT DURATION WIRERATE_ARGS -> the
# guest command of a run.
app_cmd() {
	local name=$1 tx=$2 rx=$3 size=$4 cnt=${5:-2048} dur=$6
	case "$APP" in
	testpmd)
		[[ "$rx" != *,* ]] || usage_error "run $name: the testpmd stand-in takes one RX NIC"
		[ -z "$dur" ] || usage_error "run $name: the testpmd stand-in sends a count, not a duration"
		[[ "$cnt" =~ ^[0-9]+$ ]] || usage_error "run $name: the testpmd stand-in takes a plain count, not '$cnt'"
		echo "tp_pair $tx $rx $size $cnt"
		;;
	wirerate) echo "wirerate $7 --json \$OUT/result.json" ;;
	esac
}

# Driver that EAL probed for PCI address $2, from log file $1.
probe_driver() {
	awk -v pci="$2" '/Probe PCI driver:/ && index($0, pci) {print $5; exit}' "$1" 2>/dev/null
}

# app_extract DIR TX_PCI RX_PCI -> the summary fields after "rc", space
# separated, '-' where the generator does not report a figure:
readonly SUMMARY_FIELDS="sent received lost tx_mpps tx_gbps_l2 rx_mpps rx_gbps_l2
tx_cycles_per_pkt rx_cycles_per_pkt tx_driver rx_driver loss_source rx_bytes
gap_pkts dup_pkts tx_nic_opackets rx_nic_ipackets rx_foreign_pkts"
app_extract() {
	local d=$1 tx=$2 rx=$3
	case "$APP" in
	testpmd)
		# testpmd has no sequence numbers: loss is sent - received.
		local sent recv cpp lost=-
		sent=$(awk '/Forward statistics for port/ {f=1} f && /TX-packets:/ {print $2; exit}' "$d/tx.log" 2>/dev/null)
		recv=$(awk '/Forward statistics for port/ {f=1} f && /RX-packets:/ {print $2; exit}' "$d/rx.log" 2>/dev/null)
		cpp=$(awk -F'[= ]+' '/CPU cycles\/packet=/ {print $4; exit}' "$d/rx.log" 2>/dev/null)
		[ -n "$sent" ] && [ -n "$recv" ] && lost=$((sent - recv))
		echo "${sent:--} ${recv:--} $lost - - - - - ${cpp:--}" \
			"$(probe_driver "$d/tx.log" "$tx") $(probe_driver "$d/rx.log" "$rx") count - - - - - -"
		;;
	wirerate)
		if [ -s "$d/result.json" ]; then
			jq -r --arg tx "$tx" --arg rx "$rx" -f "$LAB_DIR/lab/extract.jq" "$d/result.json" && return 0
			say "$d/result.json: unreadable"
		fi
		echo "- - - - - - - - - $(probe_driver "$d/log" "$tx") $(probe_driver "$d/log" "$rx") - - - - - - -"
		;;
	esac
}

# --- scenarios ------------------------------------------------------------

# Prints the scenario rows: "NAME key=value ...".
scenario_rows() {
	local t r s
	local -a sz
	read -r -a sz <<<"${sizes:-64}"
	if [ -n "$tx_model" ] && [ "$scenario" != sweep ]; then
		for s in "${sz[@]}"; do
			echo "$tx_model-to-${rx_models//,/+}-$s tx=$tx_model rx=$rx_models size=$s"
		done
		return 0
	fi
	case "$scenario" in
	pairs)
		for t in "${NICS[@]}"; do
			for r in "${NICS[@]}"; do
				[ "$t" = "$r" ] && continue
				for s in "${sz[@]}"; do
					echo "$t-to-$r-$s tx=$t rx=$r size=$s"
				done
			done
		done
		;;
	jumbo)
		for t in "${NICS[@]}"; do
			for r in "${NICS[@]}"; do
				[ "$t" = "$r" ] && continue
				echo "$t-to-$r-mtu1500 tx=$t rx=$r size=1518"
				echo "$t-to-$r-mtu9000 tx=$t rx=$r size=9018"
			done
		done
		;;
	sweep)
		[ -n "$sizes" ] || read -r -a sz <<<"$SWEEP_SIZES"
		t=${tx_model:-${NICS[0]}} r=${rx_models:-${NICS[1]}}
		for s in "${sz[@]}"; do
			echo "$t-to-${r//,/+}-$s tx=$t rx=$r size=$s"
		done
		;;
	*)
		[ -r "$scenario" ] || usage_error "--scenario '$scenario': not pairs, jumbo, sweep or a readable file"
		sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$scenario"
		;;
	esac
}

pci_of() {
	local i
	for i in "${!NICS[@]}"; do
		[ "${NICS[$i]}" = "$1" ] && { printf '0000:00:%02x.0' $((4 + i)); return 0; }
	done
	return 1
}

# plan_tcp NAME TX RX TX_PCI RX_PCI_LIST BYTES: the run's TCP transfer,
# NAME.tcp in runs.list after the run, checked by wirerate check; sets tcp
# to "-" when there is none (BYTES 0, or the testpmd stand-in).
plan_tcp() {
	local args
	if [ "$6" = 0 ] || [ "$APP" != wirerate ]; then
		tcp=-
		return 0
	fi
	[ "${3%%,*}" != "$2" ] || usage_error "run $1: tcp: the client and server NICs must differ"
	[ "$smp" -ge 3 ] || usage_error "run $1: tcp needs --smp 3 (a worker a port)"
	args=$(tcp_args "$2" "$3" "$4" "$5" "$6")
	set -f
	WR_CHECK_CPUS=0-$((smp - 1)) "$WR_BIN" check $args ||
		usage_error "run $1: wirerate refused its TCP transfer's options (tcp=$6, above)"
	set +f
	printf '%s.tcp\twirerate %s --json $OUT/result.json\n' "$1" "$args" >>"$work/runs.list"
}

# Writes runs.list (guest) and plan.tsv (host) from the scenario rows, each
# run's options checked by wirerate check (its message, exit 2).
plan_runs() {
	local line name kv k v tx rx size mtu cnt rt dur txpci rxpci args tcp
	: >"$work/runs.list"
	MAX_DUR=0
	printf 'name\ttx\trx\tsize\tmtu\ttx_pci\trx_pci\ttcp\n' >"$work/plan.tsv"
	while read -r line; do
		read -r name kv <<<"$line"
		[[ "$name" =~ ^[A-Za-z0-9._+-]+$ ]] || usage_error "scenario: bad run name '$name'"
		tx="" rx="" size=${sizes%% *} cnt=$count rt=$rate dur=$duration tcp=$tcp_bytes
		for k in $kv; do
			v=${k#*=}
			case "$k" in
			tx=*) tx=$v ;;
			rx=*) rx=$v ;;
			size=*) size=$v ;;
			count=*) cnt=$v dur="" ;;
			rate=*) rt=$v ;;
			duration=*) dur=$v cnt="" ;;
			tcp=*) tcp=$v ;;
			*) usage_error "scenario run '$name': unknown key '$k'" ;;
			esac
		done
		# Seconds: the lab's time limits are made of them.
		[[ "$dur" =~ ^([0-9]+(\.[0-9]+)?)?$ ]] ||
			usage_error "scenario run '$name': duration '$dur': expected seconds"
		txpci=$(pci_of "$tx") || usage_error "scenario run '$name': tx '$tx' is not in --nics ($nics)"
		rxpci=""
		for v in ${rx//,/ }; do
			rxpci+=${rxpci:+,}$(pci_of "$v") || usage_error "scenario run '$name': rx '$v' is not in --nics ($nics)"
		done
		[ -n "$rxpci" ] || usage_error "scenario run '$name': no rx"
		size=${size:-64}
		args=$(wirerate_args "$tx" "$rx" "$txpci" "$rxpci" "$size" "$cnt" "$rt" "$dur")
		# No globbing: the words are those the guest's shell will see.
		set -f
		WR_CHECK_CPUS=0-$((smp - 1)) "$WR_BIN" check $args || usage_error "scenario run '$name': wirerate refused its options (above)"
		set +f
		mtu=$((size > 1518 ? size - 18 : 1500))
		v=${dur%.*}
		[ "$v" = "$dur" ] || v=$((v + 1))
		[ "${v:-0}" -le "$MAX_DUR" ] || MAX_DUR=$v
		printf '%s\t%s\n' "$name" "$(app_cmd "$name" "$txpci" "$rxpci" "$size" "$cnt" "$dur" "$args")" >>"$work/runs.list"
		plan_tcp "$name" "$tx" "$rx" "$txpci" "$rxpci" "$tcp"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$tx" "$rx" "$size" "$mtu" \
			"$txpci" "$rxpci" "$tcp" >>"$work/plan.tsv"
	done < <(scenario_rows)
	NRUNS=$(($(wc -l <"$work/runs.list")))
	NTCP=$(($(grep -c '^[^[:space:]]*\.tcp'$'\t' "$work/runs.list" || true)))
	[ "$NRUNS" -gt 0 ] || usage_error "the scenario has no runs"
}
