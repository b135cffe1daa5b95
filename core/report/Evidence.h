// SPDX-License-Identifier: GPL-3.0-or-later
// What a trace can tell: for each report figure, whether the trace measured it, whether it was inferred
// (and from what), or whether the events it needs are not in the trace. A figure that is not recorded is
// never printed as 0: the text prints "–" with a footnote naming the missing events, JSON gives null and
// an entry under "evidence", the mail form leaves its line out.
//
// "Recorded" means "the trace holds at least one event of the kind": neither trace.dat nor ftrace text
// says which events were enabled, so an event that was enabled and never fired (a tick_stop on a CPU that
// never tried to stop its tick) looks the same as one that was not enabled. The footnotes say "the trace
// holds no ... event", which is true either way.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tickscope {

class TickAnalysis;
class Trace;
class EventRoles;

enum class Figure : uint8_t
{
    Ticks,         // periodic ticks and the nohz wakeups
    TickMode,      // user / kernel split of the ticks in a task
    TickIdle,      // ticks in the idle task
    TickPolling,   // ticks while polling idle (told from other idle by cpu_idle state 0)
    TickStopped,   // time the tick was stopped
    NohzWakeups,   // expiries of the stopped tick
    FailedStops,   // tick stops that failed, by dependency
    TimerSoftirqs, // TIMER softirqs and the long softirqs
    Catchups,      // catch-up TIMER softirqs: the timers' callback time
    Wakeups,       // hrtimer_wakeup expiries, bursts
    WakeupLateness,
    WakeupLatency,
    TickLateness,
    OtherLateness,
    Count
};
constexpr size_t kFigureCount = static_cast<size_t>(Figure::Count);

enum class EvidenceStatus : uint8_t
{
    Measured,
    Inferred,
    NotRecorded
};

struct FigureEvidence
{
    EvidenceStatus status = EvidenceStatus::Measured;
    // Inferred: what it was inferred from. Not recorded: the events that would record it ("timer:tick_stop").
    std::string basis;
    // Not recorded: the events (system:event) that would record it, for the record hint.
    std::vector<std::string> missing;
};

struct Evidence
{
    std::array<FigureEvidence, kFigureCount> figures{};
    // Syscall, context-tracking or user page-fault events: a task's user/kernel mode is known (the state
    // lanes too, not only the ticks' split).
    bool modesRecorded = true;

    const FigureEvidence &of(Figure f) const { return figures[static_cast<size_t>(f)]; }
    bool recorded(Figure f) const { return of(f).status != EvidenceStatus::NotRecorded; }
    bool inferred(Figure f) const { return of(f).status == EvidenceStatus::Inferred; }
    bool complete() const; // every figure measured
    // The events that would record every figure not recorded (system:event, sorted, each once).
    std::vector<std::string> missingEvents() const;
    // "trace-cmd record -e A -e B ..." and "tickscope-cli capture --events A,B" for missingEvents() ("" when
    // none is missing).
    std::string traceCmdLine() const;
    std::string captureLine() const;
    // The figures not recorded grouped by reason, in figure order: (reason, "figure, figure, ...").
    std::vector<std::pair<std::string, std::string>> notRecordedReasons() const;

    // The evidence of a loaded (or streamed) trace's analysis; roles: the trace's event types.
    static Evidence of(const Trace &trace, const EventRoles &roles, const TickAnalysis &analysis);
};

// What the trace can tell, for a reader (the GUI's dialog): the measured figures, each inferred one with
// what it was inferred from, each reason some are not recorded, and the recording that would give the rest.
std::string formatEvidenceText(const Evidence &e);

// The JSON key and the words of a figure ("ticks", "tick-stopped time").
const char *figureKey(Figure f);
const char *figureWords(Figure f);

} // namespace tickscope
