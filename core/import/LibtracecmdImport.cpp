// SPDX-License-Identifier: GPL-3.0-or-later
// The reference trace.dat path: libtracecmd's record API, one handle per thread. Used for files the
// page decoder does not cover and for LoadOptions::recordApi (the decoder-equality tests).
#include "ImportSupport.h"
#include "RecordDecoder.h"
#include "TraceCmdApi.h"
#include "TraceDatHandle.h"
#include "TraceDatImporter.h"

#include <algorithm>
#include <cstring>
#include <sys/stat.h>

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

// Metadata of one instance from libtracecmd's handle of it.
void fillMeta(Trace &trace, TraceDatHandle &h, const std::string &instance)
{
    TraceMeta &m = trace.meta;
    const std::string &path = h.path();
    m.path = path;
    m.instance = instance;
    tracecmd_input *top = h.top();
    tracecmd_input *in = h.instance(instance);
    m.fileVersion = static_cast<int>(tracecmd_get_in_file_version(top));
    const char *cname = nullptr;
    const char *cver = nullptr;
    if (tracecmd_get_file_compress_proto(top, &cname, &cver) == 0 && cname && std::strcmp(cname, "none") != 0)
        m.compression = cname;
    m.format = "trace.dat v" + std::to_string(m.fileVersion) +
               (m.compression.empty() ? "" : " (" + m.compression + ")");
    m.cpuCount = tracecmd_cpus(in);
    m.pageSize = tracecmd_page_size(in);
    m.longSize = tracecmd_long_size(in);
    if (const char *clock = tracecmd_get_trace_clock(in)) m.traceClock = selectedTraceClock(clock);
    if (const char *u = tracecmd_get_uname(top)) {
        m.uname = u;
        m.kernelRelease = kernelReleaseFromUname(m.uname);
    }
    m.fileInstances.push_back("");
    for (auto &name : h.instanceNames())
        m.fileInstances.push_back(std::move(name));
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) == 0) m.fileBytes = static_cast<uint64_t>(st.st_size);
}

// Where libtracecmd does not say a gap it should: kbuffer reports lost events only on a page's first
// record, and a time extend at the start of the page after a gap is that record. The pages' own headers
// (checkCpuPages) say which pages follow lost events; a record's page number among the CPU's pages
// comes from its offset (pages lie one page size apart, in the file or, compressed, in the data as
// decompressed), counted from the first page with an event, where the first record is.
class PageGapsOfRecords
{
public:
    PageGapsOfRecords(const PageGaps *gaps, uint64_t pageSize) : gaps_(gaps), pageSize_(pageSize)
    {
        if (!gaps_ || gaps_->missed.empty() || gaps_->firstWithEvents == UINT64_MAX || pageSize_ == 0)
            gaps_ = nullptr;
    }
    // The lost events before this record, if its page is the first with an event after pages that say
    // events were lost: whether any, and their count (0: not said). libtracecmd's own report, when it made
    // one, is checked against it; a record it reports a gap on that is not at such a page means the
    // numbering does not hold, and from then on libtracecmd's reports stand alone.
    bool before(const tep_record &r, uint64_t &count)
    {
        if (!gaps_) return false;
        const uint64_t page = r.offset / pageSize_;
        if (first_) {
            base_ = page;
            first_ = false;
        } else if (page == prev_) {
            return false;
        }
        prev_ = page;
        const uint64_t number = gaps_->firstWithEvents + (page - base_);
        bool any = false;
        for (; next_ < gaps_->missed.size() && gaps_->missed[next_].first <= number; ++next_) {
            count = any ? CpuEvents::addLostCounts(count, gaps_->missed[next_].second)
                        : gaps_->missed[next_].second;
            any = true;
        }
        if (r.missed_events && !any) gaps_ = nullptr; // (see above)
        return any;
    }

private:
    const PageGaps *gaps_;
    uint64_t pageSize_;
    bool first_ = true;
    uint64_t base_ = 0, prev_ = 0;
    size_t next_ = 0;
};

// Decodes one CPU. Returns a warning text when the CPU's data ended before its last record.
std::string decodeCpu(tracecmd_input *in, int cpu, RecordDecoder &dec, Trace &trace, Progress &progress,
                      const LoadOptions &options, const PageGaps *pageGaps)
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
    const double span = end > first ? nsBetween(first, end) : 1.0;
    int64_t prevTs = first;
    unsigned long long lastOffset = 0;
    size_t n = 0;
    PageGapsOfRecords pages(pageGaps, static_cast<uint64_t>(trace.meta.pageSize));
    while (rec.r) {
        uint64_t count = 0;
        const bool paged = pages.before(*rec.r, count);
        if (paged || rec.r->missed_events) {
            if (!paged) count = rec.r->missed_events > 0 ? static_cast<uint64_t>(rec.r->missed_events) : 0;
            // A gap that opens the CPU's data has no event before it: from == to.
            out.lost.push_back({n ? prevTs : static_cast<int64_t>(rec.r->ts), static_cast<int64_t>(rec.r->ts),
                                count, n == 0, static_cast<uint32_t>(out.size())});
        }
        dec.decode(*rec.r, out);
        prevTs = static_cast<int64_t>(rec.r->ts);
        lastOffset = rec.r->offset;
        if ((++n & 0xffff) == 0) {
            checkCancel(options);
            progress.set(cpu, nsBetween(first, prevTs) / span);
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

void decodeWithRecordApi(TraceDatHandle &file, const std::string &instance, DecodeState &st,
                         const LoadOptions &options, const std::vector<PageGaps> *pageGaps)
{
    tracecmd_input *mainIn = file.instance(instance);
    const int cpus = st.trace.cpuCount();
    int threads = hardwareThreads(options);
    // Each extra thread opens its own handle (it parses the file's metadata again); worth it only for
    // data that takes longer to decode than that.
    if (options.threads <= 0) {
        uint64_t bytes = 0;
        for (int c = 0; c < cpus; ++c)
            bytes += static_cast<uint64_t>(std::max<off64_t>(0, tracecmd_get_cpu_file_size(mainIn, c)));
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
            const PageGaps *gaps = pageGaps && static_cast<size_t>(cpu) < pageGaps->size()
                                       ? &(*pageGaps)[static_cast<size_t>(cpu)]
                                       : nullptr;
            st.cpuWarnings[static_cast<size_t>(cpu)] =
                decodeCpu(in, cpu, dec, st.trace, st.progress, options, gaps);
        }
        st.finishThread(dec);
    });
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
    for (const auto &name : file.instanceNames())
        out.push_back(describe(file.instance(name), name));
    return out;
}

std::vector<std::unique_ptr<Trace>>
importWithLibtracecmd(const std::string &path, const LoadOptions &options, bool requireOne,
                      const std::map<std::string, std::vector<PageGaps>> *pageGaps)
{
    auto file = std::make_unique<TraceDatHandle>(path);
    const auto names = chooseInstances(path, file.get(), nullptr, options, requireOne);
    std::vector<std::unique_ptr<Trace>> out;
    for (const auto &name : names) {
        auto trace = std::make_unique<Trace>();
        fillMeta(*trace, *file, name);
        const int cpus = trace->meta.cpuCount;
        if (cpus <= 0 || cpus > 8192)
            throw LoadError(path + ": implausible CPU count " + std::to_string(cpus));
        trace->setCpuCount(cpus);
        const EventLayouts layouts(tracecmd_get_tep(file->instance(name)), *trace);
        checkCancel(options);
        DecodeState st(*trace, layouts, options);
        const std::vector<PageGaps> *gaps = nullptr;
        if (pageGaps) {
            const auto it = pageGaps->find(name);
            if (it != pageGaps->end()) gaps = &it->second;
        }
        decodeWithRecordApi(*file, name, st, options, gaps);
        st.finish();
        out.push_back(std::move(trace));
    }
    return out;
}

} // namespace tickscope
