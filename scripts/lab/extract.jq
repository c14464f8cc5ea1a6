# The lab's one reader of wirerate's result file (docs/results.md, schema
# wirerate-result/1): the figures of one run for the TX port and the RX port
# named by PCI address ($tx, $rx), as one line of space-separated fields in
# the order of vnic-lab.sh's summary (app_extract). "-" = not reported.
# A schema change is an edit here and nowhere else.

def port_id($pci): first(.ports[] | select(.name == $pci) | .port_id) // null;
def total($id): first(.totals[] | select(.port_id == $id)) // {};
def port($id): first(.ports[] | select(.port_id == $id)) // {};
# Busy cycles per frame of the worker polling queue 0 of port $id as $dir
# ("tx" or "rx"): one NIC's cost when vnic-lab gave each its own worker.
def worker_cpp($dir; $id):
	first(.plan.workers[] | select(any(.[$dir][]; . == "\($id).0")) | .lcore) as $l
	| first(.cpu.lcores[]? | select(.lcore == $l) | .tsc_per_pkt) // null;
def sum(f): if length == 0 then null else map(f) | add end;

port_id($tx) as $t
| port_id($rx) as $r
| total($t) as $tt
| total($r) as $rt
| [.streams[] | select(.tx_port == $t and .rx_port == $r and .sender_in_run)] as $s
| [
	$tt.tx_pkts,                       # sent: the sender's own count
	($s | sum(.rx_pkts)),              # received: unique sequence numbers
	($s | sum(.lost_pkts)),            # lost: sent - received, per stream
	$tt.tx_mpps, $tt.tx_gbps_l2, $rt.rx_mpps, $rt.rx_gbps_l2,
	worker_cpp("tx"; $t), worker_cpp("rx"; $r),
	port($t).driver, port($r).driver,
	"sequence",
	$rt.rx_bytes,
	($s | sum(.gap_pkts)), ($s | sum(.dup_pkts)),
	$tt.nic_opackets, $rt.nic_ipackets, $rt.rx_foreign_pkts
  ]
| map(if . == null then "-" else tostring end)
| join(" ")
