// SPDX-License-Identifier: GPL-3.0-or-later
// Live capture on this machine: a private tracefs instance ("tickscope-<pid>"), the tick-analysis events
// (or the user's), per-CPU readers of the raw ring-buffer pages, and the pages saved as a trace.dat
// (core/write) with the machine facts. The saved file is loaded by the same importer as any trace.dat:
// there is no second decoder. Nothing outside the instance is changed: the top-level buffer, its events,
// tracer, clock and sizes stay as they were, and tracefs is never mounted here (the user is told how).
//
// Needs root (or a user allowed to write tracefs) and a mounted tracefs.
#pragma once

#include "model/MachineFacts.h"
#include "write/DatFileWriter.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

struct tracefs_instance;

namespace tickscope {

// One line saying what went wrong and what to do.
struct CaptureError : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

struct CaptureOptions
{
    std::vector<std::string> events;  // "system/event", "system:event" or "system"; empty: tickEvents()
    std::vector<std::string> filters; // "system/event:FILTER" (the kernel's filter syntax)
    std::vector<int> cpus;            // empty: every online CPU
    int bufferKb = 8192;              // per CPU
};

// An event the default set wants and this kernel lacks, and what its absence costs the analysis.
struct MissingEvent
{
    std::string event; // "system/event"
    std::string cost;
};

// The events the tick analysis reads ("system/event").
const std::vector<std::string> &tickEvents();

// Where tracefs is mounted, or "" when it is not (looked up in /proc/mounts; nothing is mounted).
std::string tracefsMount();

// Removes the tickscope-<pid> instances whose process is gone (a capture killed with SIGKILL), and only
// those. Returns their names.
std::vector<std::string> removeStaleInstances();

// Live per-CPU counts, updated by the readers while recording.
struct CpuLive
{
    std::atomic<uint64_t> pages{0};
    std::atomic<uint64_t> events{0};
    std::atomic<uint64_t> ticks{0}; // expiries of the tick's hrtimer (tick_nohz_handler, tick_sched_timer)
    std::atomic<uint64_t> timerIrqs{0}; // local_timer_entry: every local timer interrupt, ticks or not
    std::atomic<uint64_t> wakeups{0};   // sched_wakeup
    std::atomic<uint64_t> lostPages{0}; // pages the kernel flagged: events were overwritten before them
};

class Capture
{
public:
    // Checks permissions and tracefs, creates the instance, sets its buffer size, CPU mask and filters and
    // enables the events (tracing stays off). Throws CaptureError.
    explicit Capture(CaptureOptions options);
    ~Capture(); // stops and removes the instance
    Capture(const Capture &) = delete;
    Capture &operator=(const Capture &) = delete;

    const std::string &instanceName() const { return name_; }
    const std::vector<std::string> &enabled() const { return enabled_; }
    const std::vector<MissingEvent> &missing() const { return missing_; }
    const std::vector<int> &cpus() const { return cpus_; }

    void start(); // tracing on, one reader thread per CPU
    void stop();  // tracing off, readers drain the buffer and end
    bool running() const { return running_; }

    // Live counts (index: position in cpus()).
    const CpuLive &live(size_t k) const { return *live_[k]; }

    // Writes the trace.dat (after stop()). Throws LoadError naming the path.
    void save(const std::string &path) const;
    // While recording: a trace.dat of each CPU's newest pages, at most bytesPerCpu of them (the live view
    // loads it like any file). Safe to call from another thread than the one that started the capture.
    void snapshot(const std::string &path, uint64_t bytesPerCpu) const;

private:
    struct Reader;
    void cleanup() noexcept;
    void readMetadata();
    void writeFile(const std::string &path, uint64_t bytesPerCpu) const;

    CaptureOptions opt_;
    std::string name_;
    std::string tracing_;
    tracefs_instance *inst_ = nullptr;
    std::vector<std::string> enabled_;
    std::vector<MissingEvent> missing_;
    std::vector<int> cpus_;
    std::vector<std::unique_ptr<CpuLive>> live_;
    std::vector<std::unique_ptr<Reader>> readers_;
    MachineFacts facts_;
    DatMetadata meta_;     // formats, printk formats, uname, clock: read once at start
    std::string kallsyms_; // /proc/kallsyms, read at start too
    int pageSize_ = 4096;
    int timerIrqType_ = -1, hrtimerType_ = -1, wakeupType_ = -1, functionAt_ = -1;
    std::vector<uint64_t> tickFns_;
    std::vector<std::pair<int, int>> functionFields_;                     // type id, offset
    std::unordered_map<uint64_t, std::pair<size_t, size_t>> symbolLines_; // address -> kallsyms line
    bool running_ = false;
};

} // namespace tickscope
