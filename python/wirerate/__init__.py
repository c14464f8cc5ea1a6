# SPDX-License-Identifier: BSD-3-Clause
"""Drive wirerate from Python: a client for the control socket of
`wirerate serve` (and of a run given --control). Standard library only.

    from wirerate import Client
    with Client("/run/wirerate.sock") as c:
        doc = c.run(rate="1Mpps", duration="2s")
        print(doc["accounting"]["balanced"])

The protocol is JSON-RPC 2.0, one request per line (docs/api.md).
"""
from .client import Client, Error, ServerError, RunFailed

__all__ = ["Client", "Error", "ServerError", "RunFailed"]
