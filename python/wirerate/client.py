# SPDX-License-Identifier: BSD-3-Clause
"""The control socket client (docs/api.md). One Client is one connection;
requests are answered in order. Errors the server replies with raise
ServerError carrying its code and message (the command line's message for
a bad option: code -32602)."""
import json
import socket
import time

# JSON-RPC 2.0 error codes and the server's own (lib/base/rpc.h).
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
NO_METHOD = -32601
BAD_PARAMS = -32602
INTERNAL = -32603
BAD_STATE = -32000
RUN_FAILED = -32001
TOO_LONG = -32002
DENIED = -32003
MISMATCH = -32004
HELD = -32005
LEASE_GONE = -32006


class Error(Exception):
    """Anything that went wrong talking to the server."""


class ServerError(Error):
    """The server answered with an error: code and message are its own."""

    def __init__(self, method, code, message):
        super().__init__("%s: %s (%d)" % (method, message, code))
        self.method, self.code, self.message = method, code, message


class RunFailed(Error):
    """A run ended with a non-zero exit code; result holds its reply."""

    def __init__(self, reply):
        super().__init__("run %s ended with exit code %s" %
                         (reply.get("run"), reply.get("exit_code")))
        self.reply = reply


def _options(options, kw):
    """Run options by long name: a dict and keyword arguments (rate_pps=...
    becomes "rate-pps")."""
    out = dict(options or {})
    for k, v in kw.items():
        out[k.replace("_", "-")] = v
    return out


def _unix_connect(path, timeout):
    """A UNIX stream socket connected to path, with timeout. A server
    whose queue of connections not yet accepted is full answers EAGAIN
    at once (a socket with a timeout does not wait as a blocking one
    would): tried again until the timeout."""
    end = time.monotonic() + timeout
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        try:
            sock.connect(path)
            return sock
        except BlockingIOError as e:
            sock.close()
            if time.monotonic() >= end:
                raise Error("%s: %s: the server accepted no connection for "
                            "%g s" % (path, e, timeout))
            time.sleep(0.01)
        except OSError as e:
            sock.close()
            raise Error("%s: %s (is wirerate serve running there?)" % (path, e))


class Client:
    """A connection to a control socket: path, a UNIX stream socket, or
    address=(host, port) for a server given --control-listen, with token
    (its --control-token secret, sent first). timeout: seconds a reply
    may take."""

    def __init__(self, path=None, timeout=30.0, address=None, token=None):
        self.path = path if path is not None else "%s:%s" % tuple(address)
        if address is not None:
            self._sock = socket.create_connection(address, timeout)
        else:
            self._sock = _unix_connect(path, timeout)
        self._buf = b""
        self._id = 0
        if token is not None:
            self.call("auth", token=token)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Close the connection; a run keeps going on the server."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def _line(self):
        while b"\n" not in self._buf:
            data = self._sock.recv(1 << 16)
            if not data:
                raise Error("%s: the server closed the connection" % self.path)
            self._buf += data
        line, self._buf = self._buf.split(b"\n", 1)
        return json.loads(line)

    def send_raw(self, data):
        """Send bytes as they are and return the reply object that comes
        back (for tests of malformed requests)."""
        self._sock.sendall(data)
        return self._line()

    def call(self, method, **params):
        """One request; its result, or ServerError."""
        if self._sock is None:
            raise Error("%s: the client is closed" % self.path)
        self._id += 1
        req = {"jsonrpc": "2.0", "id": self._id, "method": method,
               "params": params}
        try:
            self._sock.sendall(json.dumps(req).encode() + b"\n")
        except OSError as e:
            # The server may have said why before it closed (too many
            # clients): that reply, else the error.
            try:
                reply = self._line()
            except (OSError, Error, ValueError):
                raise Error("%s: %s: %s" % (self.path, method, e))
        else:
            reply = self._line()
        if "error" in reply and reply.get("id") in (None, self._id):
            e = reply["error"]
            raise ServerError(method, e.get("code", 0), e.get("message", ""))
        if reply.get("id") != self._id:
            raise Error("%s: reply to request %r, not %d" %
                        (method, reply.get("id"), self._id))
        return reply["result"]

    def ports(self):
        """The ports: id, name, driver, MAC, link, queues."""
        return self.call("ports")["ports"]

    def start(self, options=None, **kw):
        """Start a run with these options (by long name); its run id."""
        return self.call("start", **_options(options, kw))["run"]

    def status(self):
        """State, run id, elapsed time and the live figures."""
        return self.call("status")

    def update(self, rate=None, port=None, stream=None, pause=None,
               lease=None):
        """Change the running trial: rate (as --rate takes it) for every
        TX port, one port or one stream; pause (True/False) TX. lease:
        the secret of the lease the run started under."""
        params = {k: v for k, v in (("rate", rate), ("port", port),
                                    ("stream", stream), ("pause", pause),
                                    ("lease", lease))
                  if v is not None}
        return self.call("update", **params)

    def stop(self, lease=None):
        """End the running trial now; its result is kept."""
        return self.call("stop", **({} if lease is None else {"lease": lease}))

    def acquire(self, ports, owner, reason=None, ttl_s=None, wait_s=None,
                force=False):
        """A lease on ports ("all", a port id or a list of them) for
        owner: the reply, its secret in "lease". wait_s: wait that long
        in the server's queue (the socket waits as much more)."""
        params = {k: v for k, v in (("ports", ports), ("owner", owner),
                                    ("reason", reason), ("ttl_s", ttl_s),
                                    ("wait_s", wait_s))
                  if v is not None}
        if force:
            params["force"] = True
        old = self._sock.gettimeout() if self._sock is not None else None
        if wait_s and old is not None:
            self._sock.settimeout(old + wait_s)
        try:
            return self.call("acquire", **params)
        finally:
            if wait_s and old is not None and self._sock is not None:
                self._sock.settimeout(old)

    def renew(self, lease, ttl_s=None):
        """The lease of this secret ends ttl_s from now (default its own)."""
        params = {"lease": lease}
        if ttl_s is not None:
            params["ttl_s"] = ttl_s
        return self.call("renew", **params)

    def release(self, lease):
        """Give the lease of this secret back; its ports are free."""
        return self.call("release", lease=lease)

    def leases(self):
        """Who holds which ports until when, and the queue."""
        return self.call("leases")

    def result(self, run=None):
        """The last run's reply: run, exit_code and the result document."""
        return self.call("result", **({} if run is None else {"run": run}))

    def shutdown(self):
        """End the server (the run, if any, stops and is recorded first)."""
        return self.call("shutdown")

    def wait(self, timeout=None, poll=0.1):
        """Wait until the last run is done; its result reply."""
        end = None if timeout is None else time.monotonic() + timeout
        while self.status()["state"] in ("starting", "running"):
            if end is not None and time.monotonic() > end:
                raise Error("the run did not end within %gs" % timeout)
            time.sleep(poll)
        return self.result()

    def run(self, options=None, timeout=None, check=True, **kw):
        """Start a run, wait for it and return its result document; with
        check, a non-zero exit code raises RunFailed."""
        run_id = self.start(options, **kw)
        reply = self.wait(timeout)
        if reply["run"] != run_id:
            raise Error("run %d was replaced by run %d" % (run_id, reply["run"]))
        if check and reply["exit_code"] != 0:
            raise RunFailed(reply)
        return reply["result"]
