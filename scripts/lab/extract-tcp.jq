# The lab's reader of a run's TCP transfer (vnic-lab.sh, tcp_args): one
# result with the client port ($c, PCI address) and the server port ($s)
# in one process, the client's books in "connections", the server's in
# "connections_server" (docs/results.md), as one line of space-separated
# fields in the order of vnic-lab.sh's TCP_FIELDS. "-" = not reported.

def port_id($pci): first(.ports[] | select(.name == $pci) | .port_id) // null;
def total($id): first(.totals[]? | select(.port_id == $id)) // {};
def port($id): first(.ports[] | select(.port_id == $id)) // {};
# the checksums the PMD does: TCP's sent, the IPv4 header's sent, both
# received (docs/tcp.md), as "true,false,true"
def csum($p): [$p.tcp_csum_tx_offload, $p.ipv4_csum_tx_offload,
	$p.tcp_csum_rx_offload] | map(tostring) | join(",");

port_id($c) as $ci
| port_id($s) as $si
| total($ci) as $ct
| total($si) as $st
| (.connections // {}) as $cl
| (.connections_server // {}) as $sv
| [
	# goodput: payload bytes the server delivered a second, in MB/s
	($sv.rates.goodput_bytes_per_s | if . == null then null
		else (. / 1000 | round) / 1000 end),
	$cl.books.completed, $cl.books.failed_total,
	$cl.books.l7_tx_bytes,             # the client's payload sent
	$sv.books.l7_rx_bytes,             # the server's payload delivered
	$cl.retransmits.total_segs,
	$cl.books.tx_segs, $cl.books.rx_segs, $sv.books.tx_segs, $sv.books.rx_segs,
	$ct.nic_opackets, $ct.tx_service_pkts, $ct.nic_ipackets, $ct.rx_service_pkts,
	$st.nic_opackets, $st.tx_service_pkts, $st.nic_ipackets, $st.rx_service_pkts,
	port($ci).driver, port($si).driver, csum(port($ci)), csum(port($si))
  ]
| map(if . == null then "-" else tostring end)
| join(" ")
