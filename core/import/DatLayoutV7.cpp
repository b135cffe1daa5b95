// SPDX-License-Identifier: GPL-3.0-or-later
// The v7 trace.dat layout: the options sections (a chain from the file header), the sections they point
// to, every buffer's CPU table, and the recovery of the CPU data when the file is cut before its last
// options section.
#include "DatReader.h"

#include <vector>

namespace tickscope {
namespace dat {
namespace {

// A BUFFER option's CPU table: every CPU number in range and listed once (the decoder gives each CPU
// its own thread and arrays, indexed by this number).
void addCpuEntry(DatBuffer &b, const DatCpuData &c)
{
    const std::string where = b.name.empty() ? "the top-level buffer" : "buffer instance '" + b.name + "'";
    if (c.cpu >= kMaxDatCpus) bad(where + " names CPU " + std::to_string(c.cpu) + " (corrupt CPU table)");
    for (const auto &o : b.cpus) {
        if (o.cpu == c.cpu) bad(where + " lists CPU " + std::to_string(c.cpu) + " twice (corrupt CPU table)");
    }
    b.cpus.push_back(c);
}

bool parseOptions(const uint8_t *d, uint64_t size, bool big, DatLayout &out, uint64_t &next)
{
    Reader r(d, size, big);
    next = 0;
    while (r.ok() && r.pos() < size) {
        const auto id = r.get<uint16_t>();
        const auto len = r.get<uint32_t>();
        const uint64_t start = r.pos();
        if (!r.fits(len)) return false;
        if (id == kOptDone) {
            next = len >= 8 ? r.get<uint64_t>() : 0;
            return r.ok();
        }
        if (needsLibraryPath(id)) out.needsLibraryPath = true;
        if ((id == kOptKallsyms || id == kOptCmdlines || id == kOptPrintk) && len >= 8) {
            const uint64_t at = r.get<uint64_t>();
            (id == kOptKallsyms   ? out.kallsymsSection
             : id == kOptCmdlines ? out.cmdlinesSection
                                  : out.printkSection) = at;
        }
        if ((id == kOptHeaderInfo || id == kOptFtraceEvents || id == kOptEventFormats) && len >= 8) {
            const uint64_t at = r.get<uint64_t>();
            (id == kOptHeaderInfo     ? out.headerSection
             : id == kOptFtraceEvents ? out.ftraceSection
                                      : out.formatsSection) = at;
        }
        noteText(out, id, d + start, len);
        if (id == kOptUname) out.uname = cString(d + start, len);
        if (id == kOptMachineFacts) out.machine = cString(d + start, len);
        if (id == kOptTraceClock) out.traceClock = cString(d + start, len);
        if (id == kOptVersion) out.writer = cString(d + start, len);
        if (id == kOptCpuCount && len >= 4) {
            const auto n = r.get<uint32_t>();
            if (n == 0 || n > kMaxDatCpus) bad("implausible CPU count " + std::to_string(n));
            out.cpuCount = static_cast<int>(n);
        }
        if (id == kOptBuffer) {
            DatBuffer b;
            b.section = r.get<uint64_t>();
            b.name = r.str();
            b.clock = r.str();
            // trace-cmd 3.1 writes the page size here; the v7 document of older versions does not.
            const uint64_t fixed = 8 + b.name.size() + 1 + b.clock.size() + 1;
            const auto countAt = [&](uint64_t extra) {
                Reader p(d, size, big);
                p.seek(start + fixed + extra);
                const auto n = p.get<uint32_t>();
                return p.ok() && fixed + extra + 4 + uint64_t{n} * 20 == uint64_t{len} ? int64_t{n}
                                                                                       : int64_t{-1};
            };
            uint64_t extra = 0;
            int64_t n = countAt(4);
            if (n >= 0) {
                extra = 4;
            } else {
                n = countAt(0);
            }
            if (n < 0) return false;
            r.seek(start + fixed + extra + 4);
            for (int64_t i = 0; i < n; ++i) {
                DatCpuData c;
                c.cpu = r.get<uint32_t>();
                c.offset = r.get<uint64_t>();
                c.size = r.get<uint64_t>();
                addCpuEntry(b, c);
            }
            out.buffers.push_back(std::move(b));
        }
        r.seek(start + len);
    }
    return false; // no DONE
}

// The body of a v7 section, decompressed when the section is, into a byte container (a vector, or a
// string for the texts that are kept).
template <class Buffer>
bool readSectionInto(const uint8_t *data, uint64_t size, const DatLayout &layout, uint64_t sectionOffset,
                     Buffer &out)
{
    if (!sectionOffset) return false;
    const SectionHeader h = readSectionHeader(data, size, sectionOffset, layout.bigEndian);
    if (!h.whole) return false;
    if (!(h.flags & 1)) {
        out.assign(data + h.body, data + h.body + h.size);
        return true;
    }
    // <4: compressed size><4: size><data>
    Reader s(data, size, layout.bigEndian);
    s.seek(h.body);
    const auto csize = s.get<uint32_t>();
    const auto usize = s.get<uint32_t>();
    if (!s.fits(csize) || !plausibleInflation(csize, usize)) return false;
    out.resize(usize);
    return decompressBlock(layout.compression, data + s.pos(), csize, reinterpret_cast<uint8_t *>(out.data()),
                           usize);
}

std::optional<std::vector<uint8_t>> sectionBody(const uint8_t *data, uint64_t size, const DatLayout &layout,
                                                uint64_t sectionOffset)
{
    std::vector<uint8_t> body;
    if (!readSectionInto(data, size, layout, sectionOffset, body)) return std::nullopt;
    return body;
}

std::optional<std::string> sectionText(const uint8_t *data, uint64_t size, const DatLayout &layout,
                                       uint64_t sectionOffset, int lengthBytes)
{
    // Decompressed straight into the string that is returned (kallsyms is megabytes: a body vector and a
    // copy of it cost two fresh allocations, and fresh pages are the expensive part).
    std::string body;
    if (!readSectionInto(data, size, layout, sectionOffset, body)) return std::nullopt;
    Reader b(reinterpret_cast<const uint8_t *>(body.data()), body.size(), layout.bigEndian);
    const uint64_t len = lengthBytes == 8 ? b.get<uint64_t>() : b.get<uint32_t>();
    if (!b.fits(len)) return std::nullopt;
    body.erase(0, b.pos()); // the length prefix (a memmove, no new pages)
    body.resize(len);
    return body;
}

// One OPTIONS section at `at`; returns the next one's offset (0 at the end).
uint64_t readOptionsSection(const uint8_t *data, uint64_t size, uint64_t at, DatLayout &l)
{
    const SectionHeader h = readSectionHeader(data, size, at, l.bigEndian);
    if (!h.whole) bad("its options lie past the end of the file (truncated)");
    if (h.id != kSectionOptions)
        bad("corrupt section table (an options section expected at byte " + std::to_string(at) + ")");
    const auto body = sectionBody(data, size, l, at);
    uint64_t next = 0;
    if (!body || !parseOptions(body->data(), body->size(), l.bigEndian, l, next))
        bad("corrupt options section");
    return next;
}

uint64_t alignUp(uint64_t v, uint64_t to)
{
    return (v + to - 1) / to * to;
}

// v7 writes the table of where each CPU's data lies (the BUFFER option) in an options section after
// the data, so a file cut anywhere in the data loses it. The data itself follows the first options
// section, in a buffer-data section: one CPU after another, each starting on a page boundary, each a
// chunk count and self-delimiting compressed chunks. Walking them finds the top-level buffer's CPUs
// again (in CPU order, as trace-cmd writes them); uncompressed data has no such marks.
bool recoverTopBuffer(const uint8_t *data, uint64_t size, uint64_t sectionAt, DatLayout &l)
{
    const SectionHeader h = readSectionHeader(data, size, sectionAt, l.bigEndian); // its body is cut
    if (!l.compressed() || !h.ok || h.id != kOptBuffer) return false;
    DatBuffer b;
    const uint32_t cpus = l.cpuCount > 0 ? static_cast<uint32_t>(l.cpuCount) : kMaxDatCpus;
    uint64_t at = alignUp(h.body, l.pageSize);
    while (b.cpus.size() < cpus && at < size && size - at >= 4) {
        Reader c(data, size, l.bigEndian);
        c.seek(at);
        const uint32_t chunks = c.get<uint32_t>();
        uint32_t k = 0;
        for (; k < chunks && c.fits(8); ++k) {
            const uint32_t cs = c.get<uint32_t>();
            c.skip(4); // its uncompressed size
            if (!c.fits(cs)) break;
            c.skip(cs);
        }
        // The size, as the BUFFER option gives it, leaves out the 4-byte chunk count. The CPU whose
        // chunks the cut ends is the last one: what follows it is not another CPU's data.
        b.cpus.push_back({static_cast<uint32_t>(b.cpus.size()), at, c.pos() - at - 4});
        if (k < chunks) break;
        at = alignUp(c.pos(), l.pageSize);
    }
    if (b.cpus.empty()) return false;
    l.buffers.push_back(std::move(b));
    l.recovered = true;
    return true;
}

// The buffer's data section is where its option says, marked compressed exactly when the file is, and
// holds the CPUs' data.
bool dataSectionSound(const uint8_t *data, uint64_t size, const DatLayout &l, const DatBuffer &b)
{
    const SectionHeader h = readSectionHeader(data, size, b.section, l.bigEndian);
    if (!h.whole || h.id != kOptBuffer || ((h.flags & 1) != 0) != l.compressed()) return false;
    for (const auto &c : b.cpus) {
        const uint64_t bytes = c.size + (l.compressed() && c.size ? 4 : 0); // the chunk count is not counted
        if (c.size &&
            (c.offset < h.body || c.offset - h.body > h.size || bytes > h.size - (c.offset - h.body)))
            return false;
    }
    return true;
}

} // namespace

DatLayout readV7(const uint8_t *data, uint64_t size, Reader &r, DatLayout l)
{
    l.compression = r.str();
    r.str(); // compression version
    if (l.compressed() && l.compression != "zstd" && l.compression != "zlib")
        bad("compressed with '" + l.compression.substr(0, 32) + "', which tickscope cannot decompress");
    uint64_t optionsAt = r.get<uint64_t>();
    if (!r.ok()) bad("truncated inside its header");
    uint64_t firstEnd = 0; // where the first options section ends: the buffer data follow it
    for (int guard = 0; optionsAt; ++guard) {
        if (guard == 64) bad("its options sections form a loop (corrupt)");
        if (firstEnd && !readSectionHeader(data, size, optionsAt, l.bigEndian).whole) {
            if (recoverTopBuffer(data, size, firstEnd, l)) break;
            bad("truncated: the table of its CPU data (written last in a v7 file) is cut off");
        }
        if (!firstEnd) {
            const SectionHeader first = readSectionHeader(data, size, optionsAt, l.bigEndian);
            firstEnd = first.body + first.size;
        }
        optionsAt = readOptionsSection(data, size, optionsAt, l);
    }
    for (const auto &b : l.buffers) {
        if (!l.recovered && !dataSectionSound(data, size, l, b)) l.dataSectionsSound = false;
    }
    if (auto k = sectionText(data, size, l, l.kallsymsSection, 4)) l.kallsyms = std::move(*k);
    if (auto k = sectionText(data, size, l, l.cmdlinesSection, 8)) l.cmdlines = std::move(*k);
    if (auto k = sectionText(data, size, l, l.printkSection, 4)) l.printk = std::move(*k);
    const auto header = sectionBody(data, size, l, l.headerSection);
    const auto ftrace = sectionBody(data, size, l, l.ftraceSection);
    const auto events = sectionBody(data, size, l, l.formatsSection);
    if (header && ftrace && events) {
        Reader h(header->data(), header->size(), l.bigEndian);
        Reader f(ftrace->data(), ftrace->size(), l.bigEndian);
        Reader e(events->data(), events->size(), l.bigEndian);
        l.complete = readHeaderInfo(h, l) && readFormatList(f, "ftrace", l) && readSystems(e, l);
    }
    return l;
}

} // namespace dat
} // namespace tickscope
