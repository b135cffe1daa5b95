// SPDX-License-Identifier: GPL-3.0-or-later
// The capture's tracefs helpers against a fake tracefs directory (no root, no kernel): the CPU mask of
// machines past 32 CPUs, event ids and field offsets read from the files the kernel writes, and the
// event lists of the command line.
#include "TestUtil.h"

#include "capture/Tracefs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace tickscope;
using tickscope::test::tempDir;
namespace fs = std::filesystem;

namespace {

void put(const fs::path &file, const std::string &text)
{
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
}

// The format file of timer:hrtimer_start as a 6.1 x86_64 kernel writes it.
constexpr const char *kHrtimerStartFormat =
    "name: hrtimer_start\n"
    "ID: 97\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:s64 expires;\toffset:24;\tsize:8;\tsigned:1;\n"
    "\tfield:s64 softexpires;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:enum hrtimer_mode mode;\toffset:40;\tsize:4;\tsigned:0;\n"
    "\n"
    "print fmt: \"hrtimer=%p function=%ps expires=%llu softexpires=%llu mode=%s\", REC->hrtimer, ...\n";

} // namespace

TEST(TracefsHelpers, CpuMaskPastThirtyTwoCpus)
{
    // 32-bit groups, most significant first, as tracing_cpumask takes them
    EXPECT_EQ(cpuMask({0}), "00000001");
    EXPECT_EQ(cpuMask({31}), "80000000");
    EXPECT_EQ(cpuMask({32}), "00000001,00000000");
    EXPECT_EQ(cpuMask({2, 3}), "0000000c");
    EXPECT_EQ(cpuMask({0, 33, 127}), "80000000,00000000,00000002,00000001");
    std::vector<int> all(128);
    for (int c = 0; c < 128; ++c)
        all[static_cast<size_t>(c)] = c;
    EXPECT_EQ(cpuMask(all), "ffffffff,ffffffff,ffffffff,ffffffff");
    std::string top = "80000000"; // CPU 8191: the top bit of 256 groups
    for (int k = 0; k < 255; ++k)
        top += ",00000000";
    EXPECT_EQ(cpuMask({8191}), top);
}

TEST(TracefsHelpers, EventIdsAndFieldOffsetsFromTheKernelsFiles)
{
    const fs::path t = tempDir() / "tracing";
    put(t / "events/timer/hrtimer_start/id", "97\n");
    put(t / "events/timer/hrtimer_start/format", kHrtimerStartFormat);
    EXPECT_EQ(eventId(t.string(), "timer/hrtimer_start"), 97);
    EXPECT_EQ(eventId(t.string(), "timer/hrtimer_cancel"), -1); // not on this kernel
    EXPECT_EQ(fieldOffset(t.string(), "timer/hrtimer_start", "hrtimer"), 8);
    EXPECT_EQ(fieldOffset(t.string(), "timer/hrtimer_start", "function"), 16);
    EXPECT_EQ(fieldOffset(t.string(), "timer/hrtimer_start", "softexpires"), 32);
    EXPECT_EQ(fieldOffset(t.string(), "timer/hrtimer_start", "mode"), 40);
    EXPECT_EQ(fieldOffset(t.string(), "timer/hrtimer_start", "common_pid"), 4);
    EXPECT_EQ(fieldOffset(t.string(), "timer/hrtimer_start", "expire"), -1); // a prefix is not a field
    EXPECT_EQ(fieldOffset(t.string(), "timer/hrtimer_cancel", "hrtimer"), -1);
    fs::remove_all(t.parent_path());
}

TEST(TracefsHelpers, EventListsOfTheCommandLine)
{
    EXPECT_EQ(splitCommaList("a, b,,c"), (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(splitCommaList(" , ,"), std::vector<std::string>{});
    EXPECT_EQ(splitEvent("timer/hrtimer_start"),
              std::make_pair(std::string("timer"), std::string("hrtimer_start")));
    EXPECT_EQ(splitEvent("timer:hrtimer_start"),
              std::make_pair(std::string("timer"), std::string("hrtimer_start")));
    EXPECT_EQ(splitEvent("irq_vectors"), std::make_pair(std::string("irq_vectors"), std::string()));
    EXPECT_EQ(splitEvent("irq/*"), std::make_pair(std::string("irq"), std::string()));
}
