// SPDX-License-Identifier: GPL-3.0-or-later
#include "Trace.h"

#include <algorithm>
#include <stdexcept>

namespace tickscope {

uint16_t Trace::addType(std::string_view system, std::string_view name)
{
    for (size_t i = 0; i < types_.size(); ++i) {
        if (types_[i].name == name && types_[i].system == system) return static_cast<uint16_t>(i);
    }
    if (types_.size() >= UINT16_MAX) throw std::length_error("more than 65535 event types");
    const EventKind k = kindForEvent(system, name);
    types_.push_back({std::string(system), std::string(name), k});
    typeSizes_.push_back(payloadSize(k));
    return static_cast<uint16_t>(types_.size() - 1);
}

int Trace::findType(std::string_view name) const
{
    for (size_t i = 0; i < types_.size(); ++i) {
        if (types_[i].name == name) return static_cast<int>(i);
    }
    return -1;
}

void Trace::setCpuCount(int n)
{
    cpus_.clear();
    cpus_.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
        cpus_.emplace_back(&typeSizes_);
}

size_t Trace::eventCount() const
{
    size_t n = 0;
    for (const auto &c : cpus_)
        n += c.size();
    return n;
}

size_t Trace::lostEventCount() const
{
    size_t n = 0;
    for (const auto &c : cpus_) {
        for (const auto &l : c.lost)
            n += l.count;
    }
    return n;
}

size_t Trace::lostRangeCount() const
{
    size_t n = 0;
    for (const auto &c : cpus_)
        n += c.lost.size();
    return n;
}

int64_t Trace::firstTs() const
{
    int64_t t = INT64_MAX;
    for (const auto &c : cpus_) {
        if (!c.empty()) t = std::min(t, c.ts(0));
    }
    return t;
}

int64_t Trace::lastTs() const
{
    int64_t t = INT64_MIN;
    for (const auto &c : cpus_) {
        if (!c.empty()) t = std::max(t, c.ts(c.size() - 1));
    }
    return t;
}

int64_t Trace::startTs() const
{
    const int64_t t = std::min(firstTs(), functions.firstTs);
    return t == INT64_MAX ? 0 : t;
}

int64_t Trace::endTs() const
{
    const int64_t t = std::max(lastTs(), functions.lastTs);
    return t == INT64_MIN ? 0 : t;
}

size_t Trace::memoryBytes() const
{
    size_t n = strings.memoryBytes() + tasks.memoryBytes() + functions.memoryBytes();
    for (const auto &c : cpus_)
        n += c.memoryBytes();
    return n;
}

std::string taskComm(const Trace &trace, int cpu, size_t index)
{
    const CpuEvents &ev = trace.cpu(cpu);
    const int32_t pid = ev.pid(index);
    if (pid == 0) return "swapper/" + std::to_string(cpu);
    return std::string(trace.strings.str(trace.tasks.comm(pid, ev.ts(index))));
}

std::string kernelReleaseFromUname(std::string_view uname)
{
    // "Linux <host> <release> <version...>"
    size_t pos = 0;
    for (int field = 0; field < 2; ++field) {
        pos = uname.find(' ', pos);
        if (pos == std::string_view::npos) return {};
        while (pos < uname.size() && uname[pos] == ' ')
            ++pos;
    }
    const size_t end = uname.find(' ', pos);
    return std::string(uname.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
}

} // namespace tickscope
