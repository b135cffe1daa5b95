#include "DatLayout.h"

#include <charconv>
#include <cstring>
#include <string_view>
#include <zlib.h>
#include <zstd.h>

namespace tickscope {
namespace {

// Bounds-checked reader over the file bytes in the file's endianness.
class Reader
{
public:
    Reader(const uint8_t *d, uint64_t size, bool big) : d_(d), size_(size), big_(big) {}
    bool ok() const { return ok_; }
    uint64_t pos() const { return pos_; }
    uint64_t left() const { return size_ - pos_; }
    // True when len more bytes lie inside the data. Written as a subtraction: pos + len can wrap
    // around for a 64-bit length read from the file.
    bool fits(uint64_t len) const { return ok_ && len <= size_ - pos_; }
    void seek(uint64_t p) { p <= size_ ? void(pos_ = p) : void(ok_ = false); }
    void skip(uint64_t len) { fits(len) ? void(pos_ += len) : void(ok_ = false); }
    void fail() { ok_ = false; }
    template <class T> T get()
    {
        T v{};
        if (!fits(sizeof(T))) {
            ok_ = false;
            return v;
        }
        std::memcpy(&v, d_ + pos_, sizeof(T));
        pos_ += sizeof(T);
        if (big_) {
            if constexpr (sizeof(T) == 2) v = static_cast<T>(__builtin_bswap16(static_cast<uint16_t>(v)));
            if constexpr (sizeof(T) == 4) v = static_cast<T>(__builtin_bswap32(static_cast<uint32_t>(v)));
            if constexpr (sizeof(T) == 8) v = static_cast<T>(__builtin_bswap64(static_cast<uint64_t>(v)));
        }
        return v;
    }
    std::string str()
    {
        if (!ok_ || pos_ >= size_) { // also an empty body, whose data pointer may be null
            ok_ = false;
            return {};
        }
        const void *end = std::memchr(d_ + pos_, 0, size_ - pos_);
        if (!end) {
            ok_ = false;
            return {};
        }
        std::string s(reinterpret_cast<const char *>(d_ + pos_),
                      static_cast<const uint8_t *>(end) - (d_ + pos_));
        pos_ += s.size() + 1;
        return s;
    }

private:
    const uint8_t *d_;
    uint64_t size_;
    bool big_;
    uint64_t pos_ = 0;
    bool ok_ = true;
};

// Why a file is not a readable trace.dat, in the user's terms; caught in readDatLayout().
struct Bad
{
    std::string why;
};
[[noreturn]] void bad(std::string why)
{
    throw Bad{std::move(why)};
}

// A compressed block may not claim to grow by more than this: zstd and zlib reach ~1:1000 only on
// long runs of one byte, and ring-buffer pages and format texts stay far below. It keeps a corrupt
// size field from allocating gigabytes.
constexpr uint64_t kMaxInflation = 1024;
bool plausibleInflation(uint64_t compressed, uint64_t plain)
{
    return plain <= (512u << 20) && plain <= compressed * kMaxInflation + 4096;
}

constexpr uint16_t kSectionOptions = 0;
constexpr uint16_t kOptDone = 0, kOptBuffer = 3, kOptTraceClock = 4, kOptUname = 5, kOptOffset = 7,
                   kOptCpuCount = 8, kOptVersion = 9, kOptTimeShift = 12, kOptTsc2Nsec = 14,
                   kOptHeaderInfo = 16, kOptFtraceEvents = 17, kOptEventFormats = 18, kOptKallsyms = 19,
                   kOptPrintk = 20, kOptCmdlines = 21, kOptBufferText = 22;

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
    return id == 1 || id == 3 || id == 4 || id == 5 || id == 6 || id == 9 || id == 10 || id == 13;
}
void noteText(DatLayout &l, uint16_t id, const uint8_t *d, uint32_t len)
{
    if (!textOption(id)) return;
    // BUFFER: v6 "<u64 offset><name>\0"; v7 "<u64 offset><name>\0<clock>\0...": both strings inside len.
    const uint8_t *p = id == 3 && len >= 8 ? d + 8 : d;
    uint32_t n = id == 3 && len >= 8 ? len - 8 : len;
    const int strings = id == 3 && l.version == 7 ? 2 : 1;
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
        if (id == kOptOffset || id == kOptTimeShift || id == kOptTsc2Nsec || id == kOptBufferText)
            out.needsLibraryPath = true;
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

} // namespace

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

namespace {

// The body of a v7 section, decompressed when the section is, into a byte container (a vector, or a
// string for the texts that are kept).
template <class Buffer>
bool readSectionInto(const uint8_t *data, uint64_t size, const DatLayout &layout, uint64_t sectionOffset,
                     Buffer &out)
{
    if (!sectionOffset) return false;
    Reader s(data, size, layout.bigEndian);
    s.seek(sectionOffset);
    s.get<uint16_t>(); // id
    const auto flags = s.get<uint16_t>();
    s.get<uint32_t>(); // description string id
    const auto secSize = s.get<uint64_t>();
    if (!s.fits(secSize)) return false;
    if (!(flags & 1)) {
        out.assign(data + s.pos(), data + s.pos() + secSize);
        return true;
    }
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

// <u32 count> then count x (<u64 size><format text>), as in both v6 and v7.
bool readFormatList(Reader &r, const uint8_t *d, uint64_t, const std::string &system, DatLayout &l)
{
    const uint32_t n = r.get<uint32_t>();
    if (n > r.left() / 8) return false; // each entry has at least its 8-byte length
    for (uint32_t i = 0; r.ok() && i < n; ++i) {
        const uint64_t len = r.get<uint64_t>();
        if (!r.fits(len)) return false;
        FormatText f;
        f.system = system;
        f.text.assign(reinterpret_cast<const char *>(d + r.pos()), len);
        f.id = formatId(f.text);
        l.formats.push_back(std::move(f));
        r.skip(len);
    }
    return r.ok();
}

// <u32 systems> then per system <name\0> and a format list.
bool readSystems(Reader &r, const uint8_t *d, uint64_t size, DatLayout &l)
{
    const uint32_t systems = r.get<uint32_t>();
    if (systems > r.left() / 5) return false; // a name's NUL and a 4-byte count at least
    for (uint32_t i = 0; r.ok() && i < systems; ++i) {
        const std::string name = r.str();
        if (!readFormatList(r, d, size, name, l)) return false;
    }
    return r.ok();
}

// "header_page\0" <u64 size> <text> "header_event\0" <u64 size> <text>
bool readHeaderInfo(Reader &r, const uint8_t *d, uint64_t, DatLayout &l)
{
    if (r.str() != "header_page") return false;
    const uint64_t len = r.get<uint64_t>();
    if (!r.fits(len)) return false;
    l.headerPage.assign(reinterpret_cast<const char *>(d + r.pos()), len);
    r.skip(len);
    if (r.str() != "header_event") return false;
    r.skip(r.get<uint64_t>());
    return r.ok();
}

} // namespace

std::optional<std::string> readSectionText(const uint8_t *data, uint64_t size, const DatLayout &layout,
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
    if (!readHeaderInfo(r, data, size, l)) bad("its ring-buffer page header description is unreadable");
    if (!readFormatList(r, data, size, "ftrace", l) || !readSystems(r, data, size, l))
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
            if (id == kOptOffset || id == kOptTimeShift || id == kOptTsc2Nsec) l.needsLibraryPath = true;
            noteText(l, id, data + start, len);
            if (id == kOptUname) l.uname = cString(data + start, len);
            if (id == kOptTraceClock) l.traceClock = cString(data + start, len);
            if (id == kOptVersion) l.writer = cString(data + start, len);
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

} // namespace

namespace {

// One OPTIONS section at optionsAt (decompressed when it is); returns the next one's offset, 0 at the end.
uint64_t readOptionsSection(const uint8_t *data, uint64_t size, uint64_t optionsAt, DatLayout &l)
{
    Reader s(data, size, l.bigEndian);
    s.seek(optionsAt);
    const auto id = s.get<uint16_t>();
    const auto flags = s.get<uint16_t>();
    s.get<uint32_t>(); // description string id
    const auto secSize = s.get<uint64_t>();
    if (!s.ok() || !s.fits(secSize)) bad("its options lie past the end of the file (truncated)");
    if (id != kSectionOptions)
        bad("corrupt section table (an options section expected at byte " + std::to_string(optionsAt) + ")");
    const uint8_t *body = data + s.pos();
    uint64_t bodySize = secSize;
    std::vector<uint8_t> plain;
    if (flags & 1) { // compressed section: <4: compressed size><4: size><data>
        const auto csize = s.get<uint32_t>();
        const auto usize = s.get<uint32_t>();
        if (!s.fits(csize) || !plausibleInflation(csize, usize)) bad("corrupt compressed options section");
        plain.resize(usize);
        if (!decompressBlock(l.compression, data + s.pos(), csize, plain.data(), usize))
            bad("an options section does not decompress (corrupt)");
        body = plain.data();
        bodySize = usize;
    }
    uint64_t next = 0;
    if (!parseOptions(body, bodySize, l.bigEndian, l, next)) bad("corrupt options section");
    return next;
}

// True when a whole section header and body lie at `at` (a cut file ends inside or before one).
bool sectionInFile(const uint8_t *data, uint64_t size, uint64_t at, bool big)
{
    Reader s(data, size, big);
    s.seek(at);
    s.skip(8);
    return s.fits(s.get<uint64_t>());
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
    if (l.compression.empty() || l.compression == "none") return false;
    Reader s(data, size, l.bigEndian);
    s.seek(sectionAt);
    const auto id = s.get<uint16_t>();
    s.skip(12); // flags, description string id, size (of the whole data, which is cut)
    if (!s.ok() || id != kOptBuffer) return false;
    DatBuffer b;
    const uint32_t cpus = l.cpuCount > 0 ? static_cast<uint32_t>(l.cpuCount) : kMaxDatCpus;
    uint64_t at = alignUp(s.pos(), l.pageSize);
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

bool dataSectionSound(const uint8_t *data, uint64_t size, const DatLayout &l, const DatBuffer &b)
{
    Reader s(data, size, l.bigEndian);
    s.seek(b.section);
    const auto id = s.get<uint16_t>();
    const auto flags = s.get<uint16_t>();
    s.skip(4);
    const auto bodySize = s.get<uint64_t>();
    const bool compressed = !l.compression.empty() && l.compression != "none";
    if (!s.ok() || id != kOptBuffer || ((flags & 1) != 0) != compressed || !s.fits(bodySize)) return false;
    const uint64_t body = s.pos();
    for (const auto &c : b.cpus) {
        const uint64_t bytes = c.size + (compressed && c.size ? 4 : 0); // the chunk count is not counted
        if (c.size && (c.offset < body || c.offset - body > bodySize || bytes > bodySize - (c.offset - body)))
            return false;
    }
    return true;
}

DatLayout readV7(const uint8_t *data, uint64_t size, Reader &r, DatLayout l)
{
    l.compression = r.str();
    r.str(); // compression version
    if (!l.compression.empty() && l.compression != "none" && l.compression != "zstd" &&
        l.compression != "zlib")
        bad("compressed with '" + l.compression.substr(0, 32) + "', which tickscope cannot decompress");
    uint64_t optionsAt = r.get<uint64_t>();
    if (!r.ok()) bad("truncated inside its header");
    uint64_t firstEnd = 0; // where the first options section ends: the buffer data follow it
    for (int guard = 0; optionsAt; ++guard) {
        if (guard == 64) bad("its options sections form a loop (corrupt)");
        if (firstEnd && !sectionInFile(data, size, optionsAt, l.bigEndian)) {
            if (recoverTopBuffer(data, size, firstEnd, l)) break;
            bad("truncated: the table of its CPU data (written last in a v7 file) is cut off");
        }
        const uint64_t at = optionsAt;
        optionsAt = readOptionsSection(data, size, optionsAt, l);
        if (!firstEnd) {
            Reader s(data, size, l.bigEndian);
            s.seek(at + 8);
            firstEnd = at + 16 + s.get<uint64_t>();
        }
    }
    for (const auto &b : l.buffers) {
        if (!l.recovered && !dataSectionSound(data, size, l, b)) l.dataSectionsSound = false;
    }
    if (auto k = readSectionText(data, size, l, l.kallsymsSection, 4)) l.kallsyms = std::move(*k);
    if (auto k = readSectionText(data, size, l, l.cmdlinesSection, 8)) l.cmdlines = std::move(*k);
    if (auto k = readSectionText(data, size, l, l.printkSection, 4)) l.printk = std::move(*k);
    const auto header = sectionBody(data, size, l, l.headerSection);
    const auto ftrace = sectionBody(data, size, l, l.ftraceSection);
    const auto events = sectionBody(data, size, l, l.formatsSection);
    if (header && ftrace && events) {
        Reader h(header->data(), header->size(), l.bigEndian);
        Reader f(ftrace->data(), ftrace->size(), l.bigEndian);
        Reader e(events->data(), events->size(), l.bigEndian);
        l.complete = readHeaderInfo(h, header->data(), header->size(), l) &&
                     readFormatList(f, ftrace->data(), ftrace->size(), "ftrace", l) &&
                     readSystems(e, events->data(), events->size(), l);
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

std::optional<DatLayout> readDatLayout(const uint8_t *data, uint64_t size, std::string *why)
{
    try {
        return readLayout(data, size);
    } catch (const Bad &b) {
        if (why) *why = b.why;
        return std::nullopt;
    }
}

} // namespace tickscope
