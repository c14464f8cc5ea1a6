#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Command two: the same set-up as quickstart.sh, a -Dwerror=true build
# (gcc, -O3 with assertions, Debian's DPDK) and every test suite that needs
# no special hardware ('lab' boots a QEMU guest: emulated NICs, no KVM
# needed); then the same program and tests built with AddressSanitizer +
# UndefinedBehaviorSanitizer (clang) against upstream DPDK 24.11 (built
# from ../shared/dpdk into a cache): the suites unit, vdev and faults on a
# second DPDK under the sanitizers in one leg, the fuzz targets for a
# bounded time (docs/dpdk-versions.md, docs/reliability.md). .ci/run
# calls this.
set -euo pipefail
# Its own build folder: build/ is the release build quickstart.sh and the
# README's measurements use.
WR_BUILD=${WR_BUILD:-$(cd "$(dirname "$0")/.." && pwd)/build-test}
# The sanitizer build's DPDK: an LTS series built from ../shared/dpdk, or
# "system" (Debian's, what scripts/fuzz.sh's build-san uses).
WR_SAN_DPDK=${WR_SAN_DPDK:-24.11}
[ "$WR_SAN_DPDK" = system ] || WR_SAN_BUILD=${WR_SAN_BUILD:-$(cd "$(dirname "$0")/.." && pwd)/build-san-$WR_SAN_DPDK}
. "$(dirname "$0")/lib/setup.sh"
. "$(dirname "$0")/lib/dpdk.sh"
. "$(dirname "$0")/lib/debian13.sh"

suites=(unit vdev server results twoend switch campaign faults lab package)  # in $WR_BUILD (gcc)
san_suites=(unit vdev faults fuzz sanextra)  # in $WR_SAN_BUILD (clang, sanitizers;
                                      # sanextra: tests/meson.build)
dpdk_suites=(unit vdev)               # in build-dpdk-SERIES (upstream DPDK)
dpdk_legs=()                          # DPDK LTS legs of the default run
                                      # (24.11 is the sanitizer build's)
d13_suites=()                         # the Debian 13 leg's (scripts/lib/debian13.sh),
                                      # a release check, not in the default run

usage() {
	cat <<USAGE
Usage: $0                 suites ${suites[*]}, then in the sanitizer
                          build ${san_suites[*]}
       $0 SUITE...        these suites, in the plain build only
       $0 --san [SUITE...] the sanitizer build only [${san_suites[*]}],
                          against DPDK WR_SAN_DPDK [$WR_SAN_DPDK] built
                          into the cache ("system": Debian's)
       $0 dpdk-SERIES [SUITE...] DPDK SERIES (23.11, 24.11, 25.11) built
                          from $WR_DPDK_SRC into a cache
                          (WR_DPDK_CACHE [$WR_DPDK_CACHE]),
                          wirerate against it [${dpdk_suites[*]}]
       $0 debian13 [SUITE...] a Debian 13 root (debootstrap, cached in
                          WR_D13_ROOT [$WR_D13_ROOT]) with its gcc, DPDK
                          and tshark; this tree built there into
                          build-debian13 [unit vdev]
       $0 long            the cases of suite long, in the plain build
The default run (CI) leaves out the cases of suite long (over 30 s, and
checked by a shorter case too; tests/meson.build long_tests, docs/ci.md):
'$0 long' runs them, and '$0 SUITE...' runs them with their suites. The
sanitizer leg also leaves out the cases of suite nosan (rate-sensitive,
kernel beds; san_skip_tests). Each run ends with scripts/ci-budget.py:
it names each case of the run outside suite long that took more than
WR_CASE_BUDGET_S [60] seconds (and with WR_CI_TOTAL_BUDGET_S, a build
whose cases took more than that in all); with WR_CASE_BUDGET_STRICT=1
that fails the run. The sanitizer build and the package suite's
dpkg-buildpackage run beside the plain suites in the idle scheduling
class, after the plain build's nosan cases (WR_SAN_BG [1]; 0: each in
line).
Opt-in suites: soak (WR_SOAK_S seconds
[600]). Fuzzing time per target: WR_FUZZ_SECONDS [$WR_FUZZ_SECONDS].
USAGE
}

plain=1
san=1
all_cases=0   # 1: the named suites' long cases too (not CI's default run)
if [ $# -gt 0 ]; then
	case $1 in
	-h|--help) usage; exit 0 ;;
	--san) shift; plain=0; dpdk_legs=(); [ $# -eq 0 ] || san_suites=("$@") ;;
	dpdk-*) plain=0; san=0; dpdk_legs=("${1#dpdk-}"); shift
		[ $# -eq 0 ] || dpdk_suites=("$@") ;;
	debian13) plain=0; san=0; dpdk_legs=(); shift
		d13_suites=(unit vdev); [ $# -eq 0 ] || d13_suites=("$@") ;;
	-*) usage >&2; exit 2 ;;
	*) suites=("$@"); san=0; dpdk_legs=(); all_cases=1 ;;
	esac
fi

# Run suites in a build directory; returns meson's status.
# run_suites DIR [--no-long] [--no-san] [--logbase NAME] SUITE...:
# --no-long leaves out the cases of suite long (tests/meson.build
# long_tests: `scripts/test.sh long` runs them), --no-san those of suite
# nosan (san_skip_tests: the plain build runs them); --logbase writes
# meson-logs/NAME.json instead of testlog.json.
run_suites() {
	local dir=$1 s args=() rc=0 what not=""
	shift
	while [[ "${1-}" == --no-long || "${1-}" == --no-san || "${1-}" == --logbase ]]; do
		case $1 in
		--no-long) args+=(--no-suite long); not+=", long" ;;
		--no-san) args+=(--no-suite nosan); not+=", nosan" ;;
		--logbase) args+=(--logbase "$2"); shift ;;
		esac
		shift
	done
	what=$*${not:+ (not the cases of suites ${not#, })}
	for s in "$@"; do args+=(--suite "$s"); done
	wr_log "$dir: $what"
	sync    # the build's writes too (see below)
	meson test -C "$dir" --print-errorlogs "${args[@]}" || rc=1
	# What the suites wrote (the package suite: a whole build) goes to disk
	# now, not while the next suites' busy-polling workers run: writeback
	# preempting a worker can make the pacer tests fall behind (seen once
	# in the sanitizer leg after the package suite: mix_rate).
	sync
	return $rc
}

# The leg of DPDK series $1: DPDK from the cache (built there on first use),
# wirerate against it, its suites; the time it took on stdout.
leg_dpdk() {
	local t0=$SECONDS rc=0
	wr_install "${WR_DPDK_BUILD_PACKAGES[@]}"
	wr_build_dpdk "$1"
	run_suites "$WR_ROOT/build-dpdk-$1" --no-long "${dpdk_suites[@]}" || rc=1
	wr_log "dpdk-$1 leg: $((SECONDS - t0)) s (DPDK build, wirerate build, suites)"
	return $rc
}

# The sanitizer build, against WR_SAN_DPDK's DPDK (from the cache, built
# there on first use) unless that is "system".
leg_san() {
	local prefix
	if [ "$WR_SAN_DPDK" = system ]; then
		wr_build_san
		return
	fi
	wr_install "${WR_DPDK_BUILD_PACKAGES[@]}"
	prefix=$(wr_dpdk_prefix "$WR_SAN_DPDK") || exit 1
	PKG_CONFIG_PATH=$prefix/lib/pkgconfig wr_build_san
}

# The sanitizer build (and its DPDK on first use) in the background while
# the plain build's suites run: a build is CPU-bound, most cases mostly
# wait (on timers, namespaces, other processes, a QEMU guest), and this
# took 2 to 5 minutes of CI's wall time on its own. SCHED_IDLE and the
# idle I/O class: it gets a CPU only when no case wants one (a waking case
# preempts it at once), so the cases' rates and timings stay theirs. Its
# output goes to a file, shown when it ends. On by default since a whole
# clean-clone run with both builds beside the suites passed every case
# (docs/ci.md); WR_SAN_BG=0 builds in line, after the plain suites.
WR_SAN_BG=${WR_SAN_BG:-1}
san_bg_start() {
	[ "$WR_SAN_BG" = 1 ] || return 0
	san_bg_log=$(mktemp /tmp/wirerate-san-build.XXXXXX)
	wr_log "sanitizer build in the background (SCHED_IDLE), log: $san_bg_log"
	(
		chrt --idle -p 0 "$BASHPID" >/dev/null 2>&1 ||
			renice -n 19 -p "$BASHPID" >/dev/null
		ionice -c 3 -p "$BASHPID" 2>/dev/null
		t0=$SECONDS
		leg_san
		echo "sanitizer build: $((SECONDS - t0)) s in the background"
	) >"$san_bg_log" 2>&1 &
	san_bg=$!
}
san_bg_wait() {
	local rc=0
	wait "$san_bg" || rc=$?
	wr_log "sanitizer build (background, exit $rc):"
	cat "$san_bg_log"
	rm -f "$san_bg_log"
	[ $rc -eq 0 ] || wr_die "the sanitizer build failed"
}

# The package suite's dpkg-buildpackage (a whole build, 164 s of its 182
# in the last clean-clone run) in the background too, the same way: the
# case takes the packages from WR_PKG_PREBUILT and runs their unit suite
# in the package's build tree itself (tests/package/test_package.py);
# run alone, the case builds them as before.
pkg_bg_start() {
	[ "$WR_SAN_BG" = 1 ] || return 0
	export WR_PKG_PREBUILT="$WR_BUILD/package-prebuilt"
	rm -rf "$WR_PKG_PREBUILT"
	mkdir -p "$WR_PKG_PREBUILT"
	wr_log "package build in the background (SCHED_IDLE) in $WR_PKG_PREBUILT"
	(
		chrt --idle -p 0 "$BASHPID" >/dev/null 2>&1 ||
			renice -n 19 -p "$BASHPID" >/dev/null
		ionice -c 3 -p "$BASHPID" 2>/dev/null
		PYTHONPATH="$WR_ROOT/tests/lib" exec python3 \
			"$WR_ROOT/tests/package/test_package.py" --prebuild "$WR_PKG_PREBUILT"
	) >"$WR_PKG_PREBUILT.log" 2>&1 &
	pkg_bg=$!
}

# One closing line per build, every skipped case with its reason, and the
# reliability figures the tests print. Fails (1) when a suite that CI can
# always run (unit, vdev, results: no hardware, no kernel feature) skipped.
summary() {
	python3 - "$@" <<'PY'
import json, re, sys
MUST_RUN = {"unit", "vdev", "results"}
figures = {}
total = [0, 0, 0]
forbidden = []
for log in sys.argv[1:]:
    ok = bad = skip = 0
    try:
        lines = open(log + "/meson-logs/testlog.json").read().splitlines()
    except OSError:
        continue
    for line in lines:
        r = json.loads(line)
        out = r.get("stdout") or ""
        if r["result"] in ("OK", "EXPECTEDFAIL"): ok += 1
        elif r["result"] == "SKIP":
            skip += 1
            why = re.findall(r"^SKIP:? (.*)$", out, re.M)
            # meson names a case "project:suite / case" (suite also a field
            # in newer meson).
            suites = set(r.get("suite") or [])
            m = re.match(r"[^:]*:([^ ]+) / ", r["name"])
            if m:
                suites.add(m.group(1))
            print("SKIP %s (%s): %s" % (r["name"], ",".join(sorted(suites)),
                                        why[-1] if why else "no reason printed"))
            if suites & MUST_RUN or not why:
                forbidden.append(r["name"])
        else: bad += 1
        for m in re.finditer(r"^fuzz (\w+): (\d+) executions", out, re.M):
            figures["fuzz %s executions" % m.group(1)] = int(m.group(2))
        for key, pat in (("faults injected", r"^faults injected: (\d+)"),
                         ("bad command lines tried", r"^bad command lines tried: (\d+)")):
            for m in re.finditer(pat, out, re.M):
                k = "%s (%s)" % (key, log.rsplit("/", 1)[-1])
                figures[k] = figures.get(k, 0) + int(m.group(1))
    print("%s: %d passed, %d failed, %d skipped" % (log, ok, bad, skip))
    total = [t + x for t, x in zip(total, (ok, bad, skip))]
for k in sorted(figures):
    print("  %s: %d" % (k, figures[k]))
print("total: %d passed, %d failed, %d skipped" % tuple(total))
if forbidden:
    print("FAIL: skipped where CI must run everything (%s), or without a "
          "reason: %s" % (", ".join(sorted(MUST_RUN)), ", ".join(forbidden)))
    sys.exit(1)
PY
}

wr_need_root
# Seconds per phase, printed at the end with scripts/ci-times.py's
# breakdown (docs/ci.md: where CI's time goes).
times=()
t_mark=$SECONDS
mark() { times+=("$1: $((SECONDS - t_mark)) s"); t_mark=$SECONDS; }

# What the chosen suites need, every leg's packages in one apt-get call
# where it can: unit alone needs the build, python3-jsonschema and
# python3-scapy only (no EAL, no hugepages, no test servers).
pkgs=()
[ $plain -eq 0 ] || [[ " ${suites[*]} " != *" package "* ]] ||
	pkgs+=("${WR_PKG_PACKAGES[@]}")
[ $san -eq 0 ] || pkgs+=("${WR_SAN_PACKAGES[@]}")
[ $san -eq 0 ] || [ "$WR_SAN_DPDK" = system ] || pkgs+=("${WR_DPDK_BUILD_PACKAGES[@]}")
if [ "${suites[*]}" = unit ] && [ $san -eq 0 ]; then
	wr_install "${WR_BUILD_PACKAGES[@]}" python3-jsonschema python3-scapy
else
	wr_install "${WR_PACKAGES[@]}" "${pkgs[@]}"
	wr_install_test_tools
	wr_hugepages
fi
[ ${#pkgs[@]} -eq 0 ] || wr_install "${pkgs[@]}"
mark "packages and hugepages"
rc=0
dirs=()
san_bg=
pkg_bg=
# The background builds do not outlive an interrupted run.
# (set -e is on again when the run exits: nothing here may fail.)
bg_stop() {
	local p
	for p in $san_bg $pkg_bg; do
		pkill -TERM -P "$p" 2>/dev/null || true
		kill "$p" 2>/dev/null || true
	done
}
trap bg_stop EXIT
set +e
if [ $plain -eq 1 ]; then
	# -O3 as the release build has (GCC warns of some things only when it
	# inlines that far: it once stopped scripts/bench.sh's build while
	# every -O2 build passed), with assertions and debug info.
	wr_build -Dwerror=true -Dbuildtype=debugoptimized -Doptimization=3
	mark "plain build"
	quiet=()
	if [ $all_cases -eq 0 ] && [ $san -eq 1 ] && [ "$WR_SAN_BG" = 1 ]; then
		# The rate-sensitive cases (suite nosan: the pacer's, the loss
		# search's, latency under load) first, before the builds start
		# beside the rest: even in the idle class a build can cost a
		# paced worker milliseconds the kernel does not show (one CI
		# run's 5 Mpps case stalled in all three tries beside them).
		run_suites "$WR_BUILD" --no-long --logbase quiet nosan || rc=1
		quiet=(--no-san)
		mark "plain suites' rate-sensitive cases (before the builds beside)"
	fi
	[ $san -eq 0 ] || san_bg_start
	[[ " ${suites[*]} " != *" package "* ]] || pkg_bg_start
	if [ $all_cases -eq 1 ]; then
		run_suites "$WR_BUILD" "${suites[@]}" || rc=1
	else
		run_suites "$WR_BUILD" --no-long "${quiet[@]}" "${suites[@]}" || rc=1
	fi
	# One log of the plain build's cases for the summary and the budgets.
	[ ${#quiet[@]} -eq 0 ] ||
		cat "$WR_BUILD/meson-logs/quiet.json" >>"$WR_BUILD/meson-logs/testlog.json"
	if [ -n "$pkg_bg" ]; then
		wait "$pkg_bg"
		rm -rf "$WR_PKG_PREBUILT" "$WR_PKG_PREBUILT.log"
	fi
	mark "plain suites${san_bg:+ (the sanitizer build beside them)}${pkg_bg:+ (and the package build)}"
	dirs+=("$WR_BUILD")
fi
if [ $san -eq 1 ]; then
	if [ -n "$san_bg" ]; then
		san_bg_wait
	else
		leg_san
	fi
	mark "sanitizer build${san_bg:+ (what remained of it)}"
	run_suites "$WR_SAN_BUILD" --no-long --no-san "${san_suites[@]}" || rc=1
	mark "sanitizer suites"
	dirs+=("$WR_SAN_BUILD")
fi
for v in "${dpdk_legs[@]}"; do
	leg_dpdk "$v" || rc=1
	dirs+=("$WR_ROOT/build-dpdk-$v")
done
if [ ${#d13_suites[@]} -gt 0 ]; then
	wr_leg_debian13 "${d13_suites[@]}" || rc=1
	dirs+=("$WR_ROOT/build-debian13")
fi
mark "other legs"
wr_log "where the time went (docs/ci.md):"
printf '  %s\n' "${times[@]}"
python3 "$(dirname "$0")/ci-times.py" "${dirs[@]}"
summary "${dirs[@]}" || rc=1
# The per-case budget, so that CI's time holds as suites arrive.
# WR_CI_TOTAL_BUDGET_S: also a limit on each build's case time in all.
# A case's time is the machine's as much as the case's: over the budget
# fails the run only with WR_CASE_BUDGET_STRICT=1, else it is printed.
if ! python3 "$(dirname "$0")/ci-budget.py" --limit "${WR_CASE_BUDGET_S:-60}" \
	${WR_CI_TOTAL_BUDGET_S:+--total "$WR_CI_TOTAL_BUDGET_S"} "${dirs[@]}"; then
	if [ "${WR_CASE_BUDGET_STRICT:-0}" = 1 ]; then
		rc=1
	else
		echo "(over the budget: printed, not failed; WR_CASE_BUDGET_STRICT=1 fails it)"
	fi
fi
set -e
exit $rc
