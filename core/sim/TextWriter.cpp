// SPDX-License-Identifier: GPL-3.0-or-later
#include "TextWriter.h"

#include "import/Loader.h"
#include "model/EventKinds.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <queue>
#include <string>

namespace tickscope::sim {
namespace {

class Writer
{
public:
    Writer(const Trace &t, FILE *f) : t_(t), f_(f) {}

    void event(int cpu, size_t i)
    {
        const CpuEvents &ev = t_.cpu(cpu);
        const int32_t pid = ev.pid(i);
        const int64_t ts = ev.ts(i);
        std::string comm = pid == 0 ? "<idle>" : std::string(t_.strings.str(t_.tasks.comm(pid, ts)));
        if (comm.empty()) comm = "<...>";
        const uint8_t fl = ev.flags(i);
        const char resched = (fl & 0x24) == 0x24 ? 'N' : (fl & 0x04) ? 'n' : (fl & 0x20) ? 'p' : '.';
        const char flags[6] = {
            (fl & 0x01) ? 'd' : '.',
            resched,
            (fl & 0x08)   ? 'h'
            : (fl & 0x10) ? 's'
                          : '.',
            "0123456789abcdef"[ev.preempt(i) & 15] == '0' ? '.' : "0123456789abcdef"[ev.preempt(i) & 15],
            '.',
            0};
        const EventType &type = t_.types()[ev.type(i)];
        const KindSpec &spec = kinds::spec(type.kind);
        const std::string_view name = spec.textName.empty() ? std::string_view(type.name) : spec.textName;
        line_.clear();
        kinds::print(type.kind, EventView{t_, ev.payloadBytes(i), ts, ev.type(i)}, line_);
        std::fprintf(f_, "%16s-%-7d [%03d] %s %5" PRId64 ".%09" PRId64 ": %.*s: %s\n", comm.c_str(), pid, cpu,
                     flags, ts / 1000000000, ts % 1000000000, static_cast<int>(name.size()), name.data(),
                     line_.c_str());
    }

private:
    const Trace &t_;
    FILE *f_;
    std::string line_;
};

} // namespace

void writeFtraceText(const Trace &trace, const std::string &path)
{
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f) throw LoadError(path + ": " + std::strerror(errno));
    std::fprintf(f, "# tracer: nop\n#\n# entries-in-buffer/entries-written: %zu/%zu   #P:%d\n#\n",
                 trace.eventCount(), trace.eventCount(), trace.cpuCount());
    // Merge the CPUs by time, as the tracefs `trace` file does.
    struct Head
    {
        int64_t ts;
        int cpu;
        size_t i;
        bool operator>(const Head &o) const { return ts != o.ts ? ts > o.ts : cpu > o.cpu; }
    };
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heap;
    for (int c = 0; c < trace.cpuCount(); ++c) {
        if (!trace.cpu(c).empty()) heap.push({trace.cpu(c).ts(0), c, 0});
    }
    Writer w(trace, f);
    while (!heap.empty()) {
        const Head h = heap.top();
        heap.pop();
        w.event(h.cpu, h.i);
        if (h.i + 1 < trace.cpu(h.cpu).size()) heap.push({trace.cpu(h.cpu).ts(h.i + 1), h.cpu, h.i + 1});
    }
    const bool ok = std::fflush(f) == 0 && !std::ferror(f);
    std::fclose(f);
    if (!ok) throw LoadError(path + ": write failed");
}

} // namespace tickscope::sim
