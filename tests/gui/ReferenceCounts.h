// SPDX-License-Identifier: GPL-3.0-or-later
// Figures counted without tickscope, for the panel tests to check the panels' numbers against: the events
// of `trace-cmd report` (the reference reader) and what they say about a CPU by the kernel's rules, the
// kernel lab's ticks.csv, and the calls of a function_graph paste. Nothing here calls tickscope's
// importers or analysis.
#pragma once

#include "GuiTestUtil.h"

#include <QFile>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace tickscope::test {

inline bool haveTraceCmd()
{
    return !QStandardPaths::findExecutable(QStringLiteral("trace-cmd")).isEmpty();
}

// One record of `trace-cmd report -t` (the reference reader, not tickscope's importer): its CPU, the pid
// of its task, the time in ns, the event name and the printed fields.
struct RefEvent
{
    int cpu = -1;
    int32_t pid = -1;
    int64_t ts = 0;
    std::string name, fields;
};

// `trace-cmd report -t [extra] tests/data/NAME`, parsed: "COMM-PID [CPU] [FLAGS] SEC.NSEC: NAME: FIELDS".
inline std::vector<RefEvent> traceCmdReport(const char *name, const QStringList &extra = {})
{
    const tickscope::test::ProgramRun r =
        tickscope::test::runProgram(QStandardPaths::findExecutable(QStringLiteral("trace-cmd")),
                                    QStringList{QStringLiteral("report"), QStringLiteral("-t")} + extra +
                                        QStringList{QStringLiteral(TICKSCOPE_TEST_DATA "/") + name});
    std::vector<RefEvent> out;
    if (r.exit != 0) return out;
    std::istringstream in(r.out.toStdString());
    for (std::string line; std::getline(in, line);) {
        const size_t open = line.find(" [");
        const size_t dash = line.rfind('-', open);
        if (open == std::string::npos || dash == std::string::npos) continue;
        RefEvent e;
        e.pid = static_cast<int32_t>(std::strtol(line.c_str() + dash + 1, nullptr, 10));
        std::istringstream rest(line.substr(open + 1));
        std::string cpuTag, stamp;
        rest >> cpuTag >> stamp;
        if (!stamp.empty() && stamp.back() != ':') rest >> stamp; // (a flags column)
        rest >> e.name;
        if (cpuTag.size() < 3 || stamp.size() < 2 || stamp.back() != ':' || e.name.size() < 2 ||
            e.name.back() != ':')
            continue;
        e.name.pop_back();
        e.cpu = std::atoi(cpuTag.c_str() + 1);
        const size_t dot = stamp.find('.');
        std::string frac = stamp.substr(dot + 1, stamp.size() - dot - 2);
        frac.resize(9, '0');
        e.ts = std::stoll(stamp.substr(0, dot)) * 1'000'000'000 + std::stoll(frac);
        std::getline(rest, e.fields);
        e.fields.erase(0, e.fields.find_first_not_of(' '));
        out.push_back(std::move(e));
    }
    return out;
}

// The value at rank ceil(p/100 * n) of the sorted values (nearest rank), as µs with one decimal.
inline QString nearestRankUs(std::vector<int64_t> v, int p)
{
    if (v.empty()) return QString();
    std::sort(v.begin(), v.end());
    const size_t rank = (static_cast<size_t>(p) * v.size() + 99) / 100;
    return QString::number(static_cast<double>(v[std::max<size_t>(rank, 1) - 1]) / 1e3, 'f', 1);
}

// What `trace-cmd report` of a trace says about one CPU over [from, to], counted by the kernel's rules
// rather than tickscope's analysis. A tick is an expiry of the tick hrtimer (tick_sched_timer on these
// 6.1 kernels) that re-armed it (an hrtimer_start of tick_sched_timer before the interrupt's exit; one
// that does not is a wakeup of the stopped tick). It interrupted user mode when context tracking left user
// mode (user_exit) right before the interrupt's local_timer_entry, polling idle when the idle task ran and
// the CPU's last cpu_idle was state=0 (the poll state).
struct RefCpu
{
    uint64_t ticks = 0, user = 0, polling = 0;
    uint64_t failedStops = 0, stopsInTask = 0; // tick_stop success=0; success=1 while a task ran
    uint64_t wakeups = 0;                      // hrtimer_wakeup expiries
    std::vector<int64_t> latencyNs;            // such an expiry -> the switch into the task it woke
    int64_t timerSoftirqMaxNs = 0;             // TIMER softirqs entered in the window: the longest
};

inline RefCpu countRef(const std::vector<RefEvent> &events, int cpu, int64_t from = INT64_MIN,
                       int64_t to = INT64_MAX)
{
    RefCpu r;
    std::string last; // the previous event's name on the CPU
    bool fromUser = false, polling = false, inTick = false, tickUser = false, tickIdle = false;
    int64_t tickTs = 0, wakeupTs = 0, softirqTs = -1;
    bool inWakeup = false;
    std::map<int32_t, int64_t> woken; // pid -> its expiry's time, until it is switched in
    auto in = [&](int64_t t) { return t >= from && t <= to; };
    for (const RefEvent &e : events) {
        if (e.name == "sched_switch") { // (on any CPU: the woken task is switched in where it runs)
            const size_t arrow = e.fields.find("==> ");
            const size_t colon = e.fields.rfind(':', e.fields.find(" [", arrow));
            const auto next = static_cast<int32_t>(std::strtol(e.fields.c_str() + colon + 1, nullptr, 10));
            if (const auto w = woken.find(next); w != woken.end()) {
                r.latencyNs.push_back(e.ts - w->second);
                woken.erase(w);
            }
        }
        if (e.cpu != cpu) continue;
        if (e.name == "cpu_idle") {
            polling = e.fields.rfind("state=0 ", 0) == 0;
        } else if (e.name == "local_timer_entry") {
            fromUser = last == "user_exit";
        } else if (e.name == "hrtimer_expire_entry" &&
                   e.fields.find("function=tick_sched_timer") != std::string::npos) {
            inTick = true;
            tickTs = e.ts;
            tickIdle = e.pid == 0;
            tickUser = !tickIdle && fromUser;
        } else if (e.name == "hrtimer_start" && inTick &&
                   e.fields.find("function=tick_sched_timer") != std::string::npos) {
            inTick = false; // re-armed: a periodic tick
            if (in(tickTs)) {
                ++r.ticks;
                r.user += tickUser;
                r.polling += tickIdle && polling;
            }
        } else if (e.name == "local_timer_exit") {
            inTick = false;
        } else if (e.name == "tick_stop" && in(e.ts)) {
            if (e.fields.rfind("success=0", 0) == 0)
                ++r.failedStops;
            else
                r.stopsInTask += e.pid != 0;
        } else if (e.name == "hrtimer_expire_entry" &&
                   e.fields.find("function=hrtimer_wakeup") != std::string::npos) {
            inWakeup = in(e.ts);
            wakeupTs = e.ts;
            r.wakeups += inWakeup;
        } else if (e.name == "hrtimer_expire_exit") {
            inWakeup = false;
        } else if (e.name == "sched_waking" && inWakeup) {
            const size_t pid = e.fields.find(" pid=");
            woken[static_cast<int32_t>(std::strtol(e.fields.c_str() + pid + 5, nullptr, 10))] = wakeupTs;
        } else if (e.name == "softirq_entry" && e.fields.find("[action=TIMER]") != std::string::npos) {
            softirqTs = in(e.ts) ? e.ts : -1;
        } else if (e.name == "softirq_exit" && e.fields.find("[action=TIMER]") != std::string::npos) {
            if (softirqTs >= 0) r.timerSoftirqMaxNs = std::max(r.timerSoftirqMaxNs, e.ts - softirqTs);
            softirqTs = -1;
        }
        last = e.name;
    }
    return r;
}

// The first and the last print marker of `trace-cmd report`.
inline std::pair<int64_t, int64_t> refMarkers(const std::vector<RefEvent> &events)
{
    std::pair<int64_t, int64_t> m{-1, -1};
    for (const RefEvent &e : events) {
        if (e.name != "print") continue;
        if (m.first < 0) m.first = e.ts;
        m.second = e.ts;
    }
    return m;
}

// The kernel lab's list of CPU 1's ticks between the markers (tests/data/NAME.ticks.csv, written by its
// own script from the trace, not by tickscope): all of them, and those that interrupted userspace.
struct LabTicks
{
    uint64_t all = 0, user = 0;
};
inline LabTicks labTicks(const char *csvName)
{
    std::ifstream csv(std::string(TICKSCOPE_TEST_DATA "/") + csvName);
    LabTicks t;
    std::string line;
    if (!std::getline(csv, line) || line.rfind("timestamp,cpu,context,", 0) != 0) return t;
    while (std::getline(csv, line)) {
        if (line.empty()) continue;
        ++t.all;
        t.user += line.find(",1,user,") != std::string::npos;
    }
    return t;
}

// The calls of a function_graph paste (tests/data/text/NAME), read here: "CPU) [MARK] DURATION us |
// NAME();" per line. Per function: the calls, the longest (as the paste writes it) and the calls at least
// `longNs` long; the same per CPU, by CPU number.
struct PastedCalls
{
    struct Cpu
    {
        int calls = 0;
        double maxUs = -1;
        QString maxText;
    };
    Cpu all;
    int atLeast = 0;
    std::map<int, Cpu> cpus;
};
inline std::map<QString, PastedCalls> pastedCalls(const char *name, int64_t longNs)
{
    QFile f(QStringLiteral(TICKSCOPE_TEST_DATA "/") + QLatin1String(name));
    std::map<QString, PastedCalls> out;
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return out;
    const QRegularExpression call(
        QStringLiteral(R"(^\s*(\d+)\)\s*[-+!#*@$]?\s*([0-9.]+) us\s*\|\s*(\w+)\(\);$)"));
    while (!f.atEnd()) {
        const QRegularExpressionMatch m = call.match(QString::fromUtf8(f.readLine()).trimmed());
        if (!m.hasMatch()) continue;
        PastedCalls &p = out[m.captured(3)];
        const double us = m.captured(2).toDouble();
        p.atLeast += us * 1e3 >= static_cast<double>(longNs);
        for (PastedCalls::Cpu *c : {&p.all, &p.cpus[m.captured(1).toInt()]}) {
            ++c->calls;
            if (us > c->maxUs) {
                c->maxUs = us;
                c->maxText = m.captured(2);
            }
        }
    }
    return out;
}

} // namespace tickscope::test
