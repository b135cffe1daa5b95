// SPDX-License-Identifier: GPL-3.0-or-later
// A trace recorded now, on this machine's kernel, loads with the counts trace-cmd reports for it.
// Needs root and tracefs; skips with a message otherwise.
#include "TestUtil.h"
#include "import/Loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

using namespace tickscope;
using namespace tickscope::test;

namespace {

// What capture-live.sh must leave as it found it: whether tracefs is mounted, its instances, the events
// enabled at the top level.
std::string instancesNow()
{
    return run("grep -c ' /sys/kernel/tracing tracefs ' /proc/self/mounts; ls /sys/kernel/tracing/instances "
               "2>/dev/null; cat /sys/kernel/tracing/set_event 2>/dev/null")
        .out;
}

} // namespace

TEST(LiveRecord, FreshTraceMatchesTraceCmdReport)
{
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to record with tracefs";
    if (!haveTraceCmd()) GTEST_SKIP() << "trace-cmd is not installed";
    // capture-live.sh mounts tracefs when needed and unmounts what it mounted: the test leaves it as found.
    if (run("test -d /sys/kernel/tracing").exitCode != 0) GTEST_SKIP() << "tracefs is not available";
    const std::string before = instancesNow();
    const auto dir = tempDir();
    const std::string dat = (dir / "live.dat").string();
    const std::string script = std::string(TICKSCOPE_TEST_DATA) + "/../capture-live.sh";
    const auto rec = run("'" + script + "' '" + dat + "' 0.5 -- sh -c 'while :; do sleep 0.002; done'");
    EXPECT_EQ(instancesNow(), before) << "tracefs was not left as found"; // (also when the script failed)
    ASSERT_EQ(rec.exitCode, 0) << rec.err;

    const auto traces = loadAll(dat);
    std::vector<const Trace *> p;
    for (const auto &t : traces)
        p.push_back(t.get());
    const auto model = countModel(p);
    const auto report = countReport(dat);
    ASSERT_GT(report.total, 100u);
    EXPECT_EQ(model.byName, report.byName);
    EXPECT_EQ(model.byCpu, report.byCpu);
    EXPECT_GT(model.byName.count("sched_switch"), 0u);

    const std::string txt = (dir / "live.txt").string();
    ASSERT_EQ(run("trace-cmd report '" + dat + "' > '" + txt + "'").exitCode, 0);
    std::vector<const Trace *> q;
    const auto textTraces = loadAll(txt);
    for (const auto &t : textTraces)
        q.push_back(t.get());
    EXPECT_EQ(countModel(q).byName, report.byName);
    std::filesystem::remove_all(dir);
}
