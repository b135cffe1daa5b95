// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimReport.h"

#include "Presets.h"

#include "report/ReportMail.h"

#include "util/JsonWriter.h"
#include "util/Text.h"

#include <algorithm>
#include <cstdio>

namespace tickscope::sim {

Analysed analyseSpan(const Trace &trace, const TickAnalysis &analysis, std::string label, int64_t from,
                     int64_t to, std::string source)
{
    Analysed a;
    a.label = std::move(label);
    ReportOptions ro;
    ro.from = from;
    ro.to = to;
    ro.windowSource = std::move(source);
    a.from = ro.from;
    a.to = ro.to;
    a.report = TickReport::make(trace, analysis, ro);
    a.timers = pairTimerList(trace, ro.from, ro.to);
    return a;
}

Analysed analyse(const Trace &trace, std::string label, bool useMarkers)
{
    return analyseRun(trace, TickAnalysis::run(trace), std::move(label), useMarkers);
}

Analysed analyseRun(const Trace &trace, const TickAnalysis &analysis, std::string label, bool useMarkers)
{
    if (useMarkers) {
        if (const auto span = markerWindow(trace, analysis))
            return analyseSpan(trace, analysis, std::move(label), span->first, span->second, "markers");
    }
    return analyseSpan(trace, analysis, std::move(label), INT64_MIN, INT64_MAX, "trace");
}

Analysed simulateAndAnalyse(const Scenario &s, uint64_t seed, SimResult &result, bool useMarkers)
{
    result = simulate(s, seed);
    Analysed a = analyse(*result.trace, result.trace->meta.path, useMarkers);
    a.simulated = true;
    a.scenario = s;
    a.truth = result.truth;
    return a;
}

std::string formatTimerListText(const std::vector<TimerListCpu> &timers)
{
    std::string out =
        "\nCPU  timer_list started  fired  never fired  cancelled  late (>2 jiffies)  max late jiffies\n";
    char buf[256];
    for (size_t c = 0; c < timers.size(); ++c) {
        const TimerListCpu &t = timers[c];
        if (!t.started) continue;
        std::snprintf(buf, sizeof buf, "%3zu  %18llu  %5llu  %11llu  %9llu  %17llu  %16lld\n", c,
                      (unsigned long long)t.started, (unsigned long long)t.fired,
                      (unsigned long long)t.neverFired, (unsigned long long)t.cancelled,
                      (unsigned long long)t.late, (long long)t.maxLateJiffies);
        out += buf;
    }
    return out;
}

std::string formatSimText(const Analysed &a)
{
    std::string out;
    if (a.simulated) {
        out += "scenario: " + a.scenario.name +
               (a.scenario.variant.empty() ? "" : " variant " + a.scenario.variant) + " (platform " +
               a.scenario.platform + ")\n";
    }
    out += formatReportText(a.report);
    out += formatTimerListText(a.timers);
    if (a.simulated) out += formatGroundTruthText(a.truth, a.scenario.kernel.cpus, a.from, a.to);
    return out;
}

std::string formatSimJson(const Analysed &a)
{
    std::string out = "{\n\"scenario\": \"" + a.scenario.name + "\",\n\"variant\": \"" + a.scenario.variant +
                      "\",\n\"platform\": \"" + a.scenario.platform + "\",\n\"report\": ";
    out += formatReportJson(a.report);
    JsonWriter j;
    j.beginArray();
    for (size_t c = 0; c < a.timers.size(); ++c) {
        const TimerListCpu &t = a.timers[c];
        j.beginObject();
        j.value("cpu", static_cast<int64_t>(c)).value("started", t.started).value("fired", t.fired);
        j.value("never_fired", t.neverFired).value("cancelled", t.cancelled).value("late", t.late);
        j.value("max_late_jiffies", t.maxLateJiffies);
        j.endObject();
    }
    j.endArray();
    out += ",\n\"timer_list\": " + j.str();
    if (a.simulated)
        out += ",\n\"ground_truth\": " + formatGroundTruthJson(a.truth, a.scenario.kernel.cpus, a.from, a.to);
    out += "\n}\n";
    return out;
}

Scenario scenarioFromSpec(const std::string &spec)
{
    std::vector<std::string> parts;
    size_t p = 0;
    while (true) {
        const size_t comma = spec.find(',', p);
        parts.push_back(spec.substr(p, comma == std::string::npos ? std::string::npos : comma - p));
        if (comma == std::string::npos) break;
        p = comma + 1;
    }
    Scenario s = loadScenario(parts[0]);
    for (size_t i = 1; i < parts.size(); ++i) {
        const size_t eq = parts[i].find('=');
        if (eq == std::string::npos || eq == 0)
            throw ScenarioError(spec + ": expected key=value after ',', got '" + parts[i] + "'");
        try {
            applySetting(s, parts[i].substr(0, eq), parts[i].substr(eq + 1));
        } catch (const ScenarioError &e) {
            throw ScenarioError(spec + ": " + e.what());
        }
    }
    return s;
}

namespace {

std::string secondsText(int64_t ns)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6f", static_cast<double>(ns) / 1e9);
    return buf;
}

// One end of a relative window: its seconds, or `open` when the window is open there.
std::string windowSide(int64_t t, const char *open)
{
    return t == INT64_MIN || t == INT64_MAX ? std::string(open) : secondsText(t);
}

} // namespace

std::string formatCompareText(const Analysed &a, const Analysed &b, const CompareWindow *window)
{
    std::string out = "before: " + a.label + "\nafter:  " + b.label + "\n";
    if (window) {
        out += "window: " + windowSide(window->from, "start") + " .. " + windowSide(window->to, "end") +
               " s after each run's time zero (aligned by " + window->align + "; before at " +
               secondsText(window->zeroA) + " s, after at " + secondsText(window->zeroB) + " s)\n";
    }
    char buf[256];
    for (const CpuDiff &d : diffReports(a.report, a.timers, b.report, b.timers)) {
        bool any = false;
        for (const MetricDiff &r : d.metrics)
            any |= r.before != 0 || r.after != 0;
        if (!any) continue;
        std::snprintf(buf, sizeof buf, "CPU %d\n", d.cpuA);
        out += buf;
        for (const MetricDiff &r : d.metrics) {
            if (r.before == 0 && r.after == 0) continue;
            const auto side = [](double v) {
                return v == v ? textf("%.3f", v) : std::string("not recorded");
            };
            std::snprintf(buf, sizeof buf, "  %-24s %12s -> %-12s%s\n", r.name, side(r.before).c_str(),
                          side(r.after).c_str(), r.changed() ? "  *" : "");
            out += buf;
        }
    }
    return out;
}

std::string formatCompareJson(const Analysed &a, const Analysed &b, const CompareWindow *window)
{
    JsonWriter j;
    j.beginObject();
    j.value("before", a.label).value("after", b.label);
    if (window) {
        j.beginObject("window");
        if (window->from != INT64_MIN) j.value("from_ns", window->from);
        if (window->to != INT64_MAX) j.value("to_ns", window->to);
        j.value("align", window->align)
            .value("before_zero_ns", window->zeroA)
            .value("after_zero_ns", window->zeroB);
        j.endObject();
    }
    j.beginArray("cpus");
    for (const CpuDiff &d : diffReports(a.report, a.timers, b.report, b.timers)) {
        j.beginObject();
        j.value("cpu", static_cast<int64_t>(d.cpuA));
        for (const MetricDiff &r : d.metrics) {
            j.beginObject(r.name); // null: that run's trace does not record the figure
            if (r.recordedBefore())
                j.value("before", r.before);
            else
                j.null("before");
            if (r.recordedAfter())
                j.value("after", r.after);
            else
                j.null("after");
            j.endObject();
        }
        j.endObject();
    }
    j.endArray();
    j.endObject();
    return j.str() + "\n";
}

} // namespace tickscope::sim

namespace tickscope::sim {

std::string formatCompareMail(const Analysed &a, const Analysed &b, const std::string &tool,
                              const CompareWindow *window)
{
    const size_t n = std::min(a.report.cpus.size(), b.report.cpus.size());
    bool anyNohzFull = false;
    for (size_t i = 0; i < n; ++i)
        anyNohzFull |= a.report.cpus[i].nohzFull || b.report.cpus[i].nohzFull;
    std::string out = "before -> after\n";
    for (size_t i = 0; i < n; ++i) {
        const CpuReport &ca = a.report.cpus[i], &cb = b.report.cpus[i];
        if (anyNohzFull && !ca.nohzFull && !cb.nohzFull) continue;
        out += mailCpuTitle(ca.nohzFull ? ca : cb) + "\n";
        const bool rt = mailRtLines(ca) || mailRtLines(cb);
        const auto fa = mailFigures(a.report, ca, rt), fb = mailFigures(b.report, cb, rt);
        // By label: a figure one run does not record is "not recorded" on its side.
        const auto valueOf = [](const auto &figures, const std::string &label) {
            for (const auto &[l, v] : figures)
                if (l == label) return v;
            return std::string("not recorded");
        };
        std::vector<std::string> labels;
        labels.reserve(fa.size() + fb.size());
        for (const auto &x : fa)
            labels.push_back(x.first);
        for (const auto &x : fb)
            if (std::find(labels.begin(), labels.end(), x.first) == labels.end()) labels.push_back(x.first);
        for (const std::string &l : labels)
            out += mailFigureLine(l, valueOf(fa, l) + " -> " + valueOf(fb, l));
    }
    if (window) {
        out += "Both over " + windowSide(window->from, "") + ".." + windowSide(window->to, "") +
               " s after each run's zero (" + window->align + ").\n";
    }
    out += mailMeasured("Before: measured", tool, a.report, a.label);
    out += mailMeasured("After: measured", tool, b.report, b.label);
    return mailSafe(out);
}

} // namespace tickscope::sim
