# SPDX-License-Identifier: BSD-3-Clause
# The Debian 13 leg of scripts/test.sh (sourced, not run): a Debian 13
# ("trixie") root made by debootstrap into a cache, with its own gcc,
# DPDK 24.11 and tshark 4.4 from Debian; this source tree bind-mounted in
# it, built there with -Werror into build-debian13/, the suites run there
# on this machine's kernel, hugepages and namespaces.
# Reads WR_ROOT, wr_log, wr_die, wr_install (setup.sh).

WR_D13_ROOT=${WR_D13_ROOT:-/var/cache/wirerate/debian13}
WR_D13_MIRROR=${WR_D13_MIRROR:-http://deb.debian.org/debian}
# What the build, the unit and the vdev suites need in the root (the other
# suites stay on the host's leg).
WR_D13_PACKAGES=("${WR_BUILD_PACKAGES[@]}" iproute2 gnuplot-nox tcpdump iputils-ping
	python3-jsonschema python3-scapy tshark tmux procps prometheus python3-prometheus-client)
WR_D13_MOUNTS=()

# Unmount what wr_d13_mount mounted, innermost first.
wr_d13_umount() {
	local i
	for ((i = ${#WR_D13_MOUNTS[@]} - 1; i >= 0; i--)); do
		umount -R "${WR_D13_MOUNTS[$i]}" 2>/dev/null ||
			umount -lR "${WR_D13_MOUNTS[$i]}" 2>/dev/null || true
	done
	WR_D13_MOUNTS=()
}

# wr_d13_bind SRC DST [mount options]: a bind mount, undone at exit.
wr_d13_bind() {
	mkdir -p "$2"
	mount "${@:3}" "$1" "$2" || wr_die "mount $1 on $2 failed"
	WR_D13_MOUNTS+=("$2")
}

# The root, made on first use. A stamp names the package list it holds,
# so a change of the list installs the difference.
wr_d13_root() {
	local r=$WR_D13_ROOT stamp
	stamp="${WR_D13_PACKAGES[*]}"
	if [ ! -x "$r/usr/bin/apt-get" ]; then
		wr_install debootstrap
		wr_log "Debian 13: debootstrap into $r (about a minute)"
		rm -rf "$r"
		debootstrap --variant=minbase --include=ca-certificates trixie "$r" \
			"$WR_D13_MIRROR" >"$r.log" 2>&1 ||
			wr_die "debootstrap trixie failed: $r.log"
	fi
	[ "$(cat "$r/.wirerate-packages" 2>/dev/null)" = "$stamp" ] && return 0
	wr_log "Debian 13: installing ${WR_D13_PACKAGES[*]}"
	wr_d13_in env DEBIAN_FRONTEND=noninteractive sh -c "apt-get update -q >/dev/null &&
		apt-get install -y -q --no-install-recommends $stamp >/dev/null" ||
		wr_die "apt-get install in the Debian 13 root failed"
	printf '%s' "$stamp" >"$r/.wirerate-packages"
}

# Run a command in the root (no mounts: set-up only).
wr_d13_in() {
	chroot "$WR_D13_ROOT" "$@"
}

# /proc, /sys, /dev (hugepages), the network namespaces and this tree.
wr_d13_mount() {
	local r=$WR_D13_ROOT
	trap wr_d13_umount EXIT
	# The root a mount point of its own: `ip netns exec` marks / a slave.
	wr_d13_bind "$r" "$r" --bind
	wr_d13_bind proc "$r/proc" -t proc
	wr_d13_bind /sys "$r/sys" --rbind
	wr_d13_bind /dev "$r/dev" --rbind
	mkdir -p /run/netns
	wr_d13_bind /run/netns "$r/run/netns" --rbind
	# not /wirerate: the man page check takes that path for a build path
	wr_d13_bind "$WR_ROOT" "$r/srv/tree" --bind
}

# The leg: root, build, suites $@; meson's status.
wr_leg_debian13() {
	local t0=$SECONDS rc=0 args=() s
	wr_d13_root
	wr_d13_mount
	wr_log "Debian 13: $(wr_d13_in sh -c '. /etc/os-release; echo $PRETTY_NAME'), DPDK $(wr_d13_in pkg-config --modversion libdpdk), $(wr_d13_in sh -c 'gcc --version | head -1')"
	[ -f "$WR_ROOT/build-debian13/build.ninja" ] ||
		wr_d13_in sh -c "cd /srv/tree && meson setup build-debian13 -Dwerror=true \
			-Dbuildtype=debugoptimized -Doptimization=3 >/dev/null" ||
		{ wr_d13_umount; wr_die "meson setup in the Debian 13 root failed"; }
	wr_d13_in ninja -C /srv/tree/build-debian13 >/dev/null ||
		{ wr_d13_umount; wr_die "the build in the Debian 13 root failed (ninja -C build-debian13 there)"; }
	for s in "$@"; do args+=(--suite "$s"); done
	wr_log "$WR_ROOT/build-debian13 (Debian 13 root): $* (not the long cases)"
	wr_d13_in sh -c "cd /srv/tree && meson test -C build-debian13 --print-errorlogs \
		--no-suite long ${args[*]}" || rc=1
	wr_d13_umount
	trap - EXIT
	wr_log "debian13 leg: $((SECONDS - t0)) s (root, build, suites)"
	return $rc
}
