// SPDX-License-Identifier: GPL-3.0-or-later
// Tracefs helpers of the capture that need no instance (Tracefs.cpp).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tickscope {

constexpr std::string_view kInstancePrefix = "tickscope-"; // + the capturing process's pid

std::string readText(const std::string &path);  // the whole file, "" when unreadable
std::string firstLine(const std::string &path); // without its newline
// Writes and closes; false with *err = errno when the kernel refuses (a filter it rejects, ...).
bool writeText(const std::string &path, const std::string &text, int *err = nullptr);
// "a, b,,c" -> {"a", "b", "c"}
std::vector<std::string> splitCommaList(std::string_view text);
// "timer/hrtimer_start", "timer:hrtimer_start", "timer" -> system, event ("" = the whole system)
std::pair<std::string, std::string> splitEvent(const std::string &spec);
// What the analysis loses without an event of the default set.
std::string costOf(const std::string &event);
// tracing_cpumask: comma-separated 32-bit hex groups, most significant first.
std::string cpuMask(const std::vector<int> &cpus);
int eventId(const std::string &tracing, const std::string &event); // -1 when absent
// A field's offset in an event's format, -1 when absent.
int fieldOffset(const std::string &tracing, const std::string &event, const std::string &field);
// The addresses /proc/kallsyms gives these functions (root sees real ones; others zeros, skipped).
std::vector<uint64_t> kernelAddresses(std::initializer_list<std::string_view> names);

} // namespace tickscope
