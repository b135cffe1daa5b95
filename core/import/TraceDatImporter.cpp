// trace.dat without libtracecmd: the file's layout, header page, event formats (parsed lazily with
// libtraceevent), symbols and cmdlines are read from the file itself, and every CPU's pages are
// decoded on their own thread. The decoder-equality tests hold it to libtracecmd's record API.
#include "TraceDatImporter.h"

#include "DatLayout.h"
#include "FileSymbols.h"
#include "ImportSupport.h"
#include "InputChecks.h"
#include "InputFile.h"
#include "PageDecoder.h"
#include "model/MachineFacts.h"
#include "RecordDecoder.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <traceevent/event-parse.h>
#include <unistd.h>

namespace tickscope {
namespace {

// Every CPU's pages through kbuffer, on all threads; tep is this path's own (formats parsed lazily).
void decodeWithPages(int fd, uint64_t fileSize, const DatLayout &layout, const DatBuffer &buffer, tep_handle *tep,
                     bool oldFormat, const NameResolver &names, DecodeState &st, const LoadOptions &options)
{
    const int cpus = st.trace.cpuCount();
    std::vector<const DatCpuData *> work;
    for (const auto &c : buffer.cpus) {
        if (c.cpu < static_cast<uint32_t>(cpus)) work.push_back(&c); // numbers checked by readDatLayout
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
    if (l.compressed()) m.compression = l.compression;
    m.format = "trace.dat v" + std::to_string(l.version) + (m.compression.empty() ? "" : " (" + m.compression + ")");
    int cpus = l.cpuCount;
    for (const auto &c : b.cpus) cpus = std::max(cpus, static_cast<int>(c.cpu) + 1);
    m.cpuCount = cpus;
    m.pageSize = static_cast<int>(l.pageSize);
    m.longSize = l.longSize;
    m.traceClock = selectedTraceClock(b.clock.empty() ? l.traceClock : b.clock);
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
    const RegularFile file(path);
    decodeWithPages(file.fd(), fileSize, layout, buffer, tep, oldFormat, names, st, options);
}

// A libtraceevent handle for this file's ring-buffer pages: byte order, long and page size, and the
// header page (checked by checkHeaderPageText before it gets here).
std::unique_ptr<tep_handle, TepDeleter> pageTep(const std::string &path, const DatLayout &layout)
{
    std::unique_ptr<tep_handle, TepDeleter> tep(tep_alloc());
    if (!tep) throw std::bad_alloc();
    tep_set_file_bigendian(tep.get(), layout.bigEndian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
    tep_set_local_bigendian(tep.get(), std::endian::native == std::endian::big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
    tep_set_long_size(tep.get(), layout.longSize);
    tep_set_page_size(tep.get(), static_cast<int>(layout.pageSize));
    // The text is only read (libtraceevent's prototype lacks the const).
    char *text = const_cast<char *>(layout.headerPage.data());
    if (tep_parse_header_page(tep.get(), text, layout.headerPage.size(), layout.longSize) != 0)
        throw LoadError(path + ": unreadable ring-buffer page header");
    return tep;
}

// The fast path: nothing of libtracecmd. The layout, header page, event formats (parsed lazily with
// libtraceevent), symbols and cmdlines all come from the file; pages are decoded on all threads.
std::vector<std::unique_ptr<Trace>> importOwnPath(const std::string &path, uint64_t fileSize,
                                                  DatLayout &layout, const LoadOptions &options,
                                                  bool requireOne, PhaseClock &clock)
{
    const auto tep = pageTep(path, layout);
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
        if (!buffer) throw LoadError(path + ": no buffer instance named '" + name + "'");
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
    if (layout.recovered && !out.empty())
        out.front()->warnings.push_back(
            "the file is cut before its table of CPU data (trace.dat v7 writes it last): the top-level "
            "buffer's CPUs were found by walking the data, in CPU order; other buffer instances are lost");
    for (const auto &b : layout.buffers) {
        if (b.unreadable && !out.empty())
            out.front()->warnings.push_back("buffer instance '" + b.name +
                                            "' lies past the end of the file (truncated); its events are lost");
    }
    return out;
}

// Before libtracecmd reads the file's pages itself: every page of every buffer must be one that kbuffer
// can walk safely (a truncated end is fine; libtracecmd reports it).
void checkAllPages(const std::string &path, uint64_t fileSize, const DatLayout &layout,
                   const LoadOptions &options)
{
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
        for (const auto &c : b.cpus) {
            const PageSource src{file.fd(), fileSize, &layout, c, oldFormat};
            bool sound = true;
            const std::string warning = checkCpuPages(src, options, sound);
            if (!sound)
                throw LoadError(path + ": not a readable trace.dat: CPU " + std::to_string(c.cpu) +
                                (b.name.empty() ? "" : " of buffer instance '" + b.name + "'") +
                                " has a corrupt ring-buffer page");
            if (!warning.empty()) throw LoadError(path + truncated);
        }
    }
}

// The facts a tickscope capture stored: the kernel command line (nohz_full=, isolcpus=) comes from them.
std::vector<std::unique_ptr<Trace>> withMachineFacts(std::vector<std::unique_ptr<Trace>> traces, const DatLayout &l)
{
    if (l.machine.empty()) return traces;
    const MachineFacts facts = MachineFacts::parse(l.machine);
    for (auto &t : traces) {
        t->meta.machine = l.machine;
        if (!facts.cmdline.empty()) t->meta.kernelCmdline = facts.cmdline;
        if (t->meta.kernelRelease.empty()) t->meta.kernelRelease = facts.kernelRelease;
    }
    return traces;
}

} // namespace
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
    if (!layout.complete || layout.headerPage.empty())
        throw LoadError(path + ": not a readable trace.dat: its event formats are missing or truncated");
    if (auto bad = checkHeaderPageText(layout.headerPage))
        throw LoadError(path + ": not a readable trace.dat: " + *bad);
    if (auto bad = checkFormatTexts(layout.formats))
        throw LoadError(path + ": not a readable trace.dat: " + *bad);
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
    checkAllPages(path, fileSize, layout, options);
    return withMachineFacts(importWithLibtracecmd(path, options, requireOne), layout);
}

} // namespace tickscope
