// SPDX-License-Identifier: GPL-3.0-or-later
// What the `report --stream` tests share: the trace.dat fixtures, the report of a whole load and the streamed
// one as JSON (the timing figures, which differ, cleared), and a hand-written text trace written as
// trace.dat.
#pragma once

#include "TestUtil.h"
#include "analysis/TickAnalysis.h"
#include "import/Loader.h"
#include "report/TickReport.h"
#include "stream/StreamReport.h"
#include "write/TraceDatWriter.h"

#include <algorithm>
#include <gtest/gtest.h>

#include <filesystem>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace tickscope::test {

// Every trace.dat fixture, sorted.
inline std::vector<std::string> datFixtures()
{
    std::vector<std::string> out;
    for (const auto &e : std::filesystem::directory_iterator(dataPath("")))
        if (e.path().extension() == ".dat") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

// A trace without tick_stop or the tick hrtimer, whose tick lanes the whole analysis infers from the gaps
// between timer interrupts (host-generic.dat): the stream does not infer them, so its report says
// tick-stopped time is not recorded and counts every timer interrupt. Checks that it says so; true when the
// fixture is one.
inline bool streamLeavesLanesUninferred(const std::string &loadedJson, const std::string &streamedJson)
{
    if (loadedJson.find("\"from\": \"no timer interrupt for more than") == std::string::npos) return false;
    EXPECT_NE(streamedJson.find("report --stream does not infer it"), std::string::npos);
    return true;
}

inline LoadOptions instanceOptions(const Trace &loaded)
{
    LoadOptions o;
    o.instance = loaded.meta.instance;
    o.instanceGiven = true;
    return o;
}

inline std::string loadedJson(const Trace &trace, const ReportOptions &o = {})
{
    TickReport r = TickReport::make(trace, TickAnalysis::run(trace), o);
    r.analysisSeconds = 0;
    r.derivedBytes = 0;
    r.threads = 1;
    return formatReportJson(r);
}

inline std::string streamedJson(const std::string &path, const Trace &loaded, int64_t sliceNs, size_t exact,
                                StreamResult *out = nullptr, const ReportOptions &o = {})
{
    StreamOptions so;
    so.load = instanceOptions(loaded);
    so.sliceNs = sliceNs;
    so.exactValues = exact;
    so.report = o;
    StreamResult r = streamReport(path, so);
    r.report.analysisSeconds = 0;
    r.report.derivedBytes = 0;
    r.report.threads = 1;
    std::string json = formatReportJson(r.report);
    if (out) *out = std::move(r);
    return json;
}

// A text trace written as trace.dat (in the test's temp dir, as `name`), loaded back, with its report.
struct DatOfText
{
    std::string path;
    std::unique_ptr<Trace> loaded;
    TickReport whole;
};
inline DatOfText datOfText(const Trace &text, const std::string &name)
{
    DatOfText d;
    d.path = (tempDir() / name).string();
    writeTraceDat(text, d.path);
    d.loaded = loadTrace(d.path);
    d.whole = TickReport::make(*d.loaded, TickAnalysis::run(*d.loaded), {});
    return d;
}

} // namespace tickscope::test
