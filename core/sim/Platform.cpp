// SPDX-License-Identifier: GPL-3.0-or-later
#include "Platform.h"

#include "Scenario.h"

namespace tickscope::sim {
namespace {

std::vector<Platform> presets()
{
    std::vector<Platform> p;
    // KVM/Firecracker guest: interrupt delivery goes through the hypervisor. irqEntry is set to the ~30 µs
    // tick lateness (now - expires) of the real nohzfull-poll fixture in tests/data.
    Platform vm;
    vm.name = "x86-vm";
    vm.description = "generic x86_64 KVM guest";
    vm.irqEntry = 25000;
    vm.irqExit = 3000;
    vm.tickHandler = 3000;
    vm.hrtimerCb = 1000;
    vm.wakeup = 4000;
    vm.ctxSwitch = 5000;
    vm.syscall = 2000;
    vm.idleEntry = 8000;
    vm.idleExit = 5000;
    vm.haltExit = 10000;
    vm.tickStop = 3000;
    vm.softirq = 2000;
    vm.timerCb = 2000;
    vm.jiffyStep = 10;
    vm.cascade = 200;
    vm.irqsOffMax = 5000;
    vm.jitterPct = 20;
    p.push_back(vm);

    // A 2013 two-socket Xeon (seed 002's 40-CPU box, bare metal): wakeups of about 3 µs.
    Platform sv;
    sv.name = "x86-server";
    sv.description = "bare-metal x86_64 server (40 CPUs, seed 002)";
    sv.irqEntry = 400;
    sv.irqExit = 250;
    sv.tickHandler = 600;
    sv.hrtimerCb = 150;
    sv.wakeup = 500;
    sv.ctxSwitch = 700;
    sv.syscall = 300;
    sv.idleEntry = 800;
    sv.idleExit = 500;
    sv.haltExit = 600;
    sv.tickStop = 400;
    sv.softirq = 200;
    sv.timerCb = 300;
    sv.jiffyStep = 4; // an empty tv1 slot: index, list_replace_init, cascade check
    sv.cascade = 150;
    sv.irqsOffMax = 1000;
    sv.jitterPct = 15;
    p.push_back(sv);

    // Intel Atom E3825 @ 1.33 GHz, dual core, PREEMPT_RT (seed 003).
    Platform atom;
    atom.name = "atom-e3825";
    atom.description = "Intel Atom E3825 @ 1.33 GHz, dual core";
    atom.irqEntry = 3000;
    atom.irqExit = 2000;
    atom.tickHandler = 4000;
    atom.hrtimerCb = 1500;
    atom.wakeup = 4500;
    atom.ctxSwitch = 6000;
    atom.syscall = 2500;
    atom.idleEntry = 5000;
    atom.idleExit = 4000;
    atom.haltExit = 6000;
    atom.tickStop = 3000;
    atom.softirq = 2000;
    atom.timerCb = 2000;
    atom.jiffyStep = 15;
    atom.cascade = 400;
    atom.irqsOffMax = 18000;
    atom.jitterPct = 20;
    p.push_back(atom);

    // Xilinx Zynq 7020 (dual Cortex-A9 @ 667 MHz), PREEMPT_RT (seed 003).
    Platform zynq;
    zynq.name = "zynq-7020";
    zynq.description = "Xilinx Zynq 7020, dual Cortex-A9 @ 667 MHz";
    zynq.irqEntry = 5000;
    zynq.irqExit = 3000;
    zynq.tickHandler = 8000;
    zynq.hrtimerCb = 3000;
    zynq.wakeup = 11000;
    zynq.ctxSwitch = 9000;
    zynq.syscall = 4000;
    zynq.idleEntry = 8000;
    zynq.idleExit = 6000;
    zynq.haltExit = 8000;
    zynq.tickStop = 5000;
    zynq.softirq = 3000;
    zynq.timerCb = 3000;
    zynq.jiffyStep = 30;
    zynq.cascade = 800;
    zynq.irqsOffMax = 25000;
    zynq.jitterPct = 20;
    p.push_back(zynq);
    return p;
}

} // namespace

Platform platformPreset(const std::string &name)
{
    for (const Platform &p : presets()) {
        if (p.name == name) return p;
    }
    std::string known;
    for (const auto &n : platformNames())
        known += (known.empty() ? "" : ", ") + n;
    throw ScenarioError("unknown platform '" + name + "' (known: " + known + ")");
}

std::vector<std::string> platformNames()
{
    std::vector<std::string> n;
    for (const Platform &p : presets())
        n.push_back(p.name);
    return n;
}

} // namespace tickscope::sim
