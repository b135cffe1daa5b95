#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes server128.json, the 128-CPU server scenario of make-big-trace.sh (one line per group of entries).
# Usage: python3 server128.py [WINDOW_S] > server128.json   (WINDOW_S: the simulated seconds the interrupt
# sources cover; 90 for the committed file)
import json, sys
W = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0   # seconds the interrupt sources cover
HK = range(0, 8); BUSY = range(8, 80); LOOP = range(80, 96); IDLE = range(96, 128)
tasks, irqs, wheel = [], [], []
def T(**k): tasks.append(k)
for c in HK:
    T(name="stress", cpu=c, count=8, program="random_sleep", min_us=20, max_us=980, work_us=10)
    T(name="kworker/%d:1" % c, cpu=c, program="sleep_work", sleep_us=4000, work_us=20)
svc = [("systemd-journal",0,100000,300,1),("chronyd",0,1000000,100,1),("kubelet",1,100000,2000,1),
       ("sshd",1,50000,100,1),("containerd",2,20000,300,1),("irqbalance",2,10000000,2000,1),
       ("node_exporter",3,1000000,15000,1),("rsyslogd",3,200000,200,1),("postgres",4,5000,400,4),
       ("java",5,10000,500,4),("redis-server",6,1000,50,1),("haproxy",7,2000,100,1),("auditd",7,500000,200,1)]
for n, c, s, w, k in svc:
    d = dict(name=n, cpu=c, program="sleep_work", sleep_us=s, work_us=w)
    if k > 1: d["count"] = k
    T(**d)
for c in BUSY:
    T(name="app-poll", cpu=c, program="busy", start_us=5000)
for c in LOOP:
    T(name="app-loop", cpu=c, program="sleep_work", sleep_us=20, work_us=100000, start_us=5000)
for c in HK:
    wheel.append(dict(cpu=c, first_ms=1 + c, period_ms=4))
    wheel.append(dict(cpu=c, first_ms=10 + c, period_ms=100))
    wheel.append(dict(cpu=c, first_ms=100 + 7 * c, period_ms=1000))
for c in list(BUSY) + list(LOOP):
    wheel.append(dict(cpu=c, first_ms=(c * 37) % 1000, period_ms=1000))
for c in IDLE:
    wheel.append(dict(cpu=c, first_ms=(c * 53) % 2000, period_ms=2000))
to_ms = int(W * 1000)
def I(name, irq, cpu, rate, **k):
    irqs.append(dict(name=name, irq=irq, cpu=cpu, count=int(rate * W), to_ms=to_ms, **k))
for c in HK:
    I("mlx5_comp%d" % c, 140 + c, c, 1500)
    I("nvme0q%d" % (c + 1), 60 + c, c, 400)
    I("eno1-TxRx-%d" % c, 300 + c, c, 20, timers=1, timeouts_ms=[40, 200], random_timeout=True)
for k, c in enumerate(range(8, 96, 11)):
    I("mlx5_comp%d" % c, 140 + c, c, 10, timers=1, timeouts_ms=[2, 40], random_timeout=True)
for c in (100, 120):
    I("nvme1q%d" % (c - 95), 230 + c - 96, c, 2)
s = dict(name="server128",
  description=("A 128-CPU bare-metal server, HZ=1000, idle=halt, nohz_full=isolcpus=8-127. Housekeeping CPUs 0-7: "
   "8 random_sleep stress threads and a kworker each, sleep_work services, NIC and NVMe queues, periodic kernel timers. "
   "nohz_full CPUs 8-79: one busy user poll loop each; 80-95: a user loop blocking 20 us every 100 ms; "
   "1 Hz vmstat-like timer on 8-95; 8 NIC queues on nohz_full CPUs arming timers; 96-127 isolated and idle "
   "(a timer every 2 s, two NVMe queues). Interrupt sources cover %g s of simulated time." % W),
  platform="x86-server",
  kernel=dict(hz=1000, cpus=128, nohz_full="8-127", isolcpus="8-127", idle="halt", timekeeper=0),
  duration_ms=2000, tasks=tasks, irqs=irqs, wheel_timers=wheel)
def dump(o):
    def chunk(v):
        # one line per group: entries with the same name/program/period kind share lines, up to 4 per line
        lines, cur, key = [], [], None
        for e in v:
            k = (e.get("name"), e.get("program"), e.get("period_ms"), e.get("timers"))
            n = 8 if e.get("program") == "busy" or "period_ms" in e else 4
            if cur and (k != key or len(cur) >= n):
                lines.append(cur); cur = []
            cur.append(e); key = k
        if cur: lines.append(cur)
        return [",".join(json.dumps(e, separators=(",", ":")) for e in l) for l in lines]
    out = ["{"]
    keys = list(o)
    for i, k in enumerate(keys):
        end = "," if i < len(keys) - 1 else ""
        v = o[k]
        if isinstance(v, list):
            ls = chunk(v)
            out.append('"%s":[' % k)
            out += [l + ("," if j < len(ls) - 1 else "") for j, l in enumerate(ls)]
            out.append("]" + end)
        else:
            out.append('"%s":%s%s' % (k, json.dumps(v, separators=(",", ":")), end))
    out.append("}")
    return "\n".join(out) + "\n"
sys.stdout.write(dump(s))
