#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The controller side of a wirerate campaign (scripts/campaign/campaign.yml):
one local step per cell and one at the end, so that each costs one task.

  wr-record.py cell WIRERATE < TASKS.json
      keep a cell's results (the sender's and receiver's JSON and logs, as
      their tasks returned them) in the cell's directory, merge them with
      `wirerate merge`, and record the verdict in cell.json (schema
      wirerate-cell/1): passed only when both ends ran, the receiver saw
      frames and the merge balances. Prints the progress line.
  wr-record.py summary WIRERATE RESULTS TITLE CELL_DIR...
      `wirerate report --out RESULTS/report` over the recorded cells,
      RESULTS/summary.json, and the campaign table on stdout. Exit 0 when
      every cell ran and none missed its goal, 1 otherwise.

With a DUT observer (the campaign's `dut:`), cell also keeps the DUT's
samples (dut.txt) and figures (dut.json, wr_dut.py), and summary adds the
DUT table to the report. A connection cell (conn:) has no receiver: its
client's figures are in cell.json's "conn" and the report's Connections
table (wr_conn_record.py).

Standard library only. Files are written atomically (rename), so an
interrupted controller leaves whole files or none."""
import json
import os
import re
import subprocess
import sys

import wr_conn_record
import wr_dut


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def unreachable(res, role, host):
    if isinstance(res, dict) and res.get("unreachable"):
        msg = str(res.get("msg", "")).strip()
        msg = msg[msg.rfind("ssh:"):] if "ssh:" in msg else msg
        return "%s host %s unreachable%s" % (role, host,
                                              (": " + msg[:160]) if msg else "")
    return None


def tail(res):
    """What a host step said last: its last error line (wirerate's, the
    step's), else the last line of stderr (the log), else of stdout."""
    for key in ("stderr", "stdout"):
        lines = [x for x in str((res or {}).get(key, "")).splitlines() if x.strip()]
        errors = [x for x in lines if "error" in x.lower()]
        if lines:
            return (errors or lines)[-1][:200]
    return str((res or {}).get("msg", "no output"))[:200]


def ran(res):
    return isinstance(res, dict) and isinstance(res.get("rc"), int)


def ends_ran(t):
    """Why a cell's ends did not run (unprepared, unreachable, a failed
    start or end), or None."""
    cell, rec, snd, fin = t["cell"], t["rec"], t["snd"], t["fin"]
    if t.get("unprepared"):
        return "; ".join(t["unprepared"])
    why = (unreachable(rec, "receiver", cell["receiver"]["host"]) or
           unreachable(snd, "sender", cell["sender"]["host"]) or
           unreachable(fin, "receiver", cell["receiver"]["host"]))
    if why:
        return why
    if not ran(rec) or rec["rc"] != 0:
        return "receiver did not start: %s" % tail(rec)
    if not ran(snd) or snd["rc"] != 0:
        return "sender failed (exit %s): %s" % (snd.get("rc"), tail(snd))
    if not ran(fin) or fin["rc"] != 0:
        return "receiver failed (exit %s): %s" % (fin.get("rc"), tail(fin))
    return None


def verdict(t, merged, merge_out):
    """Why the cell failed, or None."""
    why = ends_ran(t)
    if why:
        return why
    if merged is None:
        return "no merge: %s" % merge_out
    if merged["totals"]["rx_pkts"] == 0:
        return "receiver saw no frame (sender sent %d)" % merged["totals"]["sent_pkts"]
    if not merged["balanced"]:
        return "merge does not balance: %d streams" % merged["totals"]["unbalanced_streams"]
    return None


def observe(t, d):
    """Keep the DUT's samples and figures of a cell in d; returns why the
    observation failed, or None (also when the cell has no DUT)."""
    cell = t["cell"]
    if "dut" not in cell:
        return None
    host = cell["dut"]["host"]
    for res in (t.get("dut_start"), t.get("dut")):
        why = unreachable(res, "DUT", host)
        if why:
            return why
    for step, res in (("start", t.get("dut_start")), ("stop", t.get("dut"))):
        if not ran(res) or res["rc"] != 0:
            return "DUT observer %s failed on %s: %s" % (step, host, tail(res))
    write(os.path.join(d, "dut.txt"), t["dut"]["stdout"] + "\n")
    samples, ethtool = wr_dut.parse(t["dut"]["stdout"])
    figures = wr_dut.analyze(samples, ethtool)
    if figures is None:
        return "DUT observer on %s: fewer than two samples" % host
    if cell["dut"].get("process"):
        figures["processes"] = wr_conn_record.processes(t["dut"]["stdout"], samples)
    write(os.path.join(d, "dut.json"), json.dumps(figures, indent=1) + "\n")
    return None


def merge(wirerate, d):
    """wirerate merge in d; returns (merged document or None, its last line)."""
    out = os.path.join(d, "merged.json")
    if os.path.exists(out):
        os.unlink(out)
    if not (os.path.exists(os.path.join(d, "snd.json")) and
            os.path.exists(os.path.join(d, "rcv.json"))):
        return None, "a result is missing"
    p = subprocess.run([wirerate, "merge", "snd.json", "rcv.json", "--json",
                        "merged.json"], cwd=d, capture_output=True, text=True)
    write(os.path.join(d, "merge.txt"), p.stdout + p.stderr)
    last = (p.stdout + p.stderr).strip().splitlines()
    try:
        with open(out) as f:
            return json.load(f), last[-1] if last else ""
    except (OSError, ValueError):
        return None, last[-1] if last else "exit %d" % p.returncode


def search_result(d):
    """A search cell's result: the sender's document (its far end's counts
    in it), or (None, why)."""
    try:
        with open(os.path.join(d, "snd.json")) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        return None, "no result from the sender: %s" % e
    if not isinstance(doc, dict) or not isinstance(doc.get("far"), dict):
        return None, "the sender's result has no far end (far): not a --peer run"
    if doc.get("stop_reason") == "running" or not doc.get("results"):
        return None, "the sender's search did not finish (%s)" % doc.get("stop_reason")
    return doc, None


def search_figures(doc):
    """The search's figures for the record and the campaign table: NDR and
    PDR (throughput), MLRsearch's conditional throughput per goal, frame
    loss at each load (loss), in frames/s."""
    r = doc["results"][0]
    out = {"mode": doc.get("mode"), "frame_size": r.get("frame_size")}
    for k in ("ndr_found", "ndr_pps", "pdr_found", "pdr_pps"):
        if k in r:
            out[k] = r[k]
    if "goals" in r:
        out["mlr"] = [{"loss_ratio": g.get("loss_ratio"), "done": g.get("done"),
                       "conditional_throughput_pps": g.get("conditional_throughput_pps")}
                      for g in r["goals"]]
    return out


def search_goal(fig):
    """A search's own verdict: throughput found its NDR (and its PDR);
    MLRsearch finished every goal; the other modes report figures with
    no verdict to meet (met None)."""
    g = {"want": None, "loss_ratio": None, "met": None, "why": ""}
    if "ndr_found" in fig:
        g["want"] = "the search finds its NDR and PDR"
        g["met"] = bool(fig["ndr_found"] and fig.get("pdr_found", True))
        g["why"] = "NDR %s, PDR %s" % (
            "%.6g pps" % fig["ndr_pps"] if fig["ndr_found"] else "not found",
            "%.6g pps" % fig["pdr_pps"] if fig.get("pdr_found") else "not found")
    elif "mlr" in fig:
        g["want"] = "MLRsearch finishes every goal"
        g["met"] = all(x["done"] for x in fig["mlr"])
        g["why"] = "; ".join("goal loss %s: %s" % (
            pct(x["loss_ratio"] or 0), "%.6g pps" % x["conditional_throughput_pps"]
            if x["done"] else "not done") for x in fig["mlr"])
    else:
        g["why"] = "%s: figures, no verdict" % fig["mode"]
    return g


def record_conn(t, d):
    """A connection cell: it ran when its client did (and the DUT's MTU
    was set) and completed connections; its goal: the connections that
    may fail. Returns (why not ran, goal, figures)."""
    cell, fig = t["cell"], None
    why = "; ".join(t.get("unprepared") or []) or unreachable(
        t["snd"], "sender", cell["sender"]["host"])
    mtu = t.get("dut_mtu") or {}
    if not why and ran(mtu) and mtu["rc"] != 0:
        why = "DUT's MTU not set: %s" % tail(mtu)
    if not why and (not ran(t["snd"]) or t["snd"]["rc"] != 0):
        why = "client failed (exit %s): %s" % (t["snd"].get("rc"), tail(t["snd"]))
    if not why:
        fig, why = wr_conn_record.result(d)
    return why, wr_conn_record.goal(cell.get("goal"), fig if not why else None), fig


def record_search(t, d):
    """A search cell (mode:, --peer): it ran when both ends did and the
    sender's result (with the far end's counts) is whole; its goal is the
    search's own verdict. Returns (why not ran, goal, figures)."""
    why = ends_ran(t)
    doc, fig = None, None
    if why is None:
        doc, why = search_result(d)
    if doc is not None:
        fig = search_figures(doc)
    goal = search_goal(fig) if fig else {"want": None, "loss_ratio": None,
                                         "met": None, "why": "did not run"}
    return why, goal, fig


def record(wirerate):
    t = json.load(sys.stdin)
    cell = t["cell"]
    d = cell["result_dir"]
    os.makedirs(d, exist_ok=True)
    for name in ("snd.json", "rcv.json", "merged.json", "merge.txt", "dut.txt", "dut.json"):
        if os.path.exists(os.path.join(d, name)):
            os.unlink(os.path.join(d, name))
    # The JSON results are what snd-run and rcv-finish printed on stdout.
    for name, res in (("snd", t["snd"]), ("rcv", t["fin"])):
        if ran(res) and res.get("stdout", "").lstrip().startswith("{"):
            write(os.path.join(d, name + ".json"), res["stdout"] + "\n")
    write(os.path.join(d, "snd.log"), str(t["snd"].get("stderr", "")) + "\n")
    write(os.path.join(d, "rcv.log"), "%s\n%s\n" % (t["rec"].get("stdout", ""),
                                                  t["fin"].get("stderr", "")))
    merged, fig, conn = None, None, None
    if cell.get("conn"):
        why, goal, conn = record_conn(t, d)
    elif cell.get("peer"):
        why, goal, fig = record_search(t, d)
    else:
        merged, merge_out = merge(wirerate, d)
        why = verdict(t, merged, merge_out)
    if why is None and (t["rec"].get("rc") == 0 or cell.get("conn")):
        why = observe(t, d)
    if not cell.get("peer") and not cell.get("conn"):
        goal = judge(cell.get("goal"), merged if why is None else None)
    doc = {"schema": "wirerate-cell/2", "cell": cell["id"], "label": cell["label"],
           "frame_size": cell["size"], "repeat": cell["repeat"],
           "sender": "%s:%s" % (cell["sender"]["host"], cell["sender"]["port"]),
           "receiver": "%s:%s" % (cell["receiver"]["host"], cell["receiver"]["port"]),
           "digest": cell["digest"], "defines": cell["defines"],
           "ran": why is None, "reason": why or "", "goal": goal,
           "status": status(why, goal),
           "merged": "merged.json" if merged is not None else None,
           "mode": cell.get("mode"), "result": "snd.json" if fig else None,
           "search": fig, "kind": "conn" if cell.get("conn") else "frames",
           "conn": conn}
    write(os.path.join(d, "cell.json"), json.dumps(doc, indent=1) + "\n")
    line = "cell %d/%d %s: %s" % (cell["n"], cell["of"], cell["id"], doc["status"])
    if fig is not None or conn is not None:
        line += ": " + goal["why"]
    if merged is not None:
        tot = merged["totals"]
        line += ": sent %d, received %d, lost %d" % (tot["sent_pkts"], tot["rx_pkts"],
                                                     tot["lost_pkts"])
    tell = why or (goal["why"] if goal["met"] is False and fig is None and
                   conn is None else "")
    print(line + (" (%s)" % tell if tell else ""))
    return 0


def pct(x):
    return "%.4g%%" % (100.0 * x)


def judge(want, merged):
    """Whether a cell that ran met its goal: {"want", "loss_ratio", "met",
    "why"}. met is None when the cell set no goal (nothing judged) or did
    not run; a loss known only from below (a crashed sender's checkpoint)
    meets no goal it exceeds."""
    g = {"want": None if want is None else "loss <= %s" % pct(want["loss_ratio"]),
         "loss_ratio": None if want is None else want["loss_ratio"], "met": None,
         "why": ""}
    if merged is None:
        g["why"] = "did not run"
        return g
    tot = merged["totals"]
    loss = tot.get("loss_ratio", tot.get("loss_ratio_at_least"))
    if want is None:
        g["why"] = "no goal set (loss %s measured, not judged)" % pct(loss)
        return g
    g["met"] = loss <= want["loss_ratio"] and tot.get("exact", True)
    g["why"] = "loss %s (%d of %d frames)%s %s the goal %s" % (
        pct(loss), tot["lost_pkts"], tot["sent_pkts"],
        "" if tot.get("exact", True) else " at least",
        "within" if g["met"] else "above", pct(want["loss_ratio"]))
    return g


def status(why, goal):
    """failed: it did not run; missed: it ran and missed its goal; passed:
    it ran and met it; ran: it ran with no goal to meet."""
    if why:
        return "failed"
    return {True: "passed", False: "missed", None: "ran"}[goal["met"]]


def campaign_table(md):
    """The "Campaign" section of report.md."""
    m = re.search(r"^## Campaign.*?(?=^## |\Z)", md, re.M | re.S)
    return m.group(0).rstrip() if m else md


def ran_now(results):
    """Ids of the cells this run ran (campaign.yml's .ran.json), or None."""
    try:
        with open(os.path.join(results, ".ran.json")) as f:
            return set(json.load(f))
    except (OSError, ValueError):
        return None


def read_cell(d):
    """The cell record in d, or None when it is missing or damaged (not
    JSON, or not an object)."""
    try:
        with open(os.path.join(d, "cell.json")) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def summary(wirerate, results, title, dirs):
    # The archive shipped to the hosts (campaign.yml) is not a result.
    if os.path.exists(os.path.join(results, ".ship.tgz.b64")):
        os.unlink(os.path.join(results, ".ship.tgz.b64"))
    ran = ran_now(results)
    cells = [(d, read_cell(d)) for d in dirs]
    # Connection cells have their own table (sections): not wirerate's report.
    have = [os.path.join(d, "cell.json") for d, c in cells
            if c is not None and c.get("kind") != "conn"]
    rc_report = 1
    if not have and any(c for _, c in cells):
        os.makedirs(os.path.join(results, "report"), exist_ok=True)
        write(os.path.join(results, "report", "report.md"), "# %s\n" % title)
        rc_report = 0
    elif have:
        p = subprocess.run([wirerate, "report", "--out", os.path.join(results, "report"),
                            "--title", title] + have, capture_output=True, text=True)
        rc_report = p.returncode
        if p.returncode != 0:
            sys.stderr.write(p.stderr)
    done = [c for _, c in cells if c and did_run(c)]
    passed = [c["cell"] for c in done if c["status"] == "passed"]
    missed = {c["cell"]: c["goal"]["why"] for c in done if c["status"] == "missed"}
    failed = {c["cell"]: c["reason"] for _, c in cells if c and not did_run(c)}
    missing = [os.path.basename(d) for d, c in cells if c is None]
    # Ran before, same digest, not run this time (wr_pending).
    reused = [c["cell"] for c in done if ran is not None and c["cell"] not in ran]
    s = {"cells": len(cells), "ran": len(done), "passed": len(passed),
         "missed": len(missed), "no_goal": len(done) - len(passed) - len(missed),
         "failed": len(failed), "not_run": missing, "failed_cells": failed,
         "missed_cells": missed, "reused": reused, "report_rc": rc_report,
         "report": os.path.join(results, "report", "report.md")}
    write(os.path.join(results, "summary.json"), json.dumps(s, indent=1) + "\n")
    sections(s["report"], cells, reused)
    print("\n%d of %d cells ran%s; %d met their goal, %d missed it, %d had none; "
          "report: %s" % (len(done), len(cells), "" if not missing else
                          ", %d not run" % len(missing), s["passed"], s["missed"],
                          s["no_goal"], s["report"]))
    return 0 if len(done) == len(cells) and not missed and rc_report == 0 else 1


def did_run(c):
    """The record says the cell ran: "ran" (wirerate-cell/2), or a
    wirerate-cell/1 record's "passed"."""
    return c.get("ran") is True or (c.get("schema") == "wirerate-cell/1" and
                                    c.get("status") == "passed")


def sections(report, cells, reused):
    """Print the campaign table; add the DUT table and the reused cells to
    the report (and print them)."""
    try:
        with open(report) as f:
            md = f.read()
    except OSError:
        print("no report written")
        return
    if "## Campaign" in md:
        print(campaign_table(md))
    frames = [(d, c) for d, c in cells if c is None or c.get("kind") != "conn"]
    more = [x for x in (dut_table(md, frames), wr_conn_record.table(cells),
                        reused_line(reused)) if x]
    if more:
        write(report, md.rstrip("\n") + "\n\n" + "\n".join(more))
        print("\n" + "\n".join(more).rstrip())


def reused_line(reused):
    if not reused:
        return None
    return ("Reused (ran before with the same digest, not run again): %s.\n" %
            ", ".join(reused))


def dut_table(md, cells):
    """The DUT section of the report for the cells that have dut.json, or
    None. A cell's row in the campaign table is its place among the
    records given to `wirerate report` (cells with a record)."""
    rows = []
    for n, (d, c) in enumerate([x for x in cells if x[1] is not None]):
        try:
            with open(os.path.join(d, "dut.json")) as f:
                dut = json.load(f)
            rows.append((c["label"], c["frame_size"], c.get("repeat", 1), n, dut))
        except (OSError, ValueError, TypeError, KeyError):
            pass
    return wr_dut.table(md, rows) if rows else None


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "cell":
        return record(sys.argv[2])
    if len(sys.argv) >= 5 and sys.argv[1] == "summary":
        return summary(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
