// SPDX-License-Identifier: GPL-3.0-or-later
// The simulator's engine (internal to core/sim): a binary heap of timestamped events and one kernel state
// machine per CPU. Each CPU handles its events one after the other; `Cpu::t` is the time up to which it is
// busy in the kernel, so an interrupt that comes while it runs with interrupts off is taken when it is done.
// User-mode work is not "busy": an interrupt during it delays the work's end by the interrupt's length.
// Engine.cpp: events, tasks and scheduling; KernelPaths.cpp: the tick, idle, interrupts and the wheel.
#pragma once

#include "GroundTruth.h"
#include "Platform.h"
#include "Rng.h"
#include "Scenario.h"
#include "TraceEmitter.h"

#include <cstdint>
#include <memory>
#include <queue>
#include <vector>

namespace tickscope::sim {

struct Estimate;
struct SimControl;

constexpr int64_t kNever = INT64_MAX;
constexpr int64_t kSliceNs = 4000000; // CFS: a task that ran this long gives way to another runnable one

struct Hrtimer
{
    uint64_t ptr = 0;
    int64_t expires = kNever, soft = kNever;
    uint64_t seq = 0; // arm order: ties expire in it
    bool armed = false;
    bool hard = true;
    int task = -1; // the sleeper
};

struct WheelTimer
{
    uint64_t ptr = 0;
    uint64_t expires = 0, bucket = 0;
    uint32_t fn = 0;
    int truth = -1;    // GroundTruth::timers index
    int periodic = -1; // WheelTimerSpec index when it re-arms itself
    bool armed = false;
};

enum class TaskState : uint8_t
{
    Sleeping,
    Runnable,
    Running,
    Done
};

struct Task
{
    int32_t pid = 0;
    std::string comm;
    const TaskSpec *spec = nullptr; // nullptr: ktimers/N
    int cpu = 0;
    bool rt = false;
    int16_t prio = 120; // kernel prio: 120 SCHED_OTHER, 99 - rt_prio SCHED_FIFO
    TaskState state = TaskState::Sleeping;
    int loopsLeft = -1;
    bool inWork = false; // in user-mode work (its end is a heap event)
    int64_t workEnd = 0;
    int64_t workLeft = 0; // saved when preempted
    uint32_t gen = 0;     // invalidates stale work-end events
    bool woken = false;   // switched in by a wakeup: returns from its sleep syscall
    bool started = false;
    int hr = -1;          // its sleeper hrtimer
    int64_t wantWake = 0; // cyclictest: the absolute time it asked for
    int64_t nextPeriod = 0;
    int cyclic = -1;      // GroundTruth::cyclic index
    int truthWakeup = -1; // GroundTruth::wakeups index of its pending wakeup
    int64_t switchedIn = 0;
    bool ktimers = false;
};

struct Cpu
{
    int id = 0;
    bool nohzFull = false;
    int64_t t = 0; // busy in the kernel until
    int curr = -1; // task index, -1: the idle task
    std::vector<int> rq;
    bool userMode = false;
    bool inIdle = false;
    int idleState = -1; // 0 poll, 1 halt, -1 not in a cpuidle state
    bool needResched = false;
    bool inSoftirq = false;
    bool baseIdle = false;
    // tick
    uint64_t tickPtr = 0;
    bool tickStopped = false;
    bool tickArmed = false;
    int64_t tickExp = kNever;
    bool lastEvalFailed = false; // the last tick_stop evaluation failed (a dependency in force)
    // timers
    std::vector<int> hrtimers;   // armed sleeper hrtimers (indices)
    std::vector<int> wheel;      // armed wheel timers (indices)
    uint64_t baseClk = 0;        // jiffies the wheel has processed up to
    uint16_t pendingSoftirq = 0; // bit per vector
    int64_t ceAt = kNever;       // clockevent programmed for
    uint32_t ceGen = 0;
    int ktimers = -1; // RT: the ktimers/N task
};

class Engine
{
public:
    // `est`: the scenario's estimate, which sizes the columns and bounds the run.
    Engine(const Scenario &s, uint64_t seed, Trace &trace, GroundTruth &gt, const Estimate &est);
    void run(const SimControl &control);

private:
    enum EvKind : uint8_t
    {
        EvClock,
        EvIrq,
        EvWork
    };
    struct Ev
    {
        int64_t t;
        uint64_t seq;
        int cpu;
        EvKind kind;
        uint32_t a;
        uint32_t gen;
        bool operator>(const Ev &o) const { return t != o.t ? t > o.t : seq > o.seq; }
    };

    // Engine.cpp
    void setupTasks();
    void setupIrqs();
    void push(int64_t t, int cpu, EvKind k, uint32_t a = 0, uint32_t gen = 0);
    int64_t cost(int64_t base);
    TraceEmitter::Ctx ctx(const Cpu &c, uint8_t flags = 0) const;
    void onWorkDone(Cpu &c, Task &task, int64_t now);
    void taskSleep(Cpu &c, Task &task, int64_t &now);
    void taskFinish(Cpu &c, Task &task, int64_t &now);
    void returnToUser(Cpu &c, Task &task, int64_t &now);
    void startWork(Cpu &c, Task &task, int64_t now, int64_t ns);
    void wake(Cpu &c, int taskIdx, int64_t &now, uint8_t flags);
    void schedule(Cpu &c, int64_t &now, bool preempt);
    void runKtimers(Cpu &c, Task &task, int64_t &now);
    uint32_t depMask(const Cpu &c) const;
    int pickNext(const Cpu &c) const;

    // KernelPaths.cpp
    int64_t jiffiesToNs(uint64_t j) const;
    uint64_t jiffies(int64_t t) const;
    int64_t nextEvent(const Cpu &c) const;
    void reprogram(Cpu &c);
    void onClock(Cpu &c, int64_t at);
    void onIrq(Cpu &c, int64_t at, uint32_t source);
    void irqEnter(Cpu &c, int64_t &now, TickContext &interrupted, bool &wasUser);
    void irqExitPath(Cpu &c, int64_t &now, int64_t start, bool wasUser);
    void tickExpiry(Cpu &c, int64_t &now, TickContext interrupted);
    void sleeperExpiry(Cpu &c, Hrtimer &h, int64_t &now, uint8_t flags);
    void tickRestart(Cpu &c, int64_t now);
    void tickStopIdle(Cpu &c, int64_t &now);
    void programStopped(Cpu &c, int64_t now, int64_t next);
    void stopTick(Cpu &c, int64_t &now);
    void fullUpdate(Cpu &c, int64_t &now);
    void idleLoopEnter(Cpu &c, int64_t &now);
    void idleExit(Cpu &c, int64_t &now);
    void runSoftirqs(Cpu &c, int64_t &now);
    void runTimerSoftirq(Cpu &c, int64_t &now);
    bool enqueueWheel(Cpu &c, int64_t now, int timer, uint64_t expires, bool emit, uint8_t flags, int source);
    void fireWheel(Cpu &c, int64_t &now, int timer, uint64_t j, uint64_t baseclk);
    void armSleeper(Cpu &c, Task &task, int64_t now, int64_t soft, int64_t slack, uint8_t mode);

    const Scenario &sc_;
    const KernelConfig &k_;
    Platform pf_;
    Rng rng_;
    Trace &trace_;
    GroundTruth &gt_;
    TraceEmitter em_;
    int64_t tickNs_;
    int64_t start_, end_;
    std::vector<Cpu> cpus_;
    std::vector<Task> tasks_;
    std::vector<Hrtimer> hr_;
    std::vector<WheelTimer> wt_;
    std::vector<std::vector<int64_t>> irqTimes_; // per IrqSpec
    std::priority_queue<Ev, std::vector<Ev>, std::greater<>> heap_;
    uint64_t seq_ = 0;
    uint64_t hrSeq_ = 0;
    uint32_t fnTick_, fnWakeup_, fnTimer_, fnVmstat_;
    std::vector<uint32_t> irqNames_;
    bool anyNohzFull_ = false;
    // twice the estimate: a run past it has an estimate that is wrong, not a big input
    uint64_t maxEvents_ = 0;
};

} // namespace tickscope::sim
