#include "TraceDatImporter.h"

#include "RecordDecoder.h"
#include "TraceCmdApi.h"
#include "DatLayout.h"
#include "MappedFile.h"
#include "PageDecoder.h"
#include "TraceDatHandle.h"

#include <algorithm>
#include <atomic>
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

void fillMeta(Trace &trace, TraceDatHandle &h, const std::string &instance)
{
    TraceMeta &m = trace.meta;
    const std::string &path = h.path();
    m.path = path;
    m.instance = instance;
    tracecmd_input *in = h.instance(instance);
    m.fileVersion = static_cast<int>(tracecmd_get_in_file_version(h.top()));
    const char *cname = nullptr;
    const char *cver = nullptr;
    if (tracecmd_get_file_compress_proto(h.top(), &cname, &cver) == 0 && cname) m.compression = cname;
    m.format = "trace.dat v" + std::to_string(m.fileVersion) + (m.compression.empty() ? "" : " (" + m.compression + ")");
    m.cpuCount = tracecmd_cpus(in);
    m.pageSize = tracecmd_page_size(in);
    m.longSize = tracecmd_long_size(in);
    if (const char *clock = tracecmd_get_trace_clock(in)) {
        // The file stores the trace_clock file: "[local] global counter ..."; keep the selected one.
        std::string_view c(clock);
        const auto a = c.find('[');
        const auto b = c.find(']');
        m.traceClock = (a != std::string_view::npos && b > a) ? std::string(c.substr(a + 1, b - a - 1))
                                                              : std::string(c.substr(0, c.find_first_of(" \n")));
    }
    if (const char *u = tracecmd_get_uname(h.top())) {
        m.uname = u;
        m.kernelRelease = kernelReleaseFromUname(m.uname);
    }
    m.fileInstances.push_back("");
    for (auto &name : h.instanceNames()) m.fileInstances.push_back(std::move(name));
    struct stat st{};
    if (::stat(path.c_str(), &st) == 0) m.fileBytes = static_cast<uint64_t>(st.st_size);
}

// Decodes one CPU. Returns a warning text when the CPU's data ended before its last record.
std::string decodeCpu(tracecmd_input *in, int cpu, RecordDecoder &dec, Trace &trace, Progress &progress,
                      const LoadOptions &options)
{
    checkCancel(options);
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
        RecordDecoder dec(tracecmd_get_tep(in), st.layouts, st.trace);
        for (int cpu = t; cpu < cpus; cpu += threads) {
            st.cpuWarnings[static_cast<size_t>(cpu)] = decodeCpu(in, cpu, dec, st.trace, st.progress, options);
        }
        st.finishThread(dec);
    });
}

// The fast path: pages straight from the mapped file through kbuffer, any number of threads sharing
// one (read-only) tep handle. Proven equal to the record API by the tests.
void decodeWithPages(MappedFile &map, const DatLayout &layout, const DatBuffer &buffer, tep_handle *tep,
                     DecodeState &st, const LoadOptions &options)
{
    // Build libtraceevent's lazy lookup tables now, so the threads only read them.
    tep_find_function(tep, 0);
    tep_data_comm_from_pid(tep, 0);
    const int cpus = st.trace.cpuCount();
    std::vector<const DatCpuData *> work;
    for (const auto &c : buffer.cpus) {
        if (static_cast<int>(c.cpu) < cpus) work.push_back(&c);
    }
    // Biggest first, taken from a shared queue: balanced whatever the CPUs' sizes.
    std::sort(work.begin(), work.end(), [](const auto *a, const auto *b) { return a->size > b->size; });
    std::atomic<size_t> next{0};
    const int threads = std::clamp(hardwareThreads(options), 1, std::max<int>(1, static_cast<int>(work.size())));
    const bool oldFormat = tep_is_old_format(tep);
    runThreads(threads, [&](int) {
        RecordDecoder dec(tep, st.layouts, st.trace);
        for (size_t k = next++; k < work.size(); k = next++) {
            const DatCpuData &c = *work[k];
            const int cpu = static_cast<int>(c.cpu);
            PageSource src{map.data(), map.size(), &layout, c, oldFormat};
            st.cpuWarnings[static_cast<size_t>(cpu)] = decodeCpuPages(
                src, dec, st.trace.cpu(cpu), [&](double f) { st.progress.set(cpu, f); }, options);
            st.progress.set(cpu, 1.0);
        }
        st.finishThread(dec);
    });
}

} // namespace

std::unique_ptr<Trace> importTraceDat(TraceDatHandle &file, const std::string &instance, const LoadOptions &options)
{
    auto trace = std::make_unique<Trace>();
    const std::string &path = file.path();
    tracecmd_input *mainIn = file.instance(instance);
    fillMeta(*trace, file, instance);
    const int cpus = trace->meta.cpuCount;
    if (cpus <= 0 || cpus > 8192) throw LoadError(path + ": implausible CPU count " + std::to_string(cpus));
    trace->setCpuCount(cpus);
    tep_handle *tep = tracecmd_get_tep(mainIn);
    const EventLayouts layouts(tep, *trace);
    checkCancel(options);

    DecodeState st(*trace, layouts, options);
    bool done = false;
    if (!options.recordApi) {
        MappedFile map(path);
        const auto layout = map.data() ? readDatLayout(map.data(), map.size()) : std::nullopt;
        if (layout && !layout->needsLibraryPath && layout->longSize == trace->meta.longSize) {
            for (const auto &b : layout->buffers) {
                if (b.name != instance) continue;
                decodeWithPages(map, *layout, b, tep, st, options);
                trace->meta.format += ", direct page decode";
                done = true;
                break;
            }
        }
    }
    if (!done) decodeWithRecordApi(file, instance, st, options);

    trace->tasks.finalize();
    for (auto &w : st.cpuWarnings) {
        if (!w.empty()) trace->warnings.push_back(std::move(w));
    }
    if (st.unknown)
        trace->warnings.push_back(std::to_string(st.unknown) + " records of event ids without a format were skipped");
    for (int c = 0; c < cpus; ++c) trace->cpu(c).sortByTime();
    return trace;
}

} // namespace tickscope
