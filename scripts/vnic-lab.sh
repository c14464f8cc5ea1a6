#!/usr/bin/env bash
# vnic-lab.sh: drive the real vmxnet3 / e1000 / e1000e / virtio PMDs inside a
# QEMU guest (KVM when usable, else TCG emulation), run wirerate scenarios
# there, bring the results out on a serial port and tabulate them with
# wirerate report. See docs/lab.md. The host and guest steps are in lab/.
set -euo pipefail

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP_DIR=$(cd "$LAB_DIR/.." && pwd)
readonly LAB_DIR TOP_DIR
readonly PROG=${0##*/}
# shellcheck source-path=SCRIPTDIR source=lab/runs.sh
. "$LAB_DIR/lab/runs.sh"
# shellcheck source=lab/host.sh
. "$LAB_DIR/lab/host.sh"
# shellcheck source=lab/boot.sh
. "$LAB_DIR/lab/boot.sh"
# shellcheck source=lab/place.sh
. "$LAB_DIR/lab/place.sh"

# Models: QEMU device and the PMD expected to probe it. All carry MTU 9000.
declare -A NIC_DEVICE=(
	[vmxnet3]=vmxnet3 [e1000]=e1000 [e1000e]=e1000e
	[e1000-82545em]=e1000-82545em [virtio]=virtio-net-pci
)
declare -A NIC_DRIVER=(
	[vmxnet3]=net_vmxnet3 [e1000]=net_e1000_em [e1000e]=net_e1000_em
	[e1000-82545em]=net_e1000_em [virtio]=net_virtio
)
readonly TCP_DEFAULT=2000000
readonly SWEEP_SIZES="64 128 256 512 1024 1280 1518"
readonly PMDS="bus_pci bus_vdev mempool_ring mempool_stack net_vmxnet3 net_e1000 net_virtio"

# Options (set by parse_args).
nics=""
scenario="" placement="" link_rate=1gbit
tx_model="" rx_models="" sizes="" count="" rate="" duration="" tcp_bytes=""
app=wirerate bin="" rxd=4096
cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/wirerate-lab"
out_dir="" accel=auto install=1 guest_timeout="" quiet=0 keep_work=0
mem_mb=1024 smp=3
# The options that take a value, and the variable each sets.
declare -A OPT_VAR=([--nics]=nics [--scenario]=scenario [--tx]=tx_model
	[--rx]=rx_models [--size]=sizes [--sizes]=sizes [--count]=count
	[--duration]=duration [--rate]=rate [--rxd]=rxd [--accel]=accel
	[--mem]=mem_mb [--smp]=smp [--timeout]=guest_timeout [--app]=app
	[--bin]=bin [--cache]=cache_dir [--out]=out_dir [--placement]=placement
	[--link-rate]=link_rate [--tcp]=tcp_bytes)

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
                               keys tx rx size count rate duration tcp
                               (the MTU follows the size: 9018 B = 9000)
  --tx MODEL --rx MODEL[,MODEL...]   a single pair (with --size/--sizes)

Two guests (instead of a scenario):
  --placement LIST      same,different: guest A sends, guest B runs
                        wirerate serve (two-ended, --peer); per model of
                        --nics (default vmxnet3,e1000e) and placement one
                        NIC in each guest: "same" joins them on one host
                        bridge, "different" through a veth link shaped to
                        --link-rate; prints the table model x placement
                        (MB/s, Mpps at the far end); --duration (3) or
                        --count, --size, --rate apply to every cell
  --link-rate RATE      the shaped link of "different", tc's form
                        (default $link_rate)

Traffic:
  --size N | --sizes "N N ..."  frame size(s) in bytes, FCS included (64)
  --count N             frames per run (default 2048 unless --duration)
  --duration SECS       send for SECS seconds instead of a count
  --rate RATE           pace the sender, in wirerate's --rate syntax
                        (20kpps, 1.5Mpps, 2Gbps, ...)
  --rxd N               RX descriptors per queue (default $rxd: under TCG
                        the receiver is slower than the sender)
  --tcp BYTES           after each run, a bulk TCP transfer of BYTES from
                        its TX NIC (client) to its RX NIC (server), one
                        wirerate process (--placement: after the cells,
                        A's NIC of each cell to B's serve, --peer): the
                        table's TCP goodput (MB/s of payload); 0: none
                        (default $TCP_DEFAULT)

Guest:
  --nics LIST           NIC models on the hub, comma separated (default
                        vmxnet3,e1000,e1000e,virtio; also e1000-82545em)
  --accel auto|kvm|tcg  auto uses KVM when /dev/kvm works (default auto)
  --mem MB / --smp N    guest memory and vCPUs (default $mem_mb / $smp)
  --timeout SECS        hard limit for the whole guest run (default: derived)

Program and files:
  --app wirerate|testpmd  generator in the guest (default wirerate;
                        testpmd: DPDK's reference, counts only)
  --bin PATH            wirerate binary (default: the first build*/app/wirerate,
                        then PATH's, built against the system DPDK, which the
                        guest gets; others are named and left aside);
                        it checks every run's options (wirerate check)
                        and tabulates the results (wirerate report)
  --cache DIR           kernel and tool cache (default $cache_dir)
  --out DIR             results directory (default: a new /tmp/vnic-lab.*)
  --no-install          do not apt-get install missing tools
  --keep                keep the work directory (initramfs, console log)
  -q, --quiet           no progress lines
  -h, --help            this text

Exit status: 0 all runs completed, 1 a run or the guest failed, 2 bad usage.
Results: OUT/summary.tsv (one line per run), OUT/report/ (wirerate report:
Markdown, HTML, CSV) and OUT/NAME/ (logs, JSON).
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

parse_args() {
	while [ "$#" -gt 0 ]; do
		case "$1" in
		-h | --help) usage; exit 0 ;;
		--no-install) install=0 ;;
		--keep) keep_work=1 ;;
		-q | --quiet) quiet=1 ;;
		*)
			[ -n "${OPT_VAR[$1]:-}" ] || usage_error "unknown option '$1'"
			[ "$#" -ge 2 ] && [ -n "$2" ] || usage_error "option $1 needs a value"
			printf -v "${OPT_VAR[$1]}" '%s' "$2"
			shift
			;;
		esac
		shift
	done
	sizes=${sizes//,/ }
	check_args
}

# The lab's own options; what goes to wirerate (sizes, counts, rates, RX
# ring) wirerate checks itself, run by run (plan_runs).
check_args() {
	local m v
	for v in "$mem_mb" "$smp" "$guest_timeout"; do
		[[ "$v" =~ ^[0-9]*$ ]] || usage_error "'$v' is not a whole number"
	done
	[ "$smp" -ge 2 ] || usage_error "--smp: at least 2 (main lcore and a worker)"
	[ -z "$count" ] || [ -z "$duration" ] ||
		usage_error "--count and --duration exclude each other"
	case "$accel" in auto | kvm | tcg) ;; *) usage_error "--accel: auto, kvm or tcg" ;; esac
	case "$app" in wirerate | testpmd) ;; *) usage_error "--app: wirerate or testpmd" ;; esac
	[ -z "$tcp_bytes" ] || [ "$app" = wirerate ] || usage_error "--tcp runs wirerate (not --app $app)"
	[ "$app" != wirerate ] || tcp_bytes=${tcp_bytes:-$TCP_DEFAULT}
	if [ -n "$placement" ]; then
		check_places
		nics=${nics:-vmxnet3,e1000e}
	fi
	nics=${nics:-vmxnet3,e1000,e1000e,virtio}
	IFS=, read -r -a NICS <<<"$nics"
	[ "${#NICS[@]}" -ge 2 ] || [ -n "$placement" ] || usage_error "--nics needs at least two models"
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
	[ -n "$scenario" ] || [ -n "$tx_model" ] || [ -n "$placement" ] || scenario=pairs
}

# --- report -----------------------------------------------------------------

# Writes summary.tsv from plan.tsv and each run's files and prints a line a
# run with its exact counts and its TCP goodput; returns 1 if a run or its
# TCP transfer is missing or failed.
summarize() {
	local name tx rx size mtu txpci rxpci tcp rc trc note i bad=0
	local -a f t names
	local -A v
	read -r -a names <<<"$(echo $SUMMARY_FIELDS)"
	echo name tx rx size mtu accel app rc $SUMMARY_FIELDS tcp_bytes tcp_rc $TCP_FIELDS note |
		tr ' ' '\t' >"$out_dir/summary.tsv"
	printf '%-26s %-8s %-8s %5s %8s %8s %7s %9s\n' run tx rx size sent received lost "TCP MB/s"
	while IFS=$'\t' read -r name tx rx size mtu txpci rxpci tcp; do
		rc=$(cat "$out_dir/$name/rc" 2>/dev/null || echo -)
		read -r -a f < <(app_extract "$out_dir/$name" "$txpci" "${rxpci%%,*}")
		for i in "${!names[@]}"; do v[${names[$i]}]=${f[$i]:--}; done
		note=""
		[ "$rc" = 0 ] || note="FAILED (rc $rc)"
		[ "${v[sent]}" != - ] || note+=" no result"
		[ "${v[tx_driver]}" = "${NIC_DRIVER[$tx]}" ] || note+=" $tx driver ${v[tx_driver]}?"
		[ "${v[rx_driver]}" = "${NIC_DRIVER[${rx%%,*}]}" ] || note+=" ${rx%%,*} driver ${v[rx_driver]}?"
		trc=-
		read -r -a t <<<"$(echo $TCP_FIELDS | sed 's/[^ ]*/-/g')"
		if [ "$tcp" != - ]; then
			trc=$(cat "$out_dir/$name.tcp/rc" 2>/dev/null || echo -)
			read -r -a t < <(tcp_extract "$out_dir/$name.tcp" "$txpci" "${rxpci%%,*}")
			[ "$trc" = 0 ] || note+=" TCP FAILED (rc $trc)"
			[ "${t[4]}" = "$tcp" ] || note+=" TCP delivered ${t[4]} of $tcp B"
		fi
		[ -z "$note" ] || bad=1
		{
			printf '%s\t' "$name" "$tx" "$rx" "$size" "$mtu" "$ACCEL_NAME" "$APP" "$rc" "${f[@]}" \
				"$tcp" "$trc" "${t[@]}"
			printf '%s\n' "${note# }"
		} >>"$out_dir/summary.tsv"
		printf '%-26s %-8s %-8s %5s %8s %8s %7s %9s%s\n' "$name" "$tx" "$rx" "$size" \
			"${v[sent]}" "${v[received]}" "${v[lost]}" "${t[0]}" "${note:+  ${note# }}"
	done < <(tail -n +2 "$work/plan.tsv")
	return "$bad"
}

# wirerate report on the runs' results (testpmd writes none): OUT/report/
# (Markdown, HTML, CSV), and its tables on stdout, the environment left out.
report_tables() {
	local name files=()
	rm -rf "$out_dir/report"    # an earlier run's must not pass for this one's
	[ "$APP" = wirerate ] || return 0
	while IFS=$'\t' read -r name _; do
		[ ! -s "$out_dir/$name/result.json" ] || files+=("$out_dir/$name/result.json")
	done < <(tail -n +2 "$work/plan.tsv")
	[ "${#files[@]}" -gt 0 ] || return 0
	local title="vnic-lab: TX/RX model"
	[ -z "$placement" ] || title="vnic-lab: model/placement, two guests (far end: wirerate serve)"
	# The report travels without this script's output: it says it too.
	[ "$ACCEL_NAME" != tcg ] || title+=", EMULATED (QEMU TCG, no KVM): rates and cycles show the emulator, not the NICs"
	"$WR_BIN" report --out "$out_dir/report" --no-plots --pivot rx_mpps \
		--title "$title" "${files[@]}" >/dev/null || return 1
	echo
	sed -e '1,2d' -e '/^## Environment/,$d' "$out_dir/report/report.md"
}

print_results() {
	local rc=0 what="$((NRUNS - NTCP)) runs"
	[ "$NTCP" -eq 0 ] || what+=" and $NTCP TCP transfers"
	echo
	if [ "$ACCEL_NAME" = tcg ]; then
		echo "vnic-lab: $what, generator $APP ($APP_BIN), EMULATED (QEMU TCG, no KVM): rates, TCP goodput and cycles show the emulator, not the NICs; counts and loss are exact"
	else
		echo "vnic-lab: $what, generator $APP ($APP_BIN), KVM: rates and cycles are those of QEMU's device models on this host"
	fi
	summarize || rc=1
	report_tables || { say "wirerate report failed on the results"; rc=1; }
	if [ "$APP" = testpmd ]; then
		echo "(testpmd stand-in: loss = sent - received; RX c/p (summary.tsv) from --record-core-cycles)"
	else
		echo "(received: unique sequence numbers; lost = sent - received per stream; per-NIC"
		echo " cycles per frame and PMD counters in summary.tsv; TCP MB/s: payload the"
		echo " server delivered a second, one bulk connection TX -> RX after the run)"
	fi
	echo "results: $out_dir/summary.tsv$([ ! -d "$out_dir/report" ] || echo ", $out_dir/report/")"
	return "$rc"
}

main() {
	parse_args "$@"
	pick_app
	work=$(mktemp -d /tmp/vnic-lab-work.XXXXXX)
	trap cleanup EXIT
	trap 'exit 130' INT TERM
	if [ -n "$placement" ]; then plan_places; else plan_runs; fi
	mkdir -p "$cache_dir" || die "cannot create cache directory $cache_dir"
	ensure_tools
	fetch_kernel
	pick_accel
	if [ -z "$out_dir" ]; then out_dir=$(mktemp -d /tmp/vnic-lab.XXXXXX); fi
	mkdir -p "$out_dir"
	RUN_TIMEOUT=$((120 + MAX_DUR))
	[ -n "$guest_timeout" ] || guest_timeout=$((90 + NRUNS * (60 + MAX_DUR)))
	build_initramfs
	if [ -n "$placement" ]; then
		run_places || exit 1
		return 0
	fi
	say "booting guest ($ACCEL_NAME, ${NICS[*]}), $NRUNS runs, limit ${guest_timeout}s"
	local rc=0 ok=0
	boot_guest || rc=$?
	[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || say "guest timed out after ${guest_timeout}s"
	collect_results && ok=1
	cp "$work/console.log" "$out_dir/console.log"
	cp "$work/results.txt" "$out_dir/serial.log"
	[ "$ok" -eq 1 ] || say "guest did not finish (QEMU rc=$rc); console: $out_dir/console.log"
	print_results || ok=0
	[ "$ok" -eq 1 ] || exit 1
}

main "$@"
