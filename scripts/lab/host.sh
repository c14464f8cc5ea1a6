# shellcheck shell=bash
# Host side of scripts/vnic-lab.sh (sourced): the Debian tools it needs, the
# guest kernel (from linux-image-amd64, unpacked into the cache) and the
# accelerator (KVM when it really runs a guest, else TCG).
# Reads: cache_dir install accel (options), say die (vnic-lab.sh).
# Sets: busybox_bin, KVER KDIR (vmlinuz, uio, uio_pci_generic and e1000
# modules), ACCEL_NAME ACCEL_ARGS.

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
	[ -f "$KDIR/vmlinuz" ] && [ -f "$KDIR/uio_pci_generic.ko" ] && [ -f "$KDIR/e1000.ko" ] && return 0
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
		"./lib/modules/$KVER/kernel/drivers/uio/uio_pci_generic.ko" \
		"./lib/modules/$KVER/kernel/drivers/net/ethernet/intel/e1000/e1000.ko" ||
		{ rm -rf "$tmp"; die "unpacking $deb failed"; }
	mv "$tmp/boot/vmlinuz-$KVER" "$tmp/vmlinuz"
	mv "$tmp/lib/modules/$KVER/kernel/drivers/uio/"*.ko "$tmp/"
	# e1000: the management NIC of --placement's guests (peer protocol).
	mv "$tmp/lib/modules/$KVER/kernel/drivers/net/ethernet/intel/e1000/e1000.ko" "$tmp/"
	rm -rf "${tmp:?}/boot" "${tmp:?}/lib"
	# Another lab may have finished first: keep its copy (an older cache
	# without e1000.ko is replaced).
	[ -f "$KDIR/e1000.ko" ] || rm -rf "$KDIR"
	mv -T "$tmp" "$KDIR" 2>/dev/null || rm -rf "$tmp"
	rm -f "$deb"
}

# --- accelerator

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
