#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""dpdk-devbind.py and modprobe for the campaign test bed (bed.py), on the
fake sysfs that WR_SYSFS names: a network namespace cannot bind a PCI
device, so the bed hands wr-host.sh these instead (WR_DEVBIND,
WR_MODPROBE). Every call is appended to WR_SYSFS/calls.log.

  wr-shim.py devbind [--force] -b DRIVER PCI | -u PCI
  wr-shim.py modprobe [-r] MODULE

As the real devbind, binding a device whose interface carries an address
is refused without --force; a device bound to a DPDK driver has no
interface (net/ is hidden until a kernel driver has it again).
Standard library only."""
import os
import subprocess
import sys

DPDK_DRIVERS = ("vfio-pci", "uio_pci_generic", "igb_uio")


def fail(msg):
    sys.stderr.write("wr-shim: %s\n" % msg)
    sys.exit(1)


def active(dev):
    """An interface of dev with an address (in this namespace), or None."""
    net = os.path.join(dev, "net")
    for n in os.listdir(net) if os.path.isdir(net) else []:
        p = subprocess.run(["ip", "-o", "addr", "show", "dev", n],
                           capture_output=True, text=True)
        if p.stdout.strip():
            return n
    return None


def bind(sysfs, dev, drv, force):
    if not force and active(dev):
        fail("Warning: routing table indicates that interface %s is active. "
             "Not modifying" % active(dev))
    link = os.path.join(dev, "driver")
    if os.path.lexists(link):
        os.unlink(link)
    net, hidden = os.path.join(dev, "net"), os.path.join(dev, "net.hidden")
    if drv is None or drv in DPDK_DRIVERS:
        if os.path.isdir(net):
            os.rename(net, hidden)
    elif os.path.isdir(hidden):
        os.rename(hidden, net)
    if drv is not None:
        target = os.path.join(sysfs, "bus", "pci", "drivers", drv)
        os.makedirs(target, exist_ok=True)
        os.symlink(target, link)


def devbind(sysfs, args):
    force = "--force" in args
    args = [a for a in args if a != "--force"]
    if len(args) == 3 and args[0] == "-b":
        drv, pci = args[1], args[2]
    elif len(args) == 2 and args[0] == "-u":
        drv, pci = None, args[1]
    else:
        fail("usage: devbind [--force] -b DRIVER PCI | -u PCI")
    dev = os.path.join(sysfs, "bus", "pci", "devices", pci)
    if not os.path.isdir(dev):
        fail("Unknown device: %s" % pci)
    bind(sysfs, dev, drv, force)


def modprobe(sysfs, args):
    remove = args[:1] == ["-r"]
    mod = os.path.join(sysfs, "module", args[-1].replace("-", "_"))
    if remove:
        os.rmdir(mod)
    else:
        os.makedirs(mod, exist_ok=True)


def main():
    sysfs = os.environ.get("WR_SYSFS")
    if not sysfs or len(sys.argv) < 3 or sys.argv[1] not in ("devbind", "modprobe"):
        fail("usage: WR_SYSFS=DIR wr-shim.py devbind|modprobe ARGS")
    with open(os.path.join(sysfs, "calls.log"), "a") as f:
        f.write(" ".join(sys.argv[1:]) + "\n")
    (devbind if sys.argv[1] == "devbind" else modprobe)(sysfs, sys.argv[2:])


if __name__ == "__main__":
    main()
