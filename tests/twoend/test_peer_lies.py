# SPDX-License-Identifier: BSD-3-Clause
"""A far end that does not play by the rules: a fake `wirerate serve`
(this script, on a UNIX socket) speaks the same JSON-RPC as the real one
and the sender (net_null ports, no traffic reaches it) is a real run with
--peer. What the sender says and its exit code are checked against what
the fake end sent, which the sender did not make."""
import json
import os
import socket
import subprocess
import tempfile
import threading

import cases
import twoend
from wrtest import Checker


class FakeServe:
    """One connection; answer(req) returns the lines to send for req."""

    def __init__(self, answer):
        self.dir = tempfile.mkdtemp(prefix="wr-lies-%d-" % os.getpid())
        self.path = os.path.join(self.dir, "serve.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(self.path)
        self.sock.listen(1)
        self.sock.settimeout(30)
        self.answer, self.seen = answer, []
        self.t = threading.Thread(target=self.serve, daemon=True)
        self.t.start()

    def serve(self):
        try:
            conn, _ = self.sock.accept()
        except OSError:
            return
        with conn:
            f = conn.makefile("r")
            for line in f:
                req = json.loads(line)
                self.seen.append(req)
                for rep in self.answer(req):
                    conn.sendall((json.dumps(rep) + "\n").encode())

    def close(self):
        self.sock.close()
        self.t.join(5)
        try:
            os.unlink(self.path)
            os.rmdir(self.dir)
        except OSError:
            pass


def sender(path, name):
    pfx = "wr-lies-%s-%d" % (name, os.getpid())
    argv = [twoend.WIRERATE, "-l", "0,1", "--no-pci", "--in-memory",
            "--file-prefix", pfx, "--vdev", "net_null0", "--", "--rx-ports",
            "none", "--duration", "0.5", "--rate", "1kpps", "--quiet",
            "--peer", "unix:" + path, "--peer-timeout", "5s"]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


def peer_stale_answer():
    """An answer with another id (a late answer to an earlier request)
    comes before the answer to peer_open: the sender drops it and takes
    the one with its request's id (here a refusal naming FRESH), never
    the stale one (naming STALE)."""
    c = Checker("peer_stale_answer")

    def answer(req):
        rid = req.get("id")
        stale = {"jsonrpc": "2.0", "id": rid - 1 if isinstance(rid, int) else 0,
                 "error": {"code": -32004, "message": "STALE answer"}}
        fresh = {"jsonrpc": "2.0", "id": rid,
                 "error": {"code": -32004, "message": "FRESH answer"}}
        return [stale, fresh]

    srv = FakeServe(answer)
    try:
        p = sender(srv.path, "stale")
        txt = p.stdout + p.stderr
        c.true(len(srv.seen) >= 1 and srv.seen[0].get("method") == "peer_open",
               "the sender asked peer_open: %r" % srv.seen[:1])
        c.true("FRESH" in txt, "the answer with the request's id taken: %s" %
               txt.strip()[-300:])
        c.true("STALE" not in txt, "the stale answer dropped: %s" % txt.strip()[-300:])
        c.true(p.returncode != 0, "the refusal fails the run: exit %d" % p.returncode)
    finally:
        srv.close()
    c.done()


CASES = cases.by_name(peer_stale_answer)

if __name__ == "__main__":
    try:
        cases.main(CASES)
    finally:
        twoend.close_all()
