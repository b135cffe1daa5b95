// SPDX-License-Identifier: GPL-3.0-or-later
// A trace.dat read a slice of time at a time: every CPU's pages through its own CpuPageStream, in time
// lockstep, into one Trace.
#include "TraceDatStream.h"

#include "FileSymbols.h"
#include "FuncGraphText.h"
#include "ImportSupport.h"
#include "InputFile.h"
#include "PageDecoder.h"
#include "RecordDecoder.h"
#include "TraceDatImporter.h"
#include "TraceDatOwnPath.h"
#include "util/Parallel.h"

#include <algorithm>
#include <mutex>

namespace tickscope {

struct TraceDatStream::Impl
{
    std::string path;
    LoadOptions options;
    DatLayout layout;
    uint64_t fileSize = 0;
    std::unique_ptr<RegularFile> file;
    std::unique_ptr<tep_handle, TepDeleter> tep;
    std::unique_ptr<FileSymbols> symbols;
    std::mutex tepMutex;
    std::unique_ptr<Trace> trace;
    std::unique_ptr<EventLayouts> layouts;
    const DatBuffer *buffer = nullptr;
    struct Cpu
    {
        std::unique_ptr<RecordDecoder> dec;
        std::unique_ptr<CpuPageStream> pages;
        int cpu = 0;
        bool ended = false;
    };
    std::vector<Cpu> cpus;
    // Every task name noted so far, unmerged: the table is rebuilt from them after each step, so that it
    // ends as a load's (finalize() drops repeats, which later names from other CPUs can undo).
    std::vector<TaskTable::Entry> names;
    // function_graph calls (their exit records): seen in the events decoded so far (each CPU's checked up
    // to `checked`)
    bool functionRecords = false;
    std::vector<size_t> checked;
};

TraceDatStream::TraceDatStream(const std::string &path, const LoadOptions &options)
    : d_(std::make_unique<Impl>())
{
    Impl &d = *d_;
    d.path = path;
    d.options = options;
    {
        const InputFile in(path, options.streamIdleTimeoutMs);
        if (detectFormat(in) == FileFormat::Text)
            throw LoadError(path +
                            ": --stream reads trace.dat files; this is a text trace (report it without "
                            "--stream)");
        d.layout = traceDatLayout(in);
        d.fileSize = in.bytes().size();
    }
    DatLayout &layout = d.layout;
    checkFormats(path, layout);
    if (layout.needsLibraryPath)
        throw LoadError(path +
                        ": --stream reads through tickscope's own page decoder; this file has timestamp "
                        "options that need libtracecmd (report it without --stream)");
    d.tep = pageTep(path, layout);
    const auto names = chooseInstances(path, nullptr, &layout, options, true);
    if (names.size() != 1) throw severalInstancesError(path, names);
    for (const auto &b : layout.buffers)
        if (b.name == names.front()) d.buffer = &b;
    if (!d.buffer) throw LoadError(path + ": no buffer instance named '" + names.front() + "'");
    d.symbols = std::make_unique<FileSymbols>(std::move(layout.kallsyms), layout.cmdlines);
    d.trace = std::make_unique<Trace>();
    Trace &trace = *d.trace;
    fillMetaFromLayout(trace, path, layout, *d.buffer);
    trace.meta.format += ", direct page decode, streamed";
    applyMachineFacts(trace, layout);
    d.layouts = std::make_unique<EventLayouts>(d.tep.get(), trace, layout.formats, d.tepMutex);
    d.file = std::make_unique<RegularFile>(path);
    const bool oldFormat = tep_is_old_format(d.tep.get());
    // Every CPU has a read buffer at once: 64 KiB each up to 256 CPUs, then 16 MiB over all of them, down
    // to 16 KiB each (1024 CPUs).
    const uint32_t readBytes =
        std::clamp<uint32_t>((16u << 20) / static_cast<uint32_t>(std::max<size_t>(d.buffer->cpus.size(), 1)),
                             16u << 10, 64u << 10);
    // Each CPU's event columns (eight that grow) populate a page or two ahead as they are written instead
    // of faulting each page in: a VM takes one call for a few pages much faster than a fault per page
    // (docs/BENCHMARKS.md). 8 KiB each up to 128 CPUs, 4 KiB up to 256, none past that (the memory it
    // keeps grows with the CPUs).
    const size_t cpuCount = d.buffer->cpus.size();
    const uint32_t ahead = cpuCount <= 128 ? 8u << 10 : cpuCount <= 256 ? 4u << 10 : 0;
    for (const DatCpuData &c : d.buffer->cpus) {
        if (c.cpu >= static_cast<uint32_t>(trace.cpuCount())) continue;
        Impl::Cpu s;
        s.cpu = static_cast<int>(c.cpu);
        s.dec = std::make_unique<RecordDecoder>(d.tep.get(), *d.symbols, *d.layouts, trace);
        PageSource src{d.file->fd(), d.fileSize, &layout, c, oldFormat};
        src.readBytes = readBytes;
        src.populateAhead = ahead;
        s.pages = std::make_unique<CpuPageStream>(src, *s.dec, trace.cpu(s.cpu), d.options);
        d.cpus.push_back(std::move(s));
    }
}

TraceDatStream::~TraceDatStream() = default;

Trace &TraceDatStream::trace()
{
    return *d_->trace;
}

int64_t TraceDatStream::nextPageTs()
{
    int64_t t = INT64_MAX;
    for (Impl::Cpu &c : d_->cpus)
        if (!c.ended) t = std::min(t, c.pages->nextPageTs());
    return t;
}

std::vector<int64_t> TraceDatStream::lostBeforeNextPages()
{
    std::vector<int64_t> out(static_cast<size_t>(d_->trace->cpuCount()), INT64_MAX);
    for (Impl::Cpu &c : d_->cpus)
        if (!c.ended && c.cpu >= 0 && static_cast<size_t>(c.cpu) < out.size())
            out[static_cast<size_t>(c.cpu)] = c.pages->lostBeforeNextPage();
    return out;
}

bool TraceDatStream::decodeThrough(int64_t t)
{
    Impl &d = *d_;
    // every CPU on its own decoder, side by side (the trace's types and strings take concurrent adds, as
    // in a load)
    parallelFor(d.cpus.size(), hardwareThreads(d.options), [&](size_t k) {
        Impl::Cpu &c = d.cpus[k];
        if (!c.ended) c.ended = !c.pages->decodeThrough(t);
    });
    if (!d.functionRecords) {
        // A call is made of its funcgraph_exit record (an entry without one is left out): those are
        // looked for. (types are added as records name them: looked up again each step)
        std::vector<uint16_t> kinds;
        for (size_t k = 0; k < d.trace->types().size(); ++k)
            if (d.trace->types()[k].kind == EventKind::FuncgraphExit)
                kinds.push_back(static_cast<uint16_t>(k));
        d.checked.resize(d.cpus.size());
        for (size_t k = 0; k < d.cpus.size(); ++k) {
            const CpuEvents &ev = d.trace->cpu(d.cpus[k].cpu);
            for (const uint16_t type : kinds)
                d.functionRecords |= ev.findType(type, d.checked[k], ev.size()) < ev.size();
            d.checked[k] = ev.size();
        }
    }
    bool more = false, named = false;
    for (Impl::Cpu &c : d.cpus) {
        more |= !c.ended;
        auto &noted = c.dec->tasks.entries;
        if (noted.empty()) continue;
        d.names.insert(d.names.end(), noted.begin(), noted.end());
        noted.clear();
        named = true;
    }
    if (named) {
        TaskTable table;
        table.merge(std::vector<TaskTable::Entry>(d.names));
        table.finalize();
        d.trace->tasks = std::move(table);
    }
    return more;
}

void TraceDatStream::finish()
{
    Impl &d = *d_;
    Trace &trace = *d.trace;
    size_t unknown = 0;
    for (Impl::Cpu &c : d.cpus) {
        unknown += c.dec->unknownRecords;
        if (!c.pages->warning().empty()) trace.warnings.push_back(c.pages->warning());
        if (!trace.cpu(c.cpu).sorted())
            throw LoadError(d.path + ": CPU " + std::to_string(c.cpu) +
                            "'s events go back in time; --stream needs them in order (report it without "
                            "--stream, which sorts them)");
    }
    if (unknown)
        trace.warnings.push_back(std::to_string(unknown) +
                                 " records of event ids without a format were skipped");
    if (d.layout.recovered)
        trace.warnings.push_back(
            "the file is cut before its table of CPU data (trace.dat v7 writes it last): the top-level "
            "buffer's CPUs were found by walking the data, in CPU order; other buffer instances are lost");
    // As a load finishes, function_graph records become calls: only while every event is still held (a
    // caller that hands events back refuses such a trace once functionGraphSeen()).
    const bool whole = std::all_of(d.cpus.begin(), d.cpus.end(), [&](const Impl::Cpu &c) {
        return trace.cpu(c.cpu).releasedBefore() == 0;
    });
    if (d.functionRecords && whole) funcgraph::spansFromRecords(trace);
    trace.functions.finish();
}

bool TraceDatStream::functionGraphSeen() const
{
    return d_->functionRecords;
}

} // namespace tickscope
