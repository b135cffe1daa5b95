// tickscope-cli: the command-line face of core. Exit 0 on success; on failure one line on stderr and 1.
#include "import/Loader.h"
#include "stats/TraceStats.h"
#include "util/ProcessStats.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace tickscope;

namespace {

constexpr const char *kUsage =
    "usage: tickscope-cli COMMAND [ARGS]\n"
    "  stats FILE [--json] [--instance NAME] [--threads N] [--record-api]\n"
    "      what was loaded: events per CPU and per event name, span, lost events, load time,\n"
    "      peak memory per event. FILE is a trace.dat (v6/v7) or ftrace text (tracefs trace,\n"
    "      trace_pipe, trace-cmd report output). Without --instance every buffer instance\n"
    "      that has events is listed (NAME 'top' selects the top-level buffer).\n";

struct UsageError
{
    std::string message;
};

int cmdStats(const std::vector<std::string> &args)
{
    std::string file;
    bool json = false;
    LoadOptions opt;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "--json") {
            json = true;
        } else if (a == "--instance" && i + 1 < args.size()) {
            opt.instance = args[++i] == "top" ? "" : args[i];
            opt.instanceGiven = true;
        } else if (a == "--record-api") {
            opt.recordApi = true;
        } else if (a == "--threads" && i + 1 < args.size()) {
            opt.threads = std::atoi(args[++i].c_str());
        } else if (!a.empty() && a[0] == '-') {
            throw UsageError{"stats: unknown option " + a};
        } else if (file.empty()) {
            file = a;
        } else {
            throw UsageError{"stats: one FILE only"};
        }
    }
    if (file.empty()) throw UsageError{"stats: FILE missing"};

    const auto t0 = std::chrono::steady_clock::now();
    auto traces = loadAll(file, opt);
    const auto t1 = std::chrono::steady_clock::now();
    std::vector<TraceStats> stats;
    LoadFigures fig;
    fig.loadSeconds = std::chrono::duration<double>(t1 - t0).count();
    for (const auto &t : traces) {
        stats.push_back(TraceStats::compute(*t));
        fig.events += stats.back().events;
    }
    fig.peakRssBytes = peakRssBytes();
    const std::string out = json ? formatStatsJson(stats, fig) : formatStatsText(stats, fig);
    std::fwrite(out.data(), 1, out.size(), stdout);
    for (const auto &s : stats) {
        for (const auto &w : s.warnings) std::fprintf(stderr, "tickscope-cli: warning: %s: %s\n", file.c_str(), w.c_str());
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
        std::fputs(kUsage, args.empty() ? stderr : stdout);
        return args.empty() ? 2 : 0;
    }
    const std::string cmd = args[0];
    args.erase(args.begin());
    try {
        if (cmd == "stats") return cmdStats(args);
        throw UsageError{"unknown command '" + cmd + "' (try --help)"};
    } catch (const UsageError &e) {
        std::fprintf(stderr, "tickscope-cli: %s\n", e.message.c_str());
        return 2;
    } catch (const LoadError &e) {
        std::fprintf(stderr, "tickscope-cli: %s\n", e.what());
        return 1;
    } catch (const std::bad_alloc &) {
        std::fprintf(stderr, "tickscope-cli: out of memory\n");
        return 1;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "tickscope-cli: error: %s\n", e.what());
        return 1;
    }
}
