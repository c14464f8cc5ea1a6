# SPDX-License-Identifier: BSD-3-Clause
"""Ansible stdout callback of the wirerate campaign (scripts/campaign.sh
sets ANSIBLE_STDOUT_CALLBACK=wirerate_progress): one line per progress
message (tasks named "Progress"), per unreachable host and per task that
failed, instead of Ansible's task-by-task output. WR_CAMPAIGN_TIMES=1
adds a line per task with its duration (where the seconds go)."""
import os
import time

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = """
    name: wirerate_progress
    type: stdout
    short_description: progress lines of a wirerate campaign
    description: Prints the campaign's progress messages, unreachable hosts and failed tasks.
"""


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "stdout"
    CALLBACK_NAME = "wirerate_progress"

    def __init__(self):
        super().__init__()
        self.t0 = time.monotonic()
        self.task_t = self.t0
        self.times = os.environ.get("WR_CAMPAIGN_TIMES") == "1"

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
                self._say(line)

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
