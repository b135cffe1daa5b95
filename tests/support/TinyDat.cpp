// SPDX-License-Identifier: GPL-3.0-or-later
#include "TinyDat.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>

namespace tickscope::test {
namespace {

std::string readAll(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open");
    return std::string(std::istreambuf_iterator<char>(in), {});
}

uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

// Little-endian writer that can patch what it wrote earlier.
struct Out
{
    std::string b;
    uint64_t pos() const { return b.size(); }
    template <class T> void put(T v) { b.append(reinterpret_cast<const char *>(&v), sizeof v); }
    void str(const std::string &s) { b.append(s.c_str(), s.size() + 1); }
    void raw(const std::string &s) { b += s; }
    void raw(const std::vector<uint8_t> &v) { b.append(reinterpret_cast<const char *>(v.data()), v.size()); }
    template <class T> void patch(uint64_t at, T v) { std::memcpy(b.data() + at, &v, sizeof v); }
    void align(uint64_t to) { b.resize((b.size() + to - 1) / to * to, '\0'); }
};

const std::string kHeaderEvent =
    "# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
    "\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n"
    "\ttime_stamp : type == 31\n\tdata max type_len  == 28\n";

void header(Out &o, const TinyDat &t, const char *version)
{
    o.raw(std::string("\x17\x08\x44tracing", 10));
    o.str(version);
    o.put<uint8_t>(0); // little endian
    o.put<uint8_t>(static_cast<uint8_t>(t.layout.longSize));
    o.put<uint32_t>(t.layout.pageSize);
}

void headerInfo(Out &o, const TinyDat &t)
{
    o.str("header_page");
    o.put<uint64_t>(t.layout.headerPage.size());
    o.raw(t.layout.headerPage);
    o.str("header_event");
    o.put<uint64_t>(kHeaderEvent.size());
    o.raw(kHeaderEvent);
}

// Ftrace's own formats, then the other systems'. Returns the offset of the first system format's length.
uint64_t formats(Out &o, const TinyDat &t, bool ftrace)
{
    std::map<std::string, std::vector<const FormatText *>> bySystem;
    for (const auto &f : t.layout.formats)
        bySystem[f.system].push_back(&f);
    if (ftrace) {
        const auto &list = bySystem["ftrace"];
        o.put<uint32_t>(static_cast<uint32_t>(list.size()));
        for (const auto *f : list) {
            o.put<uint64_t>(f->text.size());
            o.raw(f->text);
        }
        return 0;
    }
    bySystem.erase("ftrace");
    o.put<uint32_t>(static_cast<uint32_t>(bySystem.size()));
    uint64_t first = 0;
    for (const auto &[system, list] : bySystem) {
        o.str(system);
        o.put<uint32_t>(static_cast<uint32_t>(list.size()));
        for (const auto *f : list) {
            if (!first) first = o.pos();
            o.put<uint64_t>(f->text.size());
            o.raw(f->text);
        }
    }
    return first;
}

// A v7 section: <u16 id><u16 flags><u32 string id><u64 size><body>; returns its offset.
template <class Body> uint64_t section(Out &o, uint16_t id, Body &&body)
{
    const uint64_t at = o.pos();
    o.put<uint16_t>(id);
    o.put<uint16_t>(0);
    o.put<uint32_t>(0);
    const uint64_t sizeAt = o.pos();
    o.put<uint64_t>(0);
    const uint64_t start = o.pos();
    body();
    o.patch<uint64_t>(sizeAt, o.pos() - start);
    return at;
}

void option(Out &o, uint16_t id, const std::string &data)
{
    o.put<uint16_t>(id);
    o.put<uint32_t>(static_cast<uint32_t>(data.size()));
    o.raw(data);
}

std::string u64(uint64_t v)
{
    return std::string(reinterpret_cast<const char *>(&v), 8);
}

} // namespace

TinyDat TinyDat::fromFile(const std::string &path, int pagesPerCpu, const std::set<std::string> &systems)
{
    const std::string bytes = readAll(path);
    const auto *data = reinterpret_cast<const uint8_t *>(bytes.data());
    std::string why;
    auto layout = readDatLayout(data, bytes.size(), &why);
    if (!layout || layout->bigEndian) throw std::runtime_error(path + ": " + why);
    TinyDat t;
    t.layout.version = layout->version;
    t.layout.pageSize = layout->pageSize;
    t.layout.longSize = layout->longSize;
    t.layout.headerPage = layout->headerPage;
    t.layout.cmdlines = layout->cmdlines;
    t.layout.uname = layout->uname;
    for (const auto &f : layout->formats) {
        if (systems.count(f.system)) t.layout.formats.push_back(f);
    }
    const uint64_t ps = layout->pageSize;
    const bool compressed = layout->compressed();
    for (const auto &c : layout->buffers.front().cpus) {
        std::vector<uint8_t> pages;
        if (!compressed) {
            const uint64_t n = std::min<uint64_t>(c.size / ps, static_cast<uint64_t>(pagesPerCpu));
            pages.assign(data + c.offset, data + c.offset + n * ps);
        } else { // the first chunk holds many pages
            const uint8_t *chunk = data + c.offset + 4;
            const uint32_t cs = rd32(chunk), us = rd32(chunk + 4);
            std::vector<uint8_t> plain(us);
            if (!decompressBlock(layout->compression, chunk + 8, cs, plain.data(), us))
                throw std::runtime_error(path + ": cannot decompress");
            plain.resize(std::min<uint64_t>(us, ps * static_cast<uint64_t>(pagesPerCpu)));
            pages = std::move(plain);
        }
        t.pages.push_back(std::move(pages));
    }
    return t;
}

std::string TinyDat::write6(Offsets *where) const
{
    Out o;
    Offsets w;
    header(o, *this, "6");
    headerInfo(o, *this);
    formats(o, *this, true);
    w.formatsSize = formats(o, *this, false);
    o.put<uint32_t>(0); // kallsyms
    o.put<uint32_t>(0); // printk
    o.put<uint64_t>(layout.cmdlines.size());
    o.raw(layout.cmdlines);
    o.put<uint32_t>(static_cast<uint32_t>(pages.size()));
    o.raw(std::string("options  \0", 10));
    option(o, 5, layout.uname + '\0');
    o.put<uint16_t>(0);
    o.raw(std::string("flyrecord\0", 10));
    const uint64_t table = o.pos();
    for (size_t c = 0; c < pages.size(); ++c) {
        o.put<uint64_t>(0);
        w.cpuSize.push_back(o.pos());
        o.put<uint64_t>(pages[c].size());
    }
    for (size_t c = 0; c < pages.size(); ++c) {
        o.align(layout.pageSize);
        o.patch<uint64_t>(table + c * 16, o.pos());
        w.cpuData.push_back(o.pos());
        o.raw(pages[c]);
    }
    if (where) *where = w;
    return o.b;
}

std::string TinyDat::write7(Offsets *where) const
{
    Out o;
    Offsets w;
    header(o, *this, "7");
    o.str("none");
    o.str("");
    const uint64_t firstOptions = o.pos();
    o.put<uint64_t>(0);
    const uint64_t headers = section(o, 16, [&] { headerInfo(o, *this); });
    const uint64_t ftrace = section(o, 17, [&] { formats(o, *this, true); });
    const uint64_t events = section(o, 18, [&] { w.formatsSize = formats(o, *this, false); });
    const uint64_t cmdlines = section(o, 21, [&] {
        o.put<uint64_t>(layout.cmdlines.size());
        o.raw(layout.cmdlines);
    });
    // The CPU data, each CPU's pages page-aligned, in one buffer section.
    std::vector<uint64_t> dataAt;
    const uint64_t fly = section(o, 3, [&] {
        for (const auto &p : pages) {
            o.align(layout.pageSize);
            dataAt.push_back(o.pos());
            o.raw(p);
        }
    });
    w.cpuData = dataAt;
    o.patch<uint64_t>(firstOptions, o.pos());
    section(o, 0, [&] {
        option(o, 16, u64(headers));
        option(o, 17, u64(ftrace));
        option(o, 18, u64(events));
        option(o, 21, u64(cmdlines));
        option(o, 5, layout.uname + '\0');
        option(o, 8, std::string("\0\0\0\0", 4).replace(0, 1, 1, static_cast<char>(pages.size())));
        // BUFFER: <u64 section><name\0><clock\0><u32 page size><u32 cpus> then <u32 cpu><u64 offset><u64
        // size>
        o.put<uint16_t>(3);
        o.put<uint32_t>(static_cast<uint32_t>(8 + 1 + 6 + 4 + 4 + 20 * pages.size()));
        o.put<uint64_t>(fly);
        o.str("");
        o.str("local");
        o.put<uint32_t>(layout.pageSize);
        o.put<uint32_t>(static_cast<uint32_t>(pages.size()));
        for (size_t c = 0; c < pages.size(); ++c) {
            w.cpuNumber.push_back(o.pos());
            o.put<uint32_t>(static_cast<uint32_t>(c));
            o.put<uint64_t>(dataAt[c]);
            w.cpuSize.push_back(o.pos());
            o.put<uint64_t>(pages[c].size());
        }
        option(o, 0, u64(0));
    });
    if (where) *where = w;
    return o.b;
}

} // namespace tickscope::test
