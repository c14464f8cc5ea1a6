#!/bin/sh
# /init of the vnic-lab guest (busybox sh, no set -e: a failed run must not
# stop the others). Binds every Ethernet-class PCI device to uio_pci_generic,
# runs each line of /lab/runs.list ("NAME<TAB>COMMAND"), sends each run's
# files to the host on ttyS1 as base64 between markers, and powers off.
# Progress goes to the console (ttyS0) as "LAB: ..." lines.
# With --placement (/lab/env sets ROLE): the NIC at MGMT_PCI is left to the
# kernel's e1000 (management, MGMT_IP on QEMU's user network); ROLE=serve
# runs /lab/serve.cmd until a sender ends it, ROLE=send waits for the far
# end at PEER, runs the list and ends the far end's serve.

export PATH=/bin:/sbin:/usr/bin:/usr/sbin
export HOME=/root
RUN_TIMEOUT=120
ROLE="" MGMT_PCI="" MGMT_IP="" PEER=""
# shellcheck disable=SC1091
[ -r /lab/env ] && . /lab/env

say() {
	echo "LAB: $*" >/dev/console
}

mount_all() {
	mkdir -p /proc /sys /dev /tmp /run /var/run /root /out /dev/hugepages
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev 2>/dev/null
	mkdir -p /dev/hugepages
	mount -t hugetlbfs hugetlbfs /dev/hugepages
	mount -t tmpfs tmpfs /tmp
}

# Bind every PCI device of class 0x0200xx (Ethernet) to uio_pci_generic,
# unbinding a kernel driver first if one took it (virtio-pci is built in).
bind_nics() {
	insmod /lib/modules/uio.ko || say "insmod uio failed"
	insmod /lib/modules/uio_pci_generic.ko || say "insmod uio_pci_generic failed"
	for d in /sys/bus/pci/devices/*; do
		case "$(cat "$d/class")" in
		0x0200*) ;;
		*) continue ;;
		esac
		addr=${d##*/}
		[ "$addr" != "$MGMT_PCI" ] || continue
		if [ -e "$d/driver" ]; then
			echo "$addr" >"$d/driver/unbind"
		fi
		echo uio_pci_generic >"$d/driver_override"
		echo "$addr" >/sys/bus/pci/drivers_probe
		drv=$(basename "$(readlink "$d/driver" 2>/dev/null)" 2>/dev/null)
		say "nic $addr $(cat "$d/vendor"):$(cat "$d/device") -> ${drv:-unbound}"
	done
}

# Send every file of /out/NAME to the host on ttyS1, each with its MD5 so
# the host can tell a damaged transfer from a missing file.
emit_run() {
	echo "==LAB-RUN $1 $(cd "/out/$1" && echo *)==" >/dev/ttyS1
	for f in /out/"$1"/*; do
		[ -f "$f" ] || continue
		echo "==LAB-FILE $1/${f##*/} $(md5sum <"$f" | cut -d' ' -f1)=="
		base64 "$f"
		echo "==LAB-END=="
	done >/dev/ttyS1
}

run_all() {
	n=0
	while IFS='	' read -r name cmd; do
		case "$name" in
		'' | '#'*) continue ;;
		esac
		n=$((n + 1))
		OUT=/out/$name
		export OUT
		mkdir -p "$OUT"
		echo "$cmd" >"$OUT/cmd"
		say "run $name: start"
		t0=$(date +%s)
		timeout "$RUN_TIMEOUT" sh -c ". /lab/app.sh && $cmd" \
			>"$OUT/log" 2>&1 </dev/null
		rc=$?
		echo "$rc" >"$OUT/rc"
		rm -rf /dev/hugepages/* /var/run/dpdk
		say "run $name: rc=$rc $(($(date +%s) - t0)) s"
		emit_run "$name"
	done </lab/runs.list
	say "ran $n runs"
}

# The management NIC: the kernel's e1000 on QEMU's user network.
mgmt_up() {
	insmod /lib/modules/e1000.ko || say "insmod e1000 failed"
	ifconfig lo 127.0.0.1 up
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ -e /sys/class/net/eth0 ] && break
		sleep 1
	done
	ifconfig eth0 "$MGMT_IP" netmask 255.255.255.0 up
	route add default gw 10.0.2.2
	say "management eth0 $MGMT_IP"
}

# One JSON-RPC exchange with the far end's control socket: auth, then the
# method $1; prints what came back.
peer_call() {
	tok=$(cat /lab/token)
	printf '{"jsonrpc":"2.0","id":1,"method":"auth","params":{"token":"%s"}}\n{"jsonrpc":"2.0","id":2,"method":"%s"}\n' \
		"$tok" "$1" | nc -w 5 "${PEER%:*}" "${PEER##*:}" 2>/dev/null
}

# Waits (up to 300 s) until the far end's serve answers.
wait_peer() {
	t0=$(date +%s)
	while [ $(($(date +%s) - t0)) -lt 300 ]; do
		case "$(peer_call status)" in
		*'"id":2'*) say "far end up after $(($(date +%s) - t0)) s"; return 0 ;;
		esac
		sleep 2
	done
	say "far end not up after 300 s"
}

# The far end: serve until a sender's shutdown, then its log to the host.
run_serve() {
	OUT=/out/serve
	mkdir -p "$OUT"
	say "serve: start"
	sh -c "$(cat /lab/serve.cmd)" >"$OUT/log" 2>&1 </dev/null
	echo "$?" >"$OUT/rc"
	say "serve: rc=$(cat "$OUT/rc")"
	emit_run serve
}

main() {
	mount_all
	stty -F /dev/ttyS1 raw -echo 2>/dev/null
	say "guest up: kernel $(uname -r), $(nproc) cpus, $(awk '/HugePages_Total/ {print $2}' /proc/meminfo) hugepages"
	bind_nics
	[ -z "$MGMT_PCI" ] || mgmt_up
	case "$ROLE" in
	serve) run_serve ;;
	send)
		wait_peer
		run_all
		peer_call shutdown >/dev/null
		;;
	*) run_all ;;
	esac
	echo "==LAB-DONE==" >/dev/ttyS1
	say "power off"
	sync
	poweroff -f
}

main
