# SPDX-License-Identifier: BSD-3-Clause
"""A campaign test bed: three "hosts" as network namespaces, each with its
own sshd listening only on its namespace address, reached from the root
namespace (the Ansible controller) with a key made here. Data ports: a veth
pair h1 <-> h2 (af_packet; a tbf shaper on h1's end: "different hosts") and
memif between two processes of h3 ("same host"); with peer_link, a
management veth h1 <-> h2 for a search cell's --peer. Everything is private to
one Bed and removed by Bed.close(), whatever happened: sshd by the PID in
its PidFile, namespaces (with their veth ends), the root-side veth ends,
memif sockets, the directory. With dut=True a fourth namespace `dut`
routes between h1 and h2 (bed_dut.py: addresses, routes, a management
bridge every host reaches), and with http=True HAProxy on it balances
HTTP to nginx on h2. See docs/campaigns.md. Standard library only.

  python3 bed.py up DIR [--shaper-rate RATE] [--dut] [--mtu MTU] [--http]
                            build a bed, write DIR/inventory.yml, stay up
                            until SIGINT/SIGTERM (for trying the playbook);
                            RATE: the tbf's rate on h1's data link, in tc's
                            units [20mbit]; --dut: the routed DUT namespace
                            between h1 and h2 (not shaped); MTU: its data
                            links' MTU [1500]; --http: HAProxy on dut in
                            front of nginx on h2 (implies --dut)
"""
import json
import os
import shutil
import signal
import sys
import tempfile
import time

# Also run by hand (bed.py up DIR): the shared test helpers' folder.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wrtest import sh, stop_pids  # noqa: E402 (test_campaign.py takes sh from here)
from bed_dut import RoutedDut  # noqa: E402

SSH_PORT = 2222
MACS = {"h1": "02:00:00:13:01:01", "h2": "02:00:00:13:02:01"}
SHAPER_RATE = "20mbit"   # the default rate of h1's tbf (tc's units)


class Bed:
    """Namespaces h1, h2, h3 on 10.213.T.0/24 (T from the PID). With
    router=True a fourth, r, is the DUT: the data link h1 -> h2 crosses
    its bridge (h1 d1 = r ra, r rb = h2 d2), not shaped."""

    HOSTS = ("h1", "h2", "h3")
    MACS = MACS

    def __init__(self, workdir=None, router=False, peer_link=False,
                 shaper_rate=SHAPER_RATE, dut=False, mtu=1500, http=False):
        self.shaper = "tbf rate %s burst 32kb latency 50ms" % shaper_rate
        dut = dut or http
        self.HOSTS = Bed.HOSTS + (("r",) if router else ()) + (("dut",) if dut else ())
        self.router, self.peer_link = router, peer_link
        pid = os.getpid()
        self.tag = "wc%d" % (pid % 10000)
        self.net = "10.213.%d" % (pid % 200 + 20)
        self.dir = workdir or tempfile.mkdtemp(prefix="wirerate-campaign-")
        os.makedirs(self.dir, exist_ok=True)
        self.netns, self.links, self.sshd, self.pids_seen = [], [], {}, {}
        # Per host: more wr_ports, the environment of its host steps, more
        # inventory variables.
        self.more_ports, self.host_env, self.more_vars = {}, {}, {}
        self.addr = {h: "%s.%d" % (self.net, 4 * i + 2) for i, h in
                     enumerate(self.HOSTS)}
        self.dut = RoutedDut(self, mtu) if dut else None
        self.want_http = http

    def path(self, leaf):
        return os.path.join(self.dir, leaf)

    def ns(self, host):
        return self.tag + host

    def up(self):
        """Build everything; raises on the first step that fails."""
        os.makedirs("/run/sshd", exist_ok=True)
        sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", self.path("key"))
        sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", self.path("hostkey"))
        for i, h in enumerate(self.HOSTS):
            self._host(i, h)
        if self.dut:
            self.dut.up()
        else:
            self._data_link()
        if self.peer_link and not self.dut:
            self._peer_link()
        for h in self.HOSTS:
            self.start_sshd(h)
        if self.want_http:
            self.dut.start_http()
        self.write_inventory()

    def _host(self, i, h):
        ns = self.ns(h)
        sh("ip", "netns", "add", ns)
        self.netns.append(ns)
        sh("ip", "netns", "exec", ns, "sysctl", "-qw",
           "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1")
        sh("ip", "-n", ns, "link", "set", "lo", "up")
        root, inner = "%sc%d" % (self.tag, i), "%sn%d" % (self.tag, i)
        sh("ip", "link", "add", root, "type", "veth", "peer", "name", inner)
        self.links.append(root)
        sh("ip", "link", "set", inner, "netns", ns)
        sh("ip", "addr", "add", "%s.%d/30" % (self.net, 4 * i + 1), "dev", root)
        sh("ip", "link", "set", root, "up")
        sh("ip", "-n", ns, "addr", "add", "%s/30" % self.addr[h], "dev", inner)
        sh("ip", "-n", ns, "link", "set", inner, "up")

    def _data_link(self):
        """h1 <-> h2: the "different hosts" link, shaped on h1's egress."""
        a, b = self.tag + "d1", self.tag + "d2"
        if self.router:
            self._router_links(a, b)
        else:
            sh("ip", "link", "add", a, "type", "veth", "peer", "name", b)
        for dev, h in ((a, "h1"), (b, "h2")):
            sh("ip", "link", "set", dev, "netns", self.ns(h))
            sh("ip", "-n", self.ns(h), "link", "set", dev, "address", MACS[h],
               "mtu", "1500", "up")
        if not self.router:
            sh("ip", "netns", "exec", self.ns("h1"), "tc", "qdisc", "add", "dev", a,
               "root", *self.shaper.split())
        self.data = (a, b)

    def _peer_link(self):
        """h1 <-> h2: the management link a search cell's --peer takes to
        h2's wirerate serve (the namespaces reach each other through no
        other link): h2's wr_peer_addr."""
        a, b = self.tag + "p1", self.tag + "p2"
        net = "10.214.%d" % (os.getpid() % 200 + 20)
        sh("ip", "link", "add", a, "type", "veth", "peer", "name", b)
        for dev, h, n in ((a, "h1", 1), (b, "h2", 2)):
            sh("ip", "link", "set", dev, "netns", self.ns(h))
            sh("ip", "-n", self.ns(h), "addr", "add", "%s.%d/30" % (net, n), "dev", dev)
            sh("ip", "-n", self.ns(h), "link", "set", dev, "up")
        self.more_vars.setdefault("h2", {})["wr_peer_addr"] = "%s.2" % net

    def _router_links(self, a, b):
        """h1's a <-> r's ra and r's rb <-> h2's b, ra and rb on a bridge
        (no STP, no IPv6: the bridge forwards only wirerate's frames)."""
        r = self.ns("r")
        self.dut_ifaces = (self.tag + "ra", self.tag + "rb")
        for mine, theirs in zip((a, b), self.dut_ifaces):
            sh("ip", "link", "add", mine, "type", "veth", "peer", "name", theirs)
            sh("ip", "link", "set", theirs, "netns", r)
        sh("ip", "-n", r, "link", "add", "br0", "type", "bridge", "stp_state", "0")
        for dev in self.dut_ifaces + ("br0",):
            sh("ip", "-n", r, "link", "set", dev, "mtu", "1500", "up")
        for dev in self.dut_ifaces:
            sh("ip", "-n", r, "link", "set", dev, "master", "br0")

    def start_sshd(self, h):
        conf = self.path("sshd-%s.conf" % h)
        with open(conf, "w") as f:
            f.write("""Port %d
ListenAddress %s
HostKey %s
AuthorizedKeysFile %s
PermitRootLogin prohibit-password
PasswordAuthentication no
UsePAM no
PidFile %s
StrictModes no
Subsystem sftp /usr/lib/openssh/sftp-server
""" % (SSH_PORT, self.addr[h], self.path("hostkey"), self.path("key.pub"),
                self.path("sshd-%s.pid" % h)))
        pidfile = self.path("sshd-%s.pid" % h)
        if os.path.exists(pidfile):
            os.unlink(pidfile)
        sh("ip", "netns", "exec", self.ns(h), "/usr/sbin/sshd", "-f", conf,
           "-E", self.path("sshd-%s.log" % h))
        # sshd creates its pid file, then writes it: wait for a whole line.
        end, text = time.monotonic() + 10, ""
        while time.monotonic() < end and not text.endswith("\n"):
            time.sleep(0.05)
            try:
                with open(pidfile) as f:
                    text = f.read()
            except FileNotFoundError:
                pass
        self.sshd[h] = self.pids_seen[h] = int(text.strip())

    def stop_sshd(self, *hosts):
        """Stop these hosts' sshds (all at once) by their PIDs: the hosts
        become unreachable."""
        stop_pids([p for p in (self.sshd.pop(h, None) for h in hosts) if p is not None])

    def write_inventory(self):
        """The inventory of this bed: ports as af_packet and memif vdevs."""
        sock = self.path("memif.sock")
        memif = "net_memif0,role=%s,socket=" + sock + ",socket-abstract=no"
        afp = "net_af_packet0,iface=%s,framecnt=8192,qdisc_bypass=0"
        ports = {
            "h1": {"veth": {"vdev": afp % self.data[0], "mac": MACS["h1"]},
                   "sink": {"vdev": "net_null0"}},
            "h2": {"veth": {"vdev": afp % self.data[1], "mac": MACS["h2"]}},
            "h3": {"memif-rcv": {"vdev": memif % "server"},
                   "memif-snd": {"vdev": memif % "client"}},
            "r": {}, "dut": {},
        }
        if self.dut:
            ports["h1"].pop("veth")
            ports["h2"].pop("veth")
        lines = ["all:", "  vars:",
                 "    ansible_port: %d" % SSH_PORT,
                 "    ansible_user: root",
                 "    ansible_ssh_private_key_file: %s" % self.path("key"),
                 "    ansible_ssh_common_args: '-o StrictHostKeyChecking=no"
                 " -o UserKnownHostsFile=/dev/null -o ConnectTimeout=5'",
                 "    ansible_python_interpreter: /usr/bin/python3",
                 "    wr_dir: %s" % self.path("hosts/{{ inventory_hostname }}"),
                 "    wr_eal_extra: --no-pci --in-memory --log-level=*:error",
                 "  hosts:"]
        for h in self.HOSTS:
            lines += ["    %s:" % h, "      ansible_host: %s" % self.addr[h],
                      "      wr_label: namespace %s" % h,
                      "      wr_hypervisor: %s" % ("box-a" if h != "h2" else "box-b"),
                      "      wr_ports:"]
            for name, p in dict(ports[h], **self.more_ports.get(h, {})).items():
                lines.append("        %s:" % name)
                lines += ["          %s: '%s'" % kv for kv in sorted(p.items())]
            # Lists and mappings as JSON (YAML's flow style), the rest quoted.
            lines += ["      %s: %s" % (k, json.dumps(v) if isinstance(v, (dict, list))
                                       else "'%s'" % v)
                      for k, v in sorted(self.more_vars.get(h, {}).items())]
            if h in self.host_env:
                lines.append("      wr_host_env:")
                lines += ["        %s: '%s'" % kv for kv in sorted(self.host_env[h].items())]
        with open(self.path("inventory.yml"), "w") as f:
            f.write("\n".join(lines) + "\n")

    def sysfs(self, host):
        return self.path("sysfs-" + host)

    def fake_pci(self, host, devices, driver="virtio-pci"):
        """A fake sysfs for HOST's host steps (WR_SYSFS) with PCI devices
        {address: interface in HOST's namespace} bound to DRIVER, no IOMMU,
        no hugepages, no vfio_pci module, and wr-shim.py as devbind and
        modprobe: a namespace cannot bind a device, the steps around the
        binding (refusal, state file, restore) are what this tests."""
        root = self.sysfs(host)
        files = {"kernel/mm/hugepages/hugepages-2048kB/nr_hugepages": "0",
                 "module/vfio/parameters/enable_unsafe_noiommu_mode": "N"}
        for leaf, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, leaf)), exist_ok=True)
            with open(os.path.join(root, leaf), "w") as f:
                f.write(text + "\n")
        os.makedirs(os.path.join(root, "kernel", "iommu_groups"), exist_ok=True)
        os.makedirs(os.path.join(root, "bus", "pci", "drivers", driver), exist_ok=True)
        for pci, ifname in devices.items():
            dev = os.path.join(root, "bus", "pci", "devices", pci)
            os.makedirs(os.path.join(dev, "net", ifname))
            os.symlink(os.path.join(root, "bus", "pci", "drivers", driver),
                       os.path.join(dev, "driver"))
        shim = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wr-shim.py")
        self.host_env[host] = {"WR_SYSFS": root, "WR_DEVBIND": shim + " devbind",
                               "WR_MODPROBE": shim + " modprobe"}

    def sysfs_state(self, host):
        """What the host steps may change in HOST's fake sysfs."""
        root = self.sysfs(host)

        def read(leaf):
            with open(os.path.join(root, leaf)) as f:
                return f.read().strip()
        devs = os.path.join(root, "bus", "pci", "devices")
        return {"hugepages": read("kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"),
                "noiommu": read("module/vfio/parameters/enable_unsafe_noiommu_mode"),
                "vfio_pci": os.path.isdir(os.path.join(root, "module", "vfio_pci")),
                "drivers": {pci: os.path.basename(os.readlink(os.path.join(devs, pci, "driver")))
                            if os.path.lexists(os.path.join(devs, pci, "driver")) else None
                            for pci in sorted(os.listdir(devs))}}

    def _kill_ns_pids(self):
        """Whatever still runs in the namespaces (sessions of the sshd
        children, anything a test left) by PID, TERM then KILL."""
        for sig in (signal.SIGTERM, signal.SIGKILL):
            pids = []
            for ns in self.netns:
                out = sh("ip", "netns", "pids", ns, check=False).stdout
                pids += [int(x) for x in out.split()]
            stop_pids(pids, sig, timeout=3)

    def _close_ssh_masters(self):
        """The controller's SSH connection masters (ControlPersist)."""
        cp = self.path("cp")
        for sock in os.listdir(cp) if os.path.isdir(cp) else []:
            sh("ssh", "-O", "exit", "-o", "ControlPath=" + os.path.join(cp, sock),
               "wr-bed", check=False)

    def close(self):
        self._close_ssh_masters()
        self.stop_sshd(*self.sshd)
        self._kill_ns_pids()
        for ns in self.netns:
            sh("ip", "netns", "del", ns, check=False)
        for link in self.links:
            sh("ip", "link", "del", link, check=False)
        self.netns, self.links = [], []
        shutil.rmtree(self.dir, ignore_errors=True)


def main():
    args = sys.argv[1:]
    opts = {"--shaper-rate": SHAPER_RATE, "--mtu": "1500"}
    flags = {f: f in args for f in ("--dut", "--http")}
    args = [a for a in args if a not in flags]
    for k in opts:
        if k in args[:-1]:
            i = args.index(k)
            opts[k] = args.pop(i + 1)
            args.pop(i)
    rate, mtu = opts["--shaper-rate"], opts["--mtu"]
    if len(args) != 2 or args[0] != "up" or not rate[:1].isdigit() or \
            not mtu.isdigit() or not 68 <= int(mtu) <= 9000:
        sys.exit(__doc__)
    bed = Bed(args[1], shaper_rate=rate, dut=flags["--dut"], mtu=int(mtu),
              http=flags["--http"])
    stop = []
    # Both by hand: a shell starts a background job with SIGINT ignored,
    # and Python then raises no KeyboardInterrupt for it.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *a: stop.append(1))
    try:
        bed.up()
        print("bed up: %s/inventory.yml (sshd %s)" % (bed.dir, bed.sshd), flush=True)
        while not stop:
            time.sleep(0.1)
    finally:
        bed.close()


if __name__ == "__main__":
    main()
