# SPDX-License-Identifier: BSD-3-Clause
"""The routed DUT of the campaign bed (bed.py --dut): a namespace `dut`
that routes between the two data hosts, a management bridge in it that
every host reaches, and optionally an HTTP load balancer on it (HAProxy
in `dut` in front of nginx on `h2`). docs/campaigns.md, "The bed's DUT".

  h1 d1 10.215.T.1/24  <->  dut da 10.215.T.254/24    (MTU: --mtu)
  h2 d2 10.216.T.1/24  <->  dut db 10.216.T.254/24    (MTU: --mtu)
  nginx on h2: 10.216.T.2:80 (a second address of d2: the kernel's,
  apart from wirerate's .1); HAProxy on dut: 10.215.T.254:80
  management: h1 .1, h2 .2, h3 .3, dut .254 of 10.217.T.0/24 (bridge mg
  in dut); h2's wr_peer_addr is its address there.

T is the bed's number (from the PID). Standard library only."""
import os

from wrtest import sh

# user root: the bed's directory is private (mode 0700), www-data could
# not read the body.
NGINX_CONF = """user root;
worker_processes 1;
daemon on;
pid {d}/nginx.pid;
error_log {d}/nginx-error.log;
events {{ worker_connections 4096; }}
http {{
    access_log {d}/nginx-access.log;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    server {{
        listen {addr}:80;
        root {d}/www;
    }}
}}
"""

HAPROXY_CONF = """global
    stats socket {d}/haproxy.sock mode 600 level admin
    nbthread 1
    maxconn 4000
defaults
    mode http
    timeout connect 5s
    timeout client 10s
    timeout server 10s
frontend fe
    bind {vip}:80
    default_backend web
backend web
    server nginx {server}:80
"""

# The body every GET gets (bytes): several segments at MTU 1500, one or
# two at 9000, so that the MTU changes the balancer's segments per answer.
BODY_BYTES = 16000


class RoutedDut:
    """Addresses and links of the routed DUT of one Bed (bed.tag, bed.ns,
    bed.links, bed.more_ports, bed.more_vars)."""

    def __init__(self, bed, mtu):
        self.bed, self.mtu = bed, mtu
        t = int(bed.net.split(".")[2])
        self.left, self.right, self.mgmt = ("10.%d.%d" % (n, t) for n in (215, 216, 217))
        self.ifaces = (bed.tag + "da", bed.tag + "db")
        self.data = (bed.tag + "d1", bed.tag + "d2")
        self.vip = "%s.254" % self.left          # HAProxy's frontend
        self.web = "%s.2" % self.right           # nginx on h2
        self.http = False

    def up(self):
        """The two routed links and the management bridge."""
        b, dut = self.bed, self.bed.ns("dut")
        sh("ip", "netns", "exec", dut, "sysctl", "-qw", "net.ipv4.ip_forward=1")
        for h, mine, theirs, net in (("h1", self.data[0], self.ifaces[0], self.left),
                                     ("h2", self.data[1], self.ifaces[1], self.right)):
            sh("ip", "link", "add", mine, "type", "veth", "peer", "name", theirs)
            sh("ip", "link", "set", mine, "netns", b.ns(h))
            sh("ip", "link", "set", theirs, "netns", dut)
            sh("ip", "-n", b.ns(h), "link", "set", mine, "address", b.MACS[h],
               "mtu", str(self.mtu), "up")
            sh("ip", "-n", dut, "addr", "add", "%s.254/24" % net, "dev", theirs)
            sh("ip", "-n", dut, "link", "set", theirs, "mtu", str(self.mtu), "up")
            # Segments the balancer sends to wirerate's af_packet port carry
            # a checksum: no offload left undone on a veth.
            sh("ip", "netns", "exec", dut, "ethtool", "-K", theirs, "tx", "off")
        sh("ip", "-n", b.ns("h2"), "addr", "add", "%s/24" % self.web, "dev", self.data[1])
        sh("ip", "-n", b.ns("h2"), "route", "add", "%s.0/24" % self.left,
           "via", "%s.254" % self.right)
        sh("ip", "netns", "exec", b.ns("h2"), "ethtool", "-K", self.data[1], "tx", "off")
        self._mgmt()
        b.more_vars.setdefault("dut", {})["wr_dut_interfaces"] = list(self.ifaces)
        b.data = self.data
        # Jumbo frames need ring slots that hold them (wirerate names the
        # arguments when they are missing).
        ring = "framecnt=2048,framesz=12288,blocksz=12288" if self.mtu > 1500 \
            else "framecnt=8192"
        for h, net in (("h1", self.left), ("h2", self.right)):
            b.more_ports.setdefault(h, {})["routed"] = {
                "vdev": "net_af_packet0,iface=%s,%s,qdisc_bypass=0" % (
                    self.data[0] if h == "h1" else self.data[1], ring),
                "ip": "%s.1/24" % net, "gw": "%s.254" % net}

    def _mgmt(self):
        """Bridge mg in dut, a veth from each other host to it."""
        b, dut = self.bed, self.bed.ns("dut")
        sh("ip", "-n", dut, "link", "add", "mg", "type", "bridge", "stp_state", "0")
        sh("ip", "-n", dut, "addr", "add", "%s.254/24" % self.mgmt, "dev", "mg")
        sh("ip", "-n", dut, "link", "set", "mg", "up")
        for n, h in enumerate(("h1", "h2", "h3"), 1):
            mine, theirs = "%sm%d" % (b.tag, n), "%sM%d" % (b.tag, n)
            sh("ip", "link", "add", mine, "type", "veth", "peer", "name", theirs)
            sh("ip", "link", "set", mine, "netns", b.ns(h))
            sh("ip", "link", "set", theirs, "netns", dut)
            sh("ip", "-n", dut, "link", "set", theirs, "master", "mg", "up")
            sh("ip", "-n", b.ns(h), "addr", "add", "%s.%d/24" % (self.mgmt, n), "dev", mine)
            sh("ip", "-n", b.ns(h), "link", "set", mine, "up")
            b.more_vars.setdefault(h, {})["wr_peer_addr"] = "%s.%d" % (self.mgmt, n)

    def start_http(self):
        """nginx on h2 (one worker, a BODY_BYTES file at /), HAProxy on dut
        in front of it (one thread, a stats socket in the bed's dir)."""
        b = self.bed
        d = b.path("http")
        os.makedirs(os.path.join(d, "www"), exist_ok=True)
        with open(os.path.join(d, "www", "index.html"), "w") as f:
            f.write("w" * (BODY_BYTES - 1) + "\n")
        with open(os.path.join(d, "nginx.conf"), "w") as f:
            f.write(NGINX_CONF.format(d=d, addr=self.web))
        with open(os.path.join(d, "haproxy.cfg"), "w") as f:
            f.write(HAPROXY_CONF.format(d=d, vip=self.vip, server=self.web))
        sh("ip", "netns", "exec", b.ns("h2"), "nginx", "-c", os.path.join(d, "nginx.conf"))
        sh("ip", "netns", "exec", b.ns("dut"), "haproxy", "-D", "-f",
           os.path.join(d, "haproxy.cfg"), "-p", os.path.join(d, "haproxy.pid"))
        self.http = True
        b.more_vars.setdefault("dut", {})["wr_servers"] = {"haproxy": "%s:80" % self.vip}
        b.more_vars.setdefault("h2", {})["wr_servers"] = {"nginx": "%s:80" % self.web}

    def haproxy_info(self):
        """HAProxy's `show info` on its stats socket, as {name: value}."""
        import socket
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(5)
        s.connect(self.bed.path("http/haproxy.sock"))
        s.sendall(b"show info\n")
        out = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            out += chunk
        s.close()
        info = {}
        for line in out.decode().splitlines():
            k, _, v = line.partition(":")
            info[k.strip()] = v.strip()
        return info

    def iface_counts(self):
        """{iface: (rx_packets, tx_packets)} of the DUT's two data links."""
        out = {}
        for n in self.ifaces:
            p = sh("ip", "netns", "exec", self.bed.ns("dut"), "cat",
                   "/sys/class/net/%s/statistics/rx_packets" % n,
                   "/sys/class/net/%s/statistics/tx_packets" % n)
            rx, tx = (int(x) for x in p.stdout.split())
            out[n] = (rx, tx)
        return out
