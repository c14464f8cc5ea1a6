# SPDX-License-Identifier: BSD-3-Clause
# Shared set-up for wirerate's entry points (sourced, not run): packages,
# hugepages, build. A fresh Debian 12 machine has none of it.

# Debian packages the build (and the unit suite) needs, then what the other
# tests and the benchmark add (gnuplot-nox draws the plots of `wirerate
# report`). libsqlite3-dev and libpq-dev: the two stores of `wirerate
# history` (an SQLite file; a PostgreSQL server through libpq).
# libmicrohttpd-dev: the HTTP server of `wirerate serve --web`, whose page
# draws its charts with Debian's Chart.js (libjs-chart.js, served from
# /usr/share/javascript: no network at run time).
WR_BUILD_PACKAGES=(gcc meson ninja-build pkg-config python3 libdpdk-dev dpdk
	dpdk-dev libnuma-dev libjansson-dev libsqlite3-dev libpq-dev libmicrohttpd-dev libssl-dev)
WR_PACKAGES=("${WR_BUILD_PACKAGES[@]}" iproute2 gnuplot-nox tcpdump iperf3 iputils-ping
	libjs-chart.js)
# Only the test suites need these: a real Prometheus server for the
# prometheus_scrape case (~20 MB download, ~12 s to install here) and the
# client library scripts/wirerate-exporter.py is built on; tshark
# reads the --capture pcapng files back (tests/vdev/test_capture.py) and
# checks generated frames as an independent dissector (test_traffic.py);
# Chromium renders `wirerate report`'s HTML (results suite, report_browser)
# and tmux captures the live view at 80 and 160 columns. The campaign
# suite drives scripts/campaign.sh (Ansible, ansible-core) over SSH to
# namespace "hosts", each with its own sshd (openssh-server).
WR_TEST_PACKAGES=(prometheus python3-prometheus-client tshark chromium tmux ansible-core openssh-server
	openssh-client)
# The sanitizer build (scripts/test.sh, scripts/fuzz.sh): clang with
# AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer; llvm for
# llvm-symbolizer (readable stack traces).
WR_SAN_PACKAGES=(clang libclang-rt-dev llvm)
# The history suite (tests/results/test_history.py) starts its own
# PostgreSQL server (initdb and pg_ctl of postgresql-15, as an unprivileged
# user, in a temporary directory) for its many-writers case.
WR_TEST_PACKAGES+=(postgresql)
# The results' JSON Schemas (docs/schema) checked in the Python suites.
WR_TEST_PACKAGES+=(python3-jsonschema)
# Scapy checks TCP segments built and parsed by lib/tcp/wire.c
# (tests/unit/test_tcp_wire_scapy.py).
WR_TEST_PACKAGES+=(python3-scapy)
# Connections against the kernel's TCP (tests/twoend/test_conn.py): nginx
# as the server of wirerate's client, h2load and wrk as clients of its
# server, ethtool to turn TX checksum offload off on the namespace's veth.
WR_TEST_PACKAGES+=(nginx-light nghttp2-client wrk ethtool)
# Connections through stateful devices (tests/twoend/test_stateful.py,
# test_connrate.py, test_conncap.py) and HTTP through a load balancer in
# the campaign bed's DUT namespace (tests/campaign/test_lb.py): nftables
# for NAT44, a DNAT balancer and rate limits in a router namespace,
# conntrack to read its table and statistics, HAProxy as an L7 balancer
# (started by the tests with its own config, pid file and stats socket;
# the service Debian's package enables is stopped and disabled below).
WR_TEST_PACKAGES+=(nftables conntrack haproxy)
# One-way latency across hosts (docs/testbeds.md): the twoend suite's
# clocks case reads real clock daemons, each started by the test in its
# own namespaces with its own config, pid file and socket: linuxptp's
# ptp4l and pmc, chrony's chronyd (-x: never sets the clock) and chronyc.
# The chronyd Debian's package enables as a service (it would adjust this
# machine's clock) is stopped and disabled when this installed it.
WR_TEST_PACKAGES+=(linuxptp chrony)
# The switch suite (tests/switch) measures RFC 2889 against Open vSwitch:
# it starts its own ovsdb-server and ovs-vswitchd (netdev datapath), each
# with its own database and run directory; the service Debian's package
# enables is stopped and disabled below.
WR_TEST_PACKAGES+=(openvswitch-switch)
# The package suite: builds the .deb (dpkg-buildpackage, debhelper),
# lints it (lintian), installs and removes it.
WR_PKG_PACKAGES=(debhelper dpkg-dev fakeroot lintian)
# The DPDK LTS legs (scripts/test.sh dpdk-VERSION) build DPDK from source:
# pmdinfogen needs pyelftools; libpcap, libbpf and libxdp give net_pcap and
# net_af_xdp (libdpdk-dev pulls them in on Debian 12, listed for a machine
# without it).
WR_DPDK_BUILD_PACKAGES=(python3-pyelftools libpcap-dev libbpf-dev libxdp-dev)
WR_HUGEPAGES=${WR_HUGEPAGES:-512}   # 2 MiB pages: 1 GiB
WR_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WR_BUILD=${WR_BUILD:-$WR_ROOT/build}
WR_SAN_BUILD=${WR_SAN_BUILD:-$WR_ROOT/build-san}
WR_FUZZ_SECONDS=${WR_FUZZ_SECONDS:-5}   # per target, suite fuzz (CI; longer: scripts/fuzz.sh)
# Debian's programs first: what these scripts install (python3-scapy,
# python3-jsonschema, ...) is the system interpreter's, and a python3
# found earlier in PATH (a pyenv shim, a virtualenv) has none of it. A
# pyenv shim also costs about 0.3 s a start, and the suites start a
# python3 for each of their cases (docs/ci.md).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin${PATH:+:$PATH}

wr_log() { printf '==> %s\n' "$*"; }
wr_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

wr_need_root() {
	[ "$(id -u)" -eq 0 ] || wr_die "run as root (apt-get and hugepages need it)"
}

# Install whatever of the given packages is missing. Elsewhere than on
# Debian and Ubuntu (no dpkg: RHEL, ...) the packages are the user's to
# install (README, "Other distributions"); meson says what it lacks.
wr_install() {
	local missing=() p
	if ! command -v dpkg-query >/dev/null; then
		wr_log "no apt here: install the packages yourself (README.md)"
		return 0
	fi
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	wr_log "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# Once per script: the lists do not change within a run (a fresh
	# machine's CI used to read them four times).
	if [ -z "${WR_APT_UPDATED-}" ]; then
		apt-get update -q >/dev/null || wr_die "apt-get update failed"
		export WR_APT_UPDATED=1
	fi
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
		wr_die "apt-get install ${missing[*]} failed"
}

# Install the test-only packages. The tests start their own Prometheus on
# loopback; the one Debian's package enables as a service (listening on
# every address, port 9090) is stopped and disabled when this installed it.
# The same holds for openssh-server's sshd (port 22, every address): the
# campaign suite starts its own, one per namespace; and for chrony's
# chronyd, which would adjust this machine's clock: the twoend suite
# starts its own, with -x; for Open vSwitch: the switch suite starts
# its own daemons; and for HAProxy: the twoend suite starts its own.
wr_install_test_tools() {
	local had=() svc pkg
	for pkg in prometheus openssh-server chrony openvswitch-switch haproxy; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' &&
			had+=("$pkg")
	done
	# chronyd must not run even for the moment between its package's
	# install and the stop below (it would step this machine's clock):
	# Debian's policy-rc.d (exit 101) denies every service start while
	# the packages install, when none is in place already.
	local policy=/usr/sbin/policy-rc.d made=
	if [[ " ${had[*]} " != *" chrony "* ]] && [ ! -e "$policy" ]; then
		printf '#!/bin/sh\n# wirerate set-up: no service starts while it installs\nexit 101\n' \
			> "$policy" && chmod 755 "$policy" && made=1
	fi
	# In a subshell: a failed install (wr_die) still takes the policy away.
	local rc=0
	(wr_install "${WR_TEST_PACKAGES[@]}") || rc=$?
	[ -n "$made" ] && rm -f "$policy"
	[ $rc -eq 0 ] || exit $rc
	for svc in prometheus:prometheus ssh:openssh-server chrony:chrony \
			openvswitch-switch:openvswitch-switch haproxy:haproxy; do
		[[ " ${had[*]} " == *" ${svc#*:} "* ]] && continue
		# systemd, or the init script where no systemd runs.
		systemctl disable --now "${svc%%:*}" >/dev/null 2>&1 ||
			service "${svc%%:*}" stop >/dev/null 2>&1 || true
	done
}

# Reserve 2 MiB hugepages and mount hugetlbfs; warn (tests then fall back
# to --no-huge) where the kernel or a container refuses. Says how much
# memory it reserved and how to give it back.
wr_hugepages() {
	local f=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages have before
	before=$(cat "$f" 2>/dev/null || echo 0)
	have=$before
	if [ "$have" -lt "$WR_HUGEPAGES" ]; then
		echo "$WR_HUGEPAGES" > "$f" 2>/dev/null || true
		have=$(cat "$f" 2>/dev/null || echo 0)
	fi
	if ! grep -qs ' /dev/hugepages hugetlbfs ' /proc/mounts; then
		mkdir -p /dev/hugepages
		mount -t hugetlbfs nodev /dev/hugepages 2>/dev/null || true
	fi
	if [ "$have" -gt "$before" ]; then
		wr_log "hugepages: reserved $(( (have - before) * 2 )) MiB ($((have - before)) x 2 MiB," \
			"now $have); give it back: echo $before > $f"
	fi
	if [ "$have" -lt 128 ]; then
		wr_log "warning: only $have hugepages; runs fall back to --no-huge"
	else
		wr_log "hugepages: $have x 2 MiB ($((have * 2)) MiB)"
	fi
}

# Configure DIR (once) and build it; extra meson options as arguments.
wr_build_in() {
	local dir=$1
	shift
	if [ -f "$dir/build.ninja" ]; then
		# A directory set up before an option existed knows no such
		# option until meson reads meson_options.txt again.
		meson configure "$dir" "$@" >/dev/null 2>&1 ||
			meson setup --reconfigure "$dir" "$WR_ROOT" "$@" >/dev/null
	else
		meson setup "$dir" "$WR_ROOT" "$@" >/dev/null
	fi || wr_die "meson set-up of $dir failed"
	ninja -C "$dir" || wr_die "build in $dir failed"
}

# The build of quickstart.sh and test.sh; extra meson options as arguments.
wr_build() {
	wr_build_in "$WR_BUILD" "$@"
}

# clang with ASan + UBSan (every test binary and the program) and the
# libFuzzer targets; -Db_lundef=false as the sanitizer runtimes need.
wr_build_san() {
	CC=clang wr_build_in "$WR_SAN_BUILD" -Dwerror=true \
		-Dbuildtype=debugoptimized -Db_sanitize=address,undefined \
		-Db_lundef=false -Dfuzz=enabled -Dfuzz_seconds="$WR_FUZZ_SECONDS"
}

# EAL options for a run on this machine: two lcores (the stats core and one
# worker) on the first two CPUs this process may use (-l 0,1 on most
# machines; both lcores on the one CPU there is on a single vCPU), no PCI
# probing (the machine's own NIC stays with the kernel), no hugepage files
# left behind.
wr_eal_opts() {
	local cpus opts
	cpus=($(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0))[:2])'))
	if [ ${#cpus[@]} -ge 2 ]; then
		opts="-l ${cpus[0]},${cpus[1]}"
	else
		opts="--lcores 0@${cpus[0]},1@${cpus[0]}"
	fi
	opts="$opts --no-pci --log-level=*:warning"
	# --no-huge and --in-memory exclude each other (EAL: legacy memory).
	if [ "$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)" -ge 128 ]; then
		opts="$opts --in-memory"
	else
		opts="$opts --no-huge -m 1024"
	fi
	echo "$opts"
}
