# SPDX-License-Identifier: BSD-3-Clause
"""HTTP/1.1 answers read off a plain socket, for the tests' own clients
that run as `python3 -c` scripts in a namespace (PYTHONPATH reaches them
through `ip netns exec`): a head up to its empty line, a body by its
Content-Length, the next answer where that body ends. Nothing more is
parsed: what a test checks, it checks itself."""
import re
import socket


class Answers:
    """What a socket brings: nb_bytes counts every byte received, buf
    holds those not yet read as a head or a body."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""
        self.nb_bytes = 0

    def _more(self, where):
        more = self.sock.recv(65536)
        if not more:
            raise EOFError("closed in " + where)
        self.nb_bytes += len(more)
        self.buf += more

    def head(self):
        """The next head, with its empty line."""
        while b"\r\n\r\n" not in self.buf:
            self._more("a head")
        i = self.buf.index(b"\r\n\r\n") + 4
        head, self.buf = self.buf[:i], self.buf[i:]
        return head

    def answer(self):
        """The next answer: its status line and its length (head and
        body), the body read by Content-Length."""
        head = self.head()
        n = int(re.search(rb"(?i)\r\ncontent-length: *(\d+)", head).group(1))
        while len(self.buf) < n:
            self._more("a body")
        self.buf = self.buf[n:]
        return head.split(b"\r\n", 1)[0], len(head) + n

    def quiet(self, seconds):
        """Whether nothing is waiting and nothing comes for that long, not
        even the close (what came is kept in buf)."""
        if self.buf:
            return False
        timeout = self.sock.gettimeout()
        self.sock.settimeout(seconds)
        try:
            self._more("a quiet wait")
        except socket.timeout:
            return True
        except EOFError:
            pass
        finally:
            self.sock.settimeout(timeout)
        return False
