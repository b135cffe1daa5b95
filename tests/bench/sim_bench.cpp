// Prints the simulator's rate (simulated events per second of wall time) for every preset and variant,
// and for a long run of each preset (its duration scaled up), best of 3 runs each. Target: >= 10 M/s.
#include "sim/Presets.h"
#include "sim/Simulator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

using namespace tickscope::sim;

namespace {

void measure(const Scenario &s, const std::string &label)
{
    double best = 1e9;
    uint64_t events = 0;
    for (int i = 0; i < 3; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        const SimResult r = simulate(s, 1);
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        events = r.trace->eventCount();
    }
    std::printf("%-48s %10llu events %8.3f s %8.1f M events/s\n", label.c_str(), (unsigned long long)events,
                best, events / best / 1e6);
}

} // namespace

int main(int argc, char **argv)
{
    const double scale = argc > 1 ? std::atof(argv[1]) : 5.0;
    for (const Preset &p : presets()) {
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
    return 0;
}
