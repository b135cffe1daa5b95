#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ablation table of docs/EVIDENCE.md: real traces, and copies of them with event kinds removed
(what recordings made with a few `-e` options hold), each reported by tickscope-cli; per CPU, each figure
of the full trace beside the copy's. "n/r": not recorded (null in the JSON report), "~": inferred, "–": no
samples.

Usage: scripts/ablation-table.py [TICKSCOPE_CLI] [TRACE.dat|TRACE.txt ...]
       (default: build/dev/app/tickscope-cli and the lab and host traces of tests/data)
Needs trace-cmd (the copies are cut from its `trace-cmd report` text).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "tests", "data")
TIMER = {"timer_init", "timer_start", "timer_cancel", "timer_expire_entry", "timer_expire_exit",
         "hrtimer_init", "hrtimer_start", "hrtimer_cancel", "hrtimer_expire_entry", "hrtimer_expire_exit",
         "tick_stop", "itimer_state", "timer_base_idle"}
# name -> (events kept, or None for all; events removed)
MARKERS = {"print", "tracing_mark_write"}
SUBSETS = [
    ("irq_vectors+sched_switch", {"local_timer_entry", "local_timer_exit", "sched_switch"} | MARKERS, set()),
    ("irq+sched_switch", {"irq_handler_entry", "irq_handler_exit", "softirq_entry", "softirq_exit",
                          "softirq_raise", "sched_switch"} | MARKERS, set()),
    ("no timer:*", None, TIMER),
    ("sched_switch only", {"sched_switch"} | MARKERS, set()),
]
NAME = re.compile(r"\s([a-z_0-9]+):\s")


def cut(text, keep, drop):
    out = []
    for k, line in enumerate(text.splitlines(True)):
        m = NAME.search(line)
        name = m.group(1) if m else None
        if k == 0 or line.startswith("#") or (name and (keep is None or name in keep) and name not in drop):
            out.append(line)
    return "".join(out)


def report(cli, path):
    r = subprocess.run([cli, "report", path, "--json"], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def figures(doc, cpu):
    c = doc["cpus"][cpu]
    ev = doc["evidence"]

    def mark(key, value, fmt="{}"):
        if value is None:
            return "n/r"
        return ("~" if ev.get(key, {}).get("status") == "inferred" else "") + fmt.format(value)

    stopped = c["tick_stopped_ns"]
    lat = c["hrtimer_wakeup"]["latency_ns"]
    return [
        mark("ticks", c["ticks"]["total"]),
        mark("tick_mode", c["ticks"]["user"]),
        mark("tick_idle", c["ticks"]["idle"]),
        mark("tick_stopped", None if stopped is None else stopped / 1e9, "{:.3f}"),
        mark("timer_softirqs", c["timer_softirq"]["count"]),
        mark("catchups", c["timer_softirq"]["catchup"]),
        mark("hrtimer_wakeups", c["hrtimer_wakeup"]["count"]),
        "–" if lat is not None and lat["count"] == 0 else
        mark("wakeup_latency", None if lat is None else lat["p99"] / 1e3, "{:.1f}"),
        "yes" if c["nohz_full"] else "no",
    ]


HEAD = ["ticks", "user", "idle", "stopped s", "TIMER softirqs", "catch-ups", "wakeups", "latency p99 µs",
        "nohz_full"]


def main():
    args = sys.argv[1:]
    cli = args.pop(0) if args and not args[0].endswith((".dat", ".txt")) else os.path.join(
        HERE, "..", "build", "dev", "app", "tickscope-cli")
    traces = args or [os.path.join(DATA, f) for f in (
        "nohzfull-nopoll.dat", "nohzfull-poll.dat", "host-sleep.dat", "host-6.18-idle.dat",
        "rt-hrtimer-k4.dat", "arm64/arm64-6.1-nohzfull.txt", "arm64/arm64-6.1-idle.txt",
        "arm64/arm64-6.12-nohzfull.txt", "arm64/arm64-6.12-idle.txt")]
    with tempfile.TemporaryDirectory() as tmp:
        for dat in traces:
            if dat.endswith(".txt"):  # ftrace text already
                with open(dat) as f:
                    text = f.read()
            else:
                text = subprocess.run(["trace-cmd", "report", dat], capture_output=True, text=True,
                                      check=True).stdout
            full_path = os.path.join(tmp, "full.txt")
            with open(full_path, "w") as f:
                f.write(text)
            full = report(cli, full_path)
            print(f"\n### {os.path.basename(dat)}\n")
            print("| CPU | events | " + " | ".join(HEAD) + " |")
            print("|---|---|" + "---|" * len(HEAD))
            for cpu in range(len(full["cpus"])):
                if full["cpus"][cpu]["events"] == 0:
                    continue
                print(f"| {cpu} | all | " + " | ".join(figures(full, cpu)) + " |")
                for name, keep, drop in SUBSETS:
                    path = os.path.join(tmp, "cut.txt")
                    with open(path, "w") as f:
                        f.write(cut(text, keep, drop))
                    doc = report(cli, path)
                    print(f"| {cpu} | {name} | " + " | ".join(figures(doc, cpu)) + " |")


if __name__ == "__main__":
    main()
