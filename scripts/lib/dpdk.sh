# SPDX-License-Identifier: BSD-3-Clause
# Upstream DPDK LTS builds for the test matrix (sourced by test.sh after
# setup.sh): the release tarballs in ../shared/dpdk (read-only, checked
# against their SHA256SUMS) are built once into a cache keyed on the
# tarball's checksum and reused; docs/dpdk-versions.md lists the versions.

WR_DPDK_SRC=${WR_DPDK_SRC:-$WR_ROOT/../shared/dpdk}
WR_DPDK_CACHE=${WR_DPDK_CACHE:-/var/cache/wirerate/dpdk}
# The drivers wirerate and its tests use (the recipe of
# ../shared/dpdk/README.md) and no apps (its -Denable_apps list is void
# beside -Ddisable_apps='*' anyway); everything else is left out to keep
# the build about 3 minutes on two idle cores.
WR_DPDK_DRIVERS=bus/vdev,bus/pci,mempool/ring,net/null,net/ring,net/memif,net/pcap,net/af_packet,net/af_xdp,net/tap,net/vhost,net/virtio,net/vmxnet3,net/e1000,net/bonding
# The optional libraries wirerate (cfgfile, pcapng) and those drivers need
# (vhost: cryptodev, dmadev; bonding: sched, ip_frag; tap: gso, bpf);
# DPDK adds its mandatory ones. Half the libraries, half the build time
# (24.11.6 on two cores: 2 min 50 s with every library, 1 min 20 s so,
# with other builds beside it); meson stops if a driver lacks one.
WR_DPDK_LIBS=cfgfile,pcapng,vhost,cryptodev,dmadev,sched,ip_frag,gso,bpf,timer

# The tarball of release series SERIES (e.g. 24.11): its path on stdout.
wr_dpdk_tarball() {
	local t
	t=$(ls "$WR_DPDK_SRC"/dpdk-"$1".*.tar.xz 2>/dev/null | sort -V | tail -n 1)
	[ -n "$t" ] || wr_die "no DPDK $1 tarball in $WR_DPDK_SRC"
	echo "$t"
}

# The checked sha256 of TARBALL on stdout; dies when SHA256SUMS disagrees
# or does not list it.
wr_dpdk_sha256() {
	local t=$1 want have
	want=$(awk -v f="$(basename "$t")" '$2 == f { print $1 }' \
		"$(dirname "$t")/SHA256SUMS" 2>/dev/null)
	[ -n "$want" ] || wr_die "$(basename "$t") is not in SHA256SUMS"
	have=$(sha256sum "$t" | cut -d' ' -f1)
	[ "$have" = "$want" ] || wr_die "$t: sha256 $have, SHA256SUMS says $want"
	echo "$have"
}

# Build DPDK from TARBALL into PREFIX. The stamp file is written last, so
# a build cut short leaves no stamp and is redone on the next run.
wr_dpdk_build() {
	local t=$1 prefix=$2 scratch rc=0
	scratch=$(mktemp -d /tmp/wr-dpdk.XXXXXX)
	wr_log "building $(basename "$t") into $prefix (a few minutes)"
	rm -rf "$prefix"
	tar -xf "$t" -C "$scratch" || wr_die "cannot unpack $t"
	# Debian's python first: pmdinfogen.py needs python3-pyelftools.
	(cd "$scratch"/dpdk-* && PATH=/usr/bin:$PATH meson setup "$scratch/b" \
		--prefix="$prefix" --libdir=lib -Dplatform=generic -Dtests=false \
		-Denable_docs=false -Denable_drivers="$WR_DPDK_DRIVERS" \
		-Denable_libs="$WR_DPDK_LIBS" -Ddisable_apps='*' >"$scratch/setup.log" &&
		PATH=/usr/bin:$PATH ninja -C "$scratch/b" install >"$scratch/build.log") ||
		rc=$?
	if [ $rc -ne 0 ]; then
		tail -n 30 "$scratch"/*.log >&2
		rm -rf "$scratch"
		wr_die "DPDK build from $t failed"
	fi
	rm -rf "$scratch"
	basename "$t" >"$prefix/.wirerate-complete"
}

# Make sure DPDK series SERIES is built and cached: its prefix on stdout
# (logs go to stderr).
wr_dpdk_prefix() {
	local t sha prefix ver
	t=$(wr_dpdk_tarball "$1")
	sha=$(wr_dpdk_sha256 "$t")
	ver=$(basename "$t" .tar.xz)
	# Keyed on the drivers and libraries too: another choice, another build.
	prefix=$WR_DPDK_CACHE/${ver#dpdk-}-${sha:0:16}-$(printf '%s %s' \
		"$WR_DPDK_DRIVERS" "$WR_DPDK_LIBS" | sha256sum | cut -c1-8)
	if [ -f "$prefix/.wirerate-complete" ]; then
		wr_log "DPDK ${ver#dpdk-}: cached in $prefix" >&2
	else
		wr_dpdk_build "$t" "$prefix" >&2
	fi
	echo "$prefix"
}

# Build wirerate against DPDK series SERIES in build-dpdk-SERIES; the
# program and tests find that DPDK's libraries and drivers by rpath. A
# release build (-O3) with -Werror, like scripts/bench.sh's: GCC warns of
# some things only when it inlines that far, and the other builds of the
# suite are debugoptimized (-O2), so this leg is where CI sees them.
wr_build_dpdk() {
	local prefix
	prefix=$(wr_dpdk_prefix "$1") || exit 1
	PKG_CONFIG_PATH=$prefix/lib/pkgconfig wr_build_in "$WR_ROOT/build-dpdk-$1" \
		-Dwerror=true -Dbuildtype=release -Ddpdk_rpath=true
}
