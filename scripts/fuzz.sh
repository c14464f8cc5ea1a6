#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Fuzz one target (or all) for a while in the sanitizer build. New inputs
# the fuzzer finds are kept in the build directory between runs; a crash
# input is printed with the command that reproduces it.
set -euo pipefail
. "$(dirname "$0")/lib/setup.sh"

usage() {
	cat <<USAGE
Usage: $0 TARGET|all [SECONDS]
Targets: $(cd "$WR_ROOT/tests/fuzz" && ls fuzz_*.c | sed 's/fuzz_//; s/\.c$//' | tr '\n' ' ')
SECONDS per target [60]. Seeds: tests/fuzz/corpus/TARGET (read only);
found inputs: $WR_SAN_BUILD/tests/fuzz/work/TARGET. Keep a fixed crash as a
regression case in tests/fuzz/crashes/TARGET/.
USAGE
}

[ $# -ge 1 ] || { usage >&2; exit 2; }
case $1 in -h|--help) usage; exit 0 ;; esac
target=$1
seconds=${2:-60}
[[ $seconds =~ ^[0-9]+$ ]] || { usage >&2; exit 2; }
if [ "$target" = all ]; then
	targets=$(cd "$WR_ROOT/tests/fuzz" && ls fuzz_*.c | sed 's/fuzz_//; s/\.c$//')
else
	[ -f "$WR_ROOT/tests/fuzz/fuzz_$target.c" ] || { usage >&2; exit 2; }
	targets=$target
fi

wr_need_root
wr_install "${WR_PACKAGES[@]}" "${WR_SAN_PACKAGES[@]}"
wr_build_san
rc=0
for t in $targets; do
	python3 "$WR_ROOT/tests/fuzz/run_fuzz.py" "$WR_SAN_BUILD/tests/fuzz/fuzz_$t" \
		"$t" "$WR_ROOT/tests/fuzz/corpus/$t" \
		"$WR_SAN_BUILD/tests/fuzz/work/$t" "$seconds" || rc=1
done
exit $rc
