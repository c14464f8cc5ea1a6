# The lab's reader of a cell's TCP transfer (--placement, place.sh
# cell_tcp): the client's figures for its port ($c, PCI address) and the
# far end's server books from its answer in the client's document
# (connections.far, docs/results.md), as one line of space-separated
# fields in the order of place.sh's PLACE_TCP_FIELDS. "-" = not reported.

def port_id($pci): first(.ports[] | select(.name == $pci) | .port_id) // null;
def total($id): first(.totals[]? | select(.port_id == $id)) // {};
def port($id): first(.ports[] | select(.port_id == $id)) // {};

port_id($c) as $ci
| total($ci) as $ct
| (.connections // {}) as $cl
| ($cl.far // {}) as $far
| ($far.connections // {}) as $sv
| [
	# goodput: payload bytes the client sent a second (the far end
	# delivered them all when far_delivered = tcp_sent), in MB/s
	($cl.rates.goodput_bytes_per_s | if . == null then null
		else (. / 1000 | round) / 1000 end),
	$cl.books.completed, $cl.books.failed_total,
	$cl.books.l7_tx_bytes,             # the client's payload sent
	$sv.books.l7_rx_bytes,             # the far server's payload delivered
	$sv.books.accepted, $sv.books.closed,
	$far.judged,
	(if ($far.checks | type) == "array" and ($far.checks | length) > 0
		then all($far.checks[]; .ok) else null end),
	$cl.retransmits.total_segs,
	$cl.books.tx_segs, $cl.books.rx_segs, $sv.books.rx_segs, $sv.books.tx_segs,
	$ct.nic_opackets, $ct.tx_service_pkts, $ct.nic_ipackets, $ct.rx_service_pkts,
	port($ci).driver,
	# ARP requests it sent before traffic (its PMD's counters start after)
	(port($ci).next_hops // [] | map(.requests) | add)
  ]
| map(if . == null then "-" else tostring end)
| join(" ")
