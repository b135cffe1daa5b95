// SPDX-License-Identifier: GPL-3.0-or-later
// What one CPU's pass knows about each task that ran on it: whether it is a kernel thread, and the mode
// it was in when it was switched out (a task preempted in user mode resumes there,
// a sleeping task resumes in the kernel). A flat open-addressing table: one allocation per growth, none
// per event.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace tickscope {

class Trace;

enum class SavedMode : uint8_t
{
    Unknown = 0,
    User,        // preempted in user mode
    Kernel,      // asleep or preempted in the kernel
    KernelFault, // asleep in a user page fault: returns to user mode
};

class TaskModeTable
{
public:
    struct Task
    {
        int32_t pid = 0;
        uint16_t generation = 0; // saved modes of older generations are forgotten (lost events)
        SavedMode saved = SavedMode::Unknown;
        int8_t kernelThread = -1; // -1 not known yet, 0 no, 1 yes
        int32_t unknownStretch =
            -1; // its last stretch of unknown mode, switched out runnable (UnknownStretches)
        int64_t leftAt = INT64_MIN; // the time of its last switch-out here
    };

    TaskModeTable();

    // The entry of pid (created on first use), with saved modes of older generations reset.
    Task &get(int32_t pid);
    // Forgets every saved mode (after lost events); kernel-thread flags stay.
    void newGeneration() { ++generation_; }
    size_t size() const { return used_; }
    template <class F> void forEach(F f)
    {
        for (Task &t : slots_)
            if (t.generation != 0) f(t);
    }

private:
    void grow();

    std::vector<Task> slots_; // pid 0 never stored: it is the idle task
    size_t used_ = 0;
    uint16_t generation_ = 1;
};

// Kernel threads by name: kworker/, ksoftirqd/, rcu_*, migration/, ktimers/, kthreadd, ...
bool isKernelThreadComm(std::string_view comm);

} // namespace tickscope
