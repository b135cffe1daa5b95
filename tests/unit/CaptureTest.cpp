// SPDX-License-Identifier: GPL-3.0-or-later
// Live capture on this machine's real kernel: tickscope-cli capture records into a private tracefs
// instance and saves a trace.dat that trace-cmd and tickscope count alike; nothing else in tracefs
// changes, on a normal end, on SIGINT/SIGTERM, and a SIGKILLed capture's instance is removed by the next
// `capture --cleanup` (and only it). Needs root and tracefs (mounted here when it is not, and unmounted
// again); skips with a message otherwise.
#include "TestUtil.h"
#include "analysis/TickAnalysis.h"
#include "import/Loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <unistd.h>

using namespace tickscope;
using namespace tickscope::test;
namespace fs = std::filesystem;

namespace {

const std::string kT = "/sys/kernel/tracing";

std::string cliPath()
{
    return TICKSCOPE_CLI;
}

// The CLI's path in single quotes, built by appending: GCC 12 at -O3 warns (-Wrestrict, a false positive)
// on "literal" + std::string.
std::string quotedCli()
{
    std::string q = "'";
    q += cliPath();
    q += "'";
    return q;
}

// What a capture must leave as it was: the top level's settings and the instances.
std::string tracefsState()
{
    std::string s;
    for (const char *f : {"tracing_on", "current_tracer", "set_event", "buffer_size_kb", "trace_clock",
                          "tracing_cpumask", "events/sched/sched_switch/enable"}) {
        std::ifstream in(kT + "/" + f);
        s += std::string(f) + ": " + std::string(std::istreambuf_iterator<char>(in), {}) + "\n";
    }
    s += "instances:" + run("ls " + kT + "/instances").out;
    return s;
}

// The tracefs instances whose names start with "tickscope" (a capture's, the tests' own).
std::set<std::string> tickscopeInstances()
{
    std::set<std::string> names;
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(kT + "/instances", ec))
        if (e.path().filename().string().starts_with("tickscope")) names.insert(e.path().filename().string());
    return names;
}

// Undoes what a test changed in tracefs, however the test ends (an ASSERT returns from the test body
// before any cleanup written at its end): the "tickscope*" instances that were not there at the start
// (a killed capture's, the test's own) are removed, and the mount made for the test is undone. The
// instances go first: an instance outlives an unmount and would be there at the next mount.
class TracefsAsFound
{
public:
    TracefsAsFound() = default;
    TracefsAsFound(const TracefsAsFound &) = delete;
    TracefsAsFound &operator=(const TracefsAsFound &) = delete;
    // Mounts tracefs when it is not; false when that fails.
    bool mount()
    {
        if (fs::exists(kT + "/events")) {
            before_ = tickscopeInstances();
            return true;
        }
        if (run("mount -t tracefs nodev " + kT).exitCode != 0) return false;
        mounted_ = true;
        before_ = tickscopeInstances();
        return true;
    }
    ~TracefsAsFound()
    {
        for (const std::string &name : tickscopeInstances()) {
            if (before_.count(name)) continue;
            const std::string i = kT + "/instances/" + name;
            const auto r = run("echo 0 > '" + i + "/tracing_on'; rmdir '" + i + "'");
            if (r.exitCode != 0) ADD_FAILURE() << "could not remove the instance " << name << ": " << r.err;
        }
        if (mounted_ && run("umount " + kT).exitCode != 0) ADD_FAILURE() << "could not unmount " << kT;
    }

private:
    bool mounted_ = false;
    std::set<std::string> before_;
};

class Capture : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (::geteuid() != 0) GTEST_SKIP() << "needs root: capture creates a tracefs instance";
        if (!fs::exists(kT)) GTEST_SKIP() << kT << " does not exist (no tracefs in this kernel)";
        tracefs_.emplace();
        if (!tracefs_->mount()) GTEST_SKIP() << "tracefs cannot be mounted";
        dir_ = tempDir();
    }
    void TearDown() override
    {
        if (!dir_.empty()) fs::remove_all(dir_);
        tracefs_.reset();
    }
    std::string path(const std::string &name) const { return (dir_ / name).string(); }

    std::optional<TracefsAsFound> tracefs_;
    fs::path dir_;
};

// Writes `value` to the tracefs file `file` now and its old value back when it goes (however the test
// ends). With `clearTrace`, the top-level buffer is emptied then too if it held no event before: what the
// test recorded there does not stay behind (someone else's events are never cleared).
class TracefsSetting
{
public:
    TracefsSetting(std::string file, const std::string &value, bool clearTrace = false)
        : file_(std::move(file))
    {
        std::ifstream in(file_);
        std::getline(in, was_);
        if (!was_.empty() && was_.back() == '*') was_.pop_back(); // "0*": soft-disabled, written back as 0
        clear_ = clearTrace && run("grep -qv '^#' " + kT + "/trace").exitCode != 0;
        ok_ = run("echo " + value + " > " + file_).exitCode == 0;
    }
    TracefsSetting(const TracefsSetting &) = delete;
    TracefsSetting &operator=(const TracefsSetting &) = delete;
    ~TracefsSetting()
    {
        if (run("echo '" + was_ + "' > " + file_).exitCode != 0)
            ADD_FAILURE() << "could not write " << was_ << " back to " << file_;
        if (clear_) run(": > " + kT + "/trace");
    }
    bool ok() const { return ok_; }

private:
    std::string file_, was_;
    bool clear_ = false, ok_ = false;
};

} // namespace

// 2 s of stress-ng --nanosleep and cyclictest: events on every CPU, trace-cmd's counts equal the model's,
// the machine facts make nohz_full_source "metadata", tracefs unchanged.
TEST_F(Capture, RealKernelLoadWithTraceCmdCountsAndLeavesTracefsAsFound)
{
    const std::string before = tracefsState();
    const std::string dat = path("live.dat");
    const bool tools = run("command -v stress-ng && command -v cyclictest").exitCode == 0;
    const std::string load =
        tools ? "sh -c 'stress-ng --nanosleep 2 --timeout 2 -q & cyclictest -q -D 2 -i 500 "
                "-t 2 -m > /dev/null; wait'"
              : "sh -c 'i=0; while [ $i -lt 400 ]; do sleep 0.005; i=$((i+1)); done'";
    const auto r = run(quotedCli() + " capture --duration 2 --out '" + dat + "' -- " + load);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(tracefsState(), before) << "tracefs was not left as found";
    ASSERT_TRUE(fs::exists(dat));
    const auto t = loadTrace(dat);
    const int online = static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
    int withEvents = 0;
    for (int c = 0; c < t->cpuCount(); ++c)
        withEvents += !t->cpu(c).empty();
    EXPECT_EQ(withEvents, online) << "events arrived on " << withEvents << " of " << online << " CPUs";
    EXPECT_GT(t->eventCount(), 1000u);
    EXPECT_FALSE(t->meta.machine.empty());
    EXPECT_EQ(TickAnalysis::run(*t).nohzFullSource, NohzFullSource::Metadata);
    if (haveTraceCmd()) {
        const auto counts = countReport(dat);
        const auto model = countModel({t.get()});
        EXPECT_EQ(counts.byName, model.byName);
        EXPECT_EQ(counts.byCpu, model.byCpu);
        EXPECT_EQ(run("trace-cmd report '" + dat + "' > /dev/null").err, "");
    }
    if (!tools) GTEST_SKIP() << "stress-ng or cyclictest missing: recorded a sleep loop instead";
}

// Shell words that wait (10 s at most) until a capture whose stderr goes to `err` says it is recording:
// its instance is set up and its signal handlers are in place, so a signal then tests them, not a race
// with the start.
static std::string untilRecording(const std::string &err)
{
    return "for i in $(seq 200); do grep -q 'tickscope-cli: recording' '" + err +
           "' 2>/dev/null && break; "
           "sleep 0.05; done; ";
}

// SIGINT and SIGTERM end a capture normally: the file is saved and tracefs is as before.
TEST_F(Capture, SigintAndSigtermSaveAndCleanUp)
{
    const std::string before = tracefsState();
    for (const char *sig : {"INT", "TERM"}) {
        const std::string dat = path(std::string("sig-") + sig + ".dat");
        const auto r = run(quotedCli() + " capture --out '" + dat + "' 2>'" + dat + ".err' & p=$!; " +
                           untilRecording(dat + ".err") + "kill -" + sig + " $p; wait $p; s=$?; cat '" + dat +
                           ".err' >&2; exit $s");
        EXPECT_EQ(r.exitCode, 0) << sig << ": " << r.err;
        EXPECT_TRUE(fs::exists(dat)) << sig;
        EXPECT_EQ(tracefsState(), before) << "after SIG" << sig;
        EXPECT_GT(loadTrace(dat)->eventCount(), 0u) << sig;
    }
}

// SIGKILL leaves the instance (nothing can run then) and no file under the final name; `capture
// --cleanup` removes that instance and only it: a live process's instance and a foreign one stay.
TEST_F(Capture, CleanupRemovesOnlyTheKilledCapturesInstance)
{
    const std::string dat = path("killed.dat");
    const auto r = run(quotedCli() + " capture --out '" + dat + "' 2>'" + dat + ".err' & p=$!; " +
                       untilRecording(dat + ".err") + "kill -KILL $p; wait $p; echo $p");
    const std::string pid = r.out.substr(0, r.out.find('\n'));
    ASSERT_FALSE(pid.empty());
    EXPECT_TRUE(fs::exists(kT + "/instances/tickscope-" + pid)) << "the killed capture's instance";
    EXPECT_FALSE(fs::exists(dat));
    const std::string live = kT + "/instances/tickscope-1"; // pid 1 is alive
    const std::string foreign = kT + "/instances/tickscope_test_other";
    ASSERT_EQ(run("mkdir " + live + " " + foreign).exitCode, 0);
    const auto c = run(quotedCli() + " capture --cleanup");
    EXPECT_EQ(c.exitCode, 0) << c.err;
    EXPECT_EQ(c.out, "removed the stale tracefs instance tickscope-" + pid + "\n");
    EXPECT_FALSE(fs::exists(kT + "/instances/tickscope-" + pid));
    EXPECT_TRUE(fs::exists(live));
    EXPECT_TRUE(fs::exists(foreign));
    // (the two made here, and the killed capture's when --cleanup missed it: the fixture's TracefsAsFound)
}

// Another tracer using the top-level buffer keeps recording while a capture runs, with its settings.
TEST_F(Capture, TopLevelTracerIsUndisturbed)
{
    // (the event disabled again and the top-level buffer emptied at the end, however the test ends)
    const TracefsSetting topLevel(kT + "/events/sched/sched_switch/enable", "1", true);
    ASSERT_TRUE(topLevel.ok());
    const std::string before = tracefsState();
    const auto r = run(quotedCli() + " capture --duration 1 --out '" + path("a.dat") + "' -- sleep 0.5");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(tracefsState(), before);
    // the top level still records: switches appear in its buffer after the capture ended
    run("sleep 0.05; sleep 0.05");
    const auto top = run("grep -c sched_switch " + kT + "/trace");
    EXPECT_GT(std::atoi(top.out.c_str()), 0);
}

// One line saying what to do: not root, tracefs not mounted, an unknown event, a rejected filter; no file.
TEST_F(Capture, ErrorsSayWhatToDoAndLeaveNoFile)
{
    const std::string before = tracefsState();
    const std::string dat = path("never.dat");
    auto expectOneLine = [&](const std::string &cmd, const std::string &needle) {
        const auto r = run(cmd);
        EXPECT_EQ(r.exitCode, 1) << cmd << "\n" << r.err;
        EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_FALSE(fs::exists(dat)) << cmd;
    };
    const std::string cli = quotedCli() + " capture --duration 0.2 --out '" + dat + "'";
    expectOneLine(cli + " --events sched/no_such_event", "this kernel has no event 'sched/no_such_event'");
    expectOneLine(cli + " --events sched/sched_switch --filter 'sched/sched_switch:no_such_field == 1'",
                  "the kernel rejects the filter 'no_such_field == 1' for sched/sched_switch");
    if (run("command -v setpriv").exitCode == 0)
        expectOneLine("setpriv --reuid 65534 --regid 65534 --clear-groups " + cli, "capture needs root");
    if (run("command -v unshare").exitCode == 0)
        expectOneLine("unshare -m sh -c 'umount " + kT + " && exec " + cli + "'", "tracefs is not mounted");
    EXPECT_EQ(tracefsState(), before);
}

// A buffer too small for the load: the pages the kernel marked after overwritten events become the model's
// lost ranges, as many as trace-cmd reports dropped-event lines, and the CLI says how many pages had them.
TEST_F(Capture, OverflowBecomesLostRanges)
{
    if (run("command -v stress-ng").exitCode != 0) GTEST_SKIP() << "stress-ng is not installed";
    const std::string dat = path("lost.dat");
    const auto r = run(quotedCli() + " capture --duration 1 --buffer-kb 64 --out '" + dat +
                       "' -- stress-ng --futex 2 --timeout 2 -q");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto t = loadTrace(dat);
    if (t->lostRangeCount() == 0)
        GTEST_SKIP() << "the readers kept up with a 64 KiB buffer: nothing to check";
    EXPECT_NE(r.err.find(std::to_string(t->lostRangeCount()) + " pages with lost events before them"),
              std::string::npos)
        << r.err << " vs " << t->lostRangeCount() << " lost ranges";
    EXPECT_GT(t->lostEventCount(), 0u);
    if (haveTraceCmd()) {
        EXPECT_EQ(countReport(dat).droppedLines, t->lostRangeCount());
    }
}
