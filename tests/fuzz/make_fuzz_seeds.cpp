// SPDX-License-Identifier: GPL-3.0-or-later
// Writes the fuzz targets' seed corpora into DIR/<target>/: tiny trace.dat files (v6 and v7) cut from
// the real traces in tests/data, the head of a real text trace, and the scenario presets with --set
// lines. Run by scripts/fuzz.sh before each fuzzing run; nothing here is committed output.
#include "TinyDat.h"
#include "sim/Presets.h"

#include <filesystem>
#include <fstream>
#include <iostream>

namespace fs = std::filesystem;
using tickscope::test::TinyDat;

namespace {

void write(const fs::path &p, const std::string &bytes)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
}

std::string head(const fs::path &p, int lines)
{
    std::ifstream in(p);
    std::string out, line;
    for (int i = 0; i < lines && std::getline(in, line); ++i)
        out += line + '\n';
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::cerr << "usage: make_fuzz_seeds TESTS_DATA_DIR OUT_DIR\n";
        return 2;
    }
    const fs::path data = argv[1], out = argv[2];
    const std::set<std::string> systems{
        "ftrace",           "timer",        "sched",      "irq",    "irq_vectors", "power",
        "context_tracking", "raw_syscalls", "exceptions", "signal", "workqueue",   "task"};
    int n = 0;
    // host-generic.dat: events of kinds outside the table, kept with their own formats; arch/: trace.dat as
    // trace-cmd writes it on other architectures, 32-bit longs (i386, armhf) and arm64 (TinyDat keeps the
    // long size; it refuses big-endian files, so s390x is not a seed)
    for (const char *name : {"nohzfull-poll.dat", "host-cyclic-v6.dat", "host-lost.dat", "host-generic.dat",
                             "arch/arm64-6.1-v7.dat", "arch/i386-6.1-v7.dat", "arch/armhf-6.1-v7.dat"}) {
        const TinyDat t = TinyDat::fromFile(data / name, 2, systems);
        const std::string base = fs::path(name).filename().string();
        for (const auto &target : {"fuzz_tracedat", "fuzz_tracedat_reference"}) {
            write(out / target / (base + ".v6"), t.write6());
            write(out / target / (base + ".v7"), t.write7());
        }
        ++n;
    }
    write(out / "fuzz_text" / "trace.txt", head(data / "host-trace.txt", 120));
    write(out / "fuzz_text" / "trace-pipe.txt", head(data / "host-trace-pipe.txt", 120));
    write(out / "fuzz_text" / "funcgraph-paste.txt", head(data / "text/seed002-run-timer-softirq.txt", 120));
    // the forms traces as users have them take: arm64 (the tick an irq_handler_entry named arch_timer),
    // the syscalls events without their names, an overwritten ring buffer's header
    write(out / "fuzz_text" / "arm64-nohzfull.txt", head(data / "arm64/arm64-6.1-nohzfull.txt", 200));
    write(out / "fuzz_text" / "syscalls.txt", head(data / "text/tracefs-syscalls.txt", 120));
    write(out / "fuzz_text" / "overwritten.txt", head(data / "text/tracefs-noirqinfo.txt", 120));
    // trace_options forms: sym-offset with the TGID column, sym-addr, latency-format (microseconds), and the
    // refused raw form
    write(out / "fuzz_text" / "symoffset-tgid.txt", head(data / "text/tracefs-symoffset-tgid.txt", 120));
    write(out / "fuzz_text" / "symaddr.txt", head(data / "text/tracefs-symaddr.txt", 120));
    write(out / "fuzz_text" / "latency-format.txt", head(data / "text/tracefs-latency.txt", 120));
    write(out / "fuzz_text" / "raw-form.txt", head(data / "text/tracefs-raw.txt", 40));
    write(out / "fuzz_text" / "function-tracer.txt", head(data / "text/lab-fn-symoffset-symaddr.txt", 120));
    write(out / "fuzz_text" / "function-mixed.txt", head(data / "text/lab-fn-mixed-events.txt", 120));
    write(
        out / "fuzz_text" / "report-raw.txt",
        "cpus=2\n"
        "       trace-cmd-113   [000]     4.939376: sched_switch:          prev_comm=trace-cmd prev_pid=113 "
        "prev_prio=120 prev_state=256 next_comm=rcu_preempt next_pid=15 next_prio=120\n"
        "     rcu_preempt-15    [000]     4.939480: timer_start:           timer=0xff42339c80083e38 "
        "function=process_timeout expires=4294893482 now=0xfffedfa9 flags=180355072\n"
        "       trace-cmd-113   [000]     4.938561: hrtimer_expire_entry:  hrtimer=0xff2f6521fe8235c0 "
        "now=4920149913 function=0xffffffff89368830\n");
    write(out / "fuzz_text" / "funcgraph-abstime.txt",
          "# tracer: function_graph\n"
          "  10.000100 |   1)  <idle>-0    |               |  run_timer_softirq() {\n"
          "  10.000101 |   1)  <idle>-0    |               |    __run_timers() {\n"
          "  10.000102 |   1)  <idle>-0    | + 20.000 us   |      call_timer_fn(); /* = 0x0 */\n"
          "  10.000200 |   1)  <idle>-0    |   ==========> |\n"
          "  10.000201 |   1)  <idle>-0    |   0.500 us    |      hrtimer_interrupt();\n"
          "  10.000210 |   1)  <idle>-0    |   <========== |\n"
          "  10.000400 |   1)  <idle>-0    | ! 299.000 us  |    } /* __run_timers */\n"
          " ------------------------------------------\n"
          "  1)    <idle>-0    =>   bash-1234   \n"
          "  10.000401 |   1)  <idle>-0    | ! 301.000 us  |  }\n");
    write(out / "fuzz_text" / "funcgraph-report.txt",
          "cpus=2\n"
          "  <idle>-0 [001] 512.000100: funcgraph_entry:                   |  run_timer_softirq() {\n"
          "  <idle>-0 [001] 512.000102: funcgraph_entry:      + 20.000 us   |    call_timer_fn();\n"
          "  <idle>-0 [001] 512.000401: funcgraph_exit:       ! 301.000 us  |  }\n"
          "  <idle>-0 [000] 512.000500: funcgraph_entry:       --> tick_sched_timer (1)\n"
          "  <idle>-0 [000] 512.000510: funcgraph_exit:        <-- tick_sched_timer (1) (start: 1000  end: "
          "1100) over: 0\n");
    for (const auto &p : tickscope::sim::presets()) {
        write(out / "fuzz_scenario" / std::string(p.name), std::string(p.json) + "\n--\nduration_ms=20\n");
    }
    std::cout << "seeds from " << n << " traces and " << tickscope::sim::presets().size() << " presets in "
              << out << "\n";
    return 0;
}
