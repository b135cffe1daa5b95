// SPDX-License-Identifier: GPL-3.0-or-later
// What the analysis needs to know about the traced machine that a trace.dat does not carry by itself:
// the kernel command line (nohz_full=, isolcpus=, idle=, nohz=), HZ, the cpuidle driver and its states,
// the online CPUs and the kernel release. A capture reads them from /proc and /sys; the simulator knows
// them from its scenario. They travel inside the trace.dat as one option (kOptMachineFacts) of
// "key=value" lines that trace-cmd and KernelShark skip, and the importer reads them back into the
// trace's metadata.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tickscope {

// The trace.dat option id the facts are stored under ("ts"). trace-cmd and KernelShark skip options they do
// not know; trace-cmd's own ids stay far below (the last is 22 in trace-cmd 3.1).
constexpr uint16_t kMachineFactsOption = 0x7473;

struct MachineFacts
{
    std::string kernelRelease; // uname -r
    std::string cmdline;       // /proc/cmdline
    int hz = 0;                // CONFIG_HZ, 0 when the kernel config was not readable
    std::string onlineCpus;    // /sys/devices/system/cpu/online ("0-3")
    bool nohzFullKnown =
        false;                 // the kernel said which CPUs are nohz_full (/sys/devices/system/cpu/nohz_full)
    std::string nohzFull;      // that list, "" for none
    std::string isolated;      // /sys/devices/system/cpu/isolated (isolcpus=), "" for none
    std::string cpuidleDriver; // /sys/devices/system/cpu/cpuidle/current_driver, "" when none
    std::string idleStates;    // CPU 0's cpuidle states: "name:exit_latency_us" separated by ','

    bool empty() const { return kernelRelease.empty() && cmdline.empty() && onlineCpus.empty(); }
    std::string serialize() const;                    // "key=value" lines
    static MachineFacts parse(std::string_view text); // unknown keys are ignored
    static MachineFacts ofThisMachine(); // read from /proc and /sys; what is unreadable stays empty
};

} // namespace tickscope
