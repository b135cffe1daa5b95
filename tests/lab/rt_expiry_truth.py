#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Ground truth for the hrtimer expiry classes of a trace: one row per hrtimer_wakeup expiry.

usage: rt_expiry_truth.py TRACE.dat [--csv OUT.csv]

Reads `trace-cmd report -t` text and deliberately ignores the irq-flags column (tickscope reads the
flags first; this script must reach its answer another way). For every CPU it follows:

- hard interrupts: *_entry / *_exit of irq_vectors and irq_handler_entry/exit. They nest on the CPU and
  never survive a sched_switch (an open one there lost its exit).
- softirqs per task: softirq_entry/exit of a vector belong to the task that ran them. On PREEMPT_RT the
  softirq thread (ktimers/N, ksoftirqd/N) is preempted inside a span and resumes it later, so the span is
  kept per pid across switches, not per CPU.

An hrtimer_expire_entry is "hard" inside a hard interrupt, "soft" when the current task has an open
HRTIMER softirq (vec 8) span and no hard interrupt is open, "unknown" otherwise. Its context key is
(cpu, pid, level) with level hard / soft / task; the woken task is the first sched_waking (or
sched_wakeup when no waking is traced) with the same key before the expire_exit of that key. RT when the
woken task's prio < 100. Per interrupt, the longest run of hrtimer_wakeup expiries is counted.
"""
import argparse
import re
import sys
from collections import Counter, defaultdict

from report_lines import report_lines

FIELD = re.compile(r'(\w+)=(\S+)')




def is_hard_entry(ev):
    return ev == 'irq_handler_entry' or (ev.endswith('_entry') and ev not in (
        'softirq_entry', 'hrtimer_expire_entry', 'timer_expire_entry', 'sys_enter', 'irq_handler_entry'))


def is_hard_exit(ev):
    return ev == 'irq_handler_exit' or (ev.endswith('_exit') and ev not in (
        'softirq_exit', 'hrtimer_expire_exit', 'timer_expire_exit', 'sys_exit', 'irq_handler_exit'))


def woken_of(ev, rest):
    if ev == 'sched_waking':  # comm=workload pid=141 prio=120 target_cpu=001
        f = dict(FIELD.findall(rest))
        return int(f['pid']), int(f['prio'])
    m = re.search(r':(\d+) \[(-?\d+)\]', rest)  # sched_wakeup: workload:141 [120] CPU:001
    return (int(m.group(1)), int(m.group(2))) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('trace')
    ap.add_argument('--csv', default=None)
    a = ap.parse_args()

    hard = defaultdict(int)          # cpu -> open hard interrupts
    soft = {}                        # (cpu, pid) -> open softirq vector
    open_exp = {}                    # (cpu, pid, level) -> row of the open hrtimer_wakeup expiry
    run = defaultdict(int)           # cpu -> hrtimer_wakeup expiries in the open hard interrupt
    longest = defaultdict(int)
    rows = []
    saw_waking = False
    for _, pid, cpu, ts, ev, rest in report_lines(a.trace):
        def level():
            if hard[cpu] > 0:
                return 'hard'
            return 'soft' if (cpu, pid) in soft else 'task'

        if ev == 'sched_switch':
            hard[cpu] = 0
            run[cpu] = 0
        elif ev == 'softirq_entry':
            soft[(cpu, pid)] = int(dict(FIELD.findall(rest))['vec'])
        elif ev == 'softirq_exit':
            soft.pop((cpu, pid), None)
        elif is_hard_entry(ev):
            if hard[cpu] == 0:
                run[cpu] = 0
            hard[cpu] += 1
        elif is_hard_exit(ev):
            hard[cpu] = max(0, hard[cpu] - 1)
        elif ev == 'hrtimer_expire_entry':
            if 'function=hrtimer_wakeup' not in rest:
                continue
            lv = level()
            ctx = lv if lv == 'hard' else ('soft' if soft.get((cpu, pid)) == 8 else 'unknown')
            row = {'ts': ts, 'cpu': cpu, 'context': ctx, 'woken_pid': '', 'woken_prio': '', 'class': 'unknown'}
            rows.append(row)
            open_exp[(cpu, pid, lv)] = row
            if lv == 'hard':
                run[cpu] += 1
                longest[cpu] = max(longest[cpu], run[cpu])
        elif ev == 'hrtimer_expire_exit':
            open_exp.pop((cpu, pid, level()), None)
        elif ev in ('sched_waking', 'sched_wakeup'):
            if ev == 'sched_waking':
                saw_waking = True
            elif saw_waking:
                continue
            row = open_exp.get((cpu, pid, level()))
            if row is None or row['woken_pid'] != '':
                continue
            w = woken_of(ev, rest)
            if w:
                row['woken_pid'], row['woken_prio'] = w
                row['class'] = 'rt' if w[1] < 100 else 'normal'

    if not rows:
        print('no hrtimer_wakeup expiries in %s' % a.trace, file=sys.stderr)
        return 1
    if a.csv:
        with open(a.csv, 'w') as f:
            f.write('timestamp,cpu,context,woken_pid,woken_prio,class\n')
            for r in rows:
                f.write('%s,%d,%s,%s,%s,%s\n' % (r['ts'], r['cpu'], r['context'], r['woken_pid'],
                                                 r['woken_prio'], r['class']))
    per = defaultdict(Counter)
    for r in rows:
        per[r['cpu']][(r['context'], r['class'])] += 1
    for cpu in sorted(per):
        c = per[cpu]
        print('cpu %d: %s; longest run in one hard interrupt %d' % (
            cpu, ', '.join('%s.%s %d' % (k[0], k[1], v) for k, v in sorted(c.items())), longest[cpu]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
