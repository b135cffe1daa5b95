// SPDX-License-Identifier: GPL-3.0-or-later
// Hand-written tracefs-format traces for analysis tests: lines appended one by one, then loaded through
// the real text importer from a temp file. Tests derive their own vocabulary (ticks, switches, ...).
#pragma once

#include "TestUtil.h"
#include "import/Loader.h"

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

namespace tickscope::test {

template <class Derived> class TextTraceBuilder
{
public:
    // One event line: "<task> [cpu] flags ts: event".
    Derived &ev(int cpu, double ts, const std::string &task, const std::string &event,
                const char *flags = ".....")
    {
        char buf[512];
        std::snprintf(buf, sizeof buf, "%22s [%03d] %s %12.6f: %s\n", task.c_str(), cpu, flags, ts,
                      event.c_str());
        text_ += buf;
        return static_cast<Derived &>(*this);
    }
    // A sched_switch from `from`-fromPid (leaving in prevState: R+, S, ...) to `to`-toPid.
    Derived &sw(int cpu, double ts, const std::string &from, int fromPid, const std::string &prevState,
                const std::string &to, int toPid)
    {
        return ev(cpu, ts, from + "-" + std::to_string(fromPid),
                  "sched_switch: prev_comm=" + from + " prev_pid=" + std::to_string(fromPid) +
                      " prev_prio=120 prev_state=" + prevState + " ==> next_comm=" + to +
                      " next_pid=" + std::to_string(toPid) + " next_prio=120",
                  "d..2.");
    }
    // tracefs's report of `count` events lost on the CPU before its next one.
    Derived &lost(int cpu, int count)
    {
        return line("CPU:" + std::to_string(cpu) + " [LOST " + std::to_string(count) + " EVENTS]");
    }
    // A line as it is: a lost-events report of another form, a comment.
    Derived &line(const std::string &l)
    {
        text_ += l + "\n";
        return static_cast<Derived &>(*this);
    }
    std::unique_ptr<Trace> load() const
    {
        const auto dir = tempDir();
        const std::string path = (dir / "trace.txt").string();
        std::ofstream(path) << "# tracer: nop\n#\n" << text_;
        return loadTrace(path);
    }

protected:
    std::string text_;
};

} // namespace tickscope::test
