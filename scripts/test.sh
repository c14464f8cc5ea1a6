#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Command two: the same set-up as quickstart.sh, a -Dwerror=true build, and
# every test suite that needs no special hardware ('lab' boots a QEMU guest:
# emulated NICs, no KVM needed). .ci/run calls this.
set -euo pipefail
. "$(dirname "$0")/lib/setup.sh"

suites=(unit vdev results twoend lab)
if [ $# -gt 0 ]; then
	case $1 in
	-h|--help) echo "Usage: $0 [SUITE...]  (default: ${suites[*]})"; exit 0 ;;
	*) suites=("$@") ;;
	esac
fi

wr_need_root
wr_install "${WR_PACKAGES[@]}"
wr_install_test_tools
wr_hugepages
wr_build -Dwerror=true -Dbuildtype=debugoptimized
args=()
for s in "${suites[@]}"; do args+=(--suite "$s"); done
set +e
meson test -C "$WR_BUILD" --print-errorlogs "${args[@]}"
rc=$?
set -e
# One closing line any CI can read.
python3 - "$WR_BUILD/meson-logs/testlog.json" <<'PY'
import json, sys
ok = bad = skip = 0
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    if r in ("OK", "EXPECTEDFAIL"): ok += 1
    elif r == "SKIP": skip += 1
    else: bad += 1
print("%d passed, %d failed, %d skipped" % (ok, bad, skip))
PY
exit $rc
