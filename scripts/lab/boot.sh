# shellcheck shell=bash
# Guest of scripts/vnic-lab.sh, built and booted from the host (sourced):
# the initramfs (busybox, the generator and its libraries, the DPDK PMD
# plugins, the uio modules, the run list), the QEMU boot with one hub port
# per NIC, and the split of the second serial port's file into OUT/NAME/.
# Reads: work out_dir quiet keep_work smp mem_mb guest_timeout NICS
# NIC_DEVICE PMDS LAB_DIR APP APP_BIN busybox_bin KDIR ACCEL_ARGS
# RUN_TIMEOUT (vnic-lab.sh, host.sh), say die.

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
	pack_initramfs "$work/initrd.cpio"
}

# The staging root as a newc cpio archive in file $1.
pack_initramfs() {
	(cd "$stage" && chmod 755 . && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$1" ||
		die "cpio failed"
}

# --- boot and results

qemu_pid=""
cleanup() {
	[ -z "${placement:-}" ] || stop_pair
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
	QEMU_NICS=("${args[@]}")
	start_qemu ""
	qemu_pid=$QEMU_PID
	while kill -0 "$qemu_pid" 2>/dev/null; do
		shown=$(progress_of "$work/console.log" guest "$shown")
		sleep 0.5
	done
	rc=0
	wait "$qemu_pid" || rc=$?
	qemu_pid=""
	progress_of "$work/console.log" guest "$shown" >/dev/null
	return "$rc"
}

# start_qemu SUFFIX [COMMAND...]: boots initrd$SUFFIX.cpio of $work in the
# background under COMMAND (e.g. the namespace's), with the NICs in
# QEMU_NICS, the console in console$SUFFIX.log, the results' serial port
# in results$SUFFIX.txt and QEMU's own messages in qemu$SUFFIX.log; sets
# QEMU_PID. The whole guest is bounded by guest_timeout.
start_qemu() {
	local s=$1
	shift
	: >"$work/console$s.log"
	: >"$work/results$s.txt"
	"$@" timeout -k 5 "$guest_timeout" qemu-system-x86_64 -nodefaults -machine pc \
		"${ACCEL_ARGS[@]}" -smp "$smp" -m "$mem_mb" -display none -no-reboot \
		-chardev "file,id=con,path=$work/console$s.log" -serial chardev:con \
		-chardev "file,id=res,path=$work/results$s.txt" -serial chardev:res \
		-kernel "$KDIR/vmlinuz" -initrd "$work/initrd$s.cpio" \
		-append "console=ttyS0 panic=-1 quiet hugepagesz=2M hugepages=256 tsc=reliable" \
		"${QEMU_NICS[@]}" </dev/null >"$work/qemu$s.log" 2>&1 &
	QEMU_PID=$!
}

# progress_of CONSOLE LABEL SHOWN: the guest's "LAB:" lines in file CONSOLE
# after the first SHOWN, prefixed with LABEL; echoes the count. The file
# is read once: counted and printed from the same lines, since it grows.
progress_of() {
	local lines n=0
	lines=$(grep '^LAB: ' "$1" 2>/dev/null | tr -d '\r' || true)
	[ -z "$lines" ] || n=$(wc -l <<<"$lines")
	if [ "$n" -gt "$3" ] && [ "$quiet" -eq 0 ]; then
		tail -n +$(($3 + 1)) <<<"$lines" | sed "s/^LAB: /  $2 $(date +%T) /" >&2
	fi
	echo "$n"
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
