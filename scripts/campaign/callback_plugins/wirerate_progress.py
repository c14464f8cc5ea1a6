# SPDX-License-Identifier: BSD-3-Clause
"""Ansible stdout callback of the wirerate campaign (scripts/campaign.sh
sets ANSIBLE_STDOUT_CALLBACK=wirerate_progress): one line per progress
message (tasks named "Progress"), per unreachable host and per task that
failed, instead of Ansible's task-by-task output. WR_CAMPAIGN_TIMES=1
adds a line per task with its duration (where the seconds go). After each
cell's outcome: cells done of the total, the time since the first cell of
this run began, and an estimate of the rest (the mean time of the cells run
so far, times the cells still to run)."""
import os
import re
import time

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = """
    name: wirerate_progress
    type: stdout
    short_description: progress lines of a wirerate campaign
    description: Prints the campaign's progress messages, unreachable hosts and failed tasks.
"""


PLAN = re.compile(r"^campaign: (\d+) cells, (\d+) to run")
CELL_START = re.compile(r"^cell \d+/\d+ \S+: .*: running$")
CELL_DONE = re.compile(r"^cell \d+/\d+ \S+: (passed|ran|missed|failed)")


def hms(s):
    """Seconds as 42s, 3m05s or 1h07m."""
    s = int(s + 0.5)
    if s < 60:
        return "%ds" % s
    if s < 3600:
        return "%dm%02ds" % (s // 60, s % 60)
    return "%dh%02dm" % (s // 3600, (s + 59) // 60 % 60)


class CellClock:
    """Cells done and the time the rest may take, from the progress lines."""

    def __init__(self):
        self.cells = self.todo = self.done = 0
        self.t_first = None

    def line(self, text, now):
        """text, with the campaign's progress appended to a cell's outcome."""
        m = PLAN.match(text)
        if m:
            self.cells, self.todo = int(m.group(1)), int(m.group(2))
        if CELL_START.match(text) and self.t_first is None:
            self.t_first = now
        if not CELL_DONE.match(text) or self.t_first is None:
            return text
        self.done += 1
        elapsed = now - self.t_first
        left = max(0, self.todo - self.done)
        rest = "about %s left" % hms(elapsed / self.done * left) if left else "none left"
        return "%s [%d/%d cells done, %s elapsed, %s]" % (
            text, self.cells - self.todo + self.done, self.cells, hms(elapsed), rest)


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "stdout"
    CALLBACK_NAME = "wirerate_progress"

    def __init__(self):
        super().__init__()
        self.t0 = time.monotonic()
        self.task_t = self.t0
        self.times = os.environ.get("WR_CAMPAIGN_TIMES") == "1"
        self.clock = CellClock()

    def _say(self, text):
        self._display.display("[%6.1fs] %s" % (time.monotonic() - self.t0, text))

    def v2_playbook_on_task_start(self, task, is_conditional):
        if self.times:
            now = time.monotonic()
            self._say("task %s (previous took %.1fs)" % (task.get_name(), now - self.task_t))
            self.task_t = now

    def v2_runner_on_ok(self, result):
        if result._task.get_name() == "Progress":
            r = result._result
            for line in str(r.get("stdout") or r.get("msg") or "").splitlines():
                self._say(self.clock.line(line, time.monotonic()))

    def v2_runner_on_failed(self, result, ignore_errors=False):
        if ignore_errors:
            return
        r = result._result
        self._say("error: %s on %s: %s" % (result._task.get_name(),
                                           result._host.get_name(),
                                           r.get("msg") or r.get("stderr") or r))

    def v2_runner_on_unreachable(self, result):
        if result._task.delegate_to:
            return      # a cell's task: its progress line gives the reason
        self._say("%s unreachable: %s" % (result._host.get_name(),
                                          str(result._result.get("msg", "")).strip()))

    def v2_runner_item_on_failed(self, result):
        self.v2_runner_on_failed(result)
