# SPDX-License-Identifier: BSD-3-Clause
"""Ansible filters of the wirerate campaign playbook (docs/campaigns.md).

  campaign | wr_cells(hostvars, results)   every cell of the matrix, checked,
                                           with both command lines
  wr_ports | wr_bind_args                  PCI ports to bind: ADDRESS, or
                                           force=ADDRESS for bind: force
  cell | wr_unprepared(hostvars)           why the cell's hosts are not
                                           prepared (wr_prep_error), if so
  cells | wr_pending(rerun)                the cells without a record that
                                           ran, of the same digest (cell.json)

Pure Python on the controller: they read the campaign and the inventory
and the cells' records (cell.json), they never reach a host."""
import difflib
import hashlib
import ipaddress
import json
import os
import re
import shlex
import sys

from ansible.errors import AnsibleFilterError
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wr_conn  # noqa: E402  (connection cells)

CELL_KEYS = {"label", "sender", "receiver", "sizes", "mtus", "count", "duration",
             "rate", "idle_timeout", "grace", "repeats", "latency", "timeout",
             "sender_options", "receiver_options", "goal", "mode", "conn"}
# A search cell (mode:) runs two-ended through --peer: the receiver is a
# `wirerate serve` on its host, the sender's method judges every trial on
# its counts. Its keys, each the wirerate option of the same name.
MODES = ("throughput", "mlr", "loss", "b2b", "sweep")
MODE_KEYS = {"trial": "--trial", "resolution": "--resolution", "max_trials": "--max-trials",
             "pdr": "--pdr", "goals": "--goals", "mlr_initial": "--mlr-initial",
             "loss_step": "--loss-step", "b2b_trials": "--b2b-trials",
             "peer_timeout": "--peer-timeout", "lat_loads": "--lat-loads"}
CELL_KEYS |= set(MODE_KEYS)
PEER_PORT = 9435
DEFAULTS = {"sizes": [1518], "rate": "max", "idle_timeout": "2s",
            "grace": "500ms", "repeats": 1, "latency": False,
            "sender_options": "", "receiver_options": ""}
EAL_SENDER = "-l 0,1"
EAL_RECEIVER = "-l 0,1 --main-lcore 1"
# A cell's timeout without `timeout:` (docs/campaigns.md): SETUP_S for EAL
# and ports at both ends, plus SLACK times the traffic the cell asks for.
SETUP_S = 60
SLACK = 2
# Trials per size of a search mode when --max-trials is not given
# (wirerate's default) and sizes of --sizes rfc2544.
SEARCH_TRIALS = 20
RFC2544_SIZES = 7


class CampaignError(AnsibleFilterError):
    """Every mistake of a campaign file, each once: `mistakes` holds the
    lines "WHERE: WHAT", the message says them all."""

    def __init__(self, mistakes):
        self.mistakes = list(mistakes)
        if len(self.mistakes) == 1:
            msg = "campaign: " + self.mistakes[0]
        else:
            msg = "campaign: %d mistakes:\n%s" % (len(self.mistakes), "\n".join(
                "  " + m for m in self.mistakes))
        super().__init__(msg)


class _Mistake(Exception):
    """One mistake: stops the check it is found in, not the others."""


def _bad(where, msg):
    raise _Mistake("%s: %s" % (where, msg))


def _suggest(word, known):
    """' (did you mean X?)' for the closest of KNOWN, or ''."""
    near = difflib.get_close_matches(str(word), sorted(known), n=1, cutoff=0.6)
    return " (did you mean %s?)" % near[0] if near else ""


def _collect(mistakes, fn, *args):
    """fn(*args), its mistake added to MISTAKES; None after a mistake."""
    try:
        return fn(*args)
    except _Mistake as e:
        mistakes.append(str(e))
    except CampaignError as e:
        mistakes.extend(e.mistakes)
    return None


def _slug(label):
    return re.sub(r"[^A-Za-z0-9.-]+", "_", label).strip("_") or "cell"


def _endpoint(where, key, spec, hostvars):
    """"HOST:PORT" -> (host, port name, port dict, host vars)."""
    if not isinstance(spec, str) or spec.count(":") != 1:
        _bad(where, "%s: %r: expected HOST:PORT (a host of the inventory and "
             "a name under its wr_ports)" % (key, spec))
    host, port = spec.split(":")
    if host not in hostvars:
        _bad(where, "%s: host %r is not in the inventory%s" % (
            key, host, _suggest(host, hostvars)))
    hv = hostvars[host]
    ports = hv.get("wr_ports") or {}
    if port not in ports:
        _bad(where, "%s: host %s has no port %r in wr_ports (it has: %s)%s" % (
            key, host, port, ", ".join(sorted(ports)) or "none",
            _suggest(port, ports)))
    p = ports[port]
    if not isinstance(p, dict) or (("pci" in p) == ("vdev" in p)):
        _bad(where, "%s: %s wr_ports.%s: give exactly one of pci or vdev" % (
            key, host, port))
    _check_addr(where, "%s: %s wr_ports.%s" % (key, host, port), p)
    return host, port, p, hv


def _check_addr(where, what, p):
    """A port's ip (ADDR/LEN) and gw (an address on its link), if given."""
    if "gw" in p and "ip" not in p:
        _bad(where, "%s: gw needs ip (ADDR/LEN)" % what)
    if "ip" not in p:
        return
    try:
        itf = ipaddress.ip_interface(str(p["ip"]))
    except ValueError:
        itf = None
    if itf is None or "/" not in str(p["ip"]):
        _bad(where, "%s: ip %r: expected ADDR/LEN (e.g. 198.18.0.1/24)" % (what, p["ip"]))
    if "gw" in p:
        try:
            gw = ipaddress.ip_address(str(p["gw"]))
        except ValueError:
            gw = None
        if gw is None or gw not in itf.network or gw == itf.ip:
            _bad(where, "%s: gw %r: expected another address of %s" % (
                what, p["gw"], itf.network))


def _port_ip(port):
    """--port-ip of the campaign's one port (0) from its inventory entry."""
    v = "0=%s" % port["ip"]
    if "gw" in port:
        v += ",gw=%s" % port["gw"]
    return "--port-ip %s" % shlex.quote(v)


def _addressing(where, snd, rcv):
    """Options that make the sender reach the receiver: its MAC (mac:), or
    addresses (ip:) that both ends announce and answer ARP/ND for and the
    sender resolves the next hop of (docs/l3.md); ("", "") for neither."""
    s_host, s_name, s_port, _ = snd
    r_host, r_name, r_port, _ = rcv
    if "mac" in r_port:
        return "--dst-mac %s" % shlex.quote(r_port["mac"]), ""
    if "ip" not in r_port:
        return "", ""
    if "ip" not in s_port:
        _bad(where, "receiver %s:%s has ip but sender %s:%s has none: give "
             "the sender's port an ip (ADDR/LEN) too, or the receiver a mac" % (
                 r_host, r_name, s_host, s_name))
    dst = ipaddress.ip_interface(str(r_port["ip"]))
    src = ipaddress.ip_interface(str(s_port["ip"]))
    if dst.version != src.version:
        _bad(where, "sender %s:%s and receiver %s:%s: ip of two families" % (
            s_host, s_name, r_host, r_name))
    flag = "--ipv6 --dst-ip6" if dst.version == 6 else "--dst-ip"
    return ("%s %s %s" % (_port_ip(s_port), flag, dst.ip), _port_ip(r_port))


def _sizes(where, c):
    if "mtus" in c and "sizes" in c:
        _bad(where, "give sizes or mtus, not both")
    if "mtus" in c:
        vals, add = c["mtus"], 18        # MTU + Ethernet header + FCS
    else:
        vals, add = c.get("sizes", DEFAULTS["sizes"]), 0
    if not isinstance(vals, list) or not vals or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in vals):
        _bad(where, "sizes/mtus: %r: expected a list of whole numbers" % (vals,))
    sizes = [v + add for v in vals]
    for s in sizes:
        if not 64 <= s <= 9018:
            _bad(where, "frame size %d outside 64..9018" % s)
    return sizes


def _eal(hv, role, port, host):
    lcores = hv.get("wr_eal_" + role, EAL_SENDER if role == "sender" else EAL_RECEIVER)
    dev = "-a %s" % shlex.quote(port["pci"]) if "pci" in port else \
        "--vdev %s" % shlex.quote(port["vdev"])
    prefix = "wr-%s-%s" % (host, "snd" if role == "sender" else "rcv")
    return "%s %s --file-prefix %s %s" % (lcores, hv.get("wr_eal_extra", ""),
                                          prefix, dev)


def _wr_dir(hv):
    return hv.get("wr_dir") or hv["wr_defaults"]["dir"]


def _peer_addr(where, hv, host):
    """ADDR:PORT the receiver's `wirerate serve` listens on and the sender
    connects to: its wr_peer_addr, else its ansible_host (the management
    network), and wr_peer_port."""
    addr = str(hv.get("wr_peer_addr", hv.get("ansible_host", "")))
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        _bad(where, "receiver %s: a mode: cell needs wr_peer_addr (or ansible_host) "
             "as an IP address (its wirerate serve listens there), not %r" % (host, addr))
    port = hv.get("wr_peer_port", PEER_PORT)
    return ("[%s]:%s" if ip.version == 6 else "%s:%s") % (ip, port)


def _mode_opts(c):
    """--mode and the mode's options of a search cell."""
    q = shlex.quote
    out = "--mode %s" % c["mode"]
    for k in sorted(MODE_KEYS):
        if k in c:
            out += " %s %s" % (MODE_KEYS[k], q(str(c[k])))
    return out


def _peer_commands(where, cell, c, snd, rcv, addr):
    """A search cell: `wirerate serve` on the receiver (TCP on its
    management address, the campaign's token), the sender's --peer."""
    q = shlex.quote
    s_host, _, s_port, s_hv = snd
    r_host, _, r_port, r_hv = rcv
    s_wd, r_wd = _wr_dir(s_hv), _wr_dir(r_hv)
    sdir = "%s/cells/%s" % (s_wd, cell["id"])
    rdir = "%s/cells/%s" % (r_wd, cell["id"])
    listen = _peer_addr(where, r_hv, r_host)
    s_addr, r_addr = addr
    rcv_opts = ("--control %s/serve.sock --control-listen %s --control-token "
                "%s/peer.token --tx-ports none --quiet" % (rdir, listen, rdir))
    rcv_opts += " " + r_addr if r_addr else ""
    snd_opts = "--rx-ports none --size %d %s --grace %s --label %s --quiet" % (
        cell["size"], _mode_opts(c), q(str(c["grace"])), q(cell["label"]))
    if str(c["rate"]) != "max":
        snd_opts += " --rate %s" % q(str(c["rate"]))
    for k in ("count", "duration"):
        if k in c:
            snd_opts += " --%s %s" % (k, q(str(c[k])))
    snd_opts += " --peer tcp:%s --peer-token %s/peer.token" % (listen, sdir)
    snd_opts += " " + s_addr if s_addr else ""
    cell["peer"] = True
    cell["sender"].update(dir=sdir, wr_dir=s_wd, cmd="%s %s -- %s %s --json %s/snd.json" % (
        q(s_hv.get("wr_bin", s_wd + "/bin/wirerate")),
        _eal(s_hv, "sender", s_port, s_host), snd_opts, c["sender_options"], sdir))
    cell["receiver"].update(dir=rdir, wr_dir=r_wd, cmd="%s serve %s -- %s %s" % (
        q(r_hv.get("wr_bin", r_wd + "/bin/wirerate")),
        _eal(r_hv, "receiver", r_port, r_host), rcv_opts, c["receiver_options"]))


def _commands(cell, c, snd, rcv, addr):
    """Both wirerate command lines of one cell (paths on each host); addr:
    _addressing's options of each end."""
    q = shlex.quote
    size = cell["size"]
    s_host, _, s_port, s_hv = snd
    r_host, _, r_port, r_hv = rcv
    s_wd, r_wd = _wr_dir(s_hv), _wr_dir(r_hv)
    sdir = "%s/cells/%s" % (s_wd, cell["id"])
    rdir = "%s/cells/%s" % (r_wd, cell["id"])
    stop = "--count %s" % q(str(c["count"])) if "count" in c else \
        "--duration %s" % q(str(c["duration"]))
    snd_opts = "--rx-ports none --size %d %s --grace %s --label %s --quiet" % (
        size, stop, q(str(c["grace"])), q(cell["label"]))
    if str(c["rate"]) != "max":
        snd_opts += " --rate %s" % q(str(c["rate"]))
    s_addr, r_addr = addr
    snd_opts += " " + s_addr if s_addr else ""
    rcv_opts = ("--tx-ports none --size %d --start-on-rx --idle-timeout %s "
                "--label %s --quiet" % (size, q(str(c["idle_timeout"])),
                                         q(cell["label"])))
    rcv_opts += " " + r_addr if r_addr else ""
    if c["latency"]:
        rcv_opts += " --latency tsc"
    cell["sender"].update(dir=sdir, wr_dir=s_wd, cmd="%s %s -- %s %s --json %s/snd.json" % (
        q(s_hv.get("wr_bin", s_wd + "/bin/wirerate")),
        _eal(s_hv, "sender", s_port, s_host), snd_opts, c["sender_options"], sdir))
    cell["receiver"].update(dir=rdir, wr_dir=r_wd, cmd="%s %s -- %s %s --json %s/rcv.json" % (
        q(r_hv.get("wr_bin", r_wd + "/bin/wirerate")),
        _eal(r_hv, "receiver", r_port, r_host), rcv_opts, c["receiver_options"],
        rdir))


def _seconds(where, key, v):
    """A wirerate time ("2s", "1500ms", "1m" or a number of seconds) in s."""
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|s|m)?\s*", str(v))
    if m is None:
        _bad(where, "%s: %r: expected a time such as 2s or 1500ms" % (key, v))
    return float(m.group(1)) * {"ms": 0.001, "s": 1, None: 1, "m": 60}[m.group(2)]


def _option(opts, name):
    """The value of wirerate option NAME in an options string, or None."""
    words = shlex.split(str(opts))
    for i, w in enumerate(words):
        if w == name and i + 1 < len(words):
            return words[i + 1]
        if w.startswith(name + "="):
            return w.split("=", 1)[1]
    return None


def _trials(where, opts, c=None):
    """Traffic phases one sender run holds: --repeat N times, per size of
    --sizes, the trials of its --mode (a search: --max-trials or 20); the
    cell's mode: and max_trials: count as those options."""
    c = c or {}
    if "mode" in c:
        opts = "%s --mode %s" % (opts, c["mode"])
    if "max_trials" in c:
        opts = "%s --max-trials %s" % (opts, c["max_trials"])

    def whole(name, default):
        v = _option(opts, name)
        if v is None:
            return default
        if not v.isdigit() or int(v) < 1:
            _bad(where, "sender_options: %s %r: expected a whole number >= 1" % (name, v))
        return int(v)
    sizes = _option(opts, "--sizes")
    nb_sizes = 1 if sizes is None else RFC2544_SIZES if sizes == "rfc2544" \
        else len(sizes.split(","))
    mode = _option(opts, "--mode") or "run"
    per_size = 1 if mode in ("run", "sweep") else whole("--max-trials", SEARCH_TRIALS)
    return whole("--repeat", 1) * nb_sizes * per_size


def _pps(rate, size):
    """Frames per second of a --rate at SIZE-byte frames, or None (max,
    % of the link: not known on the controller)."""
    m = re.fullmatch(r"\s*(l2:)?([0-9]+(?:\.[0-9]+)?)\s*([kMG]?)(pps|bps)\s*", str(rate))
    if m is None:
        return None
    v = float(m.group(2)) * {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}[m.group(3)]
    if m.group(4) == "pps":
        return v
    # bits per frame: L2, or L1 with preamble and gap (RFC 2544: 20 B more)
    return v / (8 * (size if m.group(1) else size + 20))


def _timeout(where, c, size):
    """Seconds the sender may run: the cell's timeout, else derived from
    its duration (or count at a known rate), grace, idle timeout and
    trials. A count at max rate has no known length: SETUP_S plus the
    idle time per trial, as a count cell at line rate is short."""
    if "timeout" in c:
        return c["timeout"]
    trial_s = _seconds(where, "grace", c["grace"]) + \
        _seconds(where, "idle_timeout", c["idle_timeout"])
    pps = _pps(c["rate"], size)
    if "duration" in c:
        trial_s += _seconds(where, "duration", c["duration"])
    elif "count" in c and pps:
        trial_s += _count(where, c["count"]) / pps
    if "trial" in c:
        trial_s += _seconds(where, "trial", c["trial"])
    elif "mode" in c and "count" not in c and "duration" not in c:
        trial_s += 60     # wirerate's --trial default (RFC 2544)
    return int(SETUP_S + SLACK * _trials(where, c["sender_options"], c) * trial_s + 0.999)


def _count(where, v):
    """A frame count (10000, 10k, 10M, 1G) as a number."""
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([kKmMgG]?)\s*", str(v))
    if m is None:
        _bad(where, "count: %r: expected frames such as 10000 or 10M" % (v,))
    return float(m.group(1)) * {"": 1, "k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6,
                                "g": 1e9, "G": 1e9}[m.group(2)]


def _digest(c, cell, snd, rcv):
    """SHA-256 of everything that defines a cell (its keys after defaults,
    size and repeat, both command lines, both endpoints' ports and how
    they are reached, the DUT), and that: cell.json keeps both. Any
    change runs the cell again (wr_pending)."""
    def end(e):
        host, port, p, hv = e
        return {"host": host, "port": port, "spec": p,
                "reach": [str(hv.get(k)) for k in ("ansible_host", "ansible_port")]}
    what = {"cell": c, "size": cell["size"], "repeat": cell["repeat"],
            "timeout": cell["timeout"], "snd_cmd": cell["sender"]["cmd"],
            "rcv_cmd": cell["receiver"]["cmd"], "snd": end(snd),
            "rcv": end(rcv) if len(rcv) == 4 else list(rcv),
            "dut": cell.get("dut")}
    text = json.dumps(what, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest(), what


def _goal(where, v):
    """A cell's goal: a loss ratio it may lose at most at its rate, as a
    ratio (0.001) or a percentage ("0.1%"); {"loss_ratio": x} or None."""
    if v is None:
        return None
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?(?:e-?[0-9]+)?)\s*(%?)\s*", str(v))
    if m is None or isinstance(v, bool):
        _bad(where, "goal: %r: expected the loss ratio allowed, 0..1 (0.001) "
             "or a percentage (0.1%%)" % (v,))
    x = float(m.group(1)) / (100 if m.group(2) else 1)
    if x > 1:
        _bad(where, "goal: %r: a loss ratio is at most 1 (100%%)" % (v,))
    return {"loss_ratio": x, "text": str(v).strip()}


def _check_keys(where, c):
    unknown = set(c) - CELL_KEYS
    if unknown:
        _bad(where, "unknown key(s) %s%s (known: %s)" % (
            ", ".join(sorted(unknown)),
            "".join(_suggest(k, CELL_KEYS) for k in sorted(unknown)),
            ", ".join(sorted(CELL_KEYS))))


def _check_mode(where, c):
    if "mode" in c:
        if c["mode"] not in MODES:
            _bad(where, "mode: %r: expected one of %s%s" % (
                c["mode"], ", ".join(MODES), _suggest(c["mode"], MODES)))
        if "count" in c and "duration" in c:
            _bad(where, "give at most one of count (frames) or duration")
    elif ("count" in c) == ("duration" in c):
        _bad(where, "give exactly one of count (frames) or duration")
    elif set(c) & set(MODE_KEYS):
        _bad(where, "%s: a search's option, for a cell with mode:" % ", ".join(
            sorted(set(c) & set(MODE_KEYS))))
    if "mode" in c and c.get("goal") is not None:
        _bad(where, "goal: a search cell's goal is its search's own verdict "
             "(the NDR found; MLRsearch's goals: goals:)")


def _check_numbers(where, c):
    if not isinstance(c["repeats"], int) or c["repeats"] < 1:
        _bad(where, "repeats: %r: expected a whole number >= 1" % (c["repeats"],))


def _check_timeout(where, c):
    if "timeout" in c and (not isinstance(c["timeout"], int) or c["timeout"] < 10):
        _bad(where, "timeout: %r: expected whole seconds >= 10" % (c["timeout"],))


def _check_label(where, c):
    if not isinstance(c.get("label"), str) or not c["label"].strip():
        _bad(where, "label: expected non-empty text")


def _check_cell(where, c):
    """Every mistake of one cell's own keys, each once (CampaignError)."""
    missing = [k for k in ("label", "sender") + (() if "conn" in c else ("receiver",))
               if k not in c]
    mistakes = ["%s: %s is missing" % (where, k) for k in missing]
    for check in (_check_keys, _check_mode, _check_numbers, _check_timeout):
        _collect(mistakes, check, where, c)
    if "label" not in missing:
        _collect(mistakes, _check_label, where, c)
    if mistakes:
        raise CampaignError(mistakes)


def _layered(defaults, raw):
    """raw over defaults; of the alternatives (sizes or mtus, count or
    duration) the cell's own choice replaces the default's."""
    c = dict(defaults)
    for pair in (("sizes", "mtus"), ("count", "duration")):
        if any(k in raw for k in pair):
            for k in pair:
                c.pop(k, None)
    c.update(raw)
    return c


def _dut(campaign, hostvars):
    """The campaign's `dut: {host, interfaces, interval}` checked, or None."""
    d = campaign.get("dut")
    if d is None:
        return None
    if isinstance(d, str):
        d = {"host": d}
    if not isinstance(d, dict) or set(d) - {"host", "interfaces", "interval", "process", "mtu"}:
        _bad("dut", "expected {host: HOST, interfaces: [NAME, ...], interval: T, "
             "process: NAME, mtu: BOOL}")
    if d.get("host") not in hostvars:
        _bad("dut", "host %r is not in the inventory%s" % (
            d.get("host"), _suggest(d.get("host"), hostvars)))
    ifaces = d.get("interfaces", hostvars[d["host"]].get("wr_dut_interfaces"))
    if not isinstance(ifaces, list) or not ifaces or not all(
            isinstance(x, str) and re.fullmatch(r"[A-Za-z0-9_.:@-]{1,15}", x) for x in ifaces):
        _bad("dut", "interfaces: %r: expected a list of the DUT's interface names "
             "(the NICs the cells' traffic crosses)" % (ifaces,))
    every = _seconds("dut", "interval", d.get("interval", "500ms"))
    if not 0.05 <= every <= 10:
        _bad("dut", "interval: %r: expected 50ms..10s" % (d.get("interval"),))
    wd = _wr_dir(hostvars[d["host"]])
    if not re.fullmatch(r"[A-Za-z0-9_.-]{0,15}", str(d.get("process", ""))):
        _bad("dut", "process: %r: expected a process name (its comm)" % (d["process"],))
    return {"host": d["host"], "interfaces": ifaces, "interval_s": every, "wr_dir": wd,
            "process": d.get("process", ""), "mtu": d.get("mtu") is True}


def _cell_ends(where, c, hostvars):
    """The cell's keys and both endpoints checked: every mistake at once."""
    mistakes = []
    _collect(mistakes, _check_cell, where, c)
    ends = [_collect(mistakes, _endpoint, where, k, c[k], hostvars) if k in c else None
            for k in ("sender", "receiver")]
    if "conn" in c and ends[0] is not None:
        try:
            ends[1] = wr_conn.check(c, ends[0][2], hostvars)
        except wr_conn.ConnMistake as e:
            mistakes.append("%s: %s" % (where, e))
    if mistakes:
        raise CampaignError(mistakes)
    return ends


def _cell_rows(i, raw, defaults, hostvars, results, dut, ids):
    """One cell of the file: its rows (sizes x repeats)."""
    where = "cells[%d]" % i
    if not isinstance(raw, dict):
        _bad(where, "expected a mapping")
    c = _layered(defaults, raw)
    where = "cells[%d] (%s)" % (i, c.get("label", "?"))
    snd, rcv = _cell_ends(where, c, hostvars)
    addr = None if "conn" in c else _addressing(where, snd, rcv)
    out = []
    for size in _sizes(where, c):
        for rep in range(1, c["repeats"] + 1):
            cid = "%s-%dB-r%d" % (_slug(c["label"]), size, rep)
            if cid in ids:
                _bad(where, "cell %s appears twice (same label and size)" % cid)
            ids.add(cid)
            cell = {"id": cid, "label": c["label"], "size": size, "repeat": rep,
                    "timeout": _timeout(where, c, size),
                    # A search's serve ends when its sender has.
                    "finish_wait_s": 0 if "mode" in c else int(_seconds(
                        where, "idle_timeout", c["idle_timeout"])) + 5,
                    "mode": c.get("mode"), "peer": False,
                    "result_dir": "%s/cells/%s" % (results, cid),
                    "sender": {"host": snd[0], "port": snd[1]},
                    "receiver": {"host": rcv[0], "port": rcv[1]} if addr is not None
                    else {"host": rcv[1] or snd[0], "port": rcv[0]},
                    "conn": addr is None, "goal": _goal(where, c.get("goal"))}
            if addr is None:
                wr_conn.commands(cell, c, snd, rcv[0], len(ids) - 1,
                                 (_wr_dir, _eal, _port_ip))
            elif "mode" in c:
                _peer_commands(where, cell, c, snd, rcv, addr)
            else:
                _commands(cell, c, snd, rcv, addr)
            if dut:
                cell["dut"] = dict(dut, dir="%s/cells/%s" % (dut["wr_dir"], cid))
            cell["digest"], cell["defines"] = _digest(c, cell, snd, rcv)
            out.append(cell)
    return out


def wr_cells(campaign, hostvars, results):
    """Expand the matrix: cells x sizes x repeats, in file order. A bad
    campaign raises CampaignError naming every mistake, each once."""
    if not isinstance(campaign, dict) or not isinstance(campaign.get("cells"), list) \
            or not campaign["cells"]:
        raise CampaignError(["file: expected a mapping with a non-empty list 'cells'"])
    mistakes = []
    dut = _collect(mistakes, _dut, campaign, hostvars)
    defaults = dict(DEFAULTS)
    if not isinstance(campaign.get("defaults") or {}, dict):
        mistakes.append("defaults: expected a mapping of cell keys")
    else:
        defaults = _layered(DEFAULTS, campaign.get("defaults") or {})
    out, ids = [], set()
    for i, raw in enumerate(campaign["cells"]):
        out += _collect(mistakes, _cell_rows, i, raw, defaults, hostvars, results,
                        dut, ids) or []
    if mistakes:
        raise CampaignError(mistakes)
    for n, cell in enumerate(out, 1):
        cell["n"], cell["of"] = n, len(out)
    return out


def _passed(cell):
    """True when the cell's record says it ran (both ends, a balanced
    merge: cell.json "ran", or "status": "passed" of a wirerate-cell/1
    record), with the cell as it is now. Whether it met its goal does not
    matter: the measurement is done. A record without a digest predates
    them, and a damaged one, not JSON or not an object, says nothing: run
    again."""
    try:
        with open(os.path.join(cell["result_dir"], "cell.json")) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and doc.get("digest") == cell["digest"] and (
        doc.get("ran") is True or doc.get("status") == "passed")


def wr_pending(cells, rerun=False):
    """Cells to run: all with rerun, else those without a record that ran,
    of the same digest."""
    return list(cells) if rerun else [c for c in cells if not _passed(c)]


def wr_bind_args(ports):
    """The PCI ports of a host's wr_ports that prepare binds: bind: false
    leaves one with its kernel driver; bind: force binds it even when its
    interface carries an address or a route (wr-host.sh refuses that
    otherwise)."""
    out = []
    for name, p in sorted((ports or {}).items()):
        if not isinstance(p, dict) or "pci" not in p or p.get("bind", True) is False:
            continue
        bind = p.get("bind", True)
        if bind not in (True, "force"):
            raise AnsibleFilterError("wr_ports.%s: bind: %r: expected true, false or "
                                     "force" % (name, bind))
        out.append(("force=" if bind == "force" else "") + p["pci"])
    return out


def wr_unprepared(cell, hostvars):
    """["host H not prepared: WHY", ...] for the cell's hosts whose
    prepare step failed (campaign.yml sets wr_prep_error); [] when none."""
    out = []
    for host in dict.fromkeys((cell["receiver"]["host"], cell["sender"]["host"])):
        hv = hostvars[host]
        if "wr_prep_error" in hv:
            out.append("host %s not prepared: %s" % (host, hv["wr_prep_error"]))
    return out


class FilterModule:
    def filters(self):
        return {"wr_cells": wr_cells, "wr_pending": wr_pending,
                "wr_bind_args": wr_bind_args, "wr_unprepared": wr_unprepared}
