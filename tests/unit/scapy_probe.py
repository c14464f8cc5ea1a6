# SPDX-License-Identifier: BSD-3-Clause
"""Imported first by the tests that need python3-scapy: the probe of the
capability. Debian's python3-scapy lives in the system interpreter; when
the build found another python3 first (a pyenv), the test runs again under
the system one; where neither has scapy, the test is skipped (exit 77,
meson's skip) naming the missing package."""
import os
import sys

SYSTEM_PYTHON = "/usr/bin/python3"

try:
    import scapy.layers.inet  # noqa: F401
except ImportError:
    if sys.executable != SYSTEM_PYTHON and os.path.exists(SYSTEM_PYTHON) \
            and "WR_SCAPY_RETRY" not in os.environ:
        os.environ["WR_SCAPY_RETRY"] = "1"
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)
    print("SKIP: python3-scapy is not installed (import scapy failed)")
    sys.exit(77)
