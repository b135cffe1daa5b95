# SPDX-License-Identifier: GPL-3.0-or-later
"""The event lines of `trace-cmd report -t FILE`, shared by the lab's ground-truth scripts."""
import re
import subprocess

LINE = re.compile(r'^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?(\d+\.\d+):\s+(\S+?):\s*(.*)$')


def report_lines(path):
    """Yields (comm, pid, cpu, ts, event, rest) per event line; pid and cpu as int, ts as its text."""
    p = subprocess.Popen(['trace-cmd', 'report', '-t', path], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, errors='replace')
    for line in p.stdout:
        m = LINE.match(line)
        if m:
            comm, pid, cpu, ts, ev, rest = m.groups()
            yield comm.strip(), int(pid), int(cpu), ts, ev, rest
    p.wait()
