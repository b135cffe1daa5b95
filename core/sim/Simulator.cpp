#include "Simulator.h"

#include "Engine.h"

#include <chrono>

namespace tickscope::sim {

SimResult simulate(const Scenario &scenario, uint64_t seed)
{
    const auto t0 = std::chrono::steady_clock::now();
    SimResult r;
    r.trace = std::make_unique<Trace>();
    Trace &t = *r.trace;
    const KernelConfig &k = scenario.kernel;
    Engine engine(scenario, seed, t, r.truth);
    engine.run();
    t.tasks.finalize();
    t.meta.path = scenario.name + (scenario.variant.empty() ? "" : ":" + scenario.variant);
    t.meta.format = "tickscope simulation";
    t.meta.cpuCount = k.cpus;
    t.meta.traceClock = "mono";
    const std::string release = k.legacyKernel ? "3.10.0-sim" : k.preemptRt ? "6.18.0-sim-rt" : "6.18.0-sim";
    t.meta.uname = "Linux sim " + release + (k.preemptRt ? " #1 SMP PREEMPT_RT" : " #1 SMP PREEMPT_DYNAMIC");
    t.meta.kernelRelease = release;
    std::string cmdline = "BOOT_IMAGE=/vmlinuz-" + release;
    if (k.idle == IdleMode::Poll) cmdline += " idle=poll";
    if (!k.nohzFull.empty()) {
        std::string list;
        for (int c : k.nohzFull)
            list += (list.empty() ? "" : ",") + std::to_string(c);
        cmdline += " nohz_full=" + list;
    }
    t.meta.kernelCmdline = cmdline;
    r.truth.events = t.eventCount();
    r.truth.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

} // namespace tickscope::sim
