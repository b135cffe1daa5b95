// SPDX-License-Identifier: GPL-3.0-or-later
// Prints the simulator's rate (simulated events per second of wall time) for every preset and variant,
// and for a long run of each preset (its duration scaled up), best of 3 runs each, and the first run's
// rate (the process's first simulation makes its columns in fresh memory, later runs reuse the mappings
// earlier runs freed, as a what-if panel's re-runs do). Target: >= 10 M/s.
// Then the time to write a ~6 M-event simulated 128-CPU run as trace.dat (target <= 1 s) and, for scale,
// as ftrace text.
// Usage: sim_bench [SCALE [PRESET [RUNS]]]: SCALE of the long runs (5); only PRESET and its variants,
// without the writes, RUNS times each (3; more to profile one preset).
#include "sim/Presets.h"
#include "sim/Simulator.h"
#include "sim/TextWriter.h"
#include "write/TraceDatWriter.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>

using namespace tickscope::sim;

namespace {

int runs = 3;

void measure(const Scenario &s, const std::string &label)
{
    double best = 1e9, first = 0;
    uint64_t events = 0;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        const SimResult r = simulate(s, 1);
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = std::min(best, t);
        if (i == 0) first = t;
        events = r.trace->eventCount();
    }
    std::printf("%-48s %10llu events %8.3f s %8.1f M events/s (first run %5.1f)\n", label.c_str(),
                (unsigned long long)events, best, events / best / 1e6, events / first / 1e6);
}

} // namespace

int main(int argc, char **argv)
{
    const double scale = argc > 1 ? std::atof(argv[1]) : 5.0;
    const std::string only = argc > 2 ? argv[2] : "";
    if (argc > 3) runs = std::max(1, std::atoi(argv[3]));
    for (const Preset &p : presets()) {
        if (!only.empty() && p.name != only) continue;
        const Scenario base = parseScenario(std::string(p.json), std::string(p.name));
        measure(base, std::string(p.name));
        for (const auto &[v, kv] : base.variants)
            measure(loadScenario(std::string(p.name) + ":" + v), std::string(p.name) + ":" + v);
        Scenario longer = base;
        longer.durationNs = static_cast<int64_t>(longer.durationNs * scale);
        for (auto &t : longer.tasks) {
            if (t.loops > 0) t.loops = static_cast<int>(t.loops * scale);
        }
        measure(longer, std::string(p.name) + " x" + std::to_string(static_cast<int>(scale)) + " duration");
    }

    if (!only.empty()) return 0;
    Scenario big = loadScenario("seed000-nohzfull-poll");
    for (const auto &[k, v] : {std::pair<const char *, const char *>{"cpus", "128"},
                               {"nohz_full", "8-127"},
                               {"stress_threads", "64"},
                               {"duration_ms", "9000"}})
        applySetting(big, k, v);
    const SimResult r = simulate(big, 1);
    const std::string path =
        std::filesystem::temp_directory_path() / ("sim_bench-" + std::to_string(getpid()));
    auto timed = [&](const char *what, auto &&write, const std::string &file) {
        double best = 1e9;
        for (int i = 0; i < 3; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            write(file);
            best =
                std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        const double mb = static_cast<double>(std::filesystem::file_size(file)) / 1e6;
        std::printf("write %-42s %10zu events %8.3f s %8.1f M events/s %8.1f MB\n", what,
                    r.trace->eventCount(), best, static_cast<double>(r.trace->eventCount()) / best / 1e6, mb);
        std::filesystem::remove(file);
    };
    timed(
        "trace.dat (128 CPUs, fsync'ed)",
        [&](const std::string &f) { tickscope::writeTraceDat(*r.trace, f); }, path + ".dat");
    timed(
        "ftrace text (128 CPUs)", [&](const std::string &f) { writeFtraceText(*r.trace, f); }, path + ".txt");
    return 0;
}
