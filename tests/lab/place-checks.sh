# shellcheck shell=bash
# The two-guest lab (vnic-lab.sh --placement), sourced by lab-test.sh: one
# boot of guests A (sender) and B (wirerate serve), one model, both
# placements, the "different hosts" link shaped to LINK_RATE so that the
# shaper binds even under TCG. Per cell, the sender's count is checked
# against counts it did not make: the far end's books and its port's PMD
# counter (in the far end's answer), the host kernel's tap counters and
# the tc shaper's; and the far end's rate against the shaper's. Then each
# cell's TCP transfer (--tcp): the client's books against the far end's
# server's, its PMD's counters against its segments, the host's tap
# against all A sent, its goodput against the shaper.

readonly PLACE_MODEL=vmxnet3 LINK_RATE=2mbit LINK_BPS=2000000 PLACE_TCP=500000

check_place_cell() {
	local -n r=$1
	local name=${r[name]} sent=${r[sent]} frx=${r[far_received]} size=${r[size]}
	check "$name: run exit status 0 (got ${r[rc]})" [ "${r[rc]}" = 0 ]
	check "$name: wirerate drove $PLACE_MODEL with ${DRIVER[$PLACE_MODEL]} at both ends (${r[tx_driver]}, ${r[rx_driver]})" \
		eval '[ "${r[tx_driver]}" = "${DRIVER[$PLACE_MODEL]}" ] && [ "${r[rx_driver]}" = "${DRIVER[$PLACE_MODEL]}" ]'
	check "$name: the sender sent frames ($sent)" eval 'is_num "$sent" && [ "$sent" -gt 0 ]'
	check "$name: its PMD counted the same (${r[tx_nic_opackets]})" [ "${r[tx_nic_opackets]}" = "$sent" ]
	# With the TCP transfer, A's NIC sent its segments too, and before
	# them (its PMD's counters start after) the gratuitous ARP of its
	# address and its ARP requests for the server's (docs/l3.md).
	local from_a=$sent
	is_num "${r[tcp_opackets]:-}" && is_num "${r[tcp_arp_requests]:-}" &&
		from_a=$((sent + r[tcp_opackets] + 1 + r[tcp_arp_requests]))
	check "$name: the host's tap took exactly the frames guest A sent: $sent + TCP ${r[tcp_opackets]} + ARP 1 + ${r[tcp_arp_requests]} (${r[host_from_a]})" \
		[ "${r[host_from_a]}" = "$from_a" ]
	check "$name: the far end's books: sent ${r[far_sent]} = received $frx + lost ${r[far_lost]}, balanced ${r[balanced]}" \
		eval '[ "${r[far_sent]}" = "$sent" ] && is_num "$frx" && is_num "${r[far_lost]}" &&
			[ $((frx + r[far_lost])) -eq "$sent" ] && [ "${r[balanced]}" = true ]'
	check "$name: the far end received frames ($frx)" eval 'is_num "$frx" && [ "$frx" -gt 0 ]'
	check "$name: the far end's port counted them ($frx == ${r[far_port_rx]})" [ "${r[far_port_rx]}" = "$frx" ]
	check "$name: far received $frx <= its PMD's ${r[far_nic_ipackets]} <= the host's tap gave ${r[host_to_b]}" \
		eval 'is_num "${r[far_nic_ipackets]}" && is_num "${r[host_to_b]}" &&
			[ "$frx" -le "${r[far_nic_ipackets]}" ] && [ "${r[far_nic_ipackets]}" -le "${r[host_to_b]}" ]'
	check "$name: whole frames: ${r[far_rx_bytes]} B == $frx x $size B" [ "${r[far_rx_bytes]}" = $((frx * size)) ]
	if [ "${r[placement]}" = different ]; then
		check "$name: the link's shaper passed every frame B got (tc ${r[tc_sent]} >= ${r[host_to_b]})" \
			eval 'is_num "${r[tc_sent]}" && [ "${r[tc_sent]}" -ge "${r[host_to_b]}" ]'
		check "$name: the shaper bound (tc dropped ${r[tc_dropped]})" \
			eval 'is_num "${r[tc_dropped]}" && [ "${r[tc_dropped]}" -gt 0 ]'
		# tc counts frames without FCS (size - 4 bytes); wirerate's L2 rate
		# with it; 5 % for the bucket (4.8 ms) and the far end's clock.
		check "$name: far-end rate ${r[far_rx_gbps_l2]} Gb/s L2 within the $LINK_RATE shaper" \
			awk -v g="${r[far_rx_gbps_l2]}" -v b="$LINK_BPS" -v s="$size" \
				'BEGIN { exit !(g + 0 > 0 && g * 1e9 <= b * s / (s - 4) * 1.05) }'
	else
		check "$name: no shaper on the same host's bridge (${r[tc_sent]})" [ "${r[tc_sent]}" = - ]
	fi
	check_place_tcp "$1"
}

# A cell's TCP transfer: one bulk connection of PLACE_TCP bytes from A's
# NIC to the server B's serve started (--peer).
check_place_tcp() {
	local -n t=$1
	local name="${t[name]} TCP" sent=${t[tcp_sent]}
	check "$name: exit status 0 (got ${t[tcp_rc]})" [ "${t[tcp_rc]}" = 0 ]
	check "$name: client driven by ${DRIVER[$PLACE_MODEL]} (${t[tcp_driver]})" \
		[ "${t[tcp_driver]}" = "${DRIVER[$PLACE_MODEL]}" ]
	check "$name: the connection completed, none failed (${t[tcp_completed]}, ${t[tcp_failed]})" \
		eval '[ "${t[tcp_completed]}" = 1 ] && [ "${t[tcp_failed]}" = 0 ]'
	check "$name: the client sent the $PLACE_TCP B asked ($sent)" [ "$sent" = "$PLACE_TCP" ]
	check "$name: the far end's books: accepted ${t[far_accepted]}, closed ${t[far_closed]}, delivered ${t[far_delivered]} B == the client's $sent" \
		eval '[ "${t[far_accepted]}" = 1 ] && [ "${t[far_closed]}" = 1 ] && [ "${t[far_delivered]}" = "$sent" ]'
	check "$name: both ends' books judged and agreeing (${t[far_judged]}, ${t[far_agree]})" \
		eval '[ "${t[far_judged]}" = true ] && [ "${t[far_agree]}" = true ]'
	check "$name: its PMD sent ${t[tcp_opackets]} == its segments ${t[tcp_tx_segs]} + ARP ${t[tcp_tx_service]}" \
		sum_is "${t[tcp_opackets]}" "${t[tcp_tx_segs]}" "${t[tcp_tx_service]}"
	check "$name: its PMD received ${t[tcp_ipackets]} == its segments ${t[tcp_rx_segs]} + ARP ${t[tcp_rx_service]}" \
		sum_is "${t[tcp_ipackets]}" "${t[tcp_rx_segs]}" "${t[tcp_rx_service]}"
	if [ "${t[placement]}" = different ]; then
		# The shaper drops segments (A to B, with the cell's frames): the
		# far end got at most those sent, the missing ones among tc's drops.
		local miss
		miss=$(minus "${t[tcp_tx_segs]}" "${t[far_rx_segs]}")
		check "$name: the far end received ${t[far_rx_segs]} of the ${t[tcp_tx_segs]} segments sent, the $miss missing among tc's ${t[tc_dropped]} drops" \
			eval 'is_num "$miss" && is_num "${t[tc_dropped]}" && [ "$miss" -le "${t[tc_dropped]}" ]'
		check "$name: goodput ${t[tcp_mbps]} MB/s within the $LINK_RATE shaper" \
			awk -v g="${t[tcp_mbps]}" -v b="$LINK_BPS" 'BEGIN { exit !(g + 0 > 0 && g * 8e6 <= b * 1.05) }'
	else
		check "$name: the far end received the ${t[tcp_tx_segs]} segments sent (${t[far_rx_segs]}), and sent the ${t[tcp_rx_segs]} received (${t[far_tx_segs]})" \
			eval '[ "${t[far_rx_segs]}" = "${t[tcp_tx_segs]}" ] && [ "${t[far_tx_segs]}" = "${t[tcp_rx_segs]}" ]'
	fi
}

# A bad placement or link rate stops the lab with exit 2, naming it,
# before anything is installed or booted.
place_bad() {
	local err rc=0 bad=$work/lab-place-bad
	rm -rf "$bad"
	err=$("$lab" --quiet --placement same,elsewhere --bin "$bin" --cache "$work/lab-cache" \
		--out "$bad" 2>&1) || rc=$?
	echo "$err" | sed 's/^/# /'
	check "--placement same,elsewhere: exit 2 (got $rc)" [ "$rc" = 2 ]
	check "--placement same,elsewhere: the message names it" \
		grep -q "unknown placement 'elsewhere'" <<<"$err"
	rc=0
	err=$("$lab" --quiet --placement different --link-rate 1G --bin "$bin" \
		--cache "$work/lab-cache" --out "$bad" 2>&1) || rc=$?
	echo "$err" | sed 's/^/# /'
	check "--link-rate 1G: exit 2 (got $rc), naming it" \
		eval '[ "$rc" = 2 ] && grep -q "link-rate .1G." <<<"$err"'
	check "bad input: nothing booted (no $bad)" [ ! -e "$bad" ]
}

main_place() {
	local start rc=0 log=$work/lab-place.log out=$work/lab-place
	place_bad
	start=$(date +%s)
	"$lab" --quiet --placement same,different --nics "$PLACE_MODEL" --link-rate "$LINK_RATE" \
		--duration 1 --tcp "$PLACE_TCP" --bin "$bin" --cache "$work/lab-cache" --out "$out" --timeout 200 \
		>"$log" 2>&1 || rc=$?
	sed 's/^/# /' "$log"
	echo "# vnic-lab --placement took $(($(date +%s) - start)) s"
	check "vnic-lab.sh --placement exit status 0 (got $rc)" [ "$rc" = 0 ]
	check "the table: a row for $PLACE_MODEL, columns same host and different hosts ($LINK_RATE), TCP beside each" \
		eval 'grep -q "| model *| same host *| TCP MB/s *| different hosts ($LINK_RATE) *| TCP MB/s *|" "$log" &&
			grep -q "^| $PLACE_MODEL .*MB/s .*Mpps *| [0-9.]* *| .*MB/s .*Mpps *| [0-9.]* *|" "$log"'
	check_emulated "$log" "$out"
	if check_rows "$out" check_place_cell; then
		check "both placements reported" [ "$(($(wc -l <"$out/summary.tsv") - 1))" = 2 ]
	fi
	echo "1..$n"
	return "$failed"
}
