// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReportMail.h"

#include "FunctionReport.h"

#include "util/Text.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string_view>

namespace tickscope {
namespace {

std::string baseName(const std::string &path)
{
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "Linux host 6.18.44-fc x86_64 ..." -> "Linux 6.18.44-fc"
std::string kernel(const std::string &uname)
{
    std::vector<std::string> words;
    for (size_t p = 0; p < uname.size();) {
        const size_t e = uname.find(' ', p);
        words.push_back(uname.substr(p, e == std::string::npos ? std::string::npos : e - p));
        if (e == std::string::npos) break;
        p = e + 1;
    }
    if (words.size() >= 3) return words[0] + " " + words[2];
    return uname.empty() ? std::string("kernel unknown") : uname;
}

std::string windowText(const TickReport &r)
{
    if (!r.events && r.functions && !r.functions->timed) return "all of it (no timestamps)";
    const std::string span =
        textf("%.6f..%.6f s", static_cast<double>(r.from) / 1e9, static_cast<double>(r.to) / 1e9);
    if (r.windowSource == "markers") return "between the print markers, " + span;
    if (r.windowSource == "window") return "window " + span;
    return "whole trace, " + span;
}

} // namespace

bool mailRtLines(const CpuReport &c)
{
    const auto &k = c.wakeup.byContext;
    return k[0][0].count || k[1][0].count || k[1][1].count;
}

std::vector<std::pair<std::string, std::string>> mailFigures(const TickReport &r, const CpuReport &c,
                                                             bool rtLines)
{
    // A figure the trace does not record has no line (never a 0).
    const Evidence &e = r.evidence;
    const std::string inferredTicks = e.inferred(Figure::Ticks) ? " (inferred)" : "";
    std::vector<std::pair<std::string, std::string>> f;
    if (e.recorded(Figure::TickMode))
        f.emplace_back("ticks in userspace",
                       e.recorded(Figure::Wakeups)
                           ? textf("%" PRIu64 "/%" PRIu64, c.ticks.user, c.wakeup.count) + inferredTicks
                           : textf("%" PRIu64, c.ticks.user) + inferredTicks);
    if (e.recorded(Figure::TickPolling))
        f.emplace_back("ticks while polling", textf("%" PRIu64, c.ticks.polling) + inferredTicks);
    if (e.recorded(Figure::TickMode))
        f.emplace_back("spurious ticks", textf("%" PRIu64, c.ticks.spurious) + inferredTicks);
    const int64_t span = r.to - r.from;
    if (e.recorded(Figure::TickStopped))
        f.emplace_back(
            "tick stopped",
            textf("%.1f%%",
                  span > 0 ? 100.0 * static_cast<double>(c.tickStoppedNs) / static_cast<double>(span) : 0.0) +
                (e.inferred(Figure::TickStopped) ? " (inferred)" : ""));
    std::string failed;
    for (size_t d = 0; d < c.failures.size(); ++d) {
        if (c.failures[d])
            failed += (failed.empty() ? "" : ", ") + textf("%s %" PRIu64, kDependencyNames[d], c.failures[d]);
    }
    if (c.failuresOther) failed += (failed.empty() ? "" : ", ") + textf("other %" PRIu64, c.failuresOther);
    if (e.recorded(Figure::FailedStops))
        f.emplace_back("failed tick stops", failed.empty() ? std::string("none") : failed);
    if (e.recorded(Figure::TimerSoftirqs))
        f.emplace_back("worst TIMER softirq", usText(c.timerSoftirq.maxNs) + " us");
    if (e.recorded(Figure::Catchups))
        f.emplace_back("TIMER catch-ups", textf("%" PRIu64, c.timerSoftirq.catchup));
    if (!e.recorded(Figure::WakeupLatency)) return f;
    f.emplace_back("wakeup latency p99/max",
                   usText(c.wakeup.latency.p99) + "/" + usText(c.wakeup.latency.max) + " us");
    if (rtLines) {
        f.emplace_back("RT wakeup p99/max",
                       usText(c.wakeup.latencyRt.p99) + "/" + usText(c.wakeup.latencyRt.max) + " us");
        f.emplace_back("non-RT hard/soft", textf("%" PRIu64 "/%" PRIu64, c.wakeup.byContext[0][1].count,
                                                 c.wakeup.byContext[1][1].count));
    }
    return f;
}

std::vector<size_t> mailCpus(const TickReport &r, bool all)
{
    std::vector<size_t> out;
    if (all) {
        for (size_t i = 0; i < r.cpus.size(); ++i)
            out.push_back(i);
        return out;
    }
    // Not the CPUs nothing is known of (outside the recording's CPU mask): a block of zeros says nothing.
    for (size_t i = 0; i < r.cpus.size(); ++i) {
        if (r.cpus[i].nohzFull && !r.cpus[i].silent()) out.push_back(i);
    }
    if (!out.empty()) return out;
    for (size_t i = 0; i < r.cpus.size(); ++i) {
        if (!r.cpus[i].silent()) out.push_back(i);
    }
    return out;
}

std::string mailCpuTitle(const CpuReport &c)
{
    return textf("CPU %d%s", c.cpu, c.nohzFull ? " (nohz_full)" : "");
}

std::string mailMeasured(const std::string &lead, const std::string &tool, const TickReport &r,
                         const std::string &label)
{
    const std::string text = lead + " with " + tool + " on " + baseName(label.empty() ? r.path : label) +
                             " (" + kernel(r.uname) + "), " + windowText(r) + ".";
    // wrapped at spaces
    std::string out, line;
    for (size_t p = 0; p < text.size();) {
        size_t e = text.find(' ', p);
        if (e == std::string::npos) e = text.size();
        const std::string word = text.substr(p, e - p);
        if (!line.empty() && line.size() + 1 + word.size() > kMailColumns) {
            out += line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        p = e + 1;
    }
    return out + line + "\n";
}

std::string mailFigureLine(const std::string &label, const std::string &value)
{
    constexpr size_t kValueColumn = 2 + 24 + 1;
    std::string head = "  " + label + ":";
    head.resize(std::max(head.size() + 1, kValueColumn), ' ');
    std::string out, line = head;
    // break points: after ", " and before " -> "
    for (size_t p = 0; p < value.size();) {
        size_t e = value.size();
        for (const std::string_view sep : {std::string_view(", "), std::string_view(" -> ")}) {
            const size_t at = value.find(sep, p + 1);
            if (at != std::string::npos) e = std::min(e, sep == ", " ? at + 2 : at);
        }
        const std::string piece = value.substr(p, e - p);
        if (line.size() > kValueColumn && line.size() + piece.size() > kMailColumns) {
            while (!line.empty() && line.back() == ' ')
                line.pop_back();
            out += line + "\n";
            line = std::string(kValueColumn, ' ');
            line += piece.substr(
                piece.find_first_not_of(' ') == std::string::npos ? 0 : piece.find_first_not_of(' '));
        } else {
            line += piece;
        }
        p = e;
    }
    return out + line + "\n";
}

std::string mailSafe(const std::string &text)
{
    std::string out;
    size_t col = 0;
    for (char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '\n') {
            out += '\n';
            col = 0;
            continue;
        }
        if (col >= kMailColumns) continue;
        out += c < 0x20 || c > 0x7e ? '?' : ch;
        ++col;
    }
    return out;
}

std::string mailFunctions(const FunctionReport &f)
{
    std::string out;
    for (const FunctionStats &s : f.functions) {
        if (!s.duration.count) continue;
        const std::string where = s.longest.empty()   ? std::string()
                                  : s.cpus.size() > 1 ? textf(" (CPU %d)", s.longest.front().cpu)
                                                      : std::string();
        out += mailFigureLine(
            s.name, textf("%" PRIu64 " call%s, p50 ", s.duration.count, s.duration.count == 1 ? "" : "s") +
                        usText(s.duration.p50) + ", p99 " + usText(s.duration.p99) + ", max " +
                        usText(s.duration.max) + " us" + where);
    }
    if (f.timerCalls) {
        const std::string lng =
            textf("%" PRIu64 " of %" PRIu64 " run_timer_softirq >= ", f.timerLong, f.timerCalls) +
            usText(kCatchupMinNs) + " us";
        out += mailFigureLine("catch-ups from calls",
                              f.callbacksTraced ? textf("%" PRIu64 " (", f.timerCatchups) + lng + ")"
                                                : "not judged (call_timer_fn not traced), " + lng);
    }
    if (f.join.calls)
        out += mailFigureLine("catch-ups from softirqs",
                              textf("%" PRIu64 " (the same %" PRIu64 " softirqs; %" PRIu64 " differ%s)",
                                    f.join.softirqCatchups, f.join.calls, f.join.differing,
                                    f.join.differing == 1 ? "s" : ""));
    if (out.empty()) return out;
    return textf("Functions (function_graph, %" PRIu64 " calls%s)\n", f.calls,
                 f.timed ? "" : ", no timestamps") +
           out;
}

std::string formatReportMail(const TickReport &r, bool allCpus, const std::string &tool)
{
    std::string out;
    // A function_graph paste has no tracepoints: no tick figures to quote, only its calls.
    for (size_t i : r.events || !r.functions ? mailCpus(r, allCpus) : std::vector<size_t>{}) {
        const CpuReport &c = r.cpus[i];
        out += mailCpuTitle(c) + "\n";
        for (const auto &[label, value] : mailFigures(r, c, mailRtLines(c)))
            out += mailFigureLine(label, value);
    }
    if (r.functions) out += mailFunctions(*r.functions);
    out += mailMeasured("Measured", tool, r, {});
    return mailSafe(out);
}

} // namespace tickscope
