// SPDX-License-Identifier: GPL-3.0-or-later
// What writing a report as JSON costs beside making it. JsonWriter (core/util) keeps its calls as an
// nlohmann-json tree and dumps it; this prints, for one run (a trace file or a scenario), best of RUNS:
//   - the report step (TickReport::make) and `report --json`'s formatting (formatReportJson);
//   - of that formatting, the tree's dump(2) alone (a copy of the tree parsed from the output is dumped);
//   - whether the dump equals the output (it must: the same tree).
// Usage: json_bench FILE|SCENARIO [RUNS]   (e.g. json_bench tests/bench/server128.json 5)
#include "report/TickReport.h"
#include "session/OpenRun.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>

using namespace tickscope;

namespace {

double best(int runs, const std::function<void()> &f)
{
    double b = 1e9;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        b = std::min(b, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return b;
}

size_t differingLines(std::string a, std::string b)
{
    while (!a.empty() && a.back() == '\n')
        a.pop_back();
    while (!b.empty() && b.back() == '\n')
        b.pop_back();
    std::istringstream sa(a), sb(b);
    std::string la, lb;
    size_t n = 0;
    while (true) {
        const bool ga = static_cast<bool>(std::getline(sa, la)), gb = static_cast<bool>(std::getline(sb, lb));
        if (!ga && !gb) break;
        if (!ga || !gb || la != lb) ++n;
    }
    return n;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: json_bench FILE|SCENARIO [RUNS]\n");
        return 2;
    }
    const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    OpenOptions options;
    options.timeline = false;
    const OpenedRun run = openRun(RunSource::named(argv[1], 1), options);
    const Trace &trace = *run.doc.trace;
    const TickAnalysis &analysis = *run.doc.analysis;

    TickReport report;
    const double make = best(runs, [&] { report = TickReport::make(trace, analysis, ReportOptions{}); });
    std::string ours;
    const double writer = best(runs, [&] { ours = formatReportJson(report); });

    const nlohmann::ordered_json tree = nlohmann::ordered_json::parse(ours);
    std::string theirs;
    const double dump = best(runs, [&] { theirs = tree.dump(2); });

    std::printf("%s: %llu events on %d CPUs, report JSON %zu bytes, %zu lines\n", argv[1],
                static_cast<unsigned long long>(trace.eventCount()), trace.cpuCount(), ours.size(),
                static_cast<size_t>(std::count(ours.begin(), ours.end(), '\n')));
    std::printf("report step (TickReport::make)  %9.3f ms\n", make * 1e3);
    std::printf("JSON (formatReportJson)         %9.3f ms (%.1f %% of the report step)\n", writer * 1e3,
                100 * writer / make);
    std::printf("  of which dump(2)              %9.3f ms\n", dump * 1e3);
    std::printf("lines that differ from the dump %9zu\n", differingLines(ours, theirs));
    return 0;
}
