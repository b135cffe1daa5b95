// SPDX-License-Identifier: GPL-3.0-or-later
#include "CpuPass.h"

#include <algorithm>

namespace tickscope {

namespace {

constexpr uint8_t kHrtimerSoftirq = 8;
constexpr uint8_t kFlagHardirq = 0x08; // TRACE_FLAG_HARDIRQ in common_flags
constexpr uint8_t kFlagSoftirq = 0x10; // TRACE_FLAG_SOFTIRQ

TickContext contextOf(TaskState s)
{
    // Unknown, User, Kernel, IdleTask, Idle, Poll
    static constexpr TickContext kContext[] = {TickContext::Unknown, TickContext::User, TickContext::Kernel,
                                               TickContext::Idle,    TickContext::Idle, TickContext::Polling};
    return kContext[static_cast<size_t>(s)];
}

uint8_t hardIrqKind(Role r)
{
    const HardIrqKind k = r == Role::LocalTimerEntry || r == Role::LocalTimerExit   ? HardIrqKind::LocalTimer
                          : r == Role::IrqHandlerEntry || r == Role::IrqHandlerExit ? HardIrqKind::Device
                                                                                    : HardIrqKind::Vector;
    return static_cast<uint8_t>(k);
}

bool isIrqEntry(Role r)
{
    return r == Role::LocalTimerEntry || r == Role::IrqHandlerEntry || r == Role::VectorEntry ||
           r == Role::SoftirqEntry;
}

} // namespace

CpuPass::CpuPass(const Trace &trace, const EventRoles &roles, int cpu, CpuAnalysis &out)
    : trace_(trace), roles_(roles), ev_(trace.cpu(cpu)), out_(out), tick_(roles, trace.strings, out),
      timers_(out.timers, roles), unknown_(out)
{
    out_.cpu = cpu;
}

void CpuPass::run()
{
    start(ev_.size());
    advance();
    finish();
}

void CpuPass::start(size_t capacity)
{
    out_.task.reset(capacity);
    out_.irq.reset(capacity);
    // The timer part keeps a record per hrtimer expiry and switch: reserve address space for the
    // worst case once (Column: pages are only touched as records arrive, no copy on growth; huge pages
    // on big CPUs: a page fault per 4 KiB costs more than the records written into it).
    const bool huge = capacity >= (size_t{1} << 20);
    out_.timers.wakeups.reserve(capacity, huge);
    out_.timers.otherLateness.reserve(capacity);
    out_.timers.switches.reserve(capacity);
}

void CpuPass::addMigrations(const std::vector<Migration> &moves)
{
    // (the ones before the events taken are passed even if migrationAt() was not asked: a kernel thread's)
    while (migrationsNext_ < migrations_.size() && migrations_[migrationsNext_].index < next_)
        ++migrationsNext_;
    if (migrationsNext_ > 0 && migrationsNext_ * 2 >= migrations_.size()) { // drop the ones passed
        migrations_.erase(migrations_.begin(),
                          migrations_.begin() + static_cast<std::ptrdiff_t>(migrationsNext_));
        migrationsNext_ = 0;
    }
    migrations_.insert(migrations_.end(), moves.begin(), moves.end());
}

const Migration *CpuPass::migrationAt(size_t i)
{
    while (migrationsNext_ < migrations_.size() && migrations_[migrationsNext_].index < i)
        ++migrationsNext_;
    return migrationsNext_ < migrations_.size() && migrations_[migrationsNext_].index == i
               ? &migrations_[migrationsNext_]
               : nullptr;
}

void CpuPass::advance(size_t upTo)
{
    const size_t n = std::min(ev_.size(), upTo);
    if (next_ >= n) return;
    // Lost-event ranges: the first event after each gap restarts the state machine. The ranges come in
    // the order of the pages; the first event after a gap is at or after the events already seen.
    for (; lostSeen_ < ev_.lost.size(); ++lostSeen_) {
        if (ev_.opensData(lostSeen_)) continue;
        const size_t g = ev_.firstAfterLost(lostSeen_, next_ ? next_ - 1 : 0); // (events before may be gone)
        if (g > 0 && g < ev_.size() && g >= next_) gaps_.push_back(g);         // (taken once reached)
    }
    std::sort(gaps_.begin() + static_cast<std::ptrdiff_t>(nextGap_), gaps_.end());
    gaps_.erase(std::unique(gaps_.begin() + static_cast<std::ptrdiff_t>(nextGap_), gaps_.end()), gaps_.end());

    for (CpuEvents::Cursor c(ev_, next_); c.valid() && c.index() < n; c.next()) {
        const size_t i = c.index();
        ts_ = c.ts();
        const Role role = roles_.role(ev_.type(i));
        if (i == 0) {
            begin(0, c.pid());
        } else if (nextGap_ < gaps_.size() && gaps_[nextGap_] == i) {
            onGap(i, c.pid());
            ++nextGap_;
        }
        event(c, i, role);
    }
    next_ = n;
    gaps_.erase(gaps_.begin(), gaps_.begin() + static_cast<std::ptrdiff_t>(nextGap_));
    nextGap_ = 0;
    unknown_.compact(tasks_);
}

void CpuPass::finish()
{
    if (next_ == 0) return;
    unknown_.finish();
    tick_.finish();
    timers_.finish();
    out_.task.finish(ev_.size());
    out_.irq.finish(ev_.size());
}

void CpuPass::begin(size_t i, int32_t pid)
{
    out_.irq.set(i, StateCode::irq(IrqState::None));
    irqCode_ = StateCode::irq(IrqState::None);
    irqResetChange_ = out_.irq.changes() - 1;
    irqSinceReset_ = false;
    tick_.begin(i);
    switchIn(i, pid, false);
}

void CpuPass::onGap(size_t g, int32_t pid)
{
    ++out_.evidence.gaps;
    unknown_.close();
    // Unknown over the gap (from the last event before it), then a fresh start at the first event after.
    out_.task.set(g - 1, StateCode::task(TaskState::Unknown, StateCode::kDetailLost));
    out_.irq.set(g - 1, StateCode::irq(IrqState::Unknown, StateCode::kDetailLost));
    tick_.gap(g - 1, g);
    timers_.gap();
    taskCode_ = StateCode::task(TaskState::Unknown, StateCode::kDetailLost);
    taskState_ = TaskState::Unknown;
    depth_ = 0;
    savedCount_ = 0;
    out_.irq.set(g, StateCode::irq(IrqState::None));
    irqCode_ = StateCode::irq(IrqState::None);
    irqResetChange_ = out_.irq.changes() - 1;
    irqSinceReset_ = false;
    tasks_.newGeneration();
    faultOpen_ = idleUnknown_ = pollExited_ = prevIdleExit_ = false;
    prevRole_ = Role::Other;
    switchIn(g, pid, false);
}

void CpuPass::event(const CpuEvents::Cursor &c, size_t i, Role role)
{
    const bool rearm = tick_.beforeEvent(c, role, ts_);
    const int32_t pid = c.pid();
    if (pid != curr_) { // a switch the trace did not show
        out_.timers.switches.push_back({static_cast<uint32_t>(i), pid});
        switchIn(i, pid, false);
    }
    if (faultOpen_ && depth_ == 0 && role != Role::SchedSwitch && !isIrqEntry(role)) {
        faultOpen_ = false; // the user page fault is over at the task's next event
        setTask(i, TaskState::User);
    }
    bool idleExit = false;
    switch (role) {
    case Role::SysEnter:
        syscallsSeen_ = true;
        resolveMode(TaskState::User);
        if (currKernelThread_) { // a user task after all (its name looked like a kernel thread's)
            currKernelThread_ = false;
            tasks_.get(curr_).kernelThread = 0;
        }
        setTask(i, TaskState::Kernel);
        break;
    case Role::SysExit:
        syscallsSeen_ = true;
        resolveMode(TaskState::Kernel);
        if (!ctActive_) setTask(i, TaskState::User); // with context tracking, user_enter says it
        break;
    case Role::UserEnter:
        ctActive_ = true;
        ++out_.evidence.contextTracking;
        resolveMode(TaskState::Kernel);
        setTask(i, TaskState::User);
        break;
    case Role::UserExit:
        ctActive_ = true;
        ++out_.evidence.contextTracking;
        resolveMode(TaskState::User);
        setTask(i, TaskState::Kernel);
        break;
    case Role::PageFaultUser:
        resolveMode(TaskState::User);
        if (!ctActive_) {
            setTask(i, TaskState::Kernel);
            faultOpen_ = true;
        }
        break;
    case Role::SchedSwitch: {
        const auto p = c.payload<SchedSwitchP>();
        out_.evidence.switchesIntoIdle += p.nextPid == 0;
        out_.evidence.switchesOutOfIdle += p.prevPid == 0;
        out_.timers.switches.push_back({static_cast<uint32_t>(i), p.nextPid});
        onSwitch(i, p);
        break;
    }
    case Role::CpuIdle: {
        const uint32_t state = c.payload<CpuIdleP>().state;
        idleExit = state == kCpuIdleExit;
        onCpuIdle(i, state);
        break;
    }
    case Role::IrqHandlerEntry:
        // the per-CPU timer of an architecture without irq_vectors (arch_timer, twd, ...): the tick's
        if (roles_.isTimerIrqName(c.payload<IrqEntryP>().name)) {
            irqEntry(i, IrqState::HardIrq, static_cast<uint8_t>(HardIrqKind::LocalTimer));
            break;
        }
        irqEntry(i, IrqState::HardIrq, hardIrqKind(role));
        break;
    case Role::LocalTimerEntry:
    case Role::VectorEntry:
        irqEntry(i, IrqState::HardIrq, hardIrqKind(role));
        break;
    case Role::LocalTimerExit:
    case Role::IrqHandlerExit:
    case Role::VectorExit:
        irqExit(i, IrqState::HardIrq, hardIrqKind(role));
        break;
    case Role::SoftirqEntry: {
        const uint8_t vec = c.payload<SoftirqP>().vec;
        timers_.onSoftirqEntry(i, ts_, vec);
        if (vec == kHrtimerSoftirq) timers_.onHrtimerSoftirqBegin(pid);
        irqEntry(i, IrqState::SoftIrq, vec);
        break;
    }
    case Role::SoftirqExit: {
        const uint8_t vec = c.payload<SoftirqP>().vec;
        timers_.onSoftirqExit(i, ts_, vec);
        if (vec == kHrtimerSoftirq) timers_.onHrtimerSoftirqEnd(pid);
        irqExit(i, IrqState::SoftIrq, vec);
        break;
    }
    case Role::HrtimerStart: {
        const auto p = c.payload<HrtimerStartP>();
        tick_.onStart(i, p, rearm);
        break;
    }
    case Role::HrtimerCancel:
        tick_.onCancel(i, ts_, c.payload<PtrP>().ptr);
        break;
    case Role::HrtimerExpireEntry: {
        const auto p = c.payload<HrtimerExpireEntryP>();
        // a raw text (`trace-cmd report -R`) prints the callback as an address: which one ran is unknown
        if (trace_.strings.str(p.function).starts_with("0x")) ++out_.evidence.unnamedExpiries;
        const bool tick = tick_.isTickExpiry(p);
        if (tick) {
            if (out_.tickLane.state() == TickState::Running) timers_.onTickRunning();
            onTickExpiry(i);
        }
        const uint8_t flags = ev_.flags(i);
        if (flags & (kFlagHardirq | kFlagSoftirq)) flagsSeen_ = true;
        const CtxLevel lv = level(flags);
        // Without flags, soft needs the task's own HRTIMER span (vec 8); another vector says nothing.
        const int soft =
            lv == CtxLevel::Hard                                                                   ? 0
            : lv == CtxLevel::Soft && (flagsSeen_ || stack_[depth_ - 1].detail == kHrtimerSoftirq) ? 1
                                                                                                   : -1;
        timers_.onHrtimerExpireEntry(i, ts_, p, tick, pid, lv, soft);
        break;
    }
    case Role::HrtimerExpireExit:
        timers_.onHrtimerExpireExit(pid, level(ev_.flags(i)));
        tick_.onExpiryExit(c.payload<PtrP>().ptr);
        break;
    case Role::TickStop: {
        const auto p = c.payload<TickStopP>();
        if (p.success) timers_.onTickStop(ts_);
        tick_.onTickStop(i, p, curr_ > 0);
        break;
    }
    case Role::TimerExpireEntry:
        timers_.onTimerExpireEntry(ts_, c.payload<TimerExpireEntryP>());
        break;
    case Role::TimerExpireExit:
        timers_.onTimerExpireExit(ts_, c.payload<PtrP>().ptr);
        break;
    case Role::SchedWaking:
    case Role::SchedWakeup:
        timers_.onWake(i, c.payload<SchedWakeP>(), pid, level(ev_.flags(i)));
        break;
    case Role::Print:
        if (out_.firstPrint == npos) out_.firstPrint = i;
        out_.lastPrint = i;
        break;
    case Role::Other:
        break;
    }
    prevRole_ = role;
    prevIdleExit_ = idleExit;
}

// ---- task lane ------------------------------------------------------------------------------------------

void CpuPass::setTask(size_t i, TaskState s, unsigned detail)
{
    const uint8_t code = StateCode::task(s, detail);
    taskState_ = s;
    if (code == taskCode_) return;
    out_.task.set(i, code);
    taskCode_ = code;
}

void CpuPass::relabelTask(size_t change, uint8_t code)
{
    out_.task.relabel(change, code);
    if (change + 1 == out_.task.changes()) {
        taskCode_ = code;
        taskState_ = StateCode::taskState(code);
    }
}

void CpuPass::switchIn(size_t i, int32_t pid, bool scheduled)
{
    unknown_.close(); // a switch the trace did not show: nothing known about how it left
    faultOpen_ = false;
    idleUnknown_ = false;
    curr_ = pid;
    for (unsigned k = 0; k < savedCount_; ++k) {
        if (saved_[k].pid != pid) continue;
        if (depth_ == 0) { // it resumes the softirq it was preempted in
            stack_[depth_++] = saved_[k].frame;
            setIrq(i);
        }
        saved_[k] = saved_[--savedCount_];
        break;
    }
    currKernelThread_ = false;
    if (pid == 0) {
        setTask(i, TaskState::IdleTask);
        // Not switched in before our eyes: the CPU may be inside a cpuidle state already.
        idleUnknown_ = !scheduled && out_.task.lastIndex() == i;
        idleUnknownChange_ = out_.task.changes() - 1;
        return;
    }
    TaskModeTable::Task &t = tasks_.get(pid);
    if (t.kernelThread < 0) {
        const uint32_t comm = trace_.tasks.comm(pid, ts_);
        t.kernelThread = isKernelThreadComm(trace_.strings.str(comm)) ? 1 : 0;
    }
    if (t.kernelThread == 1) {
        currKernelThread_ = true;
        setTask(i, TaskState::Kernel);
        return;
    }
    SavedMode m = SavedMode::Unknown;
    if (scheduled) m = ctActive_ ? SavedMode::Kernel : t.saved;
    // The mode the task left this CPU in is stale once it has left another CPU since: unknown here, it
    // comes from the CPU it left (CrossCpuModes: a task that slept there wakes in the kernel, one preempted
    // there resumes in the mode it had) unless a syscall here tells first (a task asleep in a user page
    // fault goes back to user mode). A stretch of unknown mode it left here it continues (a mode found
    // later tells the earlier stretches too) only if it showed no mode, took no page fault and did not
    // sleep since it left: else what it shows later tells nothing of the time before.
    // A task that may have run unseen (lost events) since it was last seen takes its mode from neither.
    const Migration *moved = scheduled && !ctActive_ ? migrationAt(i) : nullptr;
    bool continues = scheduled;
    if (moved) {
        continues = m == SavedMode::Unknown && moved->changed < t.leftAt && !moved->unseen;
        m = SavedMode::Unknown;
    }
    switch (m) {
    case SavedMode::User:
        setTask(i, TaskState::User);
        return;
    case SavedMode::KernelFault:
        faultOpen_ = true;
        [[fallthrough]];
    case SavedMode::Kernel:
        setTask(i, TaskState::Kernel);
        return;
    case SavedMode::Unknown:
        break;
    }
    // A change of its own even after another unknown task, so that resolving it relabels only its time.
    taskCode_ = StateCode::task(TaskState::Unknown);
    taskState_ = TaskState::Unknown;
    out_.task.set(i, taskCode_);
    unknown_.open(i, pid, scheduled,
                  moved && moved->unseen ? PendingMode::kLost
                  : continues            ? t.unknownStretch
                                         : -1);
    t.unknownStretch = -1;
}

void CpuPass::onSwitch(size_t i, const SchedSwitchP &p)
{
    if (curr_ > 0) {
        const bool runnable = (p.prevState & 0xff) == 0; // preempted or yielding: resumes where it was
        // A task that sleeps without a syscall seen since its mode became unknown was in the kernel.
        if (!runnable && syscallsSeen_) resolveMode(TaskState::Kernel);
        SavedMode m = SavedMode::Kernel; // a sleeping task sleeps in the kernel
        if (faultOpen_)
            m = SavedMode::KernelFault;
        else if (runnable)
            m = taskState_ == TaskState::User     ? SavedMode::User
                : taskState_ == TaskState::Kernel ? SavedMode::Kernel
                                                  : SavedMode::Unknown;
        const int32_t stretch = unknown_.close();
        TaskModeTable::Task &t = tasks_.get(curr_);
        t.saved = m;
        t.leftAt = ts_;
        t.unknownStretch = m == SavedMode::Unknown ? stretch : -1;
    }
    if (depth_) { // hard interrupts never span a switch (their exits were lost); softirqs may (RT)
        saveSoftirq();
        if (hardOpen()) timers_.onHardIrqEnd();
        depth_ = 0;
        setIrq(i);
    }
    const bool fromIdle = curr_ == 0;
    pollExited_ = false;
    switchIn(i, p.nextPid, true);
    // Low-res fallback: no tick hrtimer to tell, and idle exit restarts a stopped tick (not on
    // nohz_full 5.14+).
    if (fromIdle && p.nextPid != 0) tick_.onIdleExitToTask(i);
}

void CpuPass::resolveMode(TaskState was)
{
    if (!unknown_.active() || unknown_.pid() != curr_) return;
    unknown_.resolve(was);
    taskCode_ = out_.task.lastCode();
    taskState_ = StateCode::taskState(taskCode_);
}

void CpuPass::onCpuIdle(size_t i, uint32_t state)
{
    if (state == kCpuIdleExit) {
        if (taskState_ == TaskState::Idle || taskState_ == TaskState::Poll) {
            exited_ = taskState_;
            pollExited_ = taskState_ == TaskState::Poll;
            setTask(i, TaskState::IdleTask);
        } else if (idleUnknown_) { // the trace started inside a cpuidle state (which one is not known)
            relabelTask(idleUnknownChange_, StateCode::task(TaskState::Idle, StateCode::kDetailUnknown));
            exited_ = TaskState::Idle;
            setTask(i, TaskState::IdleTask);
        }
        idleUnknown_ = false;
        return;
    }
    idleUnknown_ = false;
    if (state == 0) {
        ++out_.evidence.pollEnters;
        setTask(i, TaskState::Poll);
    } else {
        ++out_.evidence.deeperEnters;
        if (pollExited_)
            ++out_.evidence.pollReselects; // the POLL state hit its limit, the governor went deeper
        setTask(i, TaskState::Idle, state);
    }
    pollExited_ = false;
}

// ---- IRQ lane -------------------------------------------------------------------------------------------

TickContext CpuPass::interrupted() const
{
    if (depth_) return TickContext::Irq;
    if (prevRole_ == Role::UserExit) return TickContext::User; // user_exit -> IRQ entry: from user mode
    if (prevIdleExit_ && exited_ == TaskState::Idle)
        return TickContext::Idle; // IRQ after the idle-exit record
    return contextOf(taskState_);
}

bool CpuPass::wakesFromIdle() const
{
    // Both orders occur: the IRQ before the exit record (sti;hlt: nested in the idle state), or
    // after it (states entered with IRQs off: the exit record comes first, the IRQ right after).
    return depth_ == 0 && (taskState_ == TaskState::Idle || (prevIdleExit_ && exited_ == TaskState::Idle));
}

void CpuPass::irqEntry(size_t i, IrqState s, uint8_t detail)
{
    const TickContext ctx = interrupted();
    const bool woke = wakesFromIdle();
    if (s == IrqState::HardIrq && !hardOpen()) timers_.onHardIrqBegin();
    irqSinceReset_ = true;
    if (depth_ < kMaxDepth) stack_[depth_++] = {s, detail, ctx, woke};
    setIrq(i);
    if (s == IrqState::HardIrq && detail == static_cast<uint8_t>(HardIrqKind::LocalTimer) && !tick_.known()) {
        const auto flags =
            static_cast<uint8_t>(tick_.flags() | TickFlag::LocalTimer | (woke ? TickFlag::WokeFromIdle : 0));
        out_.localTimerTicks.push_back({static_cast<uint32_t>(i), ctx, flags});
    }
}

void CpuPass::irqExit(size_t i, IrqState s, uint8_t detail)
{
    unsigned k = depth_;
    while (k > 0 && stack_[k - 1].state != s)
        --k;
    if (k > 0) {
        const bool hard = hardOpen();
        depth_ = k - 1;
        if (hard && !hardOpen()) timers_.onHardIrqEnd();
        setIrq(i);
        return;
    }
    ++out_.evidence.unmatchedExits;
    if (!irqSinceReset_ && depth_ == 0) { // the trace (or the data after a gap) started inside it
        const uint8_t code = StateCode::irq(s, detail);
        out_.irq.relabel(irqResetChange_, code);
        if (irqResetChange_ + 1 == out_.irq.changes()) irqCode_ = code;
        irqSinceReset_ = true;
        setIrq(i);
    }
}

void CpuPass::setIrq(size_t i)
{
    const uint8_t code = depth_ ? StateCode::irq(stack_[depth_ - 1].state, stack_[depth_ - 1].detail)
                                : StateCode::irq(IrqState::None);
    if (code == irqCode_) return;
    out_.irq.set(i, code);
    irqCode_ = code;
}

CtxLevel CpuPass::level(uint8_t flags) const
{
    if (flagsSeen_)
        return flags & kFlagHardirq ? CtxLevel::Hard : flags & kFlagSoftirq ? CtxLevel::Soft : CtxLevel::Task;
    return depth_ == 0 ? CtxLevel::Task : hardOpen() ? CtxLevel::Hard : CtxLevel::Soft;
}

void CpuPass::saveSoftirq()
{
    // The outermost frame, when it is a softirq: the task was preempted inside it (PREEMPT_RT runs
    // softirqs in preemptible threads). A task in the list already: its old span lost its exit.
    if (curr_ < 0 || stack_[0].state != IrqState::SoftIrq) return;
    for (unsigned k = 0; k < savedCount_; ++k) {
        if (saved_[k].pid == curr_) {
            saved_[k].frame = stack_[0];
            return;
        }
    }
    if (savedCount_ == saved_.size()) saved_[0] = saved_[--savedCount_]; // drop one stale span
    saved_[savedCount_++] = {curr_, stack_[0]};
}

void CpuPass::onTickExpiry(size_t i)
{
    // The context is what the enclosing timer interrupt interrupted; without irq_vectors events, the
    // state at the expiry itself.
    TickContext ctx = interrupted();
    bool woke = wakesFromIdle();
    if (depth_) {
        const IrqFrame &top = stack_[depth_ - 1];
        ctx = top.state == IrqState::HardIrq ? top.interrupted : TickContext::Irq;
        woke = top.state == IrqState::HardIrq && top.wokeFromIdle;
    }
    tick_.onExpiry(i, ctx, woke);
}

} // namespace tickscope
