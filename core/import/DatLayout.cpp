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
    void seek(uint64_t p) { p <= size_ ? void(pos_ = p) : void(ok_ = false); }
    template <class T> T get()
    {
        T v{};
        if (!ok_ || pos_ + sizeof(T) > size_) {
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
        if (!ok_) return {};
        const void *end = std::memchr(d_ + pos_, 0, size_ - pos_);
        if (!end) {
            ok_ = false;
            return {};
        }
        std::string s(reinterpret_cast<const char *>(d_ + pos_), static_cast<const uint8_t *>(end) - (d_ + pos_));
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

constexpr uint16_t kSectionOptions = 0;
constexpr uint16_t kOptDone = 0, kOptBuffer = 3, kOptTraceClock = 4, kOptUname = 5, kOptOffset = 7,
                   kOptCpuCount = 8, kOptVersion = 9, kOptTimeShift = 12, kOptTsc2Nsec = 14, kOptHeaderInfo = 16,
                   kOptFtraceEvents = 17, kOptEventFormats = 18, kOptKallsyms = 19, kOptCmdlines = 21,
                   kOptBufferText = 22;

int formatId(std::string_view text)
{
    const auto p = text.find("\nID: ");
    if (p == std::string_view::npos) return -1;
    int id = -1;
    std::from_chars(text.data() + p + 5, text.data() + text.size(), id);
    return id;
}

std::string cString(const uint8_t *d, uint32_t len)
{
    const auto *s = reinterpret_cast<const char *>(d);
    return std::string(s, strnlen(s, len));
}

bool parseOptions(const uint8_t *d, uint64_t size, bool big, DatLayout &out, uint64_t &next)
{
    Reader r(d, size, big);
    next = 0;
    while (r.ok() && r.pos() < size) {
        const auto id = r.get<uint16_t>();
        const auto len = r.get<uint32_t>();
        const uint64_t start = r.pos();
        if (!r.ok() || start + len > size) return false;
        if (id == kOptDone) {
            next = len >= 8 ? r.get<uint64_t>() : 0;
            return r.ok();
        }
        if (id == kOptOffset || id == kOptTimeShift || id == kOptTsc2Nsec || id == kOptBufferText)
            out.needsLibraryPath = true;
        if ((id == kOptKallsyms || id == kOptCmdlines) && len >= 8) {
            (id == kOptKallsyms ? out.kallsymsSection : out.cmdlinesSection) = r.get<uint64_t>();
        }
        if ((id == kOptHeaderInfo || id == kOptFtraceEvents || id == kOptEventFormats) && len >= 8) {
            const uint64_t at = r.get<uint64_t>();
            (id == kOptHeaderInfo ? out.headerSection : id == kOptFtraceEvents ? out.ftraceSection : out.formatsSection) = at;
        }
        if (id == kOptUname) out.uname = cString(d + start, len);
        if (id == kOptTraceClock) out.traceClock = cString(d + start, len);
        if (id == kOptVersion) out.writer = cString(d + start, len);
        if (id == kOptCpuCount && len >= 4) out.cpuCount = static_cast<int>(r.get<uint32_t>());
        if (id == kOptBuffer) {
            DatBuffer b;
            r.get<uint64_t>(); // the flyrecord section
            b.name = r.str();
            b.clock = r.str();
            // trace-cmd 3.1 writes the page size here; the v7 document of older versions does not.
            const uint64_t fixed = 8 + b.name.size() + 1 + b.clock.size() + 1;
            const auto countAt = [&](uint64_t extra) {
                Reader p(d, size, big);
                p.seek(start + fixed + extra);
                const auto n = p.get<uint32_t>();
                return p.ok() && fixed + extra + 4 + uint64_t{n} * 20 == len ? int64_t{n} : int64_t{-1};
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
                b.cpus.push_back(c);
            }
            out.buffers.push_back(std::move(b));
        }
        r.seek(start + len);
    }
    return false; // no DONE
}

} // namespace

bool decompressBlock(const std::string &algorithm, const uint8_t *src, size_t srcSize, uint8_t *dst, size_t dstSize)
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
    if (!s.ok() || s.pos() + secSize > size) return false;
    if (!(flags & 1)) {
        out.assign(data + s.pos(), data + s.pos() + secSize);
        return true;
    }
    const auto csize = s.get<uint32_t>();
    const auto usize = s.get<uint32_t>();
    if (!s.ok() || s.pos() + csize > size || usize > (512u << 20)) return false;
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
bool readFormatList(Reader &r, const uint8_t *d, uint64_t size, const std::string &system, DatLayout &l)
{
    const uint32_t n = r.get<uint32_t>();
    for (uint32_t i = 0; r.ok() && i < n; ++i) {
        const uint64_t len = r.get<uint64_t>();
        if (!r.ok() || r.pos() + len > size) return false;
        FormatText f;
        f.system = system;
        f.text.assign(reinterpret_cast<const char *>(d + r.pos()), len);
        f.id = formatId(f.text);
        l.formats.push_back(std::move(f));
        r.seek(r.pos() + len);
    }
    return r.ok();
}

// <u32 systems> then per system <name\0> and a format list.
bool readSystems(Reader &r, const uint8_t *d, uint64_t size, DatLayout &l)
{
    const uint32_t systems = r.get<uint32_t>();
    for (uint32_t i = 0; r.ok() && i < systems; ++i) {
        const std::string name = r.str();
        if (!readFormatList(r, d, size, name, l)) return false;
    }
    return r.ok();
}

// "header_page\0" <u64 size> <text> "header_event\0" <u64 size> <text>
bool readHeaderInfo(Reader &r, const uint8_t *d, uint64_t size, DatLayout &l)
{
    if (r.str() != "header_page") return false;
    const uint64_t len = r.get<uint64_t>();
    if (!r.ok() || r.pos() + len > size) return false;
    l.headerPage.assign(reinterpret_cast<const char *>(d + r.pos()), len);
    r.seek(r.pos() + len);
    if (r.str() != "header_event") return false;
    const uint64_t elen = r.get<uint64_t>();
    r.seek(r.pos() + elen);
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
    if (!b.ok() || b.pos() + len > body.size()) return std::nullopt;
    body.erase(0, b.pos()); // the length prefix (a memmove, no new pages)
    body.resize(len);
    return body;
}

namespace {

// v6: header_page, header_event, ftrace formats, event formats, kallsyms, printk, cmdlines, cpu count,
// then "options  " (u16 id, u32 size, data; id 0 ends), and "flyrecord" with (offset, size) per CPU.
std::optional<DatLayout> readV6(const uint8_t *data, uint64_t size, Reader &r, DatLayout l)
{
    auto expect = [&](std::string_view tag) {
        if (!r.ok() || r.pos() + tag.size() > size || std::memcmp(data + r.pos(), tag.data(), tag.size()) != 0) return false;
        r.seek(r.pos() + tag.size());
        return true;
    };
    if (!readHeaderInfo(r, data, size, l)) return std::nullopt;
    if (!readFormatList(r, data, size, "ftrace", l) || !readSystems(r, data, size, l)) return std::nullopt;
    l.complete = true;
    auto text = [&](uint64_t len) {
        if (!r.ok() || r.pos() + len > size) return std::string();
        std::string s(reinterpret_cast<const char *>(data + r.pos()), len);
        r.seek(r.pos() + len);
        return s;
    };
    l.kallsyms = text(r.get<uint32_t>());
    const auto printkSize = r.get<uint32_t>(); // printk formats
    r.seek(r.pos() + printkSize);
    l.cmdlines = text(r.get<uint64_t>());
    const uint32_t cpus = r.get<uint32_t>();
    if (!r.ok() || cpus == 0 || cpus > 8192) return std::nullopt;
    l.cpuCount = static_cast<int>(cpus);
    auto cpuTable = [&](Reader &t, DatBuffer &b) {
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
            if (!r.ok()) return std::nullopt;
            if (id == 0) break;
            const auto len = r.get<uint32_t>();
            const uint64_t start = r.pos();
            if (!r.ok() || start + len > size) return std::nullopt;
            if (id == kOptOffset || id == kOptTimeShift || id == kOptTsc2Nsec) l.needsLibraryPath = true;
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
    if (!expect(std::string_view("flyrecord\0", 10))) return std::nullopt; // latency traces: libtracecmd
    DatBuffer top;
    if (!cpuTable(r, top)) return std::nullopt;
    l.buffers.push_back(std::move(top));
    for (auto &[off, name] : instances) {
        Reader t(data, size, l.bigEndian);
        t.seek(off);
        if (!t.ok() || off + 10 > size || std::memcmp(data + off, "flyrecord\0", 10) != 0) {
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

std::optional<DatLayout> readDatLayout(const uint8_t *data, uint64_t size)
{
    if (size < 16 || std::memcmp(data, "\x17\x08\x44tracing", 10) != 0) return std::nullopt;
    Reader head(data, size, false);
    head.seek(10);
    DatLayout l;
    const std::string version = head.str();
    if (version != "6" && version != "7") return std::nullopt;
    l.version = version == "6" ? 6 : 7;
    l.bigEndian = head.get<uint8_t>() != 0;
    l.longSize = head.get<uint8_t>();
    Reader r(data, size, l.bigEndian); // from here on, numbers are in the file's byte order
    r.seek(head.pos());
    l.pageSize = r.get<uint32_t>();
    if (!r.ok() || l.pageSize == 0 || l.pageSize > (1u << 24)) return std::nullopt;
    if (l.version == 6) return readV6(data, size, r, std::move(l));
    l.compression = r.str();
    r.str(); // compression version
    uint64_t optionsAt = r.get<uint64_t>();
    if (!r.ok()) return std::nullopt;
    for (int guard = 0; optionsAt && guard < 64; ++guard) {
        Reader s(data, size, l.bigEndian);
        s.seek(optionsAt);
        const auto id = s.get<uint16_t>();
        const auto flags = s.get<uint16_t>();
        s.get<uint32_t>(); // description string id
        const auto secSize = s.get<uint64_t>();
        if (!s.ok() || id != kSectionOptions || s.pos() + secSize > size) return std::nullopt;
        const uint8_t *body = data + s.pos();
        uint64_t bodySize = secSize;
        std::vector<uint8_t> plain;
        if (flags & 1) { // compressed section: <4: compressed size><4: size><data>
            const auto csize = s.get<uint32_t>();
            const auto usize = s.get<uint32_t>();
            if (!s.ok() || s.pos() + csize > size || usize > (64u << 20)) return std::nullopt;
            plain.resize(usize);
            if (!decompressBlock(l.compression, data + s.pos(), csize, plain.data(), usize)) return std::nullopt;
            body = plain.data();
            bodySize = usize;
        }
        uint64_t next = 0;
        if (!parseOptions(body, bodySize, l.bigEndian, l, next)) return std::nullopt;
        optionsAt = next;
    }
    if (optionsAt) return std::nullopt;
    if (auto k = readSectionText(data, size, l, l.kallsymsSection, 4)) l.kallsyms = std::move(*k);
    if (auto k = readSectionText(data, size, l, l.cmdlinesSection, 8)) l.cmdlines = std::move(*k);
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

} // namespace tickscope
