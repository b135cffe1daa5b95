// SPDX-License-Identifier: GPL-3.0-or-later
#include "PageDecoder.h"

#include "ImportSupport.h"
#include "InputChecks.h"
#include "RecordDecoder.h"
#include "RingPage.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <traceevent/event-parse.h>
#include <unistd.h>
#include <utility>
extern "C" { // kbuffer.h has no C++ guard
#include <traceevent/kbuffer.h>
}
#include <vector>

namespace tickscope {
namespace {

struct KbufferDeleter
{
    void operator()(kbuffer *k) const { kbuffer_free(k); }
};

// A reader of the layout's ring-buffer pages (nullptr when it cannot be allocated).
std::unique_ptr<kbuffer, KbufferDeleter> pageReader(const DatLayout &l)
{
    return std::unique_ptr<kbuffer, KbufferDeleter>(
        kbuffer_alloc(l.longSize == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
                      l.bigEndian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE));
}

class PageWalker
{
public:
    PageWalker(const DatLayout &l, RecordDecoder &dec, CpuEvents &out, int cpu, int64_t from, int64_t to)
        : from_(from), to_(to), dec_(dec), out_(out), cpu_(cpu), longSize_(l.longSize),
          bigEndian_(l.bigEndian)
    {
    }
    bool seen() const { return seen_; }
    int64_t lastTs() const { return lastTs_; }     // of the last event taken
    bool missedPending() const { return missed_; } // a page said events were lost, and had none after them
    uint64_t missedCount() const { return missedCount_; }
    // A 2.6.30 kernel's pages: read by libtraceevent's kbuffer. False when it cannot be allocated.
    bool setOldFormat(const DatLayout &l)
    {
        kb_ = pageReader(l);
        if (!kb_) return false;
        kbuffer_set_old_format(kb_.get());
        return true;
    }
    void setLaterPart() { laterPart_ = true; } // not a CPU's first part: its first events follow others

    // Walks every event of one page that pageIsSound() accepted.
    bool page(uint8_t *p)
    {
        // (from the header: kbuffer_missed_events says 0 once the page's first record is a time extend)
        if (pageMissedEvents(p, longSize_, bigEndian_)) addMissed(pageMissedCount(p, longSize_, bigEndian_));
        tep_record rec{};
        rec.cpu = cpu_;
        if (!kb_) { // the kernel's format since 2.6.31
            RingPageRecords r(p, longSize_, bigEndian_);
            while (r.next() && take(rec, r.ts(), r.data(), r.size())) {
            }
            return true;
        }
        if (kbuffer_load_subbuffer(kb_.get(), p) < 0) return false;
        unsigned long long ts = 0;
        for (void *data = kbuffer_read_event(kb_.get(), &ts); data; data = kbuffer_next_event(kb_.get(), &ts))
            if (!take(rec, ts, data, kbuffer_event_size(kb_.get()))) break;
        return true;
    }

private:
    // One event of the page; false once past the window's end.
    bool take(tep_record &rec, uint64_t ts, const void *data, uint32_t size)
    {
        if (static_cast<int64_t>(ts) < from_) { // a window: only its events (a gap before one it skips
            missed_ = false;                    // ended outside it)
            return true;
        }
        if (static_cast<int64_t>(ts) > to_) return false;
        rec.ts = ts;
        rec.data = const_cast<void *>(data); // (libtraceevent's record type; nothing writes through it)
        rec.size = static_cast<int>(size);
        if (missed_) { // the gap ends at the first event after it (a page without one passes it on)
            const auto t = static_cast<int64_t>(ts);
            // (nothing before it: it opens the data, or, in a later part, the part: joined later)
            const auto next = static_cast<uint32_t>(out_.size());
            if (seen_)
                out_.lost.push_back({lastTs_, t, missedCount_, false, next});
            else
                out_.lost.push_back({laterPart_ ? INT64_MIN : t, t, missedCount_, !laterPart_, next});
            missed_ = false;
        }
        dec_.decode(rec, out_);
        lastTs_ = static_cast<int64_t>(ts);
        seen_ = true;
        return true;
    }

    // Events lost before a page: their count adds to a gap not closed yet (0: some count not said).
    void addMissed(uint64_t count)
    {
        missedCount_ = missed_ ? CpuEvents::addLostCounts(missedCount_, count) : count;
        missed_ = true;
    }

    int64_t from_, to_;
    bool laterPart_ = false;
    bool missed_ = false;
    uint64_t missedCount_ = 0;
    std::unique_ptr<kbuffer, KbufferDeleter> kb_; // only for an old format's pages (setOldFormat)
    RecordDecoder &dec_;
    CpuEvents &out_;
    int cpu_;
    int longSize_;
    bool bigEndian_;
    int64_t lastTs_ = 0;
    bool seen_ = false;
};

} // namespace

namespace {

bool readAt(int fd, uint64_t off, void *dst, size_t n)
{
    size_t done = 0;
    while (done < n) {
        const ssize_t r =
            ::pread(fd, static_cast<char *>(dst) + done, n - done, static_cast<off_t>(off + done));
        if (r <= 0) return false;
        done += static_cast<size_t>(r);
    }
    return true;
}

// A raw page's timestamp (its first 8 bytes, in the file's byte order); nullopt when unreadable.
std::optional<int64_t> pageTs(const PageSource &src, uint64_t page)
{
    uint8_t b[8];
    if (!readAt(src.fd, src.cpu.offset + page * src.layout->pageSize, b, 8)) return std::nullopt;
    uint64_t v;
    std::memcpy(&v, b, 8);
    if (src.layout->bigEndian) v = __builtin_bswap64(v);
    return static_cast<int64_t>(v);
}

// The pages of a raw CPU data block to read: all of them, or for a window [from, to] the page holding
// `from` up to the last page starting at or before `to` (pages are in time order within a CPU).
std::pair<uint64_t, uint64_t> rawPageRange(const PageSource &src)
{
    const uint64_t pages = std::min(src.cpu.size, src.fileSize - src.cpu.offset) / src.layout->pageSize;
    if (src.from == INT64_MIN && src.to == INT64_MAX) return {0, pages};
    // first page whose timestamp is > t
    auto upper = [&](int64_t t) {
        uint64_t lo = 0, hi = pages;
        while (lo < hi) {
            const uint64_t mid = lo + (hi - lo) / 2;
            const auto ts = pageTs(src, mid);
            if (ts && *ts <= t)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo;
    };
    const uint64_t begin = src.from == INT64_MIN ? 0 : std::max<uint64_t>(upper(src.from), 1) - 1;
    const uint64_t end = src.to == INT64_MAX ? pages : upper(src.to);
    return {std::min(begin, end), end};
}

// The raw pages' read buffer of the calling thread, kept from CPU to CPU and sized to what is read: its
// pages are faulted in once, not per CPU (in a VM a page fault costs microseconds; 128 CPUs of a page each
// faulted in a zeroed megabyte each). One per thread for every caller (a decode and a check of pages are
// never nested); a thread keeps at most kKeepBytes of it once a read is done (pages can be 16 MiB).
struct ReadBuffer
{
    static constexpr size_t kKeepBytes = size_t{2} << 20;
    std::vector<uint8_t> &bytes;
    explicit ReadBuffer(size_t need) : bytes(threadBuffer())
    {
        if (bytes.size() < need) bytes.resize(need);
    }
    ~ReadBuffer()
    {
        if (bytes.size() > kKeepBytes) std::vector<uint8_t>().swap(bytes);
    }
    ReadBuffer(const ReadBuffer &) = delete;
    ReadBuffer &operator=(const ReadBuffer &) = delete;

private:
    static std::vector<uint8_t> &threadBuffer()
    {
        thread_local std::vector<uint8_t> b;
        return b;
    }
};

// Hands every page of one CPU's data to onPage, which returns false for a page it cannot use. Pages
// are read in batches (raw) or chunk by chunk (compressed), into buffers with kPageSlack bytes after
// the last page. Returns the truncated warning, or "" when all data was read. reserve(events, bytes)
// is told once how much the data holds, bounded by what the file can really contain.
template <class OnPage, class Reserve>
std::string forEachPage(const PageSource &src, const std::string &truncated, const LoadOptions &options,
                        const std::function<void(double)> &progress, OnPage &&onPage, Reserve &&reserve)
{
    const DatLayout &l = *src.layout;
    const DatCpuData &c = src.cpu;
    const uint32_t ps = l.pageSize;
    if (c.size == 0) return {};
    if (c.offset >= src.fileSize) return truncated;
    if (!l.compressed()) {
        const uint64_t avail = std::min(c.size, src.fileSize - c.offset);
        const auto [all0, all1] = rawPageRange(src);
        const uint64_t begin = all0 + (all1 - all0) * src.part / src.parts;
        const uint64_t end = all0 + (all1 - all0) * (src.part + 1) / src.parts;
        reserve((end - begin) * ps);
        const uint64_t batch = std::max<uint64_t>(1, (1u << 20) / ps);
        ReadBuffer read(static_cast<size_t>(std::min(batch, end - begin) * ps) + kPageSlack);
        std::vector<uint8_t> &buf = read.bytes;
        for (uint64_t i = begin; i < end; i += batch) {
            const uint64_t n = std::min(batch, end - i);
            if (!readAt(src.fd, c.offset + i * ps, buf.data(), static_cast<size_t>(n * ps))) return truncated;
            std::memset(buf.data() + n * ps, 0, kPageSlack); // (not the bytes of an earlier read)
            for (uint64_t k = 0; k < n; ++k) {
                if (!onPage(buf.data() + k * ps)) return truncated;
            }
            checkCancel(options);
            progress(static_cast<double>(i + n - begin) /
                     static_cast<double>(std::max<uint64_t>(1, end - begin)));
        }
        return avail < c.size && end == avail / ps ? truncated : std::string();
    }

    // <4: chunk count> then per chunk <4: compressed size><4: uncompressed size><data>. The size in the
    // BUFFER option does not count the 4-byte chunk count (trace-cmd 3.1).
    const uint64_t limit = std::min(c.size + 4, src.fileSize - c.offset);
    uint8_t hdr[8];
    if (limit < 4 || !readAt(src.fd, c.offset, hdr, 4)) return truncated;
    const uint32_t chunks = readU32(hdr, l.bigEndian);
    // Size the reservation from the chunk headers (a few small reads; at most one per 8 bytes of data).
    // This part's chunks: [k0, k1).
    const uint32_t k0 = static_cast<uint32_t>(uint64_t{chunks} * src.part / src.parts);
    const uint32_t k1 = static_cast<uint32_t>(uint64_t{chunks} * (src.part + 1) / src.parts);
    uint64_t pos = 4;
    uint64_t totalPlain = 0;
    for (uint32_t k = 0; k < k1 && pos + 8 <= limit; ++k) {
        if (!readAt(src.fd, c.offset + pos, hdr, 8)) break;
        const uint32_t cs = readU32(hdr, l.bigEndian);
        const uint32_t us = readU32(hdr + 4, l.bigEndian);
        if (k >= k0) totalPlain += plausibleInflation(cs, us) ? us : 0;
        pos += 8 + uint64_t{cs};
    }
    reserve(totalPlain);
    std::vector<uint8_t> packed;
    std::vector<uint8_t> plain;
    pos = 4;
    for (uint32_t k = 0; k < k1; ++k) {
        if (pos + 8 > limit || !readAt(src.fd, c.offset + pos, hdr, 8)) return truncated;
        const uint32_t cs = readU32(hdr, l.bigEndian);
        const uint32_t us = readU32(hdr + 4, l.bigEndian);
        if (cs > limit - pos - 8 || us % ps != 0 || !plausibleInflation(cs, us)) return truncated;
        if (k < k0) { // an earlier part's
            pos += 8 + uint64_t{cs};
            continue;
        }
        if (packed.size() < cs) packed.resize(cs);
        if (plain.size() < us + kPageSlack) plain.resize(us + kPageSlack);
        if (!readAt(src.fd, c.offset + pos + 8, packed.data(), cs)) return truncated;
        if (!decompressBlock(l.compression, packed.data(), cs, plain.data(), us)) return truncated;
        for (uint32_t off = 0; off < us; off += ps) {
            if (!onPage(plain.data() + off)) return truncated;
        }
        pos += 8 + uint64_t{cs};
        checkCancel(options);
        progress(static_cast<double>(k + 1 - k0) / static_cast<double>(k1 - k0));
    }
    return {};
}

std::string truncatedWarning(const DatCpuData &c)
{
    return "CPU " + std::to_string(c.cpu) +
           ": data ends early (file truncated or corrupt); events after that point are lost";
}

} // namespace

std::string decodeCpuPages(const PageSource &src, RecordDecoder &dec, CpuEvents &out,
                           const std::function<void(double)> &progress, const LoadOptions &options)
{
    const DatLayout &l = *src.layout;
    dec.beginCpu();
    PageWalker walker(l, dec, out, static_cast<int>(src.cpu.cpu), src.from, src.to);
    if (src.oldFormat && !walker.setOldFormat(l))
        return "CPU " + std::to_string(src.cpu.cpu) + ": cannot allocate a page reader";
    if (src.part > 0) walker.setLaterPart();
    std::string warning = forEachPage(
        src, truncatedWarning(src.cpu), options, progress,
        [&](uint8_t *page) {
            // kbuffer trusts the page header and every event length in it: check them first.
            return pageIsSound(page, l.pageSize, l.longSize, l.bigEndian, src.oldFormat) && walker.page(page);
        },
        [&](uint64_t bytes) { out.reserve(bytes / 12 + 64, bytes); });
    // A part that ends in a gap (its last pages say events were lost, and have none after): the next part's
    // first event closes it when the parts are joined (CpuEvents::appendEvents).
    if (src.part + 1 < src.parts && walker.missedPending())
        out.lost.push_back({walker.seen() ? walker.lastTs() : INT64_MIN, LostRange::kOpenEnd,
                            walker.missedCount(), false, static_cast<uint32_t>(out.size())});
    return warning;
}

CpuExtent cpuExtent(const PageSource &src)
{
    CpuExtent e;
    const DatLayout &l = *src.layout;
    const uint32_t ps = l.pageSize;
    if (src.cpu.size == 0 || src.cpu.offset >= src.fileSize) return e;
    if (!l.compressed()) {
        const uint64_t pages = std::min(src.cpu.size, src.fileSize - src.cpu.offset) / ps;
        if (pages == 0) return e;
        const auto first = pageTs(src, 0), last = pageTs(src, pages - 1);
        if (!first || !last) return e;
        e.first = *first;
        e.last = std::max(*first, *last);
        const auto [begin, end] = rawPageRange(src);
        e.bytes = (end - begin) * ps;
        return e;
    }
    // compressed: the chunk headers give the plain size; the first and last chunks the times
    const uint64_t limit = std::min(src.cpu.size + 4, src.fileSize - src.cpu.offset);
    uint8_t hdr[8];
    if (limit < 4 || !readAt(src.fd, src.cpu.offset, hdr, 4)) return e;
    const uint32_t chunks = readU32(hdr, l.bigEndian);
    uint64_t pos = 4, plainTotal = 0;
    std::vector<uint8_t> packed, plain;
    auto chunkTs = [&](uint64_t at, uint32_t cs, uint32_t us, bool lastPage) -> std::optional<int64_t> {
        if (us < ps || !plausibleInflation(cs, us)) return std::nullopt;
        packed.resize(cs);
        plain.resize(us);
        if (!readAt(src.fd, src.cpu.offset + at + 8, packed.data(), cs) ||
            !decompressBlock(l.compression, packed.data(), cs, plain.data(), us))
            return std::nullopt;
        uint64_t v;
        std::memcpy(&v, plain.data() + (lastPage ? us - ps : 0), 8);
        if (l.bigEndian) v = __builtin_bswap64(v);
        return static_cast<int64_t>(v);
    };
    uint64_t lastAt = 0;
    uint32_t lastCs = 0, lastUs = 0;
    for (uint32_t k = 0; k < chunks && pos + 8 <= limit; ++k) {
        if (!readAt(src.fd, src.cpu.offset + pos, hdr, 8)) break;
        const uint32_t cs = readU32(hdr, l.bigEndian), us = readU32(hdr + 4, l.bigEndian);
        if (cs > limit - pos - 8) break;
        if (k == 0)
            if (auto t = chunkTs(pos, cs, us, false)) e.first = *t;
        plainTotal += plausibleInflation(cs, us) ? us : 0;
        lastAt = pos, lastCs = cs, lastUs = us;
        pos += 8 + uint64_t{cs};
    }
    if (e.first == INT64_MAX) return CpuExtent{};
    const auto t = chunkTs(lastAt, lastCs, lastUs, true);
    e.last = t ? std::max(*t, e.first) : e.first;
    e.bytes = plainTotal;
    if (src.from != INT64_MIN || src.to != INT64_MAX) { // the window's share of the time, of the data
        const double span = std::max<double>(1, nsBetween(e.first, e.last));
        const double a = static_cast<double>(std::max(src.from, e.first)),
                     b = static_cast<double>(std::min(src.to, e.last));
        e.bytes = b < a ? 0
                        : static_cast<uint64_t>(static_cast<double>(plainTotal) *
                                                std::min(1.0, (b - a) / span + 0.01));
    }
    return e;
}

std::string checkCpuPages(const PageSource &src, const LoadOptions &options, bool &sound, PageGaps *gaps)
{
    const DatLayout &l = *src.layout;
    sound = true;
    std::unique_ptr<kbuffer, KbufferDeleter> kb;
    if (gaps) {
        kb = pageReader(l);
        if (!kb) throw std::bad_alloc();
        if (src.oldFormat) kbuffer_set_old_format(kb.get());
        *gaps = PageGaps{};
    }
    uint64_t number = 0;
    return forEachPage(
        src, truncatedWarning(src.cpu), options, [](double) {},
        [&](uint8_t *page) {
            sound = pageIsSound(page, l.pageSize, l.longSize, l.bigEndian, src.oldFormat);
            if (sound && gaps) {
                if (pageMissedEvents(page, l.longSize, l.bigEndian))
                    gaps->missed.push_back({number, pageMissedCount(page, l.longSize, l.bigEndian)});
                unsigned long long ts = 0;
                if (gaps->firstWithEvents == UINT64_MAX && kbuffer_load_subbuffer(kb.get(), page) >= 0 &&
                    kbuffer_read_event(kb.get(), &ts))
                    gaps->firstWithEvents = number;
            }
            ++number;
            return sound;
        },
        [](uint64_t) {});
}

// ---- one CPU's pages a slice of time at a time ----------------------------------------------------------

struct CpuPageStream::Impl
{
    Impl(const PageSource &s, RecordDecoder &d, CpuEvents &o, const LoadOptions &opt)
        : src(s), dec(d), out(o), options(opt),
          walker(*s.layout, d, o, static_cast<int>(s.cpu.cpu), s.from, s.to)
    {
    }
    PageSource src;
    RecordDecoder &dec;
    CpuEvents &out;
    const LoadOptions &options;
    PageWalker walker;
    std::string warning;
    bool ended = false;
    // raw: the pages [page, endPage) still to decode, a batch of them in buf from bufFirst
    uint64_t page = 0, endPage = 0, bufFirst = 0, bufCount = 0;
    // compressed: the chunk that starts at chunkPos, decompressed into plain; the next page at plainOff
    uint32_t chunks = 0, chunk = 0;
    uint64_t chunkPos = 4, limit = 0;
    uint32_t plainSize = 0, plainOff = 0;
    std::vector<uint8_t> buf, packed;

    const uint8_t *current(); // the next page, loading its batch or chunk; nullptr at the end
    void fail()
    {
        warning = truncatedWarning(src.cpu);
        ended = true;
    }
};

const uint8_t *CpuPageStream::Impl::current()
{
    const DatLayout &l = *src.layout;
    const uint32_t ps = l.pageSize;
    if (ended) return nullptr;
    if (!l.compressed()) {
        if (page >= endPage) {
            const uint64_t avail =
                std::min(src.cpu.size, src.fileSize - std::min(src.fileSize, src.cpu.offset));
            if (avail < src.cpu.size && endPage == avail / ps) warning = truncatedWarning(src.cpu);
            ended = true;
            std::vector<uint8_t>().swap(buf);
            return nullptr;
        }
        if (page < bufFirst || page >= bufFirst + bufCount) {
            // small reads: one buffer per CPU, and a stream reads every CPU at once
            const uint64_t batch = std::max<uint64_t>(1, src.readBytes / ps);
            bufFirst = page;
            bufCount = std::min(batch, endPage - page);
            buf.resize(static_cast<size_t>(bufCount * ps) + kPageSlack);
            if (!readAt(src.fd, src.cpu.offset + page * ps, buf.data(), static_cast<size_t>(bufCount * ps))) {
                fail();
                return nullptr;
            }
        }
        return buf.data() + (page - bufFirst) * ps;
    }
    while (plainOff >= plainSize) {
        if (chunk >= chunks) {
            ended = true;
            std::vector<uint8_t>().swap(buf);
            std::vector<uint8_t>().swap(packed);
            return nullptr;
        }
        uint8_t hdr[8];
        if (chunkPos + 8 > limit || !readAt(src.fd, src.cpu.offset + chunkPos, hdr, 8)) {
            fail();
            return nullptr;
        }
        const uint32_t cs = readU32(hdr, l.bigEndian);
        const uint32_t us = readU32(hdr + 4, l.bigEndian);
        if (cs > limit - chunkPos - 8 || us % ps != 0 || !plausibleInflation(cs, us)) {
            fail();
            return nullptr;
        }
        if (packed.size() < cs) packed.resize(cs);
        if (buf.size() < us + kPageSlack) buf.resize(us + kPageSlack);
        if (!readAt(src.fd, src.cpu.offset + chunkPos + 8, packed.data(), cs) ||
            !decompressBlock(l.compression, packed.data(), cs, buf.data(), us)) {
            fail();
            return nullptr;
        }
        chunkPos += 8 + uint64_t{cs};
        ++chunk;
        plainSize = us;
        plainOff = 0;
    }
    return buf.data() + plainOff;
}

CpuPageStream::CpuPageStream(const PageSource &src, RecordDecoder &dec, CpuEvents &out,
                             const LoadOptions &options)
    : d_(std::make_unique<Impl>(src, dec, out, options))
{
    Impl &d = *d_;
    const DatLayout &l = *src.layout;
    dec.beginCpu();
    if (src.oldFormat && !d.walker.setOldFormat(l)) {
        d.warning = "CPU " + std::to_string(src.cpu.cpu) + ": cannot allocate a page reader";
        d.ended = true;
        return;
    }
    if (src.cpu.size == 0) {
        d.ended = true;
        return;
    }
    if (src.cpu.offset >= src.fileSize) {
        d.fail();
        return;
    }
    // Address space for every event of the CPU (pages are touched only as events arrive).
    uint64_t bytes = 0;
    if (!l.compressed()) {
        const auto [begin, end] = rawPageRange(src);
        d.page = begin;
        d.endPage = end;
        bytes = (end - begin) * l.pageSize;
    } else {
        d.limit = std::min(src.cpu.size + 4, src.fileSize - src.cpu.offset);
        uint8_t hdr[8];
        if (d.limit < 4 || !readAt(src.fd, src.cpu.offset, hdr, 4)) {
            d.fail();
            return;
        }
        d.chunks = readU32(hdr, l.bigEndian);
        uint64_t pos = 4;
        for (uint32_t k = 0; k < d.chunks && pos + 8 <= d.limit; ++k) {
            if (!readAt(src.fd, src.cpu.offset + pos, hdr, 8)) break;
            const uint32_t cs = readU32(hdr, l.bigEndian);
            const uint32_t us = readU32(hdr + 4, l.bigEndian);
            bytes += plausibleInflation(cs, us) ? us : 0;
            pos += 8 + uint64_t{cs};
        }
    }
    out.reserve(bytes / 12 + 64, bytes, false, true, src.populateAhead);
}

CpuPageStream::~CpuPageStream() = default;

int64_t CpuPageStream::lostBeforeNextPage()
{
    const uint8_t *p = d_->current();
    const DatLayout &l = *d_->src.layout;
    // (or a page already read said so, and had no event to end the gap; at the end none will: the data
    // ended in it, and a whole load keeps no gap there)
    if (!p || (!d_->walker.missedPending() && !pageMissedEvents(p, l.longSize, l.bigEndian)))
        return INT64_MAX;
    return d_->walker.seen() ? d_->walker.lastTs() : INT64_MIN; // (lost before the CPU's first event)
}

int64_t CpuPageStream::nextPageTs()
{
    const uint8_t *p = d_->current();
    if (!p) return INT64_MAX;
    uint64_t v;
    std::memcpy(&v, p, 8);
    if (d_->src.layout->bigEndian) v = __builtin_bswap64(v);
    return static_cast<int64_t>(v);
}

bool CpuPageStream::decodeThrough(int64_t t)
{
    Impl &d = *d_;
    const DatLayout &l = *d.src.layout;
    while (nextPageTs() <= t) {
        // the page nextPageTs loaded: kbuffer trusts its header and every event length in it, check them
        uint8_t *p = const_cast<uint8_t *>(d.current());
        if (!p) break; // the end (a page header may say INT64_MAX)
        if (!pageIsSound(p, l.pageSize, l.longSize, l.bigEndian, d.src.oldFormat) || !d.walker.page(p)) {
            d.fail();
            break;
        }
        if (l.compressed())
            d.plainOff += l.pageSize;
        else
            ++d.page;
        checkCancel(d.options);
    }
    return !d.ended;
}

const std::string &CpuPageStream::warning() const
{
    return d_->warning;
}

} // namespace tickscope
