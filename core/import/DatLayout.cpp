// SPDX-License-Identifier: GPL-3.0-or-later
#include "DatReader.h"

#include <charconv>
#include <zlib.h>
#include <zstd.h>

namespace tickscope {
namespace dat {
namespace {

int formatId(std::string_view text)
{
    const auto p = text.find("\nID: ");
    if (p == std::string_view::npos) return -1;
    int id = -1;
    std::from_chars(text.data() + p + 5, text.data() + text.size(), id);
    return id;
}

// Options whose data libtracecmd copies or parses as C strings (date, buffer name and clock, trace
// clock, uname, hook, version, process maps, guest): without a NUL inside the option it reads past it.
bool textOption(uint16_t id)
{
    return id == kOptDate || id == kOptBuffer || id == kOptTraceClock || id == kOptUname || id == kOptHook ||
           id == kOptVersion || id == kOptProcMaps || id == kOptGuest;
}

} // namespace

void noteText(DatLayout &l, uint16_t id, const uint8_t *d, uint32_t len)
{
    if (!textOption(id)) return;
    // BUFFER: v6 "<u64 offset><name>\0"; v7 "<u64 offset><name>\0<clock>\0...": both strings inside len.
    const bool buffer = id == kOptBuffer && len >= 8;
    const uint8_t *p = buffer ? d + 8 : d;
    uint32_t n = buffer ? len - 8 : len;
    const int strings = buffer && l.version == 7 ? 2 : 1;
    for (int k = 0; k < strings; ++k) {
        const void *nul = std::memchr(p, 0, n);
        if (!nul) {
            l.unterminatedText = true;
            return;
        }
        const auto used = static_cast<uint32_t>(static_cast<const uint8_t *>(nul) - p) + 1;
        p += used;
        n -= used;
    }
}

std::string cString(const uint8_t *d, uint32_t len)
{
    const auto *s = reinterpret_cast<const char *>(d);
    return std::string(s, strnlen(s, len));
}

bool needsLibraryPath(uint16_t id)
{
    return id == kOptOffset || id == kOptTimeShift || id == kOptTsc2Nsec || id == kOptBufferText;
}

SectionHeader readSectionHeader(const uint8_t *data, uint64_t size, uint64_t at, bool big)
{
    Reader s(data, size, big);
    s.seek(at);
    SectionHeader h;
    h.id = s.get<uint16_t>();
    h.flags = s.get<uint16_t>();
    s.get<uint32_t>(); // description string id
    h.size = s.get<uint64_t>();
    h.body = s.pos();
    h.ok = s.ok();
    h.whole = s.fits(h.size);
    return h;
}

bool readFormatList(Reader &r, const std::string &system, DatLayout &l)
{
    const uint32_t n = r.get<uint32_t>();
    if (n > r.left() / 8) return false; // each entry has at least its 8-byte length
    for (uint32_t i = 0; r.ok() && i < n; ++i) {
        const uint64_t len = r.get<uint64_t>();
        if (!r.fits(len)) return false;
        FormatText f;
        f.system = system;
        f.text.assign(reinterpret_cast<const char *>(r.here()), len);
        f.id = formatId(f.text);
        l.formats.push_back(std::move(f));
        r.skip(len);
    }
    return r.ok();
}

bool readSystems(Reader &r, DatLayout &l)
{
    const uint32_t systems = r.get<uint32_t>();
    if (systems > r.left() / 5) return false; // a name's NUL and a 4-byte count at least
    for (uint32_t i = 0; r.ok() && i < systems; ++i) {
        const std::string name = r.str();
        if (!readFormatList(r, name, l)) return false;
    }
    return r.ok();
}

bool readHeaderInfo(Reader &r, DatLayout &l)
{
    if (r.str() != "header_page") return false;
    const uint64_t len = r.get<uint64_t>();
    if (!r.fits(len)) return false;
    l.headerPage.assign(reinterpret_cast<const char *>(r.here()), len);
    r.skip(len);
    if (r.str() != "header_event") return false;
    r.skip(r.get<uint64_t>());
    return r.ok();
}

namespace {

// v6: header_page, header_event, ftrace formats, event formats, kallsyms, printk, cmdlines, cpu count,
// then "options  " (u16 id, u32 size, data; id 0 ends), and "flyrecord" with (offset, size) per CPU.
DatLayout readV6(const uint8_t *data, uint64_t size, Reader &r, DatLayout l)
{
    auto expect = [&](std::string_view tag) {
        if (!r.fits(tag.size()) || std::memcmp(data + r.pos(), tag.data(), tag.size()) != 0) return false;
        r.skip(tag.size());
        return true;
    };
    if (!readHeaderInfo(r, l)) bad("its ring-buffer page header description is unreadable");
    if (!readFormatList(r, "ftrace", l) || !readSystems(r, l))
        bad("its event formats are unreadable (corrupt or truncated)");
    l.complete = true;
    auto text = [&](uint64_t len) {
        if (!r.fits(len)) {
            r.fail();
            return std::string();
        }
        std::string s(reinterpret_cast<const char *>(data + r.pos()), len);
        r.skip(len);
        return s;
    };
    l.kallsyms = text(r.get<uint32_t>());
    l.printk = text(r.get<uint32_t>());
    l.cmdlines = text(r.get<uint64_t>());
    const uint32_t cpus = r.get<uint32_t>();
    if (!r.ok()) bad("truncated before its CPU data");
    if (cpus == 0 || cpus > kMaxDatCpus) bad("implausible CPU count " + std::to_string(cpus));
    l.cpuCount = static_cast<int>(cpus);
    auto cpuTable = [&](Reader &t, DatBuffer &b) {
        if (!t.fits(uint64_t{cpus} * 16)) return false;
        for (uint32_t c = 0; c < cpus; ++c) {
            DatCpuData d;
            d.cpu = c;
            d.offset = t.get<uint64_t>();
            d.size = t.get<uint64_t>();
            b.cpus.push_back(d);
        }
        return t.ok();
    };
    std::vector<std::pair<uint64_t, std::string>> instances;
    if (expect(std::string_view("options  \0", 10))) {
        for (int guard = 0; guard < 100000; ++guard) {
            const auto id = r.get<uint16_t>();
            if (!r.ok()) bad("truncated inside its options");
            if (id == 0) break;
            const auto len = r.get<uint32_t>();
            const uint64_t start = r.pos();
            if (!r.fits(len)) bad("truncated inside its options");
            if (needsLibraryPath(id)) l.needsLibraryPath = true;
            noteText(l, id, data + start, len);
            if (id == kOptUname) l.uname = cString(data + start, len);
            if (id == kOptTraceClock) l.traceClock = cString(data + start, len);
            if (id == kOptVersion) l.writer = cString(data + start, len);
            if (id == kOptMachineFacts) l.machine = cString(data + start, len);
            if (id == kOptBuffer) {
                const auto off = r.get<uint64_t>();
                instances.emplace_back(off, r.str());
            }
            r.seek(start + len);
        }
    }
    if (!expect(std::string_view("flyrecord\0", 10))) {
        if (r.fits(8) && std::memcmp(data + r.pos(), "latency ", 8) == 0)
            bad("a latency-tracer trace (trace-cmd record -p irqsoff and the like); tickscope reads event "
                "traces");
        bad("no CPU data where the file says it starts (corrupt or truncated)");
    }
    DatBuffer top;
    if (!cpuTable(r, top)) bad("truncated inside its CPU table");
    l.buffers.push_back(std::move(top));
    for (auto &[off, name] : instances) {
        Reader t(data, size, l.bigEndian);
        t.seek(off);
        if (!t.fits(10) || std::memcmp(data + off, "flyrecord\0", 10) != 0) {
            l.buffers.push_back({name, {}, {}, true}); // its table lies past the end: nothing is readable
            continue;
        }
        t.seek(off + 10);
        DatBuffer b;
        b.name = name;
        if (!cpuTable(t, b)) b.cpus.clear();
        l.buffers.push_back(std::move(b));
    }
    return l;
}

DatLayout readLayout(const uint8_t *data, uint64_t size)
{
    if (size < 10 || std::memcmp(data, "\x17\x08\x44tracing", 10) != 0) bad("not a trace.dat file");
    Reader head(data, size, false);
    head.seek(10);
    DatLayout l;
    const std::string version = head.str();
    if (!head.ok()) bad("truncated inside its header");
    if (version != "6" && version != "7")
        bad("trace.dat version '" + version.substr(0, 16) + "' is not supported (6 and 7 are)");
    l.version = version == "6" ? 6 : 7;
    l.bigEndian = head.get<uint8_t>() != 0;
    l.longSize = head.get<uint8_t>();
    Reader r(data, size, l.bigEndian); // from here on, numbers are in the file's byte order
    r.seek(head.pos());
    l.pageSize = r.get<uint32_t>();
    if (!r.ok()) bad("truncated inside its header");
    if (l.longSize != 4 && l.longSize != 8) bad("implausible long size " + std::to_string(l.longSize));
    if (l.pageSize < 64 || l.pageSize > (1u << 24))
        bad("implausible page size " + std::to_string(l.pageSize));
    if (l.version == 6) return readV6(data, size, r, std::move(l));
    return readV7(data, size, r, std::move(l));
}

} // namespace
} // namespace dat

bool decompressBlock(const std::string &algorithm, const uint8_t *src, size_t srcSize, uint8_t *dst,
                     size_t dstSize)
{
    if (algorithm == "zstd") {
        // One context per thread, reused: ZSTD_decompress() would allocate one per chunk.
        struct Ctx
        {
            ZSTD_DCtx *c = ZSTD_createDCtx();
            ~Ctx() { ZSTD_freeDCtx(c); }
        };
        thread_local Ctx ctx;
        if (!ctx.c) return false;
        const size_t n = ZSTD_decompressDCtx(ctx.c, dst, dstSize, src, srcSize);
        return !ZSTD_isError(n) && n == dstSize;
    }
    if (algorithm == "zlib") {
        uLongf n = dstSize;
        return uncompress(dst, &n, src, srcSize) == Z_OK && n == dstSize;
    }
    return false;
}

std::optional<DatLayout> readDatLayout(const uint8_t *data, uint64_t size, std::string *why)
{
    try {
        return dat::readLayout(data, size);
    } catch (const dat::Bad &b) {
        if (why) *why = b.why;
        return std::nullopt;
    }
}

} // namespace tickscope
