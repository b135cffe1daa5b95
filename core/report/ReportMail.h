// SPDX-License-Identifier: GPL-3.0-or-later
// The few lines of a tick report a cover letter or a review quotes: plain ASCII, at most 72 columns,
// per CPU the ticks in user space against the wakeups, ticks while polling, spurious ticks, the share
// of time with the tick stopped, failed tick stops, the worst TIMER softirq and the catch-ups, wakeup
// latency p99/max; the function_graph calls' durations and catch-up verdicts when the trace has them;
// then how it was measured. `report --format mail`, `compare --format mail`.
#pragma once

#include "TickReport.h"

#include <string>
#include <utility>
#include <vector>

namespace tickscope {

constexpr size_t kMailColumns = 72;

// One CPU's quoted figures as (label, value), in print order.
// rtLines: also the RT wakeup latency and where the non-RT sleepers expired (hard/soft), for CPUs where
// either run has RT wakeups or soft expiries (mailRtLines).
std::vector<std::pair<std::string, std::string>> mailFigures(const TickReport &r, const CpuReport &c,
                                                             bool rtLines = false);
bool mailRtLines(const CpuReport &c);

// The CPUs a mail shows: every CPU of the report when `all` (the user listed them), else its nohz_full
// CPUs if it has any, else all; those nothing is known of in the window (CpuReport::silent) left out.
std::vector<size_t> mailCpus(const TickReport &r, bool all);

// "CPU 1 (nohz_full)"
std::string mailCpuTitle(const CpuReport &c);

// "LEAD with TOOL on FILE (Linux RELEASE), WINDOW." wrapped to kMailColumns; `lead` e.g. "Measured",
// `tool` e.g. "tickscope 0.1.0", `label` the file or scenario (the report's path when empty).
std::string mailMeasured(const std::string &lead, const std::string &tool, const TickReport &r,
                         const std::string &label);

// "  label:                  value", wrapped at ", " and " -> " onto lines indented to the value column
// when longer than kMailColumns.
std::string mailFigureLine(const std::string &label, const std::string &value);

// Non-ASCII bytes become '?', lines are cut at kMailColumns (the figures never need it; file names might).
std::string mailSafe(const std::string &text);

std::string formatReportMail(const TickReport &r, bool allCpus, const std::string &tool);
// Its function_graph block: the durations of the functions with calls, the catch-up verdicts; empty when
// no function has calls.
std::string mailFunctions(const FunctionReport &f);

} // namespace tickscope
