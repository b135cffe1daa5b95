#include "TraceDatImporter.h"

#include "RecordDecoder.h"
#include "TraceCmdApi.h"
#include "DatLayout.h"
#include "FileSymbols.h"
#include "MappedFile.h"
#include "PageDecoder.h"
#include "TraceDatHandle.h"
#include "util/ProcessStats.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <malloc.h>
#include <optional>
#include <unistd.h>
#include <exception>
#include <functional>
#include <mutex>
#include <sys/stat.h>
#include <thread>

namespace tickscope {
namespace {

struct RecordPtr
{
    tep_record *r = nullptr;
    ~RecordPtr() { reset(); }
    void reset(tep_record *n = nullptr)
    {
        if (r) tracecmd_free_record(r);
        r = n;
    }
};

// Per-CPU progress, reported as one fraction under a lock (the callback is never re-entered).
class Progress
{
public:
    Progress(const LoadOptions &o, int cpus) : options_(o), done_(static_cast<size_t>(cpus), 0.0) {}
    void set(int cpu, double fraction)
    {
        if (!options_.progress) return;
        std::lock_guard lock(mutex_);
        done_[static_cast<size_t>(cpu)] = fraction;
        double sum = 0;
        for (double d : done_) sum += d;
        options_.progress(done_.empty() ? 1.0 : sum / static_cast<double>(done_.size()));
    }

private:
    const LoadOptions &options_;
    std::mutex mutex_;
    std::vector<double> done_;
};

// Metadata of one instance: from libtracecmd's handle of the instance (record path), or from the
// file's layout (page path, which never opens an instance handle: libtracecmd crashes opening the
// instance of a truncated v6 file).
void fillMeta(Trace &trace, TraceDatHandle &h, const std::string &instance, const DatLayout *layout,
              const DatBuffer *buffer)
{
    TraceMeta &m = trace.meta;
    const std::string &path = h.path();
    m.path = path;
    m.instance = instance;
    tracecmd_input *top = h.top();
    m.fileVersion = static_cast<int>(tracecmd_get_in_file_version(top));
    const char *cname = nullptr;
    const char *cver = nullptr;
    if (tracecmd_get_file_compress_proto(top, &cname, &cver) == 0 && cname && std::strcmp(cname, "none") != 0)
        m.compression = cname;
    m.format = "trace.dat v" + std::to_string(m.fileVersion) + (m.compression.empty() ? "" : " (" + m.compression + ")");
    const char *clock = nullptr;
    if (buffer) {
        int cpus = tracecmd_cpus(top);
        for (const auto &c : buffer->cpus) cpus = std::max(cpus, static_cast<int>(c.cpu) + 1);
        m.cpuCount = cpus;
        m.pageSize = static_cast<int>(layout->pageSize);
        m.longSize = layout->longSize;
        if (!buffer->clock.empty()) m.traceClock = buffer->clock;
        clock = tracecmd_get_trace_clock(top);
    } else {
        tracecmd_input *in = h.instance(instance);
        m.cpuCount = tracecmd_cpus(in);
        m.pageSize = tracecmd_page_size(in);
        m.longSize = tracecmd_long_size(in);
        clock = tracecmd_get_trace_clock(in);
    }
    if (clock && m.traceClock.empty()) {
        // The file stores the trace_clock file: "[local] global counter ..."; keep the selected one.
        std::string_view c(clock);
        const auto a = c.find('[');
        const auto b = c.find(']');
        m.traceClock = (a != std::string_view::npos && b > a) ? std::string(c.substr(a + 1, b - a - 1))
                                                              : std::string(c.substr(0, c.find_first_of(" \n")));
    }
    if (const char *u = tracecmd_get_uname(top)) {
        m.uname = u;
        m.kernelRelease = kernelReleaseFromUname(m.uname);
    }
    m.fileInstances.push_back("");
    if (layout) {
        for (const auto &b : layout->buffers) {
            if (!b.name.empty()) m.fileInstances.push_back(b.name);
        }
    } else {
        for (auto &name : h.instanceNames()) m.fileInstances.push_back(std::move(name));
    }
    struct stat st{};
    if (::stat(path.c_str(), &st) == 0) m.fileBytes = static_cast<uint64_t>(st.st_size);
}

// Decodes one CPU. Returns a warning text when the CPU's data ended before its last record.
std::string decodeCpu(tracecmd_input *in, int cpu, RecordDecoder &dec, Trace &trace, Progress &progress,
                      const LoadOptions &options)
{
    checkCancel(options);
    dec.beginCpu();
    CpuEvents &out = trace.cpu(cpu);
    RecordPtr last;
    last.reset(tracecmd_read_cpu_last(in, cpu));
    RecordPtr rec;
    rec.reset(tracecmd_read_cpu_first(in, cpu));
    if (!rec.r) {
        progress.set(cpu, 1.0);
        return last.r ? "CPU " + std::to_string(cpu) + ": its data cannot be read" : std::string();
    }
    // Upper bound of the event count: the smallest record is 12+ bytes. Reserving is address space only.
    const off64_t bytes = tracecmd_get_cpu_file_size(in, cpu);
    if (bytes > 0) {
        const auto est = static_cast<size_t>(bytes) / 12 + 1024;
        out.reserve(est, est * 12);
    }
    const int64_t first = static_cast<int64_t>(rec.r->ts);
    const int64_t end = last.r ? static_cast<int64_t>(last.r->ts) : first;
    const double span = end > first ? static_cast<double>(end - first) : 1.0;
    int64_t prevTs = first;
    unsigned long long lastOffset = 0;
    size_t n = 0;
    while (rec.r) {
        if (rec.r->missed_events) {
            // A gap that opens the CPU's data has no event before it: from == to.
            out.lost.push_back({n ? prevTs : static_cast<int64_t>(rec.r->ts), static_cast<int64_t>(rec.r->ts),
                                rec.r->missed_events > 0 ? static_cast<uint64_t>(rec.r->missed_events) : 0});
        }
        dec.decode(*rec.r, out);
        prevTs = static_cast<int64_t>(rec.r->ts);
        lastOffset = rec.r->offset;
        if ((++n & 0xffff) == 0) {
            checkCancel(options);
            progress.set(cpu, static_cast<double>(prevTs - first) / span);
        }
        rec.reset(tracecmd_read_data(in, cpu));
    }
    progress.set(cpu, 1.0);
    if (last.r && last.r->offset != lastOffset) {
        return "CPU " + std::to_string(cpu) + ": data ends early (file truncated or corrupt); events after " +
               std::to_string(prevTs) + " ns are lost";
    }
    return {};
}

} // namespace

std::vector<InstanceInfo> listInstances(TraceDatHandle &file)
{
    std::vector<InstanceInfo> out;
    auto describe = [](tracecmd_input *in, std::string name) {
        InstanceInfo info{std::move(name), tracecmd_cpus(in), false};
        for (int c = 0; c < info.cpus && !info.hasData; ++c) {
            RecordPtr r;
            r.reset(tracecmd_read_cpu_first(in, c));
            info.hasData = r.r != nullptr;
        }
        return info;
    };
    out.push_back(describe(file.top(), ""));
    for (const auto &name : file.instanceNames()) out.push_back(describe(file.instance(name), name));
    return out;
}

namespace {

// Runs work(t) on `threads` threads (the caller's included) and rethrows the first error.
void runThreads(int threads, const std::function<void(int)> &work)
{
    std::vector<std::exception_ptr> errors(static_cast<size_t>(threads));
    auto guarded = [&](int t) {
        try {
            work(t);
        } catch (...) {
            errors[static_cast<size_t>(t)] = std::current_exception();
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(guarded, t);
    guarded(0);
    for (auto &th : pool) th.join();
    for (auto &e : errors) {
        if (e) std::rethrow_exception(e);
    }
}

int hardwareThreads(const LoadOptions &o)
{
    return o.threads > 0 ? o.threads : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// One instance on its way from the file to a Trace.
struct Pending
{
    std::unique_ptr<Trace> trace;
    std::unique_ptr<EventLayouts> layouts;
    const DatBuffer *pages = nullptr; // set: the page decoder reads it; null: the record API
};

struct DecodeState
{
    Trace &trace;
    const EventLayouts &layouts;
    Progress progress;
    std::vector<std::string> cpuWarnings;
    std::mutex mutex;
    size_t unknown = 0;

    DecodeState(Trace &t, const EventLayouts &l, const LoadOptions &o)
        : trace(t), layouts(l), progress(o, t.cpuCount()), cpuWarnings(static_cast<size_t>(t.cpuCount()))
    {
    }
    void finishThread(RecordDecoder &dec)
    {
        std::lock_guard lock(mutex);
        unknown += dec.unknownRecords;
        trace.tasks.merge(std::move(dec.tasks.entries));
    }
    void finish()
    {
        trace.tasks.finalize();
        for (auto &w : cpuWarnings) {
            if (!w.empty()) trace.warnings.push_back(std::move(w));
        }
        if (unknown)
            trace.warnings.push_back(std::to_string(unknown) + " records of event ids without a format were skipped");
        for (int c = 0; c < trace.cpuCount(); ++c) trace.cpu(c).sortByTime();
    }
};

// The reference path: libtracecmd's record API, one handle per thread.
void decodeWithRecordApi(TraceDatHandle &file, const std::string &instance, DecodeState &st, const LoadOptions &options)
{
    tracecmd_input *mainIn = file.instance(instance);
    const int cpus = st.trace.cpuCount();
    int threads = hardwareThreads(options);
    // Each extra thread opens its own handle (it parses the file's metadata again); worth it only for
    // data that takes longer to decode than that.
    if (options.threads <= 0) {
        uint64_t bytes = 0;
        for (int c = 0; c < cpus; ++c) bytes += static_cast<uint64_t>(std::max<off64_t>(0, tracecmd_get_cpu_file_size(mainIn, c)));
        if (bytes < (16u << 20)) threads = 1;
    }
    threads = std::clamp(threads, 1, cpus);
    runThreads(threads, [&](int t) {
        // libtracecmd keeps per-handle read state; each thread reads through its own handle.
        std::unique_ptr<TraceDatHandle> own;
        tracecmd_input *in = mainIn;
        if (t > 0) {
            own = std::make_unique<TraceDatHandle>(file.path());
            in = own->instance(instance);
        }
        const TepNames names(tracecmd_get_tep(in));
        RecordDecoder dec(tracecmd_get_tep(in), names, st.layouts, st.trace);
        for (int cpu = t; cpu < cpus; cpu += threads) {
            st.cpuWarnings[static_cast<size_t>(cpu)] = decodeCpu(in, cpu, dec, st.trace, st.progress, options);
        }
        st.finishThread(dec);
    });
}

// The fast path: pages read straight from the file, through kbuffer, on any number of threads.
// tep is null once libtracecmd has been closed (names then come from the file's own sections).
void decodeWithPages(int fd, uint64_t fileSize, const DatLayout &layout, const DatBuffer &buffer, tep_handle *tep,
                     bool oldFormat, const NameResolver &names, DecodeState &st, const LoadOptions &options)
{
    const int cpus = st.trace.cpuCount();
    std::vector<const DatCpuData *> work;
    for (const auto &c : buffer.cpus) {
        if (static_cast<int>(c.cpu) < cpus) work.push_back(&c);
    }
    // Biggest first, taken from a shared queue: balanced whatever the CPUs' sizes.
    std::sort(work.begin(), work.end(), [](const auto *a, const auto *b) { return a->size > b->size; });
    std::atomic<size_t> next{0};
    const int threads = std::clamp(hardwareThreads(options), 1, std::max<int>(1, static_cast<int>(work.size())));
    runThreads(threads, [&](int) {
        RecordDecoder dec(tep, names, st.layouts, st.trace);
        for (size_t k = next++; k < work.size(); k = next++) {
            const DatCpuData &c = *work[k];
            const int cpu = static_cast<int>(c.cpu);
            const PageSource src{fd, fileSize, &layout, c, oldFormat};
            st.cpuWarnings[static_cast<size_t>(cpu)] = decodeCpuPages(
                src, dec, st.trace.cpu(cpu), [&](double f) { st.progress.set(cpu, f); }, options);
            st.progress.set(cpu, 1.0);
        }
        st.finishThread(dec);
    });
}

// file is null on the path that does without libtracecmd (then layout is set).
std::vector<std::string> chooseInstances(const std::string &path, TraceDatHandle *file, const DatLayout *layout,
                                         const LoadOptions &options, bool requireOne)
{
    if (options.instanceGiven) {
        bool known = false;
        if (layout) {
            for (const auto &b : layout->buffers) known |= b.name == options.instance;
        }
        if (!known && file) file->instance(options.instance); // throws for an unknown name
        if (!known && !file) throw LoadError(path + ": no buffer instance named '" + options.instance + "'");
        return {options.instance};
    }
    std::vector<std::string> names;
    if (layout) {
        for (const auto &b : layout->buffers) {
            bool data = false;
            for (const auto &c : b.cpus) data |= c.size > 0;
            if (data) names.push_back(b.name);
        }
    } else {
        for (const auto &i : listInstances(*file)) {
            if (i.hasData) names.push_back(i.name);
        }
    }
    if (names.empty()) {
        if (layout) {
            for (const auto &b : layout->buffers) {
                if (b.unreadable) throw LoadError(path + ": truncated: no event data left in the file");
            }
        }
        names.push_back(""); // a file without events: its top level, empty
    }
    if (requireOne && names.size() > 1) {
        std::string list;
        for (const auto &n : names) list += (list.empty() ? "" : ", ") + (n.empty() ? std::string("(top level)") : n);
        throw LoadError(path + ": events in " + std::to_string(names.size()) + " buffer instances (" + list +
                        "); choose one with --instance NAME");
    }
    return names;
}

} // namespace

namespace {
// TICKSCOPE_TIMING=1 prints the phases of a load to stderr (for profiling, not for users).
struct PhaseClock
{
    bool on = std::getenv("TICKSCOPE_TIMING") != nullptr;
    std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
    void mark(const char *what)
    {
        if (!on) return;
        const auto now = std::chrono::steady_clock::now();
        std::fprintf(stderr, "  %-28s %7.3f s  rss %6.1f MB  peak %6.1f MB\n", what,
                     std::chrono::duration<double>(now - last).count(), static_cast<double>(currentRssBytes()) / 1e6,
                     static_cast<double>(peakRssBytes()) / 1e6);
        last = now;
    }
};
} // namespace

namespace {

struct TepDeleter
{
    void operator()(tep_handle *t) const { tep_free(t); }
};

// Metadata of one instance from the file's own options (the path without libtracecmd).
void fillMetaFromLayout(Trace &trace, const std::string &path, const DatLayout &l, const DatBuffer &b)
{
    TraceMeta &m = trace.meta;
    m.path = path;
    m.instance = b.name;
    m.fileVersion = l.version;
    if (!l.compression.empty() && l.compression != "none") m.compression = l.compression;
    m.format = "trace.dat v" + std::to_string(l.version) + (m.compression.empty() ? "" : " (" + m.compression + ")");
    int cpus = l.cpuCount;
    for (const auto &c : b.cpus) cpus = std::max(cpus, static_cast<int>(c.cpu) + 1);
    m.cpuCount = cpus;
    m.pageSize = static_cast<int>(l.pageSize);
    m.longSize = l.longSize;
    std::string_view clock = b.clock.empty() ? std::string_view(l.traceClock) : std::string_view(b.clock);
    const auto a = clock.find('[');
    const auto e = clock.find(']');
    m.traceClock = (a != std::string_view::npos && e > a) ? std::string(clock.substr(a + 1, e - a - 1))
                                                          : std::string(clock.substr(0, clock.find_first_of(" \n")));
    m.uname = l.uname;
    while (!m.uname.empty() && (m.uname.back() == '\n' || m.uname.back() == ' ')) m.uname.pop_back();
    m.kernelRelease = kernelReleaseFromUname(m.uname);
    m.fileInstances.push_back("");
    for (const auto &buf : l.buffers) {
        if (!buf.name.empty()) m.fileInstances.push_back(buf.name);
    }
    struct stat st{};
    if (::stat(path.c_str(), &st) == 0) m.fileBytes = static_cast<uint64_t>(st.st_size);
}

void decodeFile(const std::string &path, uint64_t fileSize, const DatLayout &layout, const DatBuffer &buffer,
                tep_handle *tep, bool oldFormat, const NameResolver &names, DecodeState &st, const LoadOptions &options)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw LoadError(path + ": cannot reopen: " + std::strerror(errno));
    try {
        decodeWithPages(fd, fileSize, layout, buffer, tep, oldFormat, names, st, options);
    } catch (...) {
        ::close(fd);
        throw;
    }
    ::close(fd);
}

// The fast path: nothing of libtracecmd. The layout, header page, event formats (parsed lazily with
// libtraceevent), symbols and cmdlines all come from the file; pages are decoded on all threads.
std::vector<std::unique_ptr<Trace>> importOwnPath(const std::string &path, uint64_t fileSize, DatLayout &layout,
                                                  const LoadOptions &options, bool requireOne, PhaseClock &clock)
{
    std::unique_ptr<tep_handle, TepDeleter> tep(tep_alloc());
    if (!tep) throw std::bad_alloc();
    tep_set_file_bigendian(tep.get(), layout.bigEndian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
    tep_set_local_bigendian(tep.get(), std::endian::native == std::endian::big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
    tep_set_long_size(tep.get(), layout.longSize);
    tep_set_page_size(tep.get(), static_cast<int>(layout.pageSize));
    if (tep_parse_header_page(tep.get(), layout.headerPage.data(), layout.headerPage.size(), layout.longSize) != 0)
        throw LoadError(path + ": unreadable ring-buffer page header");
    const auto names = chooseInstances(path, nullptr, &layout, options, requireOne);
    const FileSymbols symbols(std::move(layout.kallsyms), layout.cmdlines);
    clock.mark("symbols");
    std::mutex tepMutex;
    const bool oldFormat = tep_is_old_format(tep.get());
    std::vector<std::unique_ptr<Trace>> out;
    for (const auto &name : names) {
        const DatBuffer *buffer = nullptr;
        for (const auto &b : layout.buffers) {
            if (b.name == name) buffer = &b;
        }
        auto trace = std::make_unique<Trace>();
        fillMetaFromLayout(*trace, path, layout, *buffer);
        if (trace->meta.cpuCount <= 0 || trace->meta.cpuCount > 8192)
            throw LoadError(path + ": implausible CPU count " + std::to_string(trace->meta.cpuCount));
        trace->setCpuCount(trace->meta.cpuCount);
        const EventLayouts layouts(tep.get(), *trace, layout.formats, tepMutex);
        DecodeState st(*trace, layouts, options);
        decodeFile(path, fileSize, layout, *buffer, tep.get(), oldFormat, symbols, st, options);
        trace->meta.format += ", direct page decode";
        clock.mark("decode");
        st.finish();
        out.push_back(std::move(trace));
    }
    for (const auto &b : layout.buffers) {
        if (b.unreadable && !out.empty())
            out.front()->warnings.push_back("buffer instance '" + b.name +
                                            "' lies past the end of the file (truncated); its events are lost");
    }
    return out;
}

} // namespace

std::vector<std::unique_ptr<Trace>> importTraceDat(const std::string &path, const LoadOptions &options, bool requireOne)
{
    PhaseClock clock;
    if (!options.recordApi) {
        std::optional<DatLayout> layout;
        uint64_t fileSize = 0;
        {
            MappedFile map(path); // only the metadata gets read, and the mapping is gone before decoding
            fileSize = map.size();
            if (map.data()) layout = readDatLayout(map.data(), map.size());
        }
        clock.mark("file layout");
        if (layout && layout->complete && !layout->needsLibraryPath && !layout->headerPage.empty())
            return importOwnPath(path, fileSize, *layout, options, requireOne, clock);
    }
    return importWithLibtracecmd(path, options, requireOne);
}

std::vector<std::unique_ptr<Trace>> importWithLibtracecmd(const std::string &path, const LoadOptions &options,
                                                          bool requireOne)
{
    auto file = std::make_unique<TraceDatHandle>(path);
    const auto names = chooseInstances(path, file.get(), nullptr, options, requireOne);
    std::vector<std::unique_ptr<Trace>> out;
    for (const auto &name : names) {
        auto trace = std::make_unique<Trace>();
        fillMeta(*trace, *file, name, nullptr, nullptr);
        const int cpus = trace->meta.cpuCount;
        if (cpus <= 0 || cpus > 8192) throw LoadError(path + ": implausible CPU count " + std::to_string(cpus));
        trace->setCpuCount(cpus);
        const EventLayouts layouts(tracecmd_get_tep(file->instance(name)), *trace);
        checkCancel(options);
        DecodeState st(*trace, layouts, options);
        decodeWithRecordApi(*file, name, st, options);
        st.finish();
        out.push_back(std::move(trace));
    }
    return out;
}

} // namespace tickscope
