// SPDX-License-Identifier: GPL-3.0-or-later
// funcgraph_bench [--lines N] [--runs N]
// Import speed of function_graph text against event text, per line, in one run: writes N lines of
// tracefs event text (the lines of tests/data/host-trace.txt, repeated with later timestamps) and N lines
// of function_graph text (nested timer calls on 4 CPUs, with and without funcgraph-abstime) to temporary
// files, loads each with the text importer `runs` times and prints the median time per line and the
// ratio to the event text; then what the timeline's function rows cost over those calls.
#include "import/TextImporter.h"
#include "view/FunctionLane.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace tickscope;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> eventLines()
{
    std::ifstream in(std::string(TICKSCOPE_TEST_DATA) + "/host-trace.txt");
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);)
        if (!l.empty() && l[0] != '#' && l.find("]") != std::string::npos) lines.push_back(l);
    return lines;
}

// The timestamp of a tracefs line ("... 1123.945194: name: ...") moved by `shiftUs` microseconds.
std::string shifted(const std::string &line, long shiftUs)
{
    const size_t colon = line.find(": ");
    const size_t start = line.rfind(' ', colon) + 1;
    const size_t dot = line.find('.', start);
    if (colon == std::string::npos || dot == std::string::npos || dot > colon) return line;
    const long us =
        std::stol(line.substr(start, dot - start)) * 1000000 + std::stol(line.substr(dot + 1, 6)) + shiftUs;
    char ts[32];
    std::snprintf(ts, sizeof ts, "%ld.%06ld", us / 1000000, us % 1000000);
    return line.substr(0, start) + ts + line.substr(colon);
}

void writeEvents(const fs::path &p, size_t n)
{
    const auto lines = eventLines();
    if (lines.empty()) {
        std::fprintf(stderr, "funcgraph_bench: no event lines in tests/data/host-trace.txt\n");
        std::exit(1);
    }
    std::ofstream out(p);
    for (size_t k = 0; k < n; ++k)
        out << shifted(lines[k % lines.size()], static_cast<long>(k / lines.size()) * 10000000) << '\n';
}

void writeGraph(const fs::path &p, size_t n, bool abstime)
{
    static const char *body[] = {"|  hrtimer_interrupt() {",
                                 "|    __hrtimer_run_queues() {",
                                 "|      tick_sched_timer() {",
                                 "|        tick_do_update_jiffies64();",
                                 "|      }",
                                 "|    }",
                                 "|  }",
                                 "|  run_timer_softirq() {",
                                 "|    __run_timers() {",
                                 "|      call_timer_fn();",
                                 "|    }",
                                 "|  }"};
    static const char *dur[] = {"              ", "              ", "              ", "  0.412 us    ",
                                "  2.930 us    ", "  5.118 us    ", "+ 12.004 us   ", "              ",
                                "              ", "  1.207 us    ", "  3.311 us    ", "! 104.602 us  "};
    std::ofstream out(p);
    char buf[160];
    long us = 100000000;
    for (size_t k = 0; k < n; ++k) {
        const size_t j = k % 12;
        const int cpu = static_cast<int>((k / 12) % 4);
        us += 3;
        if (abstime)
            std::snprintf(buf, sizeof buf, " %5ld.%06ld |   %d) %s%s\n", us / 1000000, us % 1000000, cpu,
                          dur[j], body[j]);
        else
            std::snprintf(buf, sizeof buf, " %d) %s%s\n", cpu, dur[j], body[j]);
        out << buf;
    }
}

double medianSeconds(const std::string &file, int runs, size_t &units)
{
    std::vector<double> t;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        auto traces = importText(file, LoadOptions{});
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        units = traces.front()->eventCount() + traces.front()->functions.size();
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

volatile int64_t benchSink; // keeps the timed loop's results alive

// The timeline's function rows over the timed calls: building each CPU's FunctionLane, then what one
// repaint of a 1500-px-wide view asks of it per lane: the longest call of every column at whole-trace
// zoom, and the calls of a 1 ms window zoomed in.
void laneFigures(const std::string &file, int runs)
{
    auto traces = importText(file, LoadOptions{});
    Trace &t = *traces.front();
    t.functions.finish();
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<FunctionLane> lanes(t.functions.cpus.size());
    for (size_t c = 0; c < lanes.size(); ++c)
        lanes[c].build(t.functions.cpus[c]);
    const double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    constexpr int kColumns = 1500;
    const int64_t from = t.functions.firstTs, to = t.functions.lastTs;
    std::vector<double> whole, window;
    int64_t sink = 0;
    size_t inWindow = 0;
    for (int r = 0; r < std::max(runs, 5) * 20; ++r) {
        auto a = std::chrono::steady_clock::now();
        for (const FunctionLane &l : lanes)
            l.worstPerColumn(from, to, kColumns, [&](int, int64_t w) { sink += w; });
        auto b = std::chrono::steady_clock::now();
        whole.push_back(std::chrono::duration<double>(b - a).count());
        const int64_t w0 = from + (to - from) / 2;
        std::vector<uint32_t> calls;
        for (const FunctionLane &l : lanes)
            l.overlapping(w0, w0 + 1'000'000, kColumns / 3, calls);
        window.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - b).count());
        inWindow = calls.size();
    }
    std::sort(whole.begin(), whole.end());
    std::sort(window.begin(), window.end());
    std::printf("function rows: %zu timed calls on %zu CPUs, lanes built in %.3f s (%zu bytes/call)\n",
                t.functions.size(), lanes.size(), build, [&] {
                    size_t b = 0;
                    for (const FunctionLane &l : lanes)
                        b += l.bytes();
                    return b / std::max<size_t>(1, t.functions.size());
                }());
    std::printf("  whole trace, %d columns x %zu lanes: median %.3f ms (%.0f ns/column)\n", kColumns,
                lanes.size(), whole[whole.size() / 2] * 1e3,
                whole[whole.size() / 2] * 1e9 / (kColumns * lanes.size()));
    std::printf("  a 1 ms window: %zu calls in median %.3f ms\n", inWindow, window[window.size() / 2] * 1e3);
    benchSink = sink;
}

} // namespace

int main(int argc, char **argv)
{
    size_t lines = 2000000;
    int runs = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--lines")
            lines = std::strtoul(argv[i + 1], nullptr, 10);
        else if (a == "--runs")
            runs = std::max(1, std::atoi(argv[i + 1]));
    }
    const fs::path dir = fs::temp_directory_path() / ("funcgraph_bench-" + std::to_string(getpid()));
    fs::create_directories(dir);
    const fs::path events = dir / "events.txt", graph = dir / "graph.txt", paste = dir / "paste.txt";
    writeEvents(events, lines);
    writeGraph(graph, lines, true);
    writeGraph(paste, lines, false);
    size_t ev = 0, calls = 0, pasted = 0;
    const double te = medianSeconds(events, runs, ev);
    const double tg = medianSeconds(graph, runs, calls);
    const double tp = medianSeconds(paste, runs, pasted);
    auto row = [&](const char *what, const fs::path &p, double s, size_t units, const char *unit) {
        std::printf("%-44s %9zu lines %6.1f MB  median %.3f s  %6.1f ns/line  %zu %s  ratio %.2f\n", what,
                    lines, static_cast<double>(fs::file_size(p)) / 1e6, s,
                    s / static_cast<double>(lines) * 1e9, units, unit, s / te);
    };
    std::printf("text import, median of %d runs\n", runs);
    row("event text (host-trace.txt lines)", events, te, ev, "events");
    row("function_graph, funcgraph-abstime", graph, tg, calls, "calls");
    row("function_graph, no timestamps (paste form)", paste, tp, pasted, "calls");
    laneFigures(graph, runs);
    fs::remove_all(dir);
    return 0;
}
