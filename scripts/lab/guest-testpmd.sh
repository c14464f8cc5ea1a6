# Guest-side helpers for the dpdk-testpmd stand-in (sourced as /lab/app.sh).
# testpmd cannot send on one port and count on another in one process, so a
# run is two processes: an rxonly receiver on the RX NIC (lcore 1) and a
# sender that transmits COUNT frames with "start tx_first" on the TX NIC
# (lcore 0). Both write their logs to $OUT; the host parses them.

TP=/usr/bin/dpdk-testpmd

# tp_wait_for TEXT FILE PID SECS: wait until FILE holds TEXT; fail when PID
# ends first or after SECS seconds.
tp_wait_for() {
	i=0
	while ! grep -q "$1" "$2" 2>/dev/null; do
		kill -0 "$3" 2>/dev/null || return 1
		i=$((i + 1))
		[ "$i" -gt $(($4 * 10)) ] && return 1
		usleep 100000
	done
}

# tp_pair TX_PCI RX_PCI SIZE COUNT
# Sends COUNT frames of SIZE bytes (FCS included) from TX_PCI; counts them on
# RX_PCI. COUNT is rounded down to a multiple of the 32-frame burst.
tp_pair() {
	tx=$1 rx=$2 size=$3 count=$4
	len=$((size - 4))
	common="--txd=512 --burst=32 --record-core-cycles"
	rxd=4096
	if [ "$size" -gt 1518 ]; then
		# Jumbo: the whole frame in one mbuf (QEMU's e1000 cannot split).
		rxd=1024
		common="$common --mbuf-size=$((len + 384)) --max-pkt-len=$size"
	fi
	# vmxnet3 fills two RX rings per queue: 2 x rxd, plus TX and caches.
	common="$common --total-num-mbufs=$((2 * rxd + 512 + 1024))"

	mkfifo /tmp/rx.ctl
	# Line-buffered stdout (coreutils' stdbuf preload) so the log shows
	# "Press enter" as soon as forwarding runs.
	LD_PRELOAD=/usr/lib/libstdbuf.so _STDBUF_O=L \
		$TP -l 0-1 -n 1 --file-prefix rx -a "$rx" -- \
		--forward-mode=rxonly --rxd=$rxd $common \
		<"/tmp/rx.ctl" >"$OUT/rx.log" 2>&1 &
	rxpid=$!
	exec 3>/tmp/rx.ctl
	if ! tp_wait_for "Press enter to exit" "$OUT/rx.log" "$rxpid" 60; then
		echo "receiver did not start"
		exec 3>&-
		wait "$rxpid"
		rm -f /tmp/rx.ctl
		return 1
	fi
	printf 'start tx_first %d\nstop\nquit\n' $((count / 32)) >/tmp/tx.cmd
	$TP -l 0-1 --main-lcore 1 -n 1 --file-prefix tx -a "$tx" -- \
		-i --cmdline-file=/tmp/tx.cmd --forward-mode=rxonly --rxd=512 \
		--txpkts=$len $common </dev/null >"$OUT/tx.log" 2>&1
	txrc=$?
	sleep 1
	echo >&3
	exec 3>&-
	wait "$rxpid"
	rxrc=$?
	rm -f /tmp/rx.ctl /tmp/tx.cmd
	echo "tx rc=$txrc rx rc=$rxrc"
	[ "$txrc" -eq 0 ] && [ "$rxrc" -eq 0 ]
}
