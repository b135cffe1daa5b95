// SPDX-License-Identifier: GPL-3.0-or-later
#include "Capture.h"

#include "Tracefs.h"
#include "analysis/CpuList.h"

#include "import/Loader.h"
#include "write/DatFileWriter.h"

#include "TracefsApi.h"
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <mutex>
#include <signal.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>
#include <unordered_set>

namespace tickscope {

namespace fs = std::filesystem;

struct Capture::Reader
{
    int cpu = 0;
    CpuLive *live = nullptr;
    int store = -1;                 // the pages read so far (an unlinked temporary file)
    std::atomic<uint64_t> bytes{0}; // in store; pages below it are complete (snapshots read them meanwhile)
    tracefs_cpu *tcpu = nullptr;
    std::thread thread;
    std::atomic<bool> stop{false};
    std::string error;
    int timerIrqType = -1, hrtimerType = -1, wakeupType = -1;
    int functionAt = -1;           // hrtimer_expire_entry's function field, from its format
    std::vector<uint64_t> tickFns; // the tick handler's addresses (tick_nohz_handler, tick_sched_timer)
    // The timer events' function fields (type id, offset): the functions seen, so that a live snapshot
    // carries only their kallsyms lines.
    std::vector<std::pair<int, int>> functionFields;
    std::unordered_set<uint64_t> functionsSeen; // this thread's
    mutable std::mutex seenLock;
    std::vector<uint64_t> seen; // shared with snapshots, under seenLock

    ~Reader()
    {
        if (tcpu) tracefs_cpu_close(tcpu);
        if (store >= 0) ::close(store);
    }

    // Counts the page's records for the live view (the saved file is decoded by the importer).
    void count(const uint8_t *page, size_t size)
    {
        if (size < 16) return;
        uint64_t commit;
        std::memcpy(&commit, page + 8, 8);
        if (commit & (uint64_t{1} << 31)) live->lostPages.fetch_add(1, std::memory_order_relaxed);
        const size_t used = std::min<size_t>(commit & 0xfffff, size - 16);
        const uint8_t *p = page + 16, *end = p + used;
        uint64_t events = 0, ticks = 0, timerIrqs = 0, wakeups = 0;
        while (p + 4 <= end) {
            uint32_t h;
            std::memcpy(&h, p, 4);
            const uint32_t typeLen = h & 31;
            const uint8_t *data = p + 4;
            size_t rec;
            if (typeLen == 0) {
                if (data + 4 > end) break;
                uint32_t len;
                std::memcpy(&len, data, 4);
                if (len < 4) break;
                data += 4;
                rec = 4 + len;
            } else if (typeLen <= 28) {
                rec = 4 + 4 * typeLen;
            } else if (typeLen == 29) {
                if (data + 4 > end) break;
                uint32_t len;
                std::memcpy(&len, data, 4);
                if ((h >> 5) == 0) break; // the rest of the page is empty
                rec = 4 + len;
                p += rec;
                continue;
            } else {
                p += 8; // time extend / absolute stamp
                continue;
            }
            if (p + rec > end || rec < 6) break;
            uint16_t type;
            std::memcpy(&type, data, 2);
            ++events;
            timerIrqs += type == timerIrqType;
            if (type == hrtimerType && functionAt >= 0 && data + functionAt + 8 <= p + rec) {
                uint64_t fn;
                std::memcpy(&fn, data + functionAt, 8);
                ticks += std::find(tickFns.begin(), tickFns.end(), fn) != tickFns.end();
            }
            for (const auto &[ft, off] : functionFields) {
                if (type != ft || data + off + 8 > p + rec) continue;
                uint64_t fn;
                std::memcpy(&fn, data + off, 8);
                if (functionsSeen.insert(fn).second) {
                    std::lock_guard<std::mutex> g(seenLock);
                    seen.push_back(fn);
                }
            }
            wakeups += type == wakeupType;
            p += rec;
        }
        live->events.fetch_add(events, std::memory_order_relaxed);
        live->ticks.fetch_add(ticks, std::memory_order_relaxed);
        live->timerIrqs.fetch_add(timerIrqs, std::memory_order_relaxed);
        live->wakeups.fetch_add(wakeups, std::memory_order_relaxed);
        live->pages.fetch_add(1, std::memory_order_relaxed);
    }

    void keep(const uint8_t *buf, int n, size_t pageSize)
    {
        if (n <= 0) return;
        // every read is one page; pad a short one to the page size, as the file stores pages
        std::vector<uint8_t> page(buf, buf + n);
        page.resize(std::max<size_t>(pageSize, static_cast<size_t>(n)), 0);
        const ssize_t w = ::write(store, page.data(), page.size());
        if (w != static_cast<ssize_t>(page.size())) {
            if (error.empty())
                error =
                    std::string("cannot keep the recorded pages: ") + std::strerror(w < 0 ? errno : ENOSPC);
            return;
        }
        bytes.store(bytes.load(std::memory_order_relaxed) + page.size(), std::memory_order_release);
        count(page.data(), page.size());
    }

    void run(size_t pageSize)
    {
        std::vector<uint8_t> buf(pageSize);
        while (!stop.load(std::memory_order_acquire)) {
            const int n = tracefs_cpu_buffered_read(tcpu, buf.data(), true);
            if (n > 0) {
                keep(buf.data(), n, pageSize);
                continue;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        // tracing is off: drain what is left, partly filled pages included
        for (int guard = 0; guard < 1 << 20; ++guard) {
            const int n = tracefs_cpu_buffered_read(tcpu, buf.data(), true);
            if (n <= 0) break;
            keep(buf.data(), n, pageSize);
        }
        for (int guard = 0; guard < 1 << 20; ++guard) {
            const int n = tracefs_cpu_flush(tcpu, buf.data());
            if (n <= 0) break;
            keep(buf.data(), n, pageSize);
        }
    }
};

Capture::Capture(CaptureOptions options) : opt_(std::move(options))
{
    tracing_ = tracefsMount();
    if (tracing_.empty())
        throw CaptureError("tracefs is not mounted: mount it with 'sudo mount -t tracefs nodev "
                           "/sys/kernel/tracing' and try again");
    if (::access((tracing_ + "/instances").c_str(), W_OK) != 0)
        throw CaptureError("capture needs root (it creates a private tracefs instance in " + tracing_ +
                           "/instances): run it with sudo");
    removeStaleInstances();
    name_ = std::string(kInstancePrefix) + std::to_string(::getpid());
    const std::string dir = tracing_ + "/instances/" + name_;
    if (::mkdir(dir.c_str(), 0755) != 0)
        throw CaptureError("cannot create the tracefs instance " + dir + ": " + std::strerror(errno));
    inst_ = tracefs_instance_alloc(tracing_.c_str(), name_.c_str());
    if (!inst_) {
        ::rmdir(dir.c_str());
        throw CaptureError("cannot open the tracefs instance " + dir);
    }
    try {
        tracefs_trace_off(inst_); // a new instance records from birth: nothing until start()
        if (opt_.bufferKb <= 0) throw CaptureError("the buffer size must be positive");
        if (tracefs_instance_set_buffer_size(inst_, static_cast<size_t>(opt_.bufferKb), -1) < 0)
            throw CaptureError("the kernel refused a buffer of " + std::to_string(opt_.bufferKb) +
                               " KiB per CPU: " + std::strerror(errno));
        const std::vector<int> online =
            parseCpuList(firstLine("/sys/devices/system/cpu/online")).value_or(std::vector<int>{});
        cpus_ = opt_.cpus.empty() ? online : opt_.cpus;
        for (int c : cpus_)
            if (std::find(online.begin(), online.end(), c) == online.end())
                throw CaptureError("CPU " + std::to_string(c) + " is not online (online: " +
                                   readText("/sys/devices/system/cpu/online").substr(0, 64) + ")");
        std::sort(cpus_.begin(), cpus_.end());
        cpus_.erase(std::unique(cpus_.begin(), cpus_.end()), cpus_.end());
        if (!opt_.cpus.empty()) {
            int e = 0;
            if (!writeText(dir + "/tracing_cpumask", cpuMask(cpus_), &e))
                throw CaptureError("cannot select CPUs: " + std::string(std::strerror(e)));
        }
        const bool defaults = opt_.events.empty();
        const std::vector<std::string> &wanted = defaults ? tickEvents() : opt_.events;
        for (const std::string &spec : wanted) {
            auto [sys, ev] = splitEvent(spec);
            const std::string path = tracing_ + "/events/" + sys + (ev.empty() ? "" : "/" + ev);
            std::error_code ec;
            if (sys.empty() || sys.find("..") != std::string::npos || !fs::exists(path, ec)) {
                if (defaults) {
                    missing_.push_back({spec, costOf(spec)});
                    continue;
                }
                throw CaptureError("this kernel has no event '" + spec + "' (" + tracing_ +
                                   "/available_events lists those it has)");
            }
            if (tracefs_event_enable(inst_, sys.c_str(), ev.empty() ? nullptr : ev.c_str()) < 0)
                throw CaptureError("cannot enable " + spec + ": " + std::strerror(errno));
            if (ev.empty()) {
                for (const auto &e : fs::directory_iterator(path, ec))
                    if (e.is_directory()) enabled_.push_back(sys + "/" + e.path().filename().string());
            } else {
                enabled_.push_back(sys + "/" + ev);
            }
        }
        for (const std::string &f : opt_.filters) {
            const size_t colon = f.find(':', f.find('/') == std::string::npos ? 0 : f.find('/'));
            if (colon == std::string::npos)
                throw CaptureError(
                    "a filter is written EVENT:FILTER (sched/sched_switch:prev_pid==0), got '" + f + "'");
            const auto [sys, ev] = splitEvent(f.substr(0, colon));
            const std::string expr = f.substr(colon + 1);
            const std::string file = dir + "/events/" + sys + "/" + ev + "/filter";
            int e = 0;
            if (ev.empty() || !writeText(file, expr, &e))
                throw CaptureError("the kernel rejects the filter '" + expr + "' for " + sys + "/" + ev +
                                   (e ? std::string(": ") + std::strerror(e) : std::string()) + " (see " +
                                   tracing_ + "/error_log)");
        }
        timerIrqType_ = eventId(tracing_, "irq_vectors/local_timer_entry");
        hrtimerType_ = eventId(tracing_, "timer/hrtimer_expire_entry");
        functionAt_ = fieldOffset(tracing_, "timer/hrtimer_expire_entry", "function");
        tickFns_ = kernelAddresses({"tick_nohz_handler", "tick_sched_timer"});
        for (const char *e : {"timer/hrtimer_expire_entry", "timer/hrtimer_start", "timer/timer_expire_entry",
                              "timer/timer_start"}) {
            const int id = eventId(tracing_, e), off = fieldOffset(tracing_, e, "function");
            if (id >= 0 && off >= 0) functionFields_.emplace_back(id, off);
        }
        wakeupType_ = eventId(tracing_, "sched/sched_wakeup");
        pageSize_ = static_cast<int>(::sysconf(_SC_PAGESIZE));
        facts_ = MachineFacts::ofThisMachine();
    } catch (...) {
        cleanup();
        throw;
    }
    for (size_t k = 0; k < cpus_.size(); ++k)
        live_.push_back(std::make_unique<CpuLive>());
}

Capture::~Capture()
{
    stop();
    cleanup();
}

void Capture::cleanup() noexcept
{
    if (!inst_) return;
    tracefs_trace_off(inst_);
    readers_.clear();
    tracefs_instance_destroy(inst_); // removes the instance directory
    tracefs_instance_free(inst_);
    inst_ = nullptr;
    ::rmdir((tracing_ + "/instances/" + name_).c_str()); // in case destroy left it
}

void Capture::start()
{
    if (running_ || !inst_) return;
    for (size_t k = 0; k < cpus_.size(); ++k) {
        auto r = std::make_unique<Reader>();
        r->cpu = cpus_[k];
        r->live = live_[k].get();
        r->timerIrqType = timerIrqType_;
        r->hrtimerType = hrtimerType_;
        r->functionAt = functionAt_;
        r->tickFns = tickFns_;
        r->functionFields = functionFields_;
        r->wakeupType = wakeupType_;
        if (FILE *f = std::tmpfile()) {
            r->store = ::dup(fileno(f));
            std::fclose(f); // the file lives on through the duplicate descriptor, unlinked
        }
        r->tcpu = tracefs_cpu_open(inst_, cpus_[k], true);
        if (r->store < 0 || !r->tcpu)
            throw CaptureError("cannot read CPU " + std::to_string(cpus_[k]) +
                               "'s ring buffer: " + std::strerror(errno));
        readers_.push_back(std::move(r));
    }
    readMetadata(); // once: a snapshot while recording reuses it
    if (tracefs_trace_on(inst_) < 0)
        throw CaptureError(std::string("cannot start tracing: ") + std::strerror(errno));
    running_ = true;
    const auto pageSize = static_cast<size_t>(pageSize_);
    for (auto &r : readers_)
        r->thread = std::thread([p = r.get(), pageSize] { p->run(pageSize); });
}

void Capture::stop()
{
    if (!running_) return;
    tracefs_trace_off(inst_);
    for (auto &r : readers_)
        r->stop.store(true, std::memory_order_release);
    for (auto &r : readers_)
        if (r->thread.joinable()) r->thread.join();
    running_ = false;
}

void Capture::readMetadata()
{
    DatMetadata &m = meta_;
    m.pageSize = static_cast<uint32_t>(pageSize_);
    m.headerPage = readText(tracing_ + "/events/header_page");
    m.headerEvent = readText(tracing_ + "/events/header_event");
    std::error_code ec;
    std::vector<std::string> ftrace;
    for (const auto &e : fs::directory_iterator(tracing_ + "/events/ftrace", ec))
        if (e.is_directory()) ftrace.push_back(e.path().string() + "/format");
    std::sort(ftrace.begin(), ftrace.end());
    for (const auto &f : ftrace) {
        std::string t = readText(f);
        if (!t.empty()) m.ftraceFormats.push_back(std::move(t));
    }
    std::vector<std::string> events = enabled_;
    std::sort(events.begin(), events.end());
    for (const std::string &e : events) {
        const auto [sys, ev] = splitEvent(e);
        if (sys == "ftrace") continue;
        std::string t = readText(tracing_ + "/events/" + e + "/format");
        if (t.empty()) continue;
        if (m.systems.empty() || m.systems.back().first != sys) m.systems.push_back({sys, {}});
        m.systems.back().second.push_back(std::move(t));
    }
    kallsyms_ = readText("/proc/kallsyms"); // kept apart: a snapshot copies the rest, not 5+ MB of this
    const std::string &ks = kallsyms_;
    // address -> its kallsyms line, for the live snapshots' short symbol lists
    for (size_t at = 0; at < ks.size();) {
        size_t nl = ks.find('\n', at);
        if (nl == std::string::npos) nl = ks.size();
        const uint64_t addr = std::strtoull(ks.c_str() + at, nullptr, 16);
        if (addr) symbolLines_.emplace(addr, std::make_pair(at, nl + 1 - at));
        at = nl + 1;
    }
    m.printk = readText(tracing_ + "/printk_formats");
    m.cpuCount =
        std::max(static_cast<int>(::sysconf(_SC_NPROCESSORS_CONF)), cpus_.empty() ? 1 : cpus_.back() + 1);
    utsname u{};
    if (::uname(&u) == 0)
        m.uname = std::string(u.sysname) + " " + u.nodename + " " + u.release + " " + u.version;
    m.traceClock = readText(tracing_ + "/instances/" + name_ + "/trace_clock");
    while (!m.traceClock.empty() && m.traceClock.back() == '\n')
        m.traceClock.pop_back();
    m.machine = facts_.serialize();
}

void Capture::save(const std::string &path) const
{
    writeFile(path, UINT64_MAX);
}

void Capture::snapshot(const std::string &path, uint64_t bytesPerCpu) const
{
    writeFile(path, bytesPerCpu);
}

void Capture::writeFile(const std::string &path, uint64_t bytesPerCpu) const
{
    for (const auto &r : readers_)
        if (!r->error.empty()) throw LoadError(path + ": " + r->error);
    DatMetadata m = meta_;
    m.cmdlines = readText(tracing_ + "/saved_cmdlines"); // the tasks seen so far
    if (bytesPerCpu != UINT64_MAX) {
        // a snapshot: only the functions the timer events named so far (the whole list takes longer to
        // read than the snapshot's events); the saved file keeps all of /proc/kallsyms
        std::vector<uint64_t> fns;
        for (const auto &r : readers_) {
            std::lock_guard<std::mutex> g(r->seenLock);
            fns.insert(fns.end(), r->seen.begin(), r->seen.end());
        }
        std::sort(fns.begin(), fns.end());
        fns.erase(std::unique(fns.begin(), fns.end()), fns.end());
        for (uint64_t a : fns)
            if (auto it = symbolLines_.find(a); it != symbolLines_.end())
                m.kallsyms.append(kallsyms_, it->second.first, it->second.second);
    } else {
        m.kallsyms = kallsyms_;
    }
    DatFileWriter out(path, m);
    std::vector<uint8_t> buf(1 << 20);
    const auto page = static_cast<uint64_t>(pageSize_);
    for (const auto &r : readers_) {
        const uint64_t end = r->bytes.load(std::memory_order_acquire);
        const uint64_t keep = std::min(end, bytesPerCpu / page * page);
        if (keep == 0) continue;
        out.beginCpu(r->cpu);
        uint64_t at = end - keep;
        while (at < end) {
            const ssize_t n = ::pread(r->store, buf.data(), std::min<uint64_t>(end - at, buf.size()),
                                      static_cast<off_t>(at));
            if (n <= 0) throw LoadError(path + ": cannot read back the recorded pages");
            out.write(buf.data(), static_cast<size_t>(n));
            at += static_cast<uint64_t>(n);
        }
    }
    out.finish();
}

} // namespace tickscope
