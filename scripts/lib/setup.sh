# SPDX-License-Identifier: BSD-3-Clause
# Shared set-up for wirerate's entry points (sourced, not run): packages,
# hugepages, build. A fresh Debian 12 machine has none of it.

# Debian packages the build, the tests and the benchmark need (gnuplot-nox
# draws the plots of `wirerate report`).
WR_PACKAGES=(gcc meson ninja-build pkg-config python3 libdpdk-dev dpdk dpdk-dev
	libnuma-dev libjansson-dev iproute2 gnuplot-nox tcpdump iperf3)
WR_HUGEPAGES=${WR_HUGEPAGES:-512}   # 2 MiB pages: 1 GiB
WR_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WR_BUILD=${WR_BUILD:-$WR_ROOT/build}

wr_log() { printf '==> %s\n' "$*"; }
wr_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

wr_need_root() {
	[ "$(id -u)" -eq 0 ] || wr_die "run as root (apt-get and hugepages need it)"
}

# Install whatever of the given packages is missing.
wr_install() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	wr_log "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null || wr_die "apt-get update failed"
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
		wr_die "apt-get install ${missing[*]} failed"
}

# Reserve 2 MiB hugepages and mount hugetlbfs; warn (tests then fall back
# to --no-huge) where the kernel or a container refuses.
wr_hugepages() {
	local f=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages have
	have=$(cat "$f" 2>/dev/null || echo 0)
	if [ "$have" -lt "$WR_HUGEPAGES" ]; then
		echo "$WR_HUGEPAGES" > "$f" 2>/dev/null || true
		have=$(cat "$f" 2>/dev/null || echo 0)
	fi
	if ! grep -qs ' /dev/hugepages hugetlbfs ' /proc/mounts; then
		mkdir -p /dev/hugepages
		mount -t hugetlbfs nodev /dev/hugepages 2>/dev/null || true
	fi
	if [ "$have" -lt 128 ]; then
		wr_log "warning: only $have hugepages; runs fall back to --no-huge"
	else
		wr_log "hugepages: $have x 2 MiB"
	fi
}

# Configure (once) and build; extra meson options as arguments.
wr_build() {
	if [ -f "$WR_BUILD/build.ninja" ]; then
		meson configure "$WR_BUILD" "$@" >/dev/null
	else
		meson setup "$WR_BUILD" "$WR_ROOT" "$@" >/dev/null
	fi || wr_die "meson set-up failed"
	ninja -C "$WR_BUILD" || wr_die "build failed"
}

# EAL options for a run on this machine: every core, no PCI probing (the
# machine's own NIC stays with the kernel), no hugepage files left behind.
wr_eal_opts() {
	local last=$(($(nproc) - 1))
	local opts="-l 0-$last --no-pci --in-memory --log-level=*:warning"
	[ "$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)" -ge 128 ] ||
		opts="$opts --no-huge -m 1024"
	echo "$opts"
}
