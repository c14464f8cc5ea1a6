#!/bin/sh
# /init of the vnic-lab guest (busybox sh, no set -e: a failed run must not
# stop the others). Binds every Ethernet-class PCI device to uio_pci_generic,
# runs each line of /lab/runs.list ("NAME<TAB>COMMAND"), sends each run's
# files to the host on ttyS1 as base64 between markers, and powers off.
# Progress goes to the console (ttyS0) as "LAB: ..." lines.

export PATH=/bin:/sbin:/usr/bin:/usr/sbin
export HOME=/root
RUN_TIMEOUT=120
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

main() {
	mount_all
	stty -F /dev/ttyS1 raw -echo 2>/dev/null
	say "guest up: kernel $(uname -r), $(nproc) cpus, $(awk '/HugePages_Total/ {print $2}' /proc/meminfo) hugepages"
	bind_nics
	run_all
	echo "==LAB-DONE==" >/dev/ttyS1
	say "power off"
	sync
	poweroff -f
}

main
