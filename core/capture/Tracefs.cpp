// SPDX-License-Identifier: GPL-3.0-or-later
// The tracefs side of a capture that needs no instance: reading and writing its files, event names and what
// each default event is for, the CPU mask, event ids and field offsets from format files, kallsyms
// addresses, where tracefs is mounted, and stale instances. Capture.cpp holds the capture itself.
#include "Tracefs.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <filesystem>
#include <fstream>
#include <signal.h>
#include <sstream>
#include <unistd.h>

namespace tickscope {

namespace fs = std::filesystem;

std::string readText(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool writeText(const std::string &path, const std::string &text, int *err)
{
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f) {
        if (err) *err = errno;
        return false;
    }
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    int e = ok ? 0 : errno;
    if (std::fclose(f) != 0 && !e) e = errno;
    if (err) *err = e;
    return ok && e == 0;
}

// "timer/hrtimer_start", "timer:hrtimer_start", "timer" -> system, event ("" = the whole system)
std::string firstLine(const std::string &path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

std::vector<std::string> splitCommaList(std::string_view text)
{
    std::vector<std::string> out;
    while (!text.empty()) {
        const size_t comma = text.find(',');
        std::string_view part = text.substr(0, comma);
        while (!part.empty() && part.front() == ' ')
            part.remove_prefix(1);
        while (!part.empty() && part.back() == ' ')
            part.remove_suffix(1);
        if (!part.empty()) out.emplace_back(part);
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    }
    return out;
}

std::pair<std::string, std::string> splitEvent(const std::string &spec)
{
    const size_t sep = spec.find_first_of("/:");
    if (sep == std::string::npos) return {spec, ""};
    std::string ev = spec.substr(sep + 1);
    if (ev == "*") ev.clear();
    return {spec.substr(0, sep), ev};
}

namespace {

struct Cost
{
    std::string_view event, cost;
};
// What the analysis loses without each event of the default set.
constexpr Cost kCosts[] = {
    {"timer/hrtimer_expire_entry", "no hrtimer expiries: ticks and timer wakeups are not seen"},
    {"timer/hrtimer_start", "no hrtimer arming: expiry lateness and re-arms are not measured"},
    {"timer/tick_stop", "no tick_stop: failed tick stops and their dependencies are not seen"},
    {"timer/timer_expire_entry", "no timer-wheel expiries: TIMER softirq work is not attributed"},
    {"timer/timer_base_idle", "no timer_base_idle: the wheel's idle state is inferred"},
    {"irq_vectors/local_timer_entry",
     "no local_timer_entry: the tick interrupt is inferred from hrtimer expiries"},
    {"context_tracking/user_enter",
     "no context_tracking: user/kernel mode inferred from syscalls and switches"},
    {"context_tracking/user_exit",
     "no context_tracking: user/kernel mode inferred from syscalls and switches"},
    {"raw_syscalls/sys_enter",
     "no syscall events: user/kernel mode inferred from context tracking or switches"},
    {"power/cpu_idle", "no cpu_idle: idle is inferred from the idle task running"},
    {"sched/sched_waking", "no sched_waking: wakeup latency starts at sched_wakeup"},
    {"ipi/ipi_send_cpu", "no ipi_send_cpu: remote kicks of nohz_full CPUs are not attributed"},
    {"sched/sched_wake_idle_without_ipi",
     "no sched_wake_idle_without_ipi: polling wakeups are not told apart"},
};

} // namespace

std::string costOf(const std::string &event)
{
    for (const Cost &c : kCosts)
        if (c.event == event) return std::string(c.cost);
    return "not used by the analysis's main figures";
}

// tracing_cpumask: comma-separated 32-bit hex groups, most significant first.
std::string cpuMask(const std::vector<int> &cpus)
{
    const int top = cpus.empty() ? 0 : *std::max_element(cpus.begin(), cpus.end());
    std::vector<uint32_t> words(static_cast<size_t>(top / 32 + 1), 0);
    for (int c : cpus)
        words[static_cast<size_t>(c / 32)] |= 1u << (c % 32);
    std::string out;
    for (size_t k = words.size(); k-- > 0;) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%08x", words[k]);
        if (!out.empty()) out += ',';
        out += buf;
    }
    return out;
}

int eventId(const std::string &tracing, const std::string &event)
{
    const std::string t = readText(tracing + "/events/" + event + "/id");
    return t.empty() ? -1 : std::atoi(t.c_str());
}

// A field's offset in an event's format ("field:void * function;\toffset:8;..."), -1 when absent.
int fieldOffset(const std::string &tracing, const std::string &event, const std::string &field)
{
    std::istringstream in(readText(tracing + "/events/" + event + "/format"));
    std::string line;
    while (std::getline(in, line)) {
        const size_t semi = line.find(';');
        const size_t at = line.find("offset:");
        if (semi == std::string::npos || at == std::string::npos) continue;
        const std::string decl = line.substr(0, semi);
        const size_t name = decl.find_last_of(" *");
        if (name != std::string::npos && decl.substr(name + 1) == field)
            return std::atoi(line.c_str() + at + 7);
    }
    return -1;
}

// The addresses /proc/kallsyms gives these functions (root sees real ones; others see zeros, skipped).
std::vector<uint64_t> kernelAddresses(std::initializer_list<std::string_view> names)
{
    std::vector<uint64_t> out;
    std::ifstream in("/proc/kallsyms");
    std::string addr, type, name;
    while (in >> addr >> type >> name) {
        if (in.peek() != '\n') in.ignore(1 << 10, '\n'); // a module column
        for (std::string_view n : names) {
            if (name == n) {
                const uint64_t a = std::strtoull(addr.c_str(), nullptr, 16);
                if (a) out.push_back(a);
            }
        }
    }
    return out;
}

const std::vector<std::string> &tickEvents()
{
    static const std::vector<std::string> k = {
        "timer/hrtimer_start",
        "timer/hrtimer_cancel",
        "timer/hrtimer_expire_entry",
        "timer/hrtimer_expire_exit",
        "timer/timer_start",
        "timer/timer_expire_entry",
        "timer/timer_expire_exit",
        "timer/timer_cancel",
        "timer/tick_stop",
        "timer/timer_base_idle",
        "sched/sched_switch",
        "sched/sched_wakeup",
        "sched/sched_waking",
        "sched/sched_wakeup_new",
        "sched/sched_migrate_task",
        "sched/sched_wake_idle_without_ipi",
        "power/cpu_idle",
        "irq/softirq_entry",
        "irq/softirq_exit",
        "irq/softirq_raise",
        "irq/irq_handler_entry",
        "irq/irq_handler_exit",
        "irq_vectors/local_timer_entry",
        "irq_vectors/local_timer_exit",
        "irq_vectors/reschedule_entry",
        "irq_vectors/reschedule_exit",
        "irq_vectors/irq_work_entry",
        "irq_vectors/irq_work_exit",
        "context_tracking/user_enter",
        "context_tracking/user_exit",
        "raw_syscalls/sys_enter",
        "raw_syscalls/sys_exit",
        "ipi/ipi_send_cpu",
    };
    return k;
}

std::string tracefsMount()
{
    std::ifstream in("/proc/mounts");
    std::string dev, dir, type, rest;
    std::string debugfs;
    while (in >> dev >> dir >> type && std::getline(in, rest)) {
        if (type == "tracefs") return dir;
        if (type == "debugfs" && debugfs.empty()) debugfs = dir;
    }
    std::error_code ec;
    if (!debugfs.empty() && fs::exists(debugfs + "/tracing/events", ec)) return debugfs + "/tracing";
    return {};
}

std::vector<std::string> removeStaleInstances()
{
    std::vector<std::string> removed;
    const std::string tracing = tracefsMount();
    if (tracing.empty()) return removed;
    const std::string dir = tracing + "/instances";
    DIR *d = ::opendir(dir.c_str());
    if (!d) return removed;
    std::vector<std::string> names;
    while (dirent *e = ::readdir(d))
        names.emplace_back(e->d_name);
    ::closedir(d);
    for (const std::string &n : names) {
        if (n.rfind(kInstancePrefix, 0) != 0) continue;
        const std::string pidText = n.substr(kInstancePrefix.size());
        if (pidText.empty() || pidText.find_first_not_of("0123456789") != std::string::npos) continue;
        const long pid = std::atol(pidText.c_str());
        if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM)) continue; // alive
        writeText(dir + "/" + n + "/tracing_on", "0");
        if (::rmdir((dir + "/" + n).c_str()) == 0) removed.push_back(n);
    }
    return removed;
}

} // namespace tickscope
