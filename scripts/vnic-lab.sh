#!/usr/bin/env bash
# vnic-lab.sh: drive the real vmxnet3 / e1000 / e1000e / virtio PMDs inside a
# QEMU guest (KVM when usable, else TCG emulation), run wirerate scenarios
# there, bring the results out on a serial port and print a table per NIC
# model. See docs/lab.md.
set -euo pipefail

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP_DIR=$(cd "$LAB_DIR/.." && pwd)
readonly LAB_DIR TOP_DIR
readonly PROG=${0##*/}

# Models: QEMU device and the PMD expected to probe it. All carry MTU 9000.
declare -A NIC_DEVICE=(
	[vmxnet3]=vmxnet3 [e1000]=e1000 [e1000e]=e1000e
	[e1000-82545em]=e1000-82545em [virtio]=virtio-net-pci
)
declare -A NIC_DRIVER=(
	[vmxnet3]=net_vmxnet3 [e1000]=net_e1000_em [e1000e]=net_e1000_em
	[e1000-82545em]=net_e1000_em [virtio]=net_virtio
)
readonly SWEEP_SIZES="64 128 256 512 1024 1280 1518"
readonly PMDS="bus_pci bus_vdev mempool_ring mempool_stack net_vmxnet3 net_e1000 net_virtio"

# Options (set by parse_args).
nics="vmxnet3,e1000,e1000e,virtio"
scenario=""
tx_model="" rx_models="" sizes="" count="" rate="" duration=""
app=wirerate bin="" rxd=4096
cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/wirerate-lab"
out_dir="" accel=auto install=1 guest_timeout="" quiet=0 keep_work=0
mem_mb=1024 smp=3

usage() {
	cat <<EOF
Usage: $PROG [options]

Boots a QEMU guest with the listed NIC models on one internal hub, binds
them to uio_pci_generic, runs a scenario (which NIC sends, which receive,
frame sizes, count or duration, rate) with wirerate inside, collects the JSON
results over a serial port and prints one table row per run.

Scenario (one of):
  --scenario NAME|FILE  pairs: each model sends to each other model (default)
                        jumbo: MTU 1500 vs 9000 (1518 vs 9018 B), each
                               model to each other
                        sweep: frame sizes $SWEEP_SIZES
                               from --tx to --rx (default: the first
                               model to the second)
                        FILE:  one run per line, "NAME key=value ...",
                               keys tx rx size count rate duration
                               (the MTU follows the size: 9018 B = 9000)
  --tx MODEL --rx MODEL[,MODEL...]   a single pair (with --size/--sizes)

Traffic:
  --size N | --sizes "N N ..."  frame size(s) in bytes, FCS included (64)
  --count N             frames per run (default 2048 unless --duration)
  --duration SECS       send for SECS seconds instead of a count
  --rate RATE           pace the sender, in wirerate's --rate syntax
                        (20kpps, 1.5Mpps, 2Gbps, ...)
  --rxd N               RX descriptors per queue (default $rxd: under TCG
                        the receiver is slower than the sender)

Guest:
  --nics LIST           NIC models on the hub, comma separated
                        (default $nics; also e1000-82545em)
  --accel auto|kvm|tcg  auto uses KVM when /dev/kvm works (default auto)
  --mem MB / --smp N    guest memory and vCPUs (default $mem_mb / $smp)
  --timeout SECS        hard limit for the whole guest run (default: derived)

Program and files:
  --app wirerate|testpmd  generator in the guest (default wirerate;
                        testpmd: DPDK's reference, counts only)
  --bin PATH            wirerate binary (default: build*/app/wirerate, PATH)
  --cache DIR           kernel and tool cache (default $cache_dir)
  --out DIR             results directory (default: a new /tmp/vnic-lab.*)
  --no-install          do not apt-get install missing tools
  --keep                keep the work directory (initramfs, console log)
  -q, --quiet           no progress lines
  -h, --help            this text

Exit status: 0 all runs completed, 1 a run or the guest failed, 2 bad usage.
Results: OUT/summary.tsv (one line per run) and OUT/NAME/ (logs, JSON).
EOF
}

die() {
	echo "$PROG: error: $*" >&2
	exit 1
}

usage_error() {
	echo "$PROG: $*" >&2
	echo "Try '$PROG --help'." >&2
	exit 2
}

say() {
	[ "$quiet" -eq 1 ] || echo "$PROG: $*" >&2
}

need_arg() {
	[ "$#" -ge 2 ] && [ -n "$2" ] || usage_error "option $1 needs a value"
}

parse_args() {
	while [ "$#" -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--nics) need_arg "$@"; nics=$2; shift ;;
		--scenario) need_arg "$@"; scenario=$2; shift ;;
		--tx) need_arg "$@"; tx_model=$2; shift ;;
		--rx) need_arg "$@"; rx_models=$2; shift ;;
		--size | --sizes) need_arg "$@"; sizes=${2//,/ }; shift ;;
		--count) need_arg "$@"; count=$2; shift ;;
		--duration) need_arg "$@"; duration=$2; shift ;;
		--rate) need_arg "$@"; rate=$2; shift ;;
		--rxd) need_arg "$@"; rxd=$2; shift ;;
		--accel) need_arg "$@"; accel=$2; shift ;;
		--mem) need_arg "$@"; mem_mb=$2; shift ;;
		--smp) need_arg "$@"; smp=$2; shift ;;
		--timeout) need_arg "$@"; guest_timeout=$2; shift ;;
		--app) need_arg "$@"; app=$2; shift ;;
		--bin) need_arg "$@"; bin=$2; shift ;;
		--cache) need_arg "$@"; cache_dir=$2; shift ;;
		--out) need_arg "$@"; out_dir=$2; shift ;;
		--no-install) install=0 ;;
		--keep) keep_work=1 ;;
		-q | --quiet) quiet=1 ;;
		*) usage_error "unknown option '$1'" ;;
		esac
		shift
	done
	check_args
}

is_uint() {
	[[ "$1" =~ ^[0-9]+$ ]]
}

is_seconds() {
	[[ "$1" =~ ^[0-9]+(\.[0-9]+)?$ ]]
}

# wirerate checks the rate itself (pps, kpps, Mpps, Gbps, l2:, %, max); this
# only keeps shell syntax out of the guest command line.
is_rate() {
	[[ "$1" =~ ^[A-Za-z0-9.:%]+$ ]]
}

check_args() {
	local m v
	for v in "$count" "$rxd" "$mem_mb" "$smp" "$guest_timeout" $sizes; do
		[ -z "$v" ] || is_uint "$v" || usage_error "'$v' is not a whole number"
	done
	[ -z "$duration" ] || is_seconds "$duration" ||
		usage_error "--duration '$duration': expected seconds"
	[ -z "$rate" ] || is_rate "$rate" ||
		usage_error "--rate '$rate': expected wirerate's rate, e.g. 20kpps"
	[ "$smp" -ge 2 ] || usage_error "--smp: at least 2 (main lcore and a worker)"
	[ -z "$count" ] || [ -z "$duration" ] ||
		usage_error "--count and --duration exclude each other"
	case "$accel" in auto | kvm | tcg) ;; *) usage_error "--accel: auto, kvm or tcg" ;; esac
	case "$app" in wirerate | testpmd) ;; *) usage_error "--app: wirerate or testpmd" ;; esac
	IFS=, read -r -a NICS <<<"$nics"
	[ "${#NICS[@]}" -ge 2 ] || usage_error "--nics needs at least two models"
	for m in "${NICS[@]}"; do
		[ -n "${NIC_DEVICE[$m]:-}" ] ||
			usage_error "unknown NIC model '$m' (known: ${!NIC_DEVICE[*]})"
		[ "$(printf '%s\n' "${NICS[@]}" | grep -cx "$m")" -eq 1 ] ||
			usage_error "NIC model '$m' listed twice"
	done
	if [ -n "$tx_model$rx_models" ]; then
		[ -n "$tx_model" ] && [ -n "$rx_models" ] || usage_error "--tx and --rx go together"
		[ -z "$scenario" ] || [ "$scenario" = sweep ] ||
			usage_error "--tx/--rx go with --scenario sweep only"
	fi
	[ -n "$scenario" ] || [ -n "$tx_model" ] || scenario=pairs
}

# --- host tools ---------------------------------------------------------

# Install the Debian packages whose commands are missing.
ensure_tools() {
	local -A want=([qemu-system-x86_64]=qemu-system-x86 [cpio]=cpio [jq]=jq)
	local c pkgs=()
	for c in "${!want[@]}"; do
		command -v "$c" >/dev/null || pkgs+=("${want[$c]}")
	done
	# busybox-static, not the dynamic busybox: the guest has no libc for it.
	busybox_bin=/bin/busybox
	file_is_static "$busybox_bin" || pkgs+=(busybox-static)
	[ "${#pkgs[@]}" -eq 0 ] && return 0
	[ "$install" -eq 1 ] || die "missing packages: ${pkgs[*]} (run without --no-install, or apt-get install them)"
	[ "$(id -u)" -eq 0 ] || die "missing packages: ${pkgs[*]}; apt-get needs root"
	say "installing ${pkgs[*]}"
	apt_get install -y --no-install-recommends "${pkgs[@]}"
	file_is_static "$busybox_bin" || die "$busybox_bin is not statically linked"
}

file_is_static() {
	[ -x "$1" ] && ! LC_ALL=C ldd "$1" >/dev/null 2>&1
}

# apt-get with one retry after "apt-get update" (a fresh CI machine has no lists).
apt_get() {
	DEBIAN_FRONTEND=noninteractive apt-get -q "$@" >"$cache_dir/apt.log" 2>&1 && return 0
	DEBIAN_FRONTEND=noninteractive apt-get -q update >>"$cache_dir/apt.log" 2>&1 ||
		die "apt-get update failed (see $cache_dir/apt.log)"
	DEBIAN_FRONTEND=noninteractive apt-get -q "$@" >>"$cache_dir/apt.log" 2>&1 ||
		die "apt-get $* failed (see $cache_dir/apt.log)"
}

# The kernel package linux-image-amd64 depends on (empty if apt has no lists).
kernel_package() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ && !n++ {print $2}'
}

# Sets KVER and KDIR: the newest linux-image-*-amd64 that linux-image-amd64
# depends on, downloaded with apt-get download and partly unpacked (kernel
# and the two uio modules) into the cache.
fetch_kernel() {
	local pkg deb debs tmp
	pkg=$(kernel_package)
	if [ -z "$pkg" ]; then
		[ "$install" -eq 1 ] || die "cannot resolve linux-image-amd64 (apt lists missing)"
		apt_get update
		pkg=$(kernel_package)
		[ -n "$pkg" ] || die "linux-image-amd64 does not name a kernel package"
	fi
	KVER=${pkg#linux-image-}
	KDIR=$cache_dir/kernel-$KVER
	[ -f "$KDIR/vmlinuz" ] && [ -f "$KDIR/uio_pci_generic.ko" ] && return 0
	say "fetching kernel package $pkg"
	mkdir -p "$cache_dir/deb"
	debs=("$cache_dir/deb/${pkg}"_*.deb)
	if [ ! -f "${debs[0]}" ]; then
		(cd "$cache_dir/deb" && apt-get download -q "$pkg" >>"$cache_dir/apt.log" 2>&1) ||
			die "apt-get download $pkg failed (see $cache_dir/apt.log)"
		debs=("$cache_dir/deb/${pkg}"_*.deb)
		[ -f "${debs[0]}" ] || die "apt-get download $pkg left no .deb"
	fi
	deb=${debs[0]}
	# Only what the guest needs; the whole package unpacks to ~400 MB.
	tmp=$(mktemp -d "$cache_dir/kernel.XXXXXX")
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards \
		"./boot/vmlinuz-$KVER" "./lib/modules/$KVER/kernel/drivers/uio/uio.ko" \
		"./lib/modules/$KVER/kernel/drivers/uio/uio_pci_generic.ko" ||
		{ rm -rf "$tmp"; die "unpacking $deb failed"; }
	mv "$tmp/boot/vmlinuz-$KVER" "$tmp/vmlinuz"
	mv "$tmp/lib/modules/$KVER/kernel/drivers/uio/"*.ko "$tmp/"
	rm -rf "${tmp:?}/boot" "${tmp:?}/lib"
	# Another lab may have finished first: keep its copy.
	mv -T "$tmp" "$KDIR" 2>/dev/null || rm -rf "$tmp"
	rm -f "$deb"
}

# --- accelerator --------------------------------------------------------

# Sets ACCEL_ARGS and ACCEL_NAME. /dev/kvm can exist and still not work
# (nested sandboxes): boot the bare kernel once and wait for its panic.
pick_accel() {
	if [ "$accel" != tcg ] && kvm_works; then
		ACCEL_NAME=kvm
		ACCEL_ARGS=(-accel kvm -cpu host)
		return 0
	fi
	[ "$accel" = kvm ] && die "--accel kvm: /dev/kvm is missing or does not run a guest"
	if [ "$accel" = auto ] && [ -e /dev/kvm ]; then
		say "/dev/kvm is there but does not run a guest (nested or sandboxed host): using TCG emulation"
	elif [ "$accel" = auto ]; then
		say "no /dev/kvm: using TCG emulation"
	fi
	ACCEL_NAME=tcg
	ACCEL_ARGS=(-accel tcg,thread=multi -cpu max)
}

kvm_works() {
	local out
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	# Captured, not piped: grep -q would end QEMU with SIGPIPE (pipefail).
	out=$(timeout -k 2 10 qemu-system-x86_64 -nodefaults -display none -no-reboot \
		-accel kvm -cpu host -m 256 -serial stdio -kernel "$KDIR/vmlinuz" \
		-append 'console=ttyS0 panic=-1' 2>/dev/null </dev/null || true)
	[[ "$out" == *"Kernel panic"* ]]
}

# --- generator adapters ---------------------------------------------------
# The only places that know how the generator is invoked (app_cmd) and what
# its output looks like (app_extract). Scenario rows are data; these turn a
# row into a guest command and a run's files into one summary line.

# Sets APP_BIN (the program copied into the guest) and APP.
pick_app() {
	local c
	APP=$app
	if [ "$APP" = testpmd ]; then
		APP_BIN=$(command -v dpdk-testpmd || true)
		[ -n "$APP_BIN" ] || die "dpdk-testpmd not found (apt-get install dpdk)"
		return 0
	fi
	if [ -z "$bin" ]; then
		for c in "$TOP_DIR"/build*/app/wirerate "$(command -v wirerate || true)"; do
			[ -n "$c" ] && [ -x "$c" ] && { bin=$c; break; }
		done
	fi
	[ -n "$bin" ] && [ -x "$bin" ] ||
		die "wirerate not found: build it (scripts/quickstart.sh) or give --bin PATH"
	APP_BIN=$(realpath "$bin")
}

# app_cmd NAME TX_PCI RX_PCI_LIST SIZE COUNT RATE DURATION -> guest command
# (the generator raises the MTU from the frame size)
app_cmd() {
	local name=$1 tx=$2 rx=$3 size=$4 cnt=$5 rt=$6 dur=$7
	case "$APP" in
	testpmd)
		[[ "$rx" != *,* ]] || die "run $name: the testpmd stand-in takes one RX NIC"
		[ -z "$dur" ] || die "run $name: the testpmd stand-in sends a count, not a duration"
		echo "tp_pair $tx $rx $size ${cnt:-2048}"
		;;
	wirerate)
		local a eal="" txp="" rxp="" rxmap="" i=0 args
		# DPDK numbers the allowed ports in PCI order.
		for a in $(printf '%s\n' "$tx" ${rx//,/ } | sort -u); do
			eal+=" -a $a"
			[ "$a" = "$tx" ] && txp=$i
			if [[ ",$rx," == *",$a,"* ]]; then
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
		echo "wirerate -l 0-$((smp < 3 ? smp - 1 : 2)) -n 1 --file-prefix lab$eal -- $args --json \$OUT/result.json"
		;;
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

# Writes runs.list (guest) and plan.tsv (host) from the scenario rows.
plan_runs() {
	local line name kv k v tx rx size mtu cnt rt dur m rxpci
	: >"$work/runs.list"
	MAX_DUR=0
	printf 'name\ttx\trx\tsize\tmtu\ttx_pci\trx_pci\n' >"$work/plan.tsv"
	while read -r line; do
		read -r name kv <<<"$line"
		[[ "$name" =~ ^[A-Za-z0-9._+-]+$ ]] || usage_error "scenario: bad run name '$name'"
		tx="" rx="" size=${sizes%% *} cnt=$count rt=$rate dur=$duration
		size=${size:-64}
		for k in $kv; do
			v=${k#*=}
			case "$k" in
			tx=*) tx=$v ;;
			rx=*) rx=$v ;;
			size=*) size=$v ;;
			count=*) cnt=$v dur="" ;;
			rate=*) rt=$v ;;
			duration=*) dur=$v cnt="" ;;
			*) usage_error "scenario run '$name': unknown key '$k'" ;;
			esac
		done
		for v in "$size" $cnt; do
			is_uint "$v" || usage_error "scenario run '$name': '$v' is not a number"
		done
		[ -z "$rt" ] || is_rate "$rt" || usage_error "scenario run '$name': bad rate '$rt'"
		[ -z "$dur" ] || is_seconds "$dur" || usage_error "scenario run '$name': bad duration '$dur'"
		[ "$size" -ge 64 ] || usage_error "scenario run '$name': size $size < 64"
		[ "$size" -le 9018 ] || usage_error "scenario run '$name': size $size > 9018"
		mtu=$((size > 1518 ? size - 18 : 1500))
		m=$(pci_of "$tx") || usage_error "scenario run '$name': tx '$tx' is not in --nics ($nics)"
		rxpci=""
		for v in ${rx//,/ }; do
			rxpci+=${rxpci:+,}$(pci_of "$v") || usage_error "scenario run '$name': rx '$v' is not in --nics ($nics)"
		done
		[ -n "$rxpci" ] || usage_error "scenario run '$name': no rx"
		[ -z "$dur" ] || MAX_DUR=$(awk -v a="$MAX_DUR" -v b="$dur" 'BEGIN { print (b > a ? int(b + 0.999) : a) }')
		printf '%s\t%s\n' "$name" "$(app_cmd "$name" "$m" "$rxpci" "$size" "$cnt" "$rt" "$dur")" >>"$work/runs.list"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$tx" "$rx" "$size" "$mtu" "$m" "$rxpci" >>"$work/plan.tsv"
	done < <(scenario_rows)
	NRUNS=$(($(wc -l <"$work/runs.list")))
	[ "$NRUNS" -gt 0 ] || usage_error "the scenario has no runs"
}

# --- initramfs ------------------------------------------------------------

# Copies the shared libraries ELF file $1 needs (ldd) into the staging root.
add_libs() {
	local lib
	while read -r lib; do
		add_file "$lib"
	done < <(ldd "$1" 2>/dev/null | awk '/=> \// {print $3} /^[[:space:]]*\// {print $1}')
}

# Copies ELF file $1 into the staging root at the same path, with its libraries.
add_elf() {
	add_file "$1"
	add_libs "$1"
}

# Copies $1 into the staging root at the same path; a symlink is copied as
# a symlink and its target follows, so a library loaded under two names
# (soname, plugin file) stays one file, as on the host.
add_file() {
	local p=$1 t
	while [ ! -e "$stage$p" ] && [ ! -L "$stage$p" ]; do
		mkdir -p "$stage$(dirname "$p")"
		if [ ! -L "$p" ]; then
			cp "$p" "$stage$p"
			return 0
		fi
		t=$(readlink "$p")
		ln -s "$t" "$stage$p"
		case "$t" in
		/*) p=$t ;;
		*) p=$(dirname "$p")/$t ;;
		esac
	done
}

build_initramfs() {
	local pmddir p a
	local -a dirs
	stage=$work/root
	rm -rf "$stage"
	mkdir -p "$stage"/usr/{bin,sbin,lib,lib64} "$stage/lab" "$stage/lib/modules"
	for a in bin sbin lib lib64; do ln -s "usr/$a" "$stage/$a"; done
	mkdir -p "$stage/lib/modules"
	cp "$busybox_bin" "$stage/usr/bin/busybox"
	for a in $("$busybox_bin" --list); do
		[ -e "$stage/usr/bin/$a" ] || ln -s busybox "$stage/usr/bin/$a"
	done
	cp "$LAB_DIR/lab/guest-init.sh" "$stage/init"
	chmod 755 "$stage/init"
	cp "$KDIR/uio.ko" "$KDIR/uio_pci_generic.ko" "$stage/lib/modules/"


	# EAL's built-in plugin directory (RTE_EAL_PMD_PATH), e.g. pmds-23.0.
	dirs=("$(pkg-config --variable=libdir libdpdk 2>/dev/null || echo /usr/lib/x86_64-linux-gnu)"/dpdk/pmds-*)
	pmddir=${dirs[-1]}
	[ -e "$pmddir/librte_bus_pci.so" ] || die "DPDK PMD directory not found (apt-get install dpdk)"
	if [ "$APP" = wirerate ]; then
		cp "$APP_BIN" "$stage/usr/bin/wirerate"
		add_libs "$APP_BIN"
	else
		add_elf "$APP_BIN"
	fi
	# PMDs are plugins that ldd does not list; EAL loads what is in pmddir.
	for p in $PMDS; do
		[ -e "$pmddir/librte_$p.so" ] || die "DPDK plugin librte_$p.so missing in $pmddir"
		add_elf "$pmddir/librte_$p.so"
	done
	# glibc dlopens libgcc_s for pthread_cancel; DPDK aborts on close without.
	p=$(ldconfig -p | awk '/libgcc_s\.so\.1 .*x86-64/ && !n++ {print $NF}')
	[ -n "$p" ] || die "libgcc_s.so.1 not found"
	add_file "$p"
	if [ "$APP" = testpmd ]; then
		cp "$LAB_DIR/lab/guest-testpmd.sh" "$stage/lab/app.sh"
		cp /usr/libexec/coreutils/libstdbuf.so "$stage/usr/lib/libstdbuf.so"
	else
		: >"$stage/lab/app.sh"
	fi
	cp "$work/runs.list" "$stage/lab/runs.list"
	printf 'RUN_TIMEOUT=%s\nexport LD_LIBRARY_PATH=%s\n' "$RUN_TIMEOUT" "$pmddir" >"$stage/lab/env"
	(cd "$stage" && chmod 755 . && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$work/initrd.cpio" ||
		die "cpio failed"
}

# --- guest ----------------------------------------------------------------

qemu_pid=""
cleanup() {
	if [ -n "$qemu_pid" ] && kill -0 "$qemu_pid" 2>/dev/null; then
		kill "$qemu_pid" 2>/dev/null || true
		wait "$qemu_pid" 2>/dev/null || true
	fi
	if [ -n "${work:-}" ] && [ "$keep_work" -eq 0 ]; then
		rm -rf "$work"
	fi
}

# Boots the guest; returns QEMU's exit status (124: timed out).
boot_guest() {
	local i args=() shown=0 rc
	for i in "${!NICS[@]}"; do
		local dev=${NIC_DEVICE[${NICS[$i]}]} extra=""
		# QEMU's virtio RX queue holds 256 by default: drops under TCG.
		[ "$dev" = virtio-net-pci ] && extra=",rx_queue_size=1024"
		args+=(-netdev "hubport,id=n$i,hubid=0"
			-device "$dev,netdev=n$i,mac=52:54:00:00:00:$((10 + i)),addr=0x$(printf %x $((4 + i)))$extra")
	done
	: >"$work/console.log"
	: >"$work/results.txt"
	timeout -k 5 "$guest_timeout" qemu-system-x86_64 -nodefaults -machine pc \
		"${ACCEL_ARGS[@]}" -smp "$smp" -m "$mem_mb" -display none -no-reboot \
		-chardev "file,id=con,path=$work/console.log" -serial chardev:con \
		-chardev "file,id=res,path=$work/results.txt" -serial chardev:res \
		-kernel "$KDIR/vmlinuz" -initrd "$work/initrd.cpio" \
		-append "console=ttyS0 panic=-1 quiet hugepagesz=2M hugepages=256 tsc=reliable" \
		"${args[@]}" </dev/null >"$work/qemu.log" 2>&1 &
	qemu_pid=$!
	while kill -0 "$qemu_pid" 2>/dev/null; do
		shown=$(show_progress "$shown")
		sleep 0.5
	done
	rc=0
	wait "$qemu_pid" || rc=$?
	qemu_pid=""
	show_progress "$shown" >/dev/null
	return "$rc"
}

# Prints the guest's "LAB:" lines after the first $1 of them; echoes the count.
show_progress() {
	local n
	n=$(grep -c '^LAB: ' "$work/console.log" 2>/dev/null || true)
	if [ "${n:-0}" -gt "$1" ] && [ "$quiet" -eq 0 ]; then
		grep '^LAB: ' "$work/console.log" | tr -d '\r' | tail -n +$(($1 + 1)) |
			sed "s/^LAB: /  guest $(date +%T) /" >&2
	fi
	echo "${n:-0}"
}

# Splits results.txt (base64 files between markers) into $out_dir/NAME/FILE;
# fails when the guest did not finish or a file arrived damaged.
collect_results() {
	local line file="" sum="" buf=$work/b64 damaged=0 finished=0
	while IFS= read -r line; do
		line=${line%$'\r'}
		case "$line" in
		"==LAB-FILE "*"==")
			read -r file sum <<<"${line:11:${#line}-13}"
			[[ "$file" =~ ^[A-Za-z0-9._+-]+/[A-Za-z0-9._-]+$ ]] || { file=""; continue; }
			: >"$buf"
			;;
		"==LAB-END==")
			[ -n "$file" ] || continue
			mkdir -p "$out_dir/${file%/*}"
			if ! base64 -d "$buf" >"$out_dir/$file" 2>/dev/null ||
					[ "$(md5sum <"$out_dir/$file" | cut -d' ' -f1)" != "$sum" ]; then
				say "$file: damaged on the serial line (kept as $file.bad)"
				mv "$out_dir/$file" "$out_dir/$file.bad"
				damaged=1
			fi
			file=""
			;;
		"==LAB-RUN "*"==") echo "${line:10:${#line}-12}" >>"$work/manifest" ;;
		"==LAB-DONE==") finished=1 ;;
		*) [ -z "$file" ] || echo "$line" >>"$buf" ;;
		esac
	done <"$work/results.txt"
	# Files the guest listed that did not come through.
	local run f
	while read -r run f; do
		for f in $f; do
			[ -e "$out_dir/$run/$f" ] || [ -e "$out_dir/$run/$f.bad" ] || {
				say "$run/$f: listed by the guest, lost on the serial line"
				damaged=1
			}
		done
	done < <(cat "$work/manifest" 2>/dev/null)
	[ "$finished" -eq 1 ] && [ "$damaged" -eq 0 ]
}

# --- report -----------------------------------------------------------------

# Writes summary.tsv from plan.tsv and each run's files; returns 1 if a run
# is missing or failed.
summarize() {
	local name tx rx size mtu txpci rxpci rc note i bad=0
	local -a f names
	local -A v
	read -r -a names <<<"$(echo $SUMMARY_FIELDS)"
	{
		echo name tx rx size mtu accel app rc $SUMMARY_FIELDS note | tr ' ' '\t'
		while IFS=$'\t' read -r name tx rx size mtu txpci rxpci; do
			rc=$(cat "$out_dir/$name/rc" 2>/dev/null || echo -)
			read -r -a f < <(app_extract "$out_dir/$name" "$txpci" "${rxpci%%,*}")
			for i in "${!names[@]}"; do v[${names[$i]}]=${f[$i]:--}; done
			note=""
			[ "$rc" = 0 ] || note="FAILED (rc $rc)"
			[ "${v[sent]}" != - ] || note+=" no result"
			[ "${v[tx_driver]}" = "${NIC_DRIVER[$tx]}" ] || note+=" $tx driver ${v[tx_driver]}?"
			[ "${v[rx_driver]}" = "${NIC_DRIVER[${rx%%,*}]}" ] || note+=" ${rx%%,*} driver ${v[rx_driver]}?"
			[ -z "$note" ] || bad=1
			printf '%s\t' "$name" "$tx" "$rx" "$size" "$mtu" "$ACCEL_NAME" "$APP" "$rc" "${f[@]}"
			printf '%s\n' "${note# }"
		done < <(tail -n +2 "$work/plan.tsv")
	} >"$out_dir/summary.tsv"
	return "$bad"
}

# Per-run rows, then per NIC model the medians over the runs where it sent
# and where it received.
print_table() {
	local label m size
	if [ "$ACCEL_NAME" = tcg ]; then
		label="EMULATED (QEMU TCG, no KVM): rates and cycles show the emulator, not the NICs; counts and loss are exact"
	else
		label="KVM: rates and cycles are those of QEMU's device models on this host"
	fi
	echo
	echo "vnic-lab: $NRUNS runs, generator $APP, $label"
	awk -F'\t' '
	function f(x, p) { return x == "-" || x == "" ? "-" : sprintf(p, x) }
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	NR == 2 {
		printf "%-26s %-8s %-8s %5s %8s %8s %7s %6s %8s %7s %8s %7s %7s %7s\n",
			"run", "tx", "rx", "size", "sent", "received", "lost", "loss%",
			"TX Mpps", "TX Gbps", "RX Mpps", "RX Gbps", "TX c/p", "RX c/p"
	}
	{
		sent = $c["sent"]; lost = $c["lost"]
		loss = (sent ~ /^[0-9]+$/ && sent > 0 && lost ~ /^-?[0-9]+$/) ? sprintf("%.2f", 100 * lost / sent) : "-"
		printf "%-26s %-8s %-8s %5s %8s %8s %7s %6s %8s %7s %8s %7s %7s %7s%s\n",
			$c["name"], $c["tx"], $c["rx"], $c["size"], sent, $c["received"], lost, loss,
			f($c["tx_mpps"], "%.3f"), f($c["tx_gbps_l2"], "%.3f"),
			f($c["rx_mpps"], "%.3f"), f($c["rx_gbps_l2"], "%.3f"),
			f($c["tx_cycles_per_pkt"], "%.0f"), f($c["rx_cycles_per_pkt"], "%.0f"),
			$c["note"] == "" ? "" : "  " $c["note"]
	}' "$out_dir/summary.tsv"
	if repeated_models; then
		echo
		echo "per model and frame size, medians over the runs where it sent / received:"
		printf '%-14s %5s %8s %7s %7s   %5s %8s %7s %7s %7s\n' "model/size" \
			"sent" "TX Mpps" "TX Gbps" "TX c/p" "recv" "RX Mpps" "RX Gbps" "RX c/p" "loss%"
		for size in $(cut -f4 "$out_dir/summary.tsv" | tail -n +2 | sort -nu); do
			for m in "${NICS[@]}"; do
				model_row "$m" "$size"
			done
		done
	fi
	if [ "$APP" = testpmd ]; then
		echo "(testpmd stand-in: loss = sent - received; no rates; RX c/p from --record-core-cycles)"
	else
		echo "(Gbps: frame bytes (L2); c/p: busy TSC cycles per frame of the worker polling that NIC;"
		echo " received: unique sequence numbers; lost = sent - received per stream)"
	fi
	echo "results: $out_dir/summary.tsv"
}

# True when a model sent, or received, in more than one run of one frame
# size: only then does the per-model table say more than the rows.
repeated_models() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ if (n["tx" $c["tx"] "/" $c["size"]]++ || n["rx" $c["rx"] "/" $c["size"]]++) r = 1 }
	END { exit !r }' "$out_dir/summary.tsv"
}

# Median of the numbers on stdin, or "-".
median() {
	sort -g | awk '{ v[NR] = $1 }
	END {
		if (NR == 0) print "-"
		else if (NR % 2) print v[(NR + 1) / 2]
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2
	}'
}

# One line of the per-model table for model $1 and frame size $2 (none
# when the model has no run of that size).
model_row() {
	local m=$1 size=$2 k ns nr
	local -A v
	ns=$(column_of tx "$m" "$size" sent | wc -l)
	nr=$(column_of rx "$m" "$size" sent | wc -l)
	[ $((ns + nr)) -gt 0 ] || return 0
	for k in tx_mpps tx_gbps_l2 tx_cycles_per_pkt; do
		v[$k]=$(column_of tx "$m" "$size" "$k" | median)
	done
	for k in rx_mpps rx_gbps_l2 rx_cycles_per_pkt; do
		v[$k]=$(column_of rx "$m" "$size" "$k" | median)
	done
	v[loss]=$(awk -F'\t' -v m="$m" -v size="$size" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["rx"] == m && $c["size"] == size && $c["sent"] ~ /^[0-9]+$/ &&
			$c["lost"] ~ /^-?[0-9]+$/ { s += $c["sent"]; l += $c["lost"] }
		END { print (s > 0 ? sprintf("%.2f", 100 * l / s) : "-") }' "$out_dir/summary.tsv")
	awk -v m="$m/$size" -v ns="$ns" -v nr="$nr" \
		-v a="${v[tx_mpps]}" -v b="${v[tx_gbps_l2]}" -v c="${v[tx_cycles_per_pkt]}" \
		-v d="${v[rx_mpps]}" -v e="${v[rx_gbps_l2]}" -v f="${v[rx_cycles_per_pkt]}" -v l="${v[loss]}" '
	function g(x, p) { return x == "-" ? "-" : sprintf(p, x) }
	BEGIN {
		printf "%-14s %5s %8s %7s %7s   %5s %8s %7s %7s %7s\n", m, ns,
			g(a, "%.3f"), g(b, "%.3f"), g(c, "%.0f"), nr,
			g(d, "%.3f"), g(e, "%.3f"), g(f, "%.0f"), l
	}'
}

# Numeric values of column $4 in the summary rows of frame size $3 whose
# $1 column ("tx" or "rx") is model $2.
column_of() {
	awk -F'\t' -v side="$1" -v m="$2" -v size="$3" -v k="$4" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c[side] == m && $c["size"] == size && $c[k] ~ /^-?[0-9][0-9.e+-]*$/ { print $c[k] }' "$out_dir/summary.tsv"
}

main() {
	parse_args "$@"
	mkdir -p "$cache_dir" || die "cannot create cache directory $cache_dir"
	ensure_tools
	fetch_kernel
	pick_app
	pick_accel
	work=$(mktemp -d /tmp/vnic-lab-work.XXXXXX)
	trap cleanup EXIT
	trap 'exit 130' INT TERM
	if [ -z "$out_dir" ]; then out_dir=$(mktemp -d /tmp/vnic-lab.XXXXXX); fi
	mkdir -p "$out_dir"
	plan_runs
	RUN_TIMEOUT=$((120 + MAX_DUR))
	[ -n "$guest_timeout" ] || guest_timeout=$((90 + NRUNS * (60 + MAX_DUR)))
	build_initramfs
	say "booting guest ($ACCEL_NAME, ${NICS[*]}), $NRUNS runs, limit ${guest_timeout}s"
	local rc=0 ok=0
	boot_guest || rc=$?
	[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || say "guest timed out after ${guest_timeout}s"
	collect_results && ok=1
	cp "$work/console.log" "$out_dir/console.log"
	cp "$work/results.txt" "$out_dir/serial.log"
	[ "$ok" -eq 1 ] || say "guest did not finish (QEMU rc=$rc); console: $out_dir/console.log"
	summarize || ok=0
	print_table
	[ "$ok" -eq 1 ] || exit 1
}

main "$@"
