#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The host side of a wirerate campaign (docs/campaigns.md): the steps the
# playbook runs on a host, one command per Ansible task. Nothing here
# stays running between tasks but the receiver of the current cell and the
# exporters the playbook asked for. POSIX sh.
#
#   wr-host.sh prepare WR_DIR HUGEPAGES BIND_DRIVER PREFIX EXPORTERS [PCI...]
#       PREFIX: the --file-prefix of this host's runs, less -snd / -rcv;
#       EXPORTERS: ADDRESS:PORT_SND:PORT_RCV, or none
#   wr-host.sh restore WR_DIR
#   wr-host.sh rcv-start CELL_DIR READY_S COMMAND...
#   wr-host.sh rcv-finish CELL_DIR WAIT_S
#   wr-host.sh snd-run CELL_DIR TIMEOUT_S COMMAND...
#
# snd-run and rcv-finish print the JSON result on stdout (the controller
# keeps it: one SSH round trip fewer than a fetch) and the log on stderr.
set -u

die() { echo "wr-host: $*" >&2; exit 1; }

# True while PID runs (a zombie waiting for its reaper does not).
alive() {
	[ -n "$1" ] && kill -0 "$1" 2>/dev/null &&
		! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null
}

# Stop the process whose PID is in FILE (if it still runs), TERM then KILL.
# (TERM: a command started with & by a non-interactive shell ignores INT.)
stop_pidfile() {
	[ -f "$1" ] || return 0
	pid=$(cat "$1")
	rm -f "$1"
	alive "$pid" || return 0
	kill -TERM "$pid" 2>/dev/null
	i=0
	while alive "$pid" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	alive "$pid" && kill -KILL "$pid" 2>/dev/null
	return 0
}

# At least N 2 MiB hugepages (never fewer than the host has) and hugetlbfs.
hugepages() {
	f=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
	have=$(cat $f 2>/dev/null || echo 0)
	[ "$have" -ge "$1" ] || echo "$1" > $f || die "cannot reserve $1 hugepages"
	grep -qs ' hugetlbfs ' /proc/mounts || {
		mkdir -p /dev/hugepages && mount -t hugetlbfs nodev /dev/hugepages
	} || die "cannot mount hugetlbfs"
	echo "hugepages: $(cat $f) x 2 MiB"
}

# Bind each PCI address to DRIVER, remembering its driver in bound.txt.
bind() {
	dir=$1 drv=$2
	shift 2
	[ $# -gt 0 ] || return 0
	command -v dpdk-devbind.py >/dev/null || die "dpdk-devbind.py missing (package dpdk)"
	modprobe "$drv" 2>/dev/null || true
	[ "$drv" = vfio-pci ] && [ ! -d /sys/kernel/iommu_groups/0 ] &&
		echo 1 > /sys/module/vfio/parameters/enable_unsafe_noiommu_mode 2>/dev/null
	for pci in "$@"; do
		cur=$(basename "$(readlink "/sys/bus/pci/devices/$pci/driver" 2>/dev/null)")
		[ -e "/sys/bus/pci/devices/$pci" ] || die "no PCI device $pci"
		[ "$cur" = "$drv" ] && continue
		grep -q "^$pci " "$dir/bound.txt" 2>/dev/null ||
			echo "$pci ${cur:-none}" >> "$dir/bound.txt"
		dpdk-devbind.py --force -b "$drv" "$pci" || die "cannot bind $pci to $drv"
		echo "bound $pci to $drv (was ${cur:-none})"
	done
}

# One exporter per role, on ADDRESS:PORT_SND and ADDRESS:PORT_RCV, each
# reading the telemetry of the wirerate process with that role's prefix.
# Run by its own #! line: /usr/bin/python3, where Debian's
# python3-prometheus-client lives.
exporters() {
	dir=$1 prefix=$2
	addr=${3%%:*}
	ports=${3#*:}
	for role in snd rcv; do
		port=${ports%%:*}
		ports=${ports#*:}
		stop_pidfile "$dir/exporter-$role.pid"
		setsid "$dir/bin/wirerate-exporter.py" --file-prefix "$prefix-$role" \
			--listen "$addr:$port" > "$dir/exporter-$role.log" 2>&1 < /dev/null &
		echo $! > "$dir/exporter-$role.pid"
		echo "exporter $role: http://$addr:$port/metrics"
	done
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
prepare)
	[ $# -ge 5 ] || die "prepare WR_DIR HUGEPAGES BIND_DRIVER PREFIX EXPORTERS [PCI...]"
	dir=$1 pages=$2 drv=$3 prefix=$4 exp=$5
	shift 5
	mkdir -p "$dir/cells" || die "cannot create $dir"
	hugepages "$pages"
	bind "$dir" "$drv" "$@"
	[ "$exp" = none ] || exporters "$dir" "$prefix" "$exp"
	;;
restore)
	[ $# -eq 1 ] || die "restore WR_DIR"
	dir=$1
	stop_pidfile "$dir/exporter-snd.pid"
	stop_pidfile "$dir/exporter-rcv.pid"
	for f in "$dir"/cells/*/rcv.pid; do stop_pidfile "$f"; done
	if [ -f "$dir/bound.txt" ]; then
		while read -r pci drv; do
			if [ "$drv" = none ]; then
				dpdk-devbind.py --force -u "$pci"
			else
				dpdk-devbind.py --force -b "$drv" "$pci"
			fi && echo "restored $pci to $drv"
		done < "$dir/bound.txt"
		rm -f "$dir/bound.txt"
	fi
	;;
rcv-start)
	[ $# -ge 3 ] || die "rcv-start CELL_DIR READY_S COMMAND..."
	dir=$1 ready=$2
	shift 2
	mkdir -p "$dir" && cd "$dir" || die "cannot create $dir"
	stop_pidfile rcv.pid          # left by an interrupted controller
	rm -f rcv.json rcv.log rcv.rc
	# The receiver in its own session, its exit code kept in rcv.rc.
	setsid sh -c '"$@" & echo $! > rcv.pid; wait $!; echo $? > rcv.rc' \
		wr-receiver "$@" > rcv.log 2>&1 < /dev/null &
	i=0
	while [ $i -lt $((ready * 10)) ]; do
		grep -q 'waiting for the first frame' rcv.log 2>/dev/null &&
			{ echo "receiver ready (pid $(cat rcv.pid))"; exit 0; }
		[ -f rcv.rc ] && break
		sleep 0.1
		i=$((i + 1))
	done
	tail -n 5 rcv.log
	[ -f rcv.rc ] && die "receiver exited $(cat rcv.rc) before it was ready"
	stop_pidfile rcv.pid
	die "receiver not ready after ${ready}s"
	;;
rcv-finish)
	[ $# -eq 2 ] || die "rcv-finish CELL_DIR WAIT_S"
	cd "$1" || die "no $1"
	i=0
	while [ ! -f rcv.rc ] && [ $i -lt $(($2 * 10)) ]; do sleep 0.1; i=$((i + 1)); done
	if [ ! -f rcv.rc ]; then
		echo "receiver still running ${2}s after the sender: stopped" >&2
		kill -INT "$(cat rcv.pid)" 2>/dev/null
		i=0
		while [ ! -f rcv.rc ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
		[ -f rcv.rc ] || stop_pidfile rcv.pid
	fi
	rm -f rcv.pid
	rc=$(cat rcv.rc 2>/dev/null || echo 1)
	tail -n 3 rcv.log >&2
	echo "receiver exit $rc" >&2
	# The result comes back to the controller as this task's output.
	[ -f rcv.json ] && cat rcv.json
	exit "$rc"
	;;
snd-run)
	[ $# -ge 3 ] || die "snd-run CELL_DIR TIMEOUT_S COMMAND..."
	dir=$1 t=$2
	shift 2
	mkdir -p "$dir" && cd "$dir" || die "cannot create $dir"
	rm -f snd.json snd.log
	timeout -s INT -k 10 "$t" "$@" > snd.log 2>&1 < /dev/null
	rc=$?
	tail -n 5 snd.log >&2
	[ $rc -eq 124 ] && echo "sender still running after ${t}s: stopped" >&2
	echo "sender exit $rc" >&2
	[ -f snd.json ] && cat snd.json
	exit "$rc"
	;;
*)
	die "unknown command '$cmd' (prepare, restore, rcv-start, rcv-finish, snd-run)"
	;;
esac
