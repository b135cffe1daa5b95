// SPDX-License-Identifier: GPL-3.0-or-later
#include "TraceStats.h"

#include "util/JsonWriter.h"
#include "util/Text.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace tickscope {

TraceStats TraceStats::compute(const Trace &trace)
{
    TraceStats s;
    const TraceMeta &m = trace.meta;
    s.path = m.path;
    s.format = m.format;
    s.instance = m.instance;
    s.uname = m.uname;
    s.kernelRelease = m.kernelRelease;
    s.traceClock = m.traceClock;
    s.cpuCount = trace.cpuCount();
    s.warnings = trace.warnings;
    std::vector<uint64_t> perType(trace.types().size(), 0);
    for (int c = 0; c < trace.cpuCount(); ++c) {
        const CpuEvents &ev = trace.cpu(c);
        Cpu cpu;
        cpu.cpu = c;
        cpu.events = ev.size();
        if (!ev.empty()) {
            cpu.firstTs = ev.ts(0);
            cpu.lastTs = ev.ts(ev.size() - 1);
        }
        cpu.lost = ev.lost;
        for (size_t i = 0; i < ev.size(); ++i)
            ++perType[ev.type(i)];
        s.events += cpu.events;
        s.lostRanges += ev.lost.size();
        for (const auto &l : ev.lost)
            s.lostEvents += l.count;
        s.cpus.push_back(std::move(cpu));
    }
    s.firstTs = s.events ? trace.firstTs() : 0;
    s.lastTs = s.events ? trace.lastTs() : 0;
    for (size_t t = 0; t < perType.size(); ++t) {
        if (perType[t]) s.byName.push_back({trace.types()[t].system, trace.types()[t].name, perType[t]});
    }
    std::sort(s.byName.begin(), s.byName.end(), [](const Named &a, const Named &b) {
        return a.count != b.count ? a.count > b.count : a.name < b.name;
    });
    s.modelBytes = trace.memoryBytes();
    return s;
}

std::string formatSeconds(int64_t ns)
{
    char buf[48];
    const bool neg = ns < 0;
    const uint64_t a = neg ? static_cast<uint64_t>(-(ns + 1)) + 1 : static_cast<uint64_t>(ns);
    std::snprintf(buf, sizeof buf, "%s%" PRIu64 ".%06" PRIu64, neg ? "-" : "", a / 1000000000u,
                  (a % 1000000000u) / 1000u);
    return buf;
}

namespace {

std::string sourceName(const TraceStats &s)
{
    return s.instance.empty() ? std::string("top level") : "instance " + s.instance;
}

} // namespace

std::string formatStatsText(const std::vector<TraceStats> &sources, const LoadFigures &f)
{
    std::string out;
    for (const auto &s : sources) {
        appendf(out, "file:     %s\n", s.path.c_str());
        appendf(out, "source:   %s (%s)\n", sourceName(s).c_str(), s.format.c_str());
        if (!s.uname.empty()) appendf(out, "kernel:   %s\n", s.uname.c_str());
        if (!s.traceClock.empty()) appendf(out, "clock:    %s\n", s.traceClock.c_str());
        appendf(out, "cpus:     %d\n", s.cpuCount);
        appendf(out, "events:   %" PRIu64 "\n", s.events);
        if (s.events) {
            appendf(out, "span:     %s .. %s s (%s s)\n", formatSeconds(s.firstTs).c_str(),
                    formatSeconds(s.lastTs).c_str(), formatSeconds(s.lastTs - s.firstTs).c_str());
        }
        appendf(out, "lost:     %" PRIu64 " ranges, %" PRIu64 " events counted\n", s.lostRanges,
                s.lostEvents);
        appendf(out, "model:    %.1f MB (%.1f bytes/event)\n", static_cast<double>(s.modelBytes) / 1e6,
                s.events ? static_cast<double>(s.modelBytes) / static_cast<double>(s.events) : 0.0);
        out += "\nper CPU:\n";
        for (const auto &c : s.cpus) {
            appendf(out, "  CPU %-3d %10" PRIu64 " events", c.cpu, c.events);
            if (c.events)
                appendf(out, "  %s .. %s", formatSeconds(c.firstTs).c_str(), formatSeconds(c.lastTs).c_str());
            if (!c.lost.empty()) appendf(out, "  lost ranges: %zu", c.lost.size());
            out += '\n';
            for (const auto &l : c.lost) {
                appendf(out, "      lost %s .. %s: %s\n", formatSeconds(l.from).c_str(),
                        formatSeconds(l.to).c_str(),
                        l.count ? std::to_string(l.count).c_str() : "unknown count");
            }
        }
        out += "\nper event:\n";
        for (const auto &n : s.byName)
            appendf(out, "  %-32s %10" PRIu64 "\n", n.name.c_str(), n.count);
        for (const auto &w : s.warnings)
            appendf(out, "warning: %s\n", w.c_str());
        out += '\n';
    }
    appendf(out, "load:     %.3f s, %.2f M events/s\n", f.loadSeconds,
            f.loadSeconds > 0 ? static_cast<double>(f.events) / f.loadSeconds / 1e6 : 0.0);
    appendf(out, "memory:   peak RSS %.1f MB, %.1f bytes/event\n", static_cast<double>(f.peakRssBytes) / 1e6,
            f.bytesPerEvent());
    return out;
}

std::string formatStatsJson(const std::vector<TraceStats> &sources, const LoadFigures &f)
{
    JsonWriter j;
    j.beginObject();
    j.beginArray("sources");
    for (const auto &s : sources) {
        j.beginObject();
        j.value("path", s.path).value("instance", s.instance).value("format", s.format);
        j.value("uname", s.uname).value("kernel_release", s.kernelRelease).value("trace_clock", s.traceClock);
        j.value("cpu_count", s.cpuCount).value("events", s.events);
        j.value("first_ts_ns", s.firstTs).value("last_ts_ns", s.lastTs);
        j.value("lost_ranges", s.lostRanges).value("lost_events", s.lostEvents);
        j.value("model_bytes", s.modelBytes);
        j.beginArray("cpus");
        for (const auto &c : s.cpus) {
            j.beginObject().value("cpu", c.cpu).value("events", c.events);
            j.value("first_ts_ns", c.firstTs).value("last_ts_ns", c.lastTs);
            j.beginArray("lost");
            for (const auto &l : c.lost) {
                j.beginObject()
                    .value("from_ns", l.from)
                    .value("to_ns", l.to)
                    .value("count", l.count)
                    .endObject();
            }
            j.endArray().endObject();
        }
        j.endArray();
        j.beginObject("events_by_name");
        for (const auto &n : s.byName)
            j.value(n.name, n.count);
        j.endObject();
        j.beginArray("warnings");
        for (const auto &w : s.warnings)
            j.value({}, w);
        j.endArray();
        j.endObject();
    }
    j.endArray();
    j.value("events", f.events);
    j.value("load_seconds", f.loadSeconds);
    j.value("peak_rss_bytes", f.peakRssBytes);
    j.value("peak_virtual_bytes", f.peakVirtualBytes);
    j.value("bytes_per_event", f.bytesPerEvent());
    j.endObject();
    return j.str();
}

} // namespace tickscope
