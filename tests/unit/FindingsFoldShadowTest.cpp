// SPDX-License-Identifier: GPL-3.0-or-later
// The report's counts and findings made through report/CpuFold (the streamed report's definition of them,
// fed each CPU's final records with the decisions taken: TickReport::makeByFold) equal the ones
// TickReport::make derives itself, on every fixture and a few simulated presets, over the whole trace, a
// window and a CPU subset, with and without instance times: text, JSON and every finding field.
#include "SimTestUtil.h"
#include "TestUtil.h"

#include "import/Loader.h"
#include "report/Findings.h"
#include "report/TickReport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace tickscope {
namespace {

std::vector<std::string> fixtures()
{
    std::vector<std::string> out;
    for (const std::string dir : {"", "text"})
        for (const auto &e : std::filesystem::directory_iterator(test::dataPath(dir))) {
            const auto ext = e.path().extension();
            if (e.is_regular_file() && (ext == ".dat" || ext == ".txt")) out.push_back(e.path().string());
        }
    std::sort(out.begin(), out.end());
    return out;
}

void expectSameFindings(const std::vector<Finding> &a, const std::vector<Finding> &b)
{
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        SCOPED_TRACE(a[i].what);
        EXPECT_EQ(a[i].kind, b[i].kind);
        EXPECT_EQ(a[i].cpu, b[i].cpu);
        EXPECT_EQ(a[i].count, b[i].count);
        EXPECT_EQ(a[i].what, b[i].what);
        EXPECT_EQ(a[i].pattern, b[i].pattern);
        EXPECT_EQ(a[i].cause, b[i].cause);
        EXPECT_EQ(a[i].dependency, b[i].dependency);
        EXPECT_EQ(a[i].first, b[i].first);
        EXPECT_EQ(a[i].last, b[i].last);
        EXPECT_EQ(a[i].at, b[i].at);
        EXPECT_EQ(a[i].worstNs, b[i].worstNs);
    }
}

// What the comparisons covered, so that a test that compared nothing fails.
struct Covered
{
    size_t reports = 0, findings = 0, instances = 0, spuriousUser = 0;
};

void expectSame(const Trace &trace, const TickAnalysis &a, const std::string &name, Covered &covered)
{
    std::vector<std::pair<std::string, ReportOptions>> cases;
    cases.emplace_back("whole", ReportOptions{});
    ReportOptions none;
    none.findingInstances = 0;
    cases.emplace_back("no instances", none);
    ReportOptions split; // every CPU's distributions as items of their own
    split.splitRecords = 0;
    split.findingInstances = 3;
    cases.emplace_back("split, 3 instances", split);
    if (trace.eventCount()) {
        const int64_t span = trace.lastTs() - trace.firstTs();
        ReportOptions w;
        w.windowSource = "window";
        w.from = trace.firstTs() + span / 3;
        w.to = trace.firstTs() + 2 * span / 3;
        cases.emplace_back("middle third", w);
        ReportOptions wide = w; // past both ends: clamped to the trace
        wide.from = trace.firstTs() - 1'000'000;
        wide.to = trace.lastTs() + 1'000'000;
        cases.emplace_back("wider than the trace", wide);
    }
    ReportOptions some;
    for (int c = 0; c < trace.cpuCount(); c += 2)
        some.cpus.push_back(c);
    cases.emplace_back("even CPUs", some);
    for (const auto &[what, o] : cases) {
        SCOPED_TRACE(name + ", " + what);
        const TickReport old = TickReport::make(trace, a, o);
        const TickReport folded = TickReport::makeByFold(trace, a, o);
        EXPECT_EQ(formatReportText(old), formatReportText(folded));
        EXPECT_EQ(formatReportJson(old), formatReportJson(folded));
        expectSameFindings(old.findings, folded.findings);
        ++covered.reports;
        covered.findings += old.findings.size();
        for (const Finding &f : old.findings) {
            covered.instances += f.at.size();
            covered.spuriousUser += f.kind == FindingKind::SpuriousUser;
        }
    }
}

TEST(FindingsFoldShadow, EveryFixture)
{
    Covered covered;
    for (const std::string &path : fixtures()) {
        SCOPED_TRACE(path);
        std::unique_ptr<Trace> trace;
        try {
            trace = loadTrace(path);
        } catch (const std::exception &) {
            continue; // a fixture kept for a load error
        }
        const TickAnalysis a = TickAnalysis::run(*trace);
        expectSame(*trace, a, path, covered);
    }
    EXPECT_GE(covered.reports, 60u);
    EXPECT_GE(covered.findings, 100u);
    EXPECT_GE(covered.instances, 1000u);
    EXPECT_GT(covered.spuriousUser, 0u);
    std::printf("%zu reports, %zu findings, %zu instances compared\n", covered.reports, covered.findings,
                covered.instances);
}

TEST(FindingsFoldShadow, Presets)
{
    Covered covered;
    for (const char *spec : {"seed000-nohzfull-poll", "seed000-nohzfull-poll:p1p2_posix_timer",
                             "seed002-legacy-wheel", "seed003-rt-hrtimer", "seed003-rt-hrtimer:soft"}) {
        const simtest::Run run = simtest::runSpec(spec);
        const TickAnalysis a = TickAnalysis::run(*run.result.trace);
        expectSame(*run.result.trace, a, spec, covered);
    }
    EXPECT_GT(covered.spuriousUser, 0u);
}

} // namespace
} // namespace tickscope
