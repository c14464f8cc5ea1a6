# SPDX-License-Identifier: BSD-3-Clause
"""Check a campaign against its inventory without reaching any host, and
list the cells it would run (scripts/campaign.sh, before Ansible starts,
and for --dry-run):

  expand.py INVENTORY CAMPAIGN RESULTS [--list]

Every mistake of the campaign file is printed once, each with its place
and, where a close name exists, a suggestion; exit 2. Without mistakes:
exit 0, and with --list one line per cell (n/of, id, sender -> receiver,
timeout, whether an earlier run is reused) and both command lines. Run
by the Python that runs Ansible (the filters import it)."""
import json
import os
import subprocess
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "filter_plugins"))
import wr_campaign  # noqa: E402


def hostvars(inventory):
    """Every host's variables as Ansible merges them (ansible-inventory:
    groups, group_vars, INI or YAML), with the playbook's wr_defaults."""
    p = subprocess.run(["ansible-inventory", "-i", inventory, "--list"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("error: %s: ansible-inventory could not read it: %s" % (
            inventory, p.stderr.strip().splitlines()[-1:] or "?"))
    meta = json.loads(p.stdout).get("_meta", {}).get("hostvars", {})
    with open(os.path.join(HERE, "group_vars", "all.yml")) as f:
        defaults = yaml.safe_load(f)["wr_defaults"]
    return {h: dict(v, wr_defaults=defaults) for h, v in meta.items()}


def main(argv):
    if len(argv) not in (3, 4) or (len(argv) == 4 and argv[3] != "--list"):
        print(__doc__, file=sys.stderr)
        return 2
    inventory, campaign, results = argv[:3]
    try:
        with open(campaign) as f:
            doc = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        print("error: %s: %s" % (campaign, e), file=sys.stderr)
        return 2
    hv = hostvars(inventory)
    try:
        cells = wr_campaign.wr_cells(doc, hv, results)
    except wr_campaign.CampaignError as e:
        print("error: %s: %s" % (campaign, e), file=sys.stderr)
        return 2
    if len(argv) == 4:
        todo = {c["id"] for c in wr_campaign.wr_pending(cells)}
        for c in cells:
            print("%d/%d %s: %s:%s -> %s:%s, timeout %d s%s" % (
                c["n"], c["of"], c["id"], c["sender"]["host"], c["sender"]["port"],
                c["receiver"]["host"], c["receiver"]["port"], c["timeout"],
                "" if c["id"] in todo else " (ran: reused)"))
            print("    sender:   %s" % c["sender"]["cmd"])
            print("    receiver: %s" % c["receiver"]["cmd"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
