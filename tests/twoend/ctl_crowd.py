# SPDX-License-Identifier: BSD-3-Clause
"""A crowd on a control socket's TCP port, run inside the client's
network namespace by test_peer_crowd.py: one authenticated client that
calls status every 50 ms and times each answer, then 100 idle
connections, 100 that authenticate and send status requests without ever
reading, and 100 that send garbage, all at once. It runs until the file
STOP exists (or LIMIT_S), then prints one JSON document: the monitor's
latencies and what each attacker saw (when its connection was closed,
what it was told). Usage: ctl_crowd.py HOST PORT TOKEN STOP LIMIT_S.
Standard library only."""
import json
import os
import random
import resource
import socket
import sys
import threading
import time

N = 100
# What a garbage client sends: not JSON, bad UTF-8, NUL bytes, a request
# that is JSON but not JSON-RPC.
GARBAGE = [b"{not json\n", b"\xff\xfe\xc3(\x00\x00garbage\n", b"\x00" * 64 + b"\n",
           b'{"id": 1, "method": "status"}\n', b"[1, 2, 3]\n"]


def now():
    return time.monotonic()


def line(method, rid, params=None):
    req = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        req["params"] = params
    return (json.dumps(req) + "\n").encode()


class Monitor(threading.Thread):
    """The authenticated client whose every call is timed."""

    def __init__(self, addr, token, stop):
        threading.Thread.__init__(self, daemon=True)
        self.k = socket.create_connection(addr, 10)
        self.k.settimeout(10)
        self.f = self.k.makefile("rb")
        self.stop = stop
        self.lat, self.errors = [], []
        self.call("auth", {"token": token})

    def call(self, method, params=None):
        t0 = now()
        self.k.sendall(line(method, "m", params))
        rep = json.loads(self.f.readline())
        if "result" not in rep:
            raise RuntimeError("%s: %r" % (method, rep))
        return now() - t0

    def run(self):
        while not self.stop.is_set():
            try:
                self.lat.append(self.call("status"))
            except (OSError, ValueError, RuntimeError) as e:
                self.errors.append(repr(e))
                return
            time.sleep(0.05)


def closed_by_server(k, t0, limit):
    """Read k until EOF or a reset: (seconds after t0, bytes read), or
    (None, bytes) when it is still open at time limit."""
    data = b""
    while now() < limit:
        k.settimeout(max(0.01, limit - now()))
        try:
            chunk = k.recv(65536)
        except socket.timeout:
            return None, data
        except OSError:
            return now() - t0, data
        if not chunk:
            return now() - t0, data
        data += chunk
    return None, data


def connect(addr, rcvbuf=0):
    k = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        k.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    k.settimeout(15)
    k.connect(addr)
    return k


def idle(addr, out, limit):
    """Connect, send nothing, wait for the server to close."""
    try:
        k = connect(addr)
    except OSError as e:
        out.update(kind="idle", error=repr(e))
        return
    t0 = now()
    t, data = closed_by_server(k, t0, limit)
    out.update(kind="idle", closed_s=t, told=data.decode("utf-8", "replace")[:300])
    k.close()


def garbage(addr, out, limit, seed):
    """Connect, send garbage, wait for the server to close."""
    rnd = random.Random(seed)
    try:
        k = connect(addr)
        t0 = now()
        k.sendall(b"".join(rnd.choice(GARBAGE) for _ in range(4)))
    except OSError as e:
        out.update(kind="garbage", error=repr(e))
        return
    t, data = closed_by_server(k, t0, limit)
    out.update(kind="garbage", closed_s=t, told=data.decode("utf-8", "replace")[:300])
    k.close()


def slow(addr, token, out, limit):
    """Authenticate, then send status requests and never read: the
    server's drop shows as a failed send (reset or broken pipe)."""
    try:
        k = connect(addr, rcvbuf=4096)
        t0 = now()
        k.sendall(line("auth", 0, {"token": token}))
    except OSError as e:
        out.update(kind="slow", error=repr(e))
        return
    k.setblocking(False)
    batch = b"".join(line("status", i) for i in range(1, 65))
    sent = 0
    while now() < limit:
        try:
            sent += k.send(batch)
            out["sent"] = sent
            time.sleep(0.005)
        except BlockingIOError:
            time.sleep(0.02)
        except OSError:
            out.update(kind="slow", closed_s=now() - t0, sent=sent)
            k.close()
            return
    out.update(kind="slow", closed_s=None, sent=sent)
    k.close()


def main():
    host, port, token, stop_path, limit_s = sys.argv[1:6]
    addr, limit = (host, int(port)), now() + float(limit_s)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    stop = threading.Event()
    mon = Monitor(addr, token, stop)
    mon.start()
    time.sleep(0.3)
    outs, threads = [], []
    for i in range(3 * N):
        o = {}
        outs.append(o)
        o["kind"] = ("idle", "slow", "garbage")[i % 3]
        if i % 3 == 0:
            t = threading.Thread(target=idle, args=(addr, o, limit), daemon=True)
        elif i % 3 == 1:
            t = threading.Thread(target=slow, args=(addr, token, o, limit), daemon=True)
        else:
            t = threading.Thread(target=garbage, args=(addr, o, limit, i), daemon=True)
        threads.append(t)
    started = now()
    for t in threads:
        t.start()
    print("crowd", flush=True)
    while not os.path.exists(stop_path) and now() < limit:
        time.sleep(0.1)
    # Whatever is still open 20 s after STOP is reported as such.
    end = min(limit, now() + 20)
    for t in threads:
        t.join(max(0.01, end - now()))
    stop.set()
    mon.join(5)
    try:
        after = mon.call("status")
    except (OSError, ValueError, RuntimeError) as e:
        after = repr(e)
    print(json.dumps({"latencies_s": mon.lat, "monitor_errors": mon.errors,
                      "after_s": after, "crowd_s": now() - started,
                      "clients": [dict(o) for o in outs]}), flush=True)


if __name__ == "__main__":
    main()
