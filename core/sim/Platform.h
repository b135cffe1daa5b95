// SPDX-License-Identifier: GPL-3.0-or-later
// The platform cost model: what each kernel path costs in ns on a given machine. Presets: a generic x86
// VM (KVM guest, slow interrupt entry), an x86 server (the seed 002 box), Intel Atom E3825, Xilinx Zynq 7020.
// Every cost gets a random jitter of +-jitterPct % (the simulator's PRNG, so runs stay deterministic).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tickscope::sim {

struct Platform
{
    std::string name;
    std::string description;
    int64_t irqEntry = 0;    // hardware + entry code to the first handler
    int64_t irqExit = 0;     // handler end to the interrupted context
    int64_t tickHandler = 0; // tick_nohz_handler: timekeeping, accounting, scheduler tick
    int64_t hrtimerCb = 0;   // one hrtimer expiry's bookkeeping (excluding the wakeup)
    int64_t wakeup = 0;      // try_to_wake_up of a sleeper
    int64_t ctxSwitch = 0;   // schedule() + switch
    int64_t syscall = 0;     // syscall entry + exit
    int64_t idleEntry = 0;   // switch to idle .. cpu_idle
    int64_t idleExit = 0;    // cpu_idle exit .. schedule
    int64_t haltExit = 0;    // hardware wakeup from a halt state (added to the interrupt's entry)
    int64_t tickStop = 0;    // one tick stop / restart evaluation and reprogramming
    int64_t softirq = 0;     // softirq entry + exit
    int64_t timerCb = 0;     // one timer_list callback
    int64_t jiffyStep = 0;   // legacy wheel: one jiffy of the __run_timers walk
    int64_t cascade = 0;     // legacy wheel: one cascade (every 256 jiffies)
    int64_t irqsOffMax = 0;  // longest irqs-off section in a syscall of a SCHED_OTHER task
    int jitterPct = 10;
};

// The preset of that name; throws ScenarioError naming the known ones.
Platform platformPreset(const std::string &name);
std::vector<std::string> platformNames();

} // namespace tickscope::sim
