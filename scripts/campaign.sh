#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One command for a campaign across hosts (docs/campaigns.md): every cell
# of CAMPAIGN on the hosts of INVENTORY, receiver first, merged, reported.
# A thin wrapper around Debian's ansible-core:
#   ansible-playbook -i INVENTORY scripts/campaign/campaign.yml \
#       -e campaign=CAMPAIGN -e results=DIR [-e rerun=true]
# with progress lines instead of Ansible's task log, then the table.
set -uo pipefail

usage() {
	cat <<USAGE
Usage: $0 [options] INVENTORY CAMPAIGN
  --results DIR   where results go [campaign-results/NAME, NAME from CAMPAIGN]
  --rerun         run every cell again (default: resume; cells that ran (both
                  ends, a balanced merge) with the same cell digest are reused)
  --no-exporters  do not start wirerate-exporter.py on the hosts
  --wirerate PATH the wirerate program shipped to the hosts and run here for
                  merge and report [build/app/wirerate]
  --ansible ARG   pass ARG to ansible-playbook (repeatable), e.g. -vv
  --dry-run       check the campaign against the inventory and list the cells
                  it would run, with both command lines; no host is reached
Exit status: 0 every cell ran and none missed its goal, 1 a cell failed
or missed its goal (or the campaign could not finish), 2 bad usage or a
bad campaign file.
USAGE
}

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
results="" extra=() dry=0
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--results) [ $# -ge 2 ] || { usage >&2; exit 2; }; results=$2; shift 2 ;;
	--rerun) extra+=(-e rerun=true); shift ;;
	--no-exporters) extra+=(-e wr_exporters=false); shift ;;
	--wirerate) [ $# -ge 2 ] || { usage >&2; exit 2; }
		bin=$(realpath -m "$2")
		extra+=(-e "wr_ship_bin=$bin" -e "wr_local_bin=$bin"); shift 2 ;;
	--ansible) [ $# -ge 2 ] || { usage >&2; exit 2; }; extra+=("$2"); shift 2 ;;
	--dry-run) dry=1; shift ;;
	-*) echo "error: unknown option $1" >&2; usage >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { usage >&2; exit 2; }
inventory=$1 campaign=$2
for f in "$inventory" "$campaign"; do
	[ -r "$f" ] || { echo "error: $f: cannot read" >&2; exit 2; }
done
command -v ansible-playbook >/dev/null ||
	{ echo "error: ansible-playbook missing (apt-get install ansible-core)" >&2; exit 1; }
[ -n "$results" ] || results=campaign-results/$(basename "${campaign%.*}")
# The campaign checked here, every mistake at once, before Ansible starts
# (by the Python that runs Ansible: the playbook's filters need it).
py=$(sed -n '1s/^#! *\([^ ]*\).*/\1/p' "$(command -v ansible-playbook)")
if [ $dry -eq 1 ]; then
	exec "${py:-python3}" "$root/scripts/campaign/expand.py" "$inventory" "$campaign" \
		"$(realpath -m "$results")" --list
fi
"${py:-python3}" "$root/scripts/campaign/expand.py" "$inventory" "$campaign" \
	"$(realpath -m "$results")" || exit $?
mkdir -p "$results" || exit 1
results=$(cd "$results" && pwd)
rm -f "$results/campaign-error.txt" "$results/summary.json"

export ANSIBLE_STDOUT_CALLBACK=wirerate_progress
export ANSIBLE_PIPELINING=True ANSIBLE_RETRY_FILES_ENABLED=False
export ANSIBLE_HOST_PATTERN_MISMATCH=ignore
ansible-playbook -i "$inventory" "$root/scripts/campaign/campaign.yml" \
	-e "campaign=$(cd "$(dirname "$campaign")" && pwd)/$(basename "$campaign")" \
	-e "results=$results" "${extra[@]}"
rc=$?
if [ -f "$results/campaign-error.txt" ]; then
	echo "error: $(cat "$results/campaign-error.txt")" >&2
	exit 2
fi
if [ ! -f "$results/summary.json" ]; then
	echo "error: the campaign did not finish (ansible-playbook exit $rc);" \
		"what was collected is in $results/cells" >&2
	exit 1
fi
[ $rc -eq 0 ] && exit 0
exit 1
