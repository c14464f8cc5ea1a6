#!/usr/bin/env bash
# The 'lab' meson suite: one guest boot with vmxnet3, e1000 and e1000e on one
# hub (ci.scenario), then per run: wirerate drove each port with the right
# PMD, the sender sent exactly the requested count, and the receiver's count
# plus its sequence-proven loss equals what was sent (and, since the count
# fits the RX ring, nothing was lost); and per run with a TCP transfer
# (ci.scenario's tcp=), the client's bytes against the server's books and
# each NIC's PMD counters against the segments its end sent and received.
# TAP output.
set -euo pipefail

readonly COUNT=512

usage() {
	cat <<USAGE
Usage: ${0##*/} --lab PATH/vnic-lab.sh --bin WIRERATE --work DIR [--placement]
Runs the lab suite; results and the kernel cache go under DIR.
--placement: the two-guest lab instead (vnic-lab.sh --placement).
USAGE
}

lab="" work="" bin="" place=0
while [ "$#" -gt 0 ]; do
	case "$1" in
	--lab) lab=$2; shift ;;
	--work) work=$2; shift ;;
	--bin) bin=$2; shift ;;
	--placement) place=1 ;;
	-h | --help) usage; exit 0 ;;
	*) echo "${0##*/}: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
	shift
done
if [ ! -x "$lab" ] || [ ! -x "$bin" ] || [ -z "$work" ]; then
	usage >&2
	exit 2
fi

declare -A DRIVER=([vmxnet3]=net_vmxnet3 [e1000]=net_e1000_em [e1000e]=net_e1000_em)
# The checksums each model's PMD offers to compute (TCP's sent, the IPv4
# header's sent, both checked on receipt), which a connection port uses:
# vmxnet3 offers no IPv4 header checksum, on TX or RX.
declare -A CSUM=([vmxnet3]=true,false,false [e1000]=true,true,true [e1000e]=true,true,true)
scenario=$(dirname "$0")/ci.scenario
out=$work/lab-out
n=0 failed=0

ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=1
	fi
}

check() {
	local desc=$1
	shift
	if "$@"; then ok 0 "$desc"; else ok 1 "$desc"; fi
}

is_num() {
	[[ "$1" =~ ^[0-9]+$ ]]
}

# One run: $1 is the name of an associative array holding a summary.tsv
# row by column name (see vnic-lab.sh, SUMMARY_FIELDS).
check_run() {
	local -n r=$1
	local name=${r[name]} tx=${r[tx]} rx=${r[rx]} size=${r[size]}
	local sent=${r[sent]} recv=${r[received]} lost=${r[lost]}
	check "$name: run exit status 0 (got ${r[rc]})" [ "${r[rc]}" = 0 ]
	check "$name: wirerate drove $tx with ${DRIVER[$tx]} (got ${r[tx_driver]})" \
		[ "${r[tx_driver]}" = "${DRIVER[$tx]}" ]
	check "$name: wirerate drove $rx with ${DRIVER[$rx]} (got ${r[rx_driver]})" \
		[ "${r[rx_driver]}" = "${DRIVER[$rx]}" ]
	check "$name: sender counted $COUNT frames of $size B (got $sent)" [ "$sent" = "$COUNT" ]
	check "$name: $tx PMD counted the same (${r[tx_nic_opackets]})" [ "${r[tx_nic_opackets]}" = "$sent" ]
	check "$name: loss comes from sequence numbers (got ${r[loss_source]})" [ "${r[loss_source]}" = sequence ]
	check "$name: received $recv + lost $lost == sent $sent" \
		eval 'is_num "$recv" && is_num "$lost" && [ $((recv + lost)) -eq "$sent" ]'
	check "$name: no duplicates (${r[dup_pkts]}), gaps ${r[gap_pkts]} <= lost $lost" \
		eval '[ "${r[dup_pkts]}" = 0 ] && is_num "${r[gap_pkts]}" && [ "${r[gap_pkts]}" -le "$lost" ]'
	# COUNT fits the RX ring: nothing may be lost, even under TCG.
	check "$name: nothing lost (got $lost)" [ "$lost" = 0 ]
	check "$name: $rx PMD saw at least the received (${r[rx_nic_ipackets]} >= $recv)" \
		eval 'is_num "${r[rx_nic_ipackets]}" && [ "${r[rx_nic_ipackets]}" -ge "$recv" ]'
	check "$name: cycles per frame of the TX and RX workers (${r[tx_cycles_per_pkt]}, ${r[rx_cycles_per_pkt]})" \
		eval '[[ "${r[tx_cycles_per_pkt]}" =~ ^[0-9.]+$ && "${r[rx_cycles_per_pkt]}" =~ ^[0-9.]+$ ]]'
	check "$name: every frame arrived whole: ${r[rx_bytes]} B == $recv x $size B, ${r[rx_foreign_pkts]} foreign" \
		eval '[ "${r[rx_foreign_pkts]}" = 0 ] && [ "${r[rx_bytes]}" = $((recv * size)) ]'
	[ "${r[tcp_bytes]}" = - ] || check_tcp "$1"
}

# A run's TCP transfer: one bulk connection of tcp_bytes from the TX
# model's NIC (client) to the RX model's (server), both in one process.
# The client's bytes against the server's books; each NIC's PMD counter
# against the segments its end's engine sent (plus the ARP frames of
# --port-ip); the segments one PMD sent, the other end received. A PMD's
# received count holds the segments and, or not, the ARP frames before
# traffic: QEMU's e1000 delivers them late, on either side of the moment
# the counters start (seen both ways under TCG).
check_tcp() {
	local -n t=$1
	local name="${t[name]} TCP" tx=${t[tx]} rx=${t[rx]} b=${t[tcp_bytes]} sent=${t[tcp_sent]}
	check "$name: exit status 0 (got ${t[tcp_rc]})" [ "${t[tcp_rc]}" = 0 ]
	check "$name: client on $tx, server on $rx, driven by ${DRIVER[$tx]}, ${DRIVER[$rx]} (${t[tcp_client_driver]}, ${t[tcp_server_driver]})" \
		eval '[ "${t[tcp_client_driver]}" = "${DRIVER[$tx]}" ] && [ "${t[tcp_server_driver]}" = "${DRIVER[$rx]}" ]'
	check "$name: checksums by the PMDs (TCP sent, IPv4 sent, received): $tx ${t[tcp_client_csum]}, $rx ${t[tcp_server_csum]}" \
		eval '[ "${t[tcp_client_csum]}" = "${CSUM[$tx]}" ] && [ "${t[tcp_server_csum]}" = "${CSUM[$rx]}" ]'
	check "$name: the connection completed, none failed (${t[tcp_completed]}, ${t[tcp_failed]})" \
		eval '[ "${t[tcp_completed]}" = 1 ] && [ "${t[tcp_failed]}" = 0 ]'
	check "$name: the client sent the $b B asked ($sent)" [ "$sent" = "$b" ]
	check "$name: the server's books: delivered ${t[tcp_delivered]} B == the client's $sent" \
		[ "${t[tcp_delivered]}" = "$sent" ]
	check "$name: $tx PMD sent ${t[tcp_client_opackets]} == client's segments ${t[tcp_client_tx_segs]} + ARP ${t[tcp_client_tx_service]}" \
		sum_is "${t[tcp_client_opackets]}" "${t[tcp_client_tx_segs]}" "${t[tcp_client_tx_service]}"
	check "$name: $rx PMD received ${t[tcp_server_ipackets]}: the server's segments ${t[tcp_server_rx_segs]} + up to ARP ${t[tcp_server_rx_service]}" \
		within "${t[tcp_server_ipackets]}" "${t[tcp_server_rx_segs]}" "${t[tcp_server_rx_service]}"
	check "$name: $rx PMD sent ${t[tcp_server_opackets]} == server's segments ${t[tcp_server_tx_segs]} + ARP ${t[tcp_server_tx_service]}" \
		sum_is "${t[tcp_server_opackets]}" "${t[tcp_server_tx_segs]}" "${t[tcp_server_tx_service]}"
	check "$name: $tx PMD received ${t[tcp_client_ipackets]}: the client's segments ${t[tcp_client_rx_segs]} + up to ARP ${t[tcp_client_rx_service]}" \
		within "${t[tcp_client_ipackets]}" "${t[tcp_client_rx_segs]}" "${t[tcp_client_rx_service]}"
	local cs ss
	cs=$(minus "${t[tcp_client_opackets]}" "${t[tcp_client_tx_service]}")
	ss=$(minus "${t[tcp_server_opackets]}" "${t[tcp_server_tx_service]}")
	check "$name: segments $tx PMD sent $cs == the server received ${t[tcp_server_rx_segs]}; $rx PMD sent $ss == the client received ${t[tcp_client_rx_segs]}" \
		eval 'is_num "$cs" && [ "$cs" = "${t[tcp_server_rx_segs]}" ] &&
			is_num "$ss" && [ "$ss" = "${t[tcp_client_rx_segs]}" ]'
	check "$name: goodput ${t[tcp_mbps]} MB/s, on the run's line" \
		eval 'awk -v g="${t[tcp_mbps]}" "BEGIN { exit !(g + 0 > 0) }" &&
			grep -q "^${t[name]} .* ${t[tcp_mbps]}\$" "$work/lab.log"'
}

# minus A B: A - B of two whole numbers, else "-".
minus() {
	if is_num "$1" && is_num "$2"; then echo $(($1 - $2)); else echo -; fi
}

# within A B C: whole numbers with B <= A <= B + C.
within() {
	is_num "$1" && is_num "$2" && is_num "$3" && [ "$1" -ge "$2" ] && [ "$1" -le $(($2 + $3)) ]
}

# sum_is A B C: whole numbers with A == B + C.
sum_is() {
	is_num "$1" && is_num "$2" && is_num "$3" && [ "$1" -eq $(($2 + $3)) ]
}

# check_rows OUT FUNC: FUNC on each row of OUT/summary.tsv, given the name
# of an associative array holding the row by column name; returns 1 (a
# failed check) when there is no summary.tsv.
check_rows() {
	local -a cols vals
	local -A row
	local i
	if [ ! -r "$1/summary.tsv" ]; then
		ok 1 "summary.tsv written"
		return 1
	fi
	IFS=$'\t' read -r -a cols <"$1/summary.tsv"
	while IFS=$'\t' read -r -a vals; do
		row=()
		for i in "${!cols[@]}"; do row[${cols[$i]}]=${vals[$i]:-}; done
		"$2" row
	done < <(tail -n +2 "$1/summary.tsv")
}

# check_emulated LOG OUT: a lab that said EMULATED (TCG) says it in its
# report too.
check_emulated() {
	if grep -q "EMULATED" "$1"; then
		check "report.md carries the EMULATED banner" grep -q "EMULATED" "$2/report/report.md"
	fi
}

# Bad input (a frame size, a TCP transfer's size) stops the lab before
# anything is installed or booted, with wirerate's own message (wirerate
# check) and exit 2.
bad_input() {
	local err rc=0
	err=$("$lab" --quiet --nics vmxnet3,e1000 --size 63 --bin "$bin" \
		--cache "$work/lab-cache" --out "$work/lab-bad" 2>&1) || rc=$?
	echo "$err" | sed 's/^/# /'
	check "--size 63: exit 2 (got $rc)" [ "$rc" = 2 ]
	check "--size 63: wirerate's own message" \
		grep -q "^wirerate: error: --size 63: out of range" <<<"$err"
	check "--size 63: nothing booted (no $work/lab-bad)" [ ! -e "$work/lab-bad" ]
	rc=0
	err=$("$lab" --quiet --nics vmxnet3,e1000 --tcp 12abc --bin "$bin" \
		--cache "$work/lab-cache" --out "$work/lab-bad" 2>&1) || rc=$?
	echo "$err" | sed 's/^/# /'
	check "--tcp 12abc: exit 2 (got $rc), wirerate's own message, the run named" \
		eval '[ "$rc" = 2 ] && grep -q "^wirerate: error: --conn-bulk 12abc: " <<<"$err" &&
			grep -q "run vmxnet3-to-e1000-64: wirerate refused its TCP transfer" <<<"$err"'
	check "--tcp 12abc: nothing booted (no $work/lab-bad)" [ ! -e "$work/lab-bad" ]
}

# pick_app, sourced as vnic-lab.sh sources it, with TOP_DIR=$1 and --bin
# $2 (may be empty): what it says, then WR_BIN=...
pick() {
	(
		TOP_DIR=$1 app=wirerate bin=$2 PROG=vnic-lab
		say() { echo "$PROG: $*"; }
		die() { echo "$PROG: error: $*"; exit 1; }
		# shellcheck source=../../scripts/lab/runs.sh
		. "$(dirname "$lab")/lab/runs.sh"
		pick_app
		echo "WR_BIN=$WR_BIN"
	) 2>&1
}

# Without --bin the lab takes the first build the guest can run (one
# against the system DPDK, whose PMDs the guest gets), naming the builds
# it leaves aside and why; a --bin the guest cannot run is refused.
pick_build() {
	local top=$work/pick out rc=0 real
	real=$(realpath "$bin")
	rm -rf "$top"
	mkdir -p "$top/build-aaa/app" "$top/build-zzz/app"
	printf '#!/bin/sh\nexit 0\n' >"$top/build-aaa/app/wirerate"
	chmod 755 "$top/build-aaa/app/wirerate"
	ln -s "$real" "$top/build-zzz/app/wirerate"
	out=$(pick "$top" "") || rc=$?
	echo "$out" | sed 's/^/# /'
	check "pick: exit 0 (got $rc)" [ "$rc" = 0 ]
	check "pick: build-aaa left aside, saying why" \
		grep -q "build-aaa/app/wirerate: not a dynamic executable" <<<"$out"
	check "pick: the build against the system DPDK taken and named" \
		eval 'grep -q "^WR_BIN=$real\$" <<<"$out" && grep -q "wirerate: $real\$" <<<"$out"'
	rc=0
	out=$(pick "$top" "$top/build-aaa/app/wirerate") || rc=$?
	check "pick: --bin of a build the guest cannot run: exit 1 (got $rc)" [ "$rc" = 1 ]
	check "pick: --bin refused naming it and why" \
		grep -q "error: --bin $top/build-aaa/app/wirerate: the guest cannot run it: not a dynamic" <<<"$out"
	rm -rf "$top"
}

main() {
	local start rc=0 log=$work/lab.log
	pick_build
	bad_input
	start=$(date +%s)
	echo "# vnic-lab: booting one guest for $(grep -c '^[a-z]' "$scenario") runs"
	"$lab" --quiet --nics vmxnet3,e1000,e1000e --scenario "$scenario" --count "$COUNT" \
		--app wirerate --bin "$bin" --cache "$work/lab-cache" --out "$out" --timeout 280 \
		>"$log" 2>&1 || rc=$?
	sed 's/^/# /' "$log"
	echo "# vnic-lab took $(($(date +%s) - start)) s"
	check "vnic-lab.sh exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "the binary used is named" grep -q "generator wirerate ($(realpath "$bin"))" "$log"
	check_emulated "$log" "$out"
	if check_rows "$out" check_run; then
		check "every scenario run reported" \
			[ "$(($(wc -l <"$out/summary.tsv") - 1))" = "$(grep -c '^[a-z]' "$scenario")" ]
		# The TX models of the rows with a TCP transfer, in the summary
		# and in the scenario: each model is the client once.
		local got want
		got=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "tcp_bytes") c = i; next }
			c && $c != "-" { print $2 }' "$out/summary.tsv" | sort | tr '\n' ' ')
		want=$(sed -n 's/^[a-z].* tx=\([a-z0-9]*\) .*tcp=[1-9].*/\1/p' "$scenario" | sort | tr '\n' ' ')
		check "a TCP transfer with each model as the client ($got)" \
			eval '[ "$got" = "$want" ] && [ "$want" = "e1000 e1000e vmxnet3 " ]'
	fi
	echo "1..$n"
	return "$failed"
}

# shellcheck source=place-checks.sh
. "$(dirname "$0")/place-checks.sh"
if [ "$place" -eq 1 ]; then
	rm -rf "$work/lab-place"
	main_place
else
	rm -rf "$work/lab-out" "$work/lab-bad"
	main
fi
