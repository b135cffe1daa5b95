#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Ground truth of an arm64 lab trace (ftrace text, the tracefs `trace` file).

Per CPU: the tick hrtimer expiries (hrtimer_expire_entry whose function is tick_sched_timer,
tick_nohz_handler or tick_nohz_highres_handler), the arch_timer interrupts
(irq_handler_entry name=arch_timer) and their irq number, and every span longer than
GAP_TICKS tick periods in which that CPU took no arch_timer interrupt, with the share of the
span the CPU spent in the idle task (from sched_switch). Spans run from the start of the
whole trace (its first event on any CPU) to the CPU's first arch_timer interrupt, between
interrupts, and from its last interrupt to the end of the whole trace; the first and last are
marked [edge] (a CPU with no events at all for a while took no interrupt then, provided the
header's entries-in-buffer equals entries-written, i.e. nothing was overwritten). Also the event counts per CPU and the
trace_marker lines.

Usage: truth.py TRACE.txt [--hz 250] [--gap-ticks 2]
"""
import argparse
import collections
import re
import sys

LINE = re.compile(r'^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(?P<cpu>\d+)\]\s+'
                  r'(?:(?P<flags>[^\s:]{4,6})\s+)?(?P<ts>\d+\.\d+):\s+(?P<ev>[\w]+):\s?(?P<rest>.*)$')
TICK_FUNCS = ('tick_sched_timer', 'tick_nohz_handler', 'tick_nohz_highres_handler')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('trace')
    ap.add_argument('--hz', type=int, default=250)
    ap.add_argument('--gap-ticks', type=float, default=2.0)
    a = ap.parse_args()
    period = 1.0 / a.hz
    counts = collections.defaultdict(collections.Counter)
    ticks = collections.Counter()
    tick_funcs = collections.defaultdict(collections.Counter)
    irqs = collections.defaultdict(list)         # cpu -> timestamps of arch_timer entries
    irq_nums = collections.defaultdict(set)
    first = {}
    last = {}
    idle_since = {}                              # cpu -> ts the idle task was switched in, or None
    idle_iv = collections.defaultdict(list)      # cpu -> [(start, end)] idle-task intervals
    markers = []
    lost = []
    unparsed = 0
    header_entries = None
    with open(a.trace, encoding='utf-8', errors='replace') as f:
        for raw in f:
            line = raw.rstrip('\n')
            if not line:
                continue
            if line.startswith('#'):
                hm = re.search(r'entries-in-buffer/entries-written: (\d+)/(\d+)', line)
                if hm:
                    header_entries = (int(hm.group(1)), int(hm.group(2)))
                continue
            if 'LOST' in line and 'EVENTS' in line:
                lost.append(line.strip())
                continue
            m = LINE.match(line)
            if not m:
                unparsed += 1
                continue
            cpu = int(m['cpu'])
            ts = float(m['ts'])
            ev = m['ev']
            rest = m['rest']
            if cpu not in first:
                first[cpu] = ts
                # the task on the CPU at its first event tells whether it starts in idle
                idle_since[cpu] = ts if m['pid'] == '0' else None
            last[cpu] = ts
            counts[cpu][ev] += 1
            if ev == 'hrtimer_expire_entry':
                fm = re.search(r'function=(\S+)', rest)
                if fm and fm.group(1) in TICK_FUNCS:
                    ticks[cpu] += 1
                    tick_funcs[cpu][fm.group(1)] += 1
            elif ev == 'irq_handler_entry' and 'name=arch_timer' in rest:
                irqs[cpu].append(ts)
                im = re.search(r'irq=(\d+)', rest)
                if im:
                    irq_nums[cpu].add(int(im.group(1)))
            elif ev == 'sched_switch':
                nm = re.search(r'next_pid=(\d+)', rest)
                if nm:
                    if nm.group(1) == '0':
                        if idle_since.get(cpu) is None:
                            idle_since[cpu] = ts
                    elif idle_since.get(cpu) is not None:
                        idle_iv[cpu].append((idle_since[cpu], ts))
                        idle_since[cpu] = None
            elif ev in ('tracing_mark_write', 'print'):
                markers.append((ts, cpu, rest.strip()))
    t0 = min(first.values()) if first else 0.0
    t1 = max(last.values()) if last else 0.0
    # before its first event a CPU ran the task named on that event, after its last event the
    # task its last event left current: the idle intervals reach out to the trace's bounds
    for cpu, s in idle_since.items():
        if s is not None:
            idle_iv[cpu].append((s, t1))
    for cpu, iv in idle_iv.items():
        if iv and iv[0][0] == first[cpu]:
            iv[0] = (t0, iv[0][1])

    def idle_share(cpu, s, e):
        tot = sum(max(0.0, min(e, b) - max(s, a)) for a, b in idle_iv[cpu])
        return tot / (e - s) if e > s else 0.0

    out = []
    out.append(f'# truth for {a.trace}')
    out.append(f'# HZ={a.hz} (tick period {period*1e3:.3f} ms); gap threshold {a.gap_ticks:g} periods'
               f' = {a.gap_ticks*period*1e3:.3f} ms; timestamps in s as printed in the trace')
    out.append(f'trace span: {t0:.6f} .. {t1:.6f} ({t1-t0:.3f} s); lost-event lines: {len(lost)};'
               f' unparsed event lines: {unparsed}')
    if header_entries:
        out.append(f'header entries-in-buffer/entries-written: {header_entries[0]}/{header_entries[1]}'
                   f' ({"nothing overwritten" if header_entries[0] == header_entries[1] else "EVENTS OVERWRITTEN"})')
    for ts, cpu, text in markers:
        out.append(f'marker {ts:.6f} cpu{cpu}: {text}')
    for cpu in sorted(first):
        out.append('')
        nums = ','.join(str(n) for n in sorted(irq_nums[cpu])) or '-'
        funcs = ' '.join(f'{k}={v}' for k, v in sorted(tick_funcs[cpu].items())) or '-'
        out.append(f'cpu{cpu}: recorded {first[cpu]:.6f} .. {last[cpu]:.6f}')
        out.append(f'cpu{cpu}: tick_hrtimer_expiries={ticks[cpu]} ({funcs})')
        out.append(f'cpu{cpu}: arch_timer_irq_entries={len(irqs[cpu])} irq={nums}')
        out.append(f'cpu{cpu}: events ' + ' '.join(f'{k}={v}' for k, v in sorted(counts[cpu].items())))
        pts = [(t0, True)] + [(t, False) for t in irqs[cpu]] + [(t1, True)]
        gaps = []
        for (s, se), (e, ee) in zip(pts, pts[1:]):
            if e - s > a.gap_ticks * period:
                gaps.append((s, e, se or ee))
        out.append(f'cpu{cpu}: spans without arch_timer irq > {a.gap_ticks:g} ticks: {len(gaps)}')
        for s, e, edge in gaps:
            out.append(f'  gap cpu{cpu} {s:.6f} .. {e:.6f}  {(e-s)*1e3:9.3f} ms'
                       f'  {(e-s)/period:7.1f} ticks  idle {idle_share(cpu, s, e)*100:5.1f}%'
                       f'{"  [edge]" if edge else ""}')
    print('\n'.join(out))
    return 0


if __name__ == '__main__':
    sys.exit(main())
