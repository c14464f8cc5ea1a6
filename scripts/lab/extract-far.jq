# The lab's reader of a two-ended result (--placement): the sender's figures
# for its TX port ($tx, PCI address) and the far end's for its port $rx,
# from the far end's answer in the sender's document (docs/twoended.md,
# "What the result says"), as one line of space-separated fields in the
# order of place.sh's PLACE_FIELDS. "-" = not reported.

def port_id($pci): first(.ports[] | select(.name == $pci) | .port_id) // null;
def total($id): first(.totals[] | select(.port_id == $id)) // {};

port_id($tx) as $t
| total($t) as $tt
| (.far // {}) as $far
| ($far.trials // [] | last // {}) as $ft
| ($far | port_id($rx)) as $r
| (first($ft.peer.totals[]? | select(.port_id == $r)) // {}) as $pt
| [
	$tt.tx_pkts,                    # sent: the sender's own count
	$tt.nic_opackets,               # the sender's PMD counter
	$ft.sent_pkts,                  # the trial's books: sent,
	$ft.rx_pkts,                    # received by the far end,
	$ft.lost_pkts,                  # lost
	$far.balanced,
	$pt.rx_pkts,                    # the far end's port: its own count,
	$pt.nic_ipackets,               # its PMD counter,
	$pt.rx_mpps, $pt.rx_gbps_l2,    # its rate
	$pt.rx_bytes,
	first(.ports[]? | select(.port_id == $t) | .driver),
	first($far.ports[]? | select(.port_id == $r) | .driver)
  ]
| map(if . == null then "-" else tostring end)
| join(" ")
