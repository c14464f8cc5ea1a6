#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The host side of a wirerate campaign (docs/campaigns.md): the steps the
# playbook runs on a host, one command per Ansible task. Nothing here
# stays running between tasks but the receiver of the current cell and the
# exporters the playbook asked for. POSIX sh.
#
#   wr-host.sh prepare WR_DIR HUGEPAGES BIND_DRIVER PREFIX EXPORTERS [PCI...]
#       PREFIX: the --file-prefix of this host's runs, less -snd / -rcv;
#       EXPORTERS: ADDRESS:PORT_SND:PORT_RCV, or none; PCI: an address,
#       or force=ADDRESS (the inventory's bind: force) to bind it even
#       when its interface carries an address or a route
#   wr-host.sh restore WR_DIR
#
# Every change prepare makes to the host (hugepages, the vfio module and
# its no-IOMMU mode, a device's driver) is written to WR_DIR/state.txt
# before it is made; restore reverts them, newest first, and prepare
# restores first when an interrupted run left a state file. The
# environment may name other tools and another sysfs (the namespace test
# bed: tests/campaign/bed.py): WR_SYSFS [/sys], WR_DEVBIND
# [dpdk-devbind.py], WR_MODPROBE [modprobe].
#   wr-host.sh rcv-start CELL_DIR READY_S [--token] COMMAND...
#   wr-host.sh rcv-finish CELL_DIR WAIT_S
#   wr-host.sh snd-run CELL_DIR TIMEOUT_S [--token] COMMAND...
#   wr-host.sh dut-prepare WR_DIR
#   wr-host.sh dut-start CELL_DIR INTERVAL_S IFACE...
#   wr-host.sh dut-stop CELL_DIR
#   wr-host.sh dut-mtu MTU IFACE...
#
# dut-start samples the DUT (any Linux host: sh, cat, grep, date, sleep)
# every INTERVAL_S until dut-stop, which prints every sample on stdout:
# "@t EPOCH_S", the cpu and intr lines of /proc/stat, the NET_RX and NET_TX
# lines of /proc/softirqs, the IFACEs' lines of /proc/interrupts, and per
# IFACE "@net IFACE rx_packets tx_packets rx_bytes tx_bytes rx_dropped
# tx_dropped", and "@pid" lines of the DUT's processes (WR_DUT_PIDS, those
# named WR_DUT_PROCESS, or those of the namespace WR_DUT_NETNS: see
# dut_pids); once before, where
# the interfaces' RPS and IRQs run (dut_where), and `ethtool -S IFACE`
# where present, once before and once after ("@ethtool IFACE start|end",
# its lines). files/wr_dut.py reads it. dut-mtu sets the MTU of the
# DUT's IFACEs (ip link set dev IFACE mtu MTU) before a cell of dut: mtu.
#
# --token: the first line of stdin is the campaign's token for a search
# cell's --peer (CELL_DIR/peer.token, mode 0600: never on a command line).
# A receiver is ready when it waits for its first frame, or, a `wirerate
# serve` for a search cell, when it serves.
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

SYSFS=${WR_SYSFS:-/sys}
DEVBIND=${WR_DEVBIND:-dpdk-devbind.py}
MODPROBE=${WR_MODPROBE:-modprobe}

# --token: stdin's first line into peer.token (in the cell's directory).
token() {
	(umask 077 && head -n 1 > peer.token) || die "cannot write $PWD/peer.token"
	[ -s peer.token ] || die "--token: no token on stdin"
}

# Remember one change (KIND KEY OLD) before it is made.
remember() { echo "$*" >> "$dir/state.txt"; }

# At least N 2 MiB hugepages (never fewer than the host has) and hugetlbfs.
hugepages() {
	f=$SYSFS/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
	have=$(cat "$f" 2>/dev/null || echo 0)
	if [ "$have" -lt "$1" ]; then
		remember hugepages - "$have"
		echo "$1" > "$f" || die "cannot reserve $1 hugepages"
	fi
	grep -qs ' hugetlbfs ' /proc/mounts || {
		mkdir -p /dev/hugepages && mount -t hugetlbfs nodev /dev/hugepages
	} || die "cannot mount hugetlbfs"
	echo "hugepages: $(cat "$f") x 2 MiB"
}

# The driver's module loaded, and vfio's no-IOMMU mode where the host has
# no IOMMU groups; each remembered when this step changed it.
driver() {
	mod=$(echo "$1" | tr - _)
	if [ ! -d "$SYSFS/module/$mod" ]; then
		remember module "$1" absent
		$MODPROBE "$1" || die "cannot load the module of $1"
	fi
	[ "$1" = vfio-pci ] && [ ! -d "$SYSFS/kernel/iommu_groups/0" ] || return 0
	f=$SYSFS/module/vfio/parameters/enable_unsafe_noiommu_mode
	old=$(cat "$f" 2>/dev/null) || die "no $f: cannot use vfio-pci without an IOMMU"
	[ "$old" = Y ] || [ "$old" = 1 ] && return 0
	remember noiommu - "$old"
	echo 1 > "$f" || die "cannot set vfio no-IOMMU mode"
}

# Why PCI must not be bound (one of its interfaces carries an address or
# a route: e.g. the host's own SSH link), or nothing.
active() {
	for n in "$SYSFS/bus/pci/devices/$1/net"/*; do
		[ -e "$n" ] || continue
		n=$(basename "$n")
		[ -n "$(ip -o addr show dev "$n" 2>/dev/null)" ] &&
			{ echo "its interface $n carries an address"; return; }
		[ -n "$(ip route show dev "$n" 2>/dev/null)" ] &&
			{ echo "its interface $n carries a route"; return; }
	done
}

# Bind each PCI address (or force=ADDRESS) to DRIVER, remembering its
# driver. Never unbinds an active interface unless forced.
bind() {
	drv=$1
	shift
	[ $# -gt 0 ] || return 0
	command -v "${DEVBIND%% *}" >/dev/null || die "$DEVBIND missing (package dpdk)"
	driver "$drv"
	for arg in "$@"; do
		pci=${arg#force=} force=
		[ "$pci" = "$arg" ] || force=--force
		[ -e "$SYSFS/bus/pci/devices/$pci" ] || die "no PCI device $pci"
		cur=$(basename "$(readlink "$SYSFS/bus/pci/devices/$pci/driver" 2>/dev/null)")
		[ "$cur" = "$drv" ] && continue
		why=$(active "$pci")
		[ -z "$why" ] || [ -n "$force" ] || die "refusing to bind $pci to $drv: $why" \
			"(the host's own link?); bind: force on its port in the inventory binds it anyway"
		remember bind "$pci" "${cur:-none}"
		$DEVBIND $force -b "$drv" "$pci" || die "cannot bind $pci to $drv"
		echo "bound $pci to $drv (was ${cur:-none})"
	done
}

# Revert one remembered change; 0 when reverted (a module that is not
# loaded is: its load, remembered first, failed or was undone).
revert() {
	case $1 in
	hugepages) echo "$3" > "$SYSFS/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages" ;;
	noiommu) echo "$3" > "$SYSFS/module/vfio/parameters/enable_unsafe_noiommu_mode" ;;
	module) [ ! -d "$SYSFS/module/$(echo "$2" | tr - _)" ] || $MODPROBE -r "$2" ;;
	bind) if [ "$3" = none ]; then $DEVBIND -u "$2"; else $DEVBIND -b "$3" "$2"; fi ;;
	*) false ;;
	esac && echo "restored $1$([ "$2" = - ] || echo " $2") to $3"
}

# Revert state.txt, newest change first; what cannot be reverted stays in
# it (the next restore tries again) and fails this step.
restore_state() {
	[ -f "$dir/state.txt" ] || return 0
	left=
	while read -r kind key old; do
		revert "$kind" "$key" "$old" || left="$kind $key $old
$left"
	done <<EOF_STATE
$(sed -n '1!G;h;$p' "$dir/state.txt")
EOF_STATE
	if [ -n "$left" ]; then
		printf '%s' "$left" | sed -n '1!G;h;$p' > "$dir/state.txt"
		die "could not restore: $(printf '%s' "$left" | tr '\n' ';')"
	fi
	rm -f "$dir/state.txt"
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

# One sample of the DUT (see the header) on stdout.
dut_sample() {
	echo "@t $(date +%s.%N)"
	grep -E '^(cpu|intr )' /proc/stat | sed -E 's/^(intr [0-9]+).*/\1/'
	grep -E '^ *NET_(RX|TX):' /proc/softirqs
	for n in "$@"; do
		grep -E "[ -]$n([- ]|\$)" /proc/interrupts | sed 's/^/@irq /'
		d=/sys/class/net/$n/statistics
		echo "@net $n $(cat "$d/rx_packets" "$d/tx_packets" "$d/rx_bytes" \
			"$d/tx_bytes" "$d/rx_dropped" "$d/tx_dropped" | tr '\n' ' ')"
	done
	dut_pids
}

# "@pid PID PPID utime stime COMM" (ticks) of each process of the DUT:
# WR_DUT_PIDS, the processes whose name (comm) is WR_DUT_PROCESS, or
# every process in the network namespace WR_DUT_NETNS but this sampler
# and its children.
dut_pids() {
	pids=${WR_DUT_PIDS:-}
	[ -z "${WR_DUT_PROCESS:-}" ] || pids=$(grep -lx "$WR_DUT_PROCESS" /proc/[0-9]*/comm \
		2>/dev/null | cut -d/ -f3)
	[ -z "${WR_DUT_NETNS:-}" ] || pids=$(ip netns pids "$WR_DUT_NETNS" 2>/dev/null)
	for p in $pids; do
		[ "$p" = "$$" ] && continue
		read -r st < "/proc/$p/stat" 2>/dev/null || continue
		comm=${st#*(}
		comm=${comm%)*}
		# shellcheck disable=SC2086 # the fields after "(comm) "
		set -- ${st##*) }
		[ "$2" = "$$" ] && continue
		ppid=$2
		shift 11
		echo "@pid $p $ppid $1 $2 $comm"
	done
}

# Where the DUT's interfaces do their work: "@hz TICKS_PER_S", per IFACE
# "@rps IFACE HEXMASK" (RPS of each RX queue) and "@irqcpu IFACE LIST"
# (the affinity of each of its IRQs).
dut_where() {
	echo "@hz $(getconf CLK_TCK 2>/dev/null || echo 100)"
	for n in "$@"; do
		for q in /sys/class/net/"$n"/queues/rx-*/rps_cpus; do
			[ -r "$q" ] && echo "@rps $n $(cat "$q")"
		done
		grep -E "[ -]$n([- ]|\$)" /proc/interrupts | cut -d: -f1 | while read -r irq; do
			echo "@irqcpu $n $(cat "/proc/irq/$irq/smp_affinity_list" 2>/dev/null)"
		done
	done
}

# ethtool -S of each interface that has it, tagged WHEN.
dut_ethtool() {
	when=$1
	shift
	command -v ethtool >/dev/null || return 0
	for n in "$@"; do
		out=$(ethtool -S "$n" 2>/dev/null) || continue
		echo "@ethtool $n $when"
		echo "$out"
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
	# An interrupted run's receivers and DUT samplers hold ports and sockets.
	for f in "$dir"/cells/*/rcv.pid "$dir"/cells/*/dut.pid; do stop_pidfile "$f"; done
	if [ -f "$dir/state.txt" ]; then
		echo "an interrupted run left changes: restoring them first"
		restore_state
	fi
	hugepages "$pages"
	bind "$drv" "$@"
	[ "$exp" = none ] || exporters "$dir" "$prefix" "$exp"
	;;
restore)
	[ $# -eq 1 ] || die "restore WR_DIR"
	dir=$1
	stop_pidfile "$dir/exporter-snd.pid"
	stop_pidfile "$dir/exporter-rcv.pid"
	for f in "$dir"/cells/*/rcv.pid "$dir"/cells/*/dut.pid; do stop_pidfile "$f"; done
	restore_state
	;;
rcv-start)
	[ $# -ge 3 ] || die "rcv-start CELL_DIR READY_S COMMAND..."
	dir=$1 ready=$2
	shift 2
	mkdir -p "$dir" && cd "$dir" || die "cannot create $dir"
	stop_pidfile rcv.pid          # left by an interrupted controller
	rm -f rcv.json rcv.log rcv.rc
	if [ "$1" = --token ]; then token; shift; fi
	# The receiver in its own session, its exit code kept in rcv.rc.
	setsid sh -c '"$@" & echo $! > rcv.pid; wait $!; echo $? > rcv.rc' \
		wr-receiver "$@" > rcv.log 2>&1 < /dev/null &
	i=0
	while [ $i -lt $((ready * 10)) ]; do
		grep -qE 'waiting for the first frame|serving on' rcv.log 2>/dev/null &&
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
	if [ "$1" = --token ]; then token; shift; fi
	timeout -s INT -k 10 "$t" "$@" > snd.log 2>&1 < /dev/null
	rc=$?
	tail -n 5 snd.log >&2
	[ $rc -eq 124 ] && echo "sender still running after ${t}s: stopped" >&2
	echo "sender exit $rc" >&2
	[ -f snd.json ] && cat snd.json
	exit "$rc"
	;;
dut-prepare)
	[ $# -eq 1 ] || die "dut-prepare WR_DIR"
	mkdir -p "$1/cells" || die "cannot create $1"
	;;
dut-start)
	[ $# -ge 3 ] || die "dut-start CELL_DIR INTERVAL_S IFACE..."
	dir=$1 every=$2
	shift 2
	for n in "$@"; do
		[ -d "/sys/class/net/$n/statistics" ] || die "the DUT has no interface $n"
	done
	self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
	mkdir -p "$dir" && cd "$dir" || die "cannot create $dir"
	stop_pidfile dut.pid
	{ dut_where "$@"; dut_ethtool start "$@"; } > dut.txt
	# The sampler in its own session: it outlives this task's SSH session.
	setsid sh "$self" dut-loop "$every" "$@" >> dut.txt 2>dut.err < /dev/null &
	echo $! > dut.pid
	echo "DUT sampled every ${every}s (pid $!)"
	;;
dut-loop)
	every=$1
	shift
	for sig in INT TERM; do trap 'dut_sample "$@"; exit 0' $sig; done
	while :; do dut_sample "$@"; sleep "$every"; done
	;;
dut-mtu)
	[ $# -ge 2 ] || die "dut-mtu MTU IFACE..."
	mtu=$1
	shift
	for n in "$@"; do
		ip link set dev "$n" mtu "$mtu" || die "cannot set MTU $mtu on $n"
	done
	echo "MTU $mtu on $*"
	;;
dut-stop)
	[ $# -eq 1 ] || die "dut-stop CELL_DIR"
	cd "$1" || die "no $1"
	[ -f dut.pid ] || die "no DUT sampler in $1"
	# shellcheck disable=SC2046 # one word per interface
	set -- $(grep -o '^@net [^ ]*' dut.txt | sort -u | cut -d' ' -f2)
	stop_pidfile dut.pid
	dut_ethtool end "$@" >> dut.txt
	cat dut.txt
	;;
*)
	die "unknown command '$cmd' (prepare, restore, rcv-start, rcv-finish, snd-run," \
		"dut-prepare, dut-start, dut-stop, dut-mtu)"
	;;
esac
