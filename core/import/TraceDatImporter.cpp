// SPDX-License-Identifier: GPL-3.0-or-later
// trace.dat without libtracecmd: the file's layout, header page, event formats (parsed lazily with
// libtraceevent), symbols and cmdlines are read from the file itself, and every CPU's pages are
// decoded on their own thread. The decoder-equality tests hold it to libtracecmd's record API.
#include "TraceDatImporter.h"
#include "TraceDatOwnPath.h"

#include "DatLayout.h"
#include "FileSymbols.h"
#include "FuncGraphText.h"
#include "ImportSupport.h"
#include "InputChecks.h"
#include "InputFile.h"
#include "MemoryFit.h"
#include "PageDecoder.h"
#include "RecordDecoder.h"
#include "model/MachineFacts.h"
#include "util/Parallel.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <traceevent/event-parse.h>
#include <unistd.h>

namespace tickscope {
namespace {

// Every CPU's pages through kbuffer, on all threads; tep is this path's own (formats parsed lazily). A CPU
// holding more than its share of the data is decoded in parts on several threads (a trace where one CPU
// has most events is not left to one thread): part 0 into the CPU's events, the others into their own,
// each joined on as soon as the parts before it are in (so few wait at once), the way a single pass
// would have appended them; after a part that ends early (a truncated or damaged page) the later ones
// are dropped, as that pass would have stopped there.
void decodeWithPages(int fd, uint64_t fileSize, const DatLayout &layout, const DatBuffer &buffer,
                     tep_handle *tep, bool oldFormat, const NameResolver &names, DecodeState &st,
                     const LoadOptions &options, std::pair<int64_t, int64_t> window)
{
    const int cpus = st.trace.cpuCount();
    std::vector<const DatCpuData *> data;
    uint64_t total = 0;
    for (const auto &c : buffer.cpus) {
        if (c.cpu < static_cast<uint32_t>(cpus)) { // numbers checked by readDatLayout
            data.push_back(&c);
            total += c.size;
        }
    }
    const int threads = hardwareThreads(options);
    // Parts of at least 4 MiB, at most a quarter of a thread's share of the data.
    const uint64_t partBytes =
        options.decodePartBytes ? options.decodePartBytes
                                : std::max<uint64_t>(4u << 20, total / (4 * static_cast<uint64_t>(threads)));
    struct CpuJob
    {
        const DatCpuData *data;
        uint32_t parts;
        std::vector<std::unique_ptr<CpuEvents>> later; // parts 1.. while they wait to be joined
        std::vector<std::string> warnings;             // per part
        // what each part's decode noted besides its events (task names, records without a format):
        // kept with the part, dropped with it
        std::vector<std::vector<TaskTable::Entry>> names;
        std::vector<size_t> unknown;
        // The CPU's names as one pass would have noted them: each part's first sight of a task again only
        // when its name changed since the parts before.
        TaskTable::Recorder stream;
        std::vector<char> done;
        uint32_t joined = 0; // parts joined (part 0 counts once done)
        bool ended = false;  // a joined part ended early: the later ones are dropped
        std::mutex mutex;
    };
    std::vector<std::unique_ptr<CpuJob>> jobs;
    struct Item
    {
        CpuJob *job;
        uint32_t part;
    };
    std::vector<Item> items;
    for (const DatCpuData *c : data) {
        auto j = std::make_unique<CpuJob>();
        j->data = c;
        // Split only a CPU with more than a thread's share: balanced CPUs keep the threads busy as they are,
        // and each part waiting to be joined costs memory.
        const bool split = threads > 1 && (options.decodePartBytes || c->size > total / threads);
        j->parts = split ? static_cast<uint32_t>(std::clamp<uint64_t>(c->size / partBytes, 1, 1024)) : 1;
        j->later.resize(j->parts);
        j->warnings.resize(j->parts);
        j->names.resize(j->parts);
        j->unknown.assign(j->parts, 0);
        j->done.assign(j->parts, 0);
        for (uint32_t k = 0; k < j->parts; ++k)
            items.push_back({j.get(), k});
        jobs.push_back(std::move(j));
    }
    // Biggest first (parts of one CPU in order), taken from a shared queue.
    std::stable_sort(items.begin(), items.end(), [](const Item &a, const Item &b) {
        return a.job->data->size / a.job->parts > b.job->data->size / b.job->parts;
    });
    st.progress.resize(static_cast<int>(items.size()));
    // Joins the finished parts that follow the last joined one, in order.
    auto join = [&](CpuJob &j) {
        const int cpu = static_cast<int>(j.data->cpu);
        while (j.joined < j.parts && j.done[j.joined]) {
            const uint32_t k = j.joined++;
            std::unique_ptr<CpuEvents> part = std::move(j.later[k]);
            std::vector<TaskTable::Entry> names = std::move(j.names[k]);
            if (j.ended) continue;
            if (part) st.trace.cpu(cpu).appendEvents(*part);
            if (j.parts > 1) {
                for (const TaskTable::Entry &e : names) {
                    if (e.since == INT64_MIN) // a saved cmdline, not a name seen in the events
                        j.stream.noteInitial(e.pid, e.comm);
                    else
                        j.stream.note(e.since, e.pid, e.comm);
                }
                names = std::move(j.stream.entries);
                j.stream.entries.clear();
            }
            if (!j.warnings[k].empty()) {
                st.cpuWarnings[static_cast<size_t>(cpu)] = j.warnings[k];
                j.ended = true;
            }
            const std::lock_guard lock(st.mutex);
            st.trace.tasks.merge(std::move(names));
            st.unknown += j.unknown[k];
        }
        if (j.joined == j.parts) st.trace.cpu(cpu).dropOpenLost(); // (the data ended in a gap)
    };
    std::atomic<size_t> next{0};
    runThreads(std::clamp(threads, 1, std::max<int>(1, static_cast<int>(items.size()))), [&](int) {
        RecordDecoder dec(tep, names, st.layouts, st.trace);
        for (size_t i = next++; i < items.size(); i = next++) {
            CpuJob &j = *items[i].job;
            const uint32_t k = items[i].part;
            const int cpu = static_cast<int>(j.data->cpu);
            PageSource src{fd, fileSize, &layout, *j.data, oldFormat, window.first, window.second};
            src.part = k;
            src.parts = j.parts;
            std::unique_ptr<CpuEvents> part;
            if (k > 0) part = std::make_unique<CpuEvents>(&st.trace.typeSizes());
            auto &noted = dec.tasks.entries;
            const size_t noted0 = noted.size(), unknown0 = dec.unknownRecords;
            std::string w = decodeCpuPages(
                src, dec, k > 0 ? *part : st.trace.cpu(cpu),
                [&](double f) { st.progress.set(static_cast<int>(i), f); }, options);
            st.progress.set(static_cast<int>(i), 1.0);
            std::vector<TaskTable::Entry> names(noted.begin() + static_cast<std::ptrdiff_t>(noted0),
                                                noted.end());
            noted.resize(noted0);
            const size_t unknown = dec.unknownRecords - unknown0;
            dec.unknownRecords = unknown0;
            const std::lock_guard lock(j.mutex);
            j.names[k] = std::move(names);
            j.unknown[k] = unknown;
            j.warnings[k] = std::move(w);
            j.later[k] = std::move(part);
            j.done[k] = 1;
            join(j);
        }
        st.finishThread(dec);
    });
}

void decodeFile(const std::string &path, uint64_t fileSize, const DatLayout &layout, const DatBuffer &buffer,
                tep_handle *tep, bool oldFormat, const NameResolver &names, DecodeState &st,
                const LoadOptions &options, std::pair<int64_t, int64_t> window)
{
    const RegularFile file(path);
    decodeWithPages(file.fd(), fileSize, layout, buffer, tep, oldFormat, names, st, options, window);
}

namespace {

// Before anything is allocated for the events: the span of the chosen buffers (first to last page), the
// absolute ns of a window the options ask for, and whether the model of what would be loaded fits in
// the memory available; TooBigError when not, naming the span to choose a window in.
std::pair<int64_t, int64_t> fitInMemory(const std::string &path, uint64_t fileSize, const DatLayout &layout,
                                        const std::vector<std::string> &names, const LoadOptions &options)
{
    const RegularFile file(path);
    int64_t first = INT64_MAX, last = INT64_MIN;
    std::vector<const DatCpuData *> cpus;
    for (const auto &b : layout.buffers)
        if (std::find(names.begin(), names.end(), b.name) != names.end())
            for (const auto &c : b.cpus)
                cpus.push_back(&c);
    uint64_t bytes = 0;
    for (const DatCpuData *c : cpus) {
        const CpuExtent e = cpuExtent(PageSource{file.fd(), fileSize, &layout, *c, false});
        first = std::min(first, e.first);
        last = std::max(last, e.last);
        bytes += e.bytes;
    }
    std::pair<int64_t, int64_t> window{INT64_MIN, INT64_MAX};
    if (options.window && first <= last) {
        // the window's bytes: a second look, now that the span (and so the window's times) is known
        // (an open end, or any end past the trace, saturates rather than overflowing int64 ns)
        window = {nsAfter(first, options.window->first), nsAfter(first, options.window->second)};
        bytes = 0;
        for (const DatCpuData *c : cpus)
            bytes +=
                cpuExtent(PageSource{file.fd(), fileSize, &layout, *c, false, window.first, window.second})
                    .bytes;
    }
    const uint64_t need =
        static_cast<uint64_t>(static_cast<double>(bytes) * kModelBytesPerDataByte * modelWeight(options)) +
        kModelFixedBytes;
    refuseIfTooBig(path, options, need, first <= last ? nsBetween(first, last) / 1e9 : 0);
    return window;
}

} // namespace

// The fast path: nothing of libtracecmd. The layout, header page, event formats (parsed lazily with
// libtraceevent), symbols and cmdlines all come from the file; pages are decoded on all threads.
std::vector<std::unique_ptr<Trace>> importOwnPath(const std::string &path, uint64_t fileSize,
                                                  DatLayout &layout, const LoadOptions &options,
                                                  bool requireOne, PhaseClock &clock)
{
    const auto tep = pageTep(path, layout);
    const auto names = chooseInstances(path, nullptr, &layout, options, requireOne);
    const auto window = fitInMemory(path, fileSize, layout, names, options);
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
        if (!buffer) throw LoadError(path + ": no buffer instance named '" + name + "'");
        auto trace = std::make_unique<Trace>();
        fillMetaFromLayout(*trace, path, layout, *buffer);
        const EventLayouts layouts(tep.get(), *trace, layout.formats, tepMutex);
        DecodeState st(*trace, layouts, options);
        decodeFile(path, fileSize, layout, *buffer, tep.get(), oldFormat, symbols, st, options, window);
        trace->meta.format += ", direct page decode";
        clock.mark("decode");
        st.finish();
        out.push_back(std::move(trace));
    }
    if (layout.recovered && !out.empty())
        out.front()->warnings.push_back(
            "the file is cut before its table of CPU data (trace.dat v7 writes it last): the top-level "
            "buffer's CPUs were found by walking the data, in CPU order; other buffer instances are lost");
    for (const auto &b : layout.buffers) {
        if (b.unreadable && !out.empty())
            out.front()->warnings.push_back(
                "buffer instance '" + b.name +
                "' lies past the end of the file (truncated); its events are lost");
    }
    return out;
}

// Before libtracecmd reads the file's pages itself: every page of every buffer must be one that kbuffer
// can walk safely (a truncated end is fine; libtracecmd reports it).
// Returns, per buffer instance and CPU, the pages after lost events.
std::map<std::string, std::vector<PageGaps>>
checkAllPages(const std::string &path, uint64_t fileSize, const DatLayout &layout, const LoadOptions &options)
{
    std::map<std::string, std::vector<PageGaps>> gaps;
    const bool oldFormat = tep_is_old_format(pageTep(path, layout).get()) != 0;
    const RegularFile file(path);
    // libtracecmd's error path for a file whose data is cut short frees twice: it gets intact files only.
    const std::string truncated =
        options.recordApi
            ? ": truncated; --record-api reads intact files only (without it, what is intact loads)"
            : ": truncated, and its timestamp options need libtracecmd, which reads intact files only";
    if (layout.recovered) throw LoadError(path + truncated);
    for (const auto &b : layout.buffers) {
        if (b.unreadable) throw LoadError(path + truncated);
        std::vector<PageGaps> &byCpu = gaps[b.name];
        for (const auto &c : b.cpus) {
            const PageSource src{file.fd(), fileSize, &layout, c, oldFormat};
            bool sound = true;
            if (byCpu.size() <= c.cpu) byCpu.resize(size_t{c.cpu} + 1);
            const std::string warning = checkCpuPages(src, options, sound, &byCpu[c.cpu]);
            if (!sound)
                throw LoadError(path + ": not a readable trace.dat: CPU " + std::to_string(c.cpu) +
                                (b.name.empty() ? "" : " of buffer instance '" + b.name + "'") +
                                " has a corrupt ring-buffer page");
            if (!warning.empty()) throw LoadError(path + truncated);
        }
    }
    return gaps;
}

// The facts a tickscope capture stored: the kernel command line (nohz_full=, isolcpus=) comes from them.
std::vector<std::unique_ptr<Trace>> withMachineFacts(std::vector<std::unique_ptr<Trace>> traces,
                                                     const DatLayout &l)
{
    for (auto &t : traces)
        applyMachineFacts(*t, l);
    return traces;
}

} // namespace

// Metadata of one instance from the file's own options (the path without libtracecmd).
void fillMetaFromLayout(Trace &trace, const std::string &path, const DatLayout &l, const DatBuffer &b)
{
    TraceMeta &m = trace.meta;
    m.path = path;
    m.instance = b.name;
    m.fileVersion = l.version;
    if (l.compressed()) m.compression = l.compression;
    m.format =
        "trace.dat v" + std::to_string(l.version) + (m.compression.empty() ? "" : " (" + m.compression + ")");
    int cpus = l.cpuCount;
    for (const auto &c : b.cpus)
        cpus = std::max(cpus, static_cast<int>(c.cpu) + 1);
    m.cpuCount = cpus;
    m.pageSize = static_cast<int>(l.pageSize);
    m.longSize = l.longSize;
    m.traceClock = selectedTraceClock(b.clock.empty() ? l.traceClock : b.clock);
    m.uname = l.uname;
    while (!m.uname.empty() && (m.uname.back() == '\n' || m.uname.back() == ' '))
        m.uname.pop_back();
    m.kernelRelease = kernelReleaseFromUname(m.uname);
    m.fileInstances.push_back("");
    for (const auto &buf : l.buffers) {
        if (!buf.name.empty()) m.fileInstances.push_back(buf.name);
    }
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) == 0) m.fileBytes = static_cast<uint64_t>(st.st_size);
    if (m.cpuCount <= 0 || static_cast<uint32_t>(m.cpuCount) > kMaxDatCpus)
        throw LoadError(path + ": implausible CPU count " + std::to_string(m.cpuCount));
    trace.setCpuCount(m.cpuCount);
}

void applyMachineFacts(Trace &trace, const DatLayout &l)
{
    if (l.machine.empty()) return;
    const MachineFacts facts = MachineFacts::parse(l.machine);
    trace.meta.machine = l.machine;
    if (!facts.cmdline.empty()) trace.meta.kernelCmdline = facts.cmdline;
    if (trace.meta.kernelRelease.empty()) trace.meta.kernelRelease = facts.kernelRelease;
}

// A libtraceevent handle for this file's ring-buffer pages: byte order, long and page size, and the
// header page (checked by checkHeaderPageText before it gets here).
std::unique_ptr<tep_handle, TepDeleter> pageTep(const std::string &path, const DatLayout &layout)
{
    std::unique_ptr<tep_handle, TepDeleter> tep(tep_alloc());
    if (!tep) throw std::bad_alloc();
    tep_set_file_bigendian(tep.get(), layout.bigEndian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
    tep_set_local_bigendian(tep.get(),
                            std::endian::native == std::endian::big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
    tep_set_long_size(tep.get(), layout.longSize);
    tep_set_page_size(tep.get(), static_cast<int>(layout.pageSize));
    // The text is only read (libtraceevent's prototype lacks the const).
    char *text = const_cast<char *>(layout.headerPage.data());
    if (tep_parse_header_page(tep.get(), text, layout.headerPage.size(), layout.longSize) != 0)
        throw LoadError(path + ": unreadable ring-buffer page header");
    return tep;
}

// The header page and event formats, before libtraceevent parses them.
void checkFormats(const std::string &path, const DatLayout &layout)
{
    if (!layout.complete || layout.headerPage.empty())
        throw LoadError(path + ": not a readable trace.dat: its event formats are missing or truncated");
    if (auto bad = checkHeaderPageText(layout.headerPage))
        throw LoadError(path + ": not a readable trace.dat: " + *bad);
    if (auto bad = checkFormatTexts(layout.formats))
        throw LoadError(path + ": not a readable trace.dat: " + *bad);
}

DatLayout traceDatLayout(const InputFile &in)
{
    PhaseClock clock;
    const std::string_view bytes = in.bytes();
    std::string why;
    auto layout = readDatLayout(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size(), &why);
    clock.mark("file layout");
    if (!layout) throw LoadError(in.path() + ": not a readable trace.dat: " + why);
    return std::move(*layout);
}

std::vector<std::unique_ptr<Trace>> importTraceDat(const std::string &path, uint64_t fileSize,
                                                   DatLayout layout, const LoadOptions &options,
                                                   bool requireOne)
{
    PhaseClock clock;
    // libtracecmd and libtraceevent are not hardened against hostile input: they only ever see a file
    // whose layout, event formats and pages this code has checked.
    checkFormats(path, layout);
    if (!options.recordApi && !layout.needsLibraryPath)
        return withMachineFacts(importOwnPath(path, fileSize, layout, options, requireOne, clock), layout);
    if (auto bad = checkPrintkText(layout.printk))
        throw LoadError(path + ": not a readable trace.dat: " + *bad);
    if (!layout.dataSectionsSound)
        throw LoadError(path +
                        ": not a readable trace.dat through libtracecmd: a buffer's data section does not "
                        "match its table of CPU data (corrupt file)");
    if (layout.unterminatedText)
        throw LoadError(path +
                        ": not a readable trace.dat through libtracecmd: a text option (uname, version, "
                        "clock, buffer name) is not terminated (corrupt file)");
    const auto pageGaps = checkAllPages(path, fileSize, layout, options);
    if (options.window)
        throw LoadError(path + ": --load-window reads through tickscope's own page decoder; this file " +
                        (options.recordApi ? std::string("was asked for with --record-api")
                                           : std::string("has timestamp options that need libtracecmd")));
    {
        std::vector<std::string> all;
        for (const auto &b : layout.buffers)
            all.push_back(b.name);
        fitInMemory(path, fileSize, layout, all, options);
    }
    return withMachineFacts(importWithLibtracecmd(path, options, requireOne, &pageGaps), layout);
}

} // namespace tickscope
