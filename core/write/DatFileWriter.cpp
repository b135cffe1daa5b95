// SPDX-License-Identifier: GPL-3.0-or-later
#include "DatFileWriter.h"

#include "import/DatReader.h"
#include "import/Loader.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <unistd.h>

namespace tickscope {

namespace {
constexpr char kMagic[] = "\x17\x08\x44tracing";
} // namespace

DatFileWriter::DatFileWriter(std::string path, const DatMetadata &meta)
    : path_(std::move(path)), pageSize_(meta.pageSize)
{
    temp_ = path_ + ".part-" + std::to_string(::getpid());
    f_ = std::fopen(temp_.c_str(), "wbx");
    if (!f_) {
        const int e = errno;
        throw LoadError(path_ + ": cannot write: " + std::strerror(e));
    }
    std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
    auto u8 = [&](uint8_t v) { raw(&v, 1); };
    auto u16 = [&](uint16_t v) { raw(&v, 2); };
    auto u32 = [&](uint32_t v) { raw(&v, 4); };
    auto u64 = [&](uint64_t v) { raw(&v, 8); };
    auto cstr = [&](std::string_view s) {
        raw(s.data(), s.size());
        u8(0);
    };
    raw(kMagic, 10);
    cstr("6");
    u8(0); // little endian
    u8(8); // long size
    u32(pageSize_);
    cstr("header_page");
    u64(meta.headerPage.size());
    raw(meta.headerPage.data(), meta.headerPage.size());
    cstr("header_event");
    u64(meta.headerEvent.size());
    raw(meta.headerEvent.data(), meta.headerEvent.size());
    u32(static_cast<uint32_t>(meta.ftraceFormats.size()));
    for (const auto &f : meta.ftraceFormats) {
        u64(f.size());
        raw(f.data(), f.size());
    }
    u32(static_cast<uint32_t>(meta.systems.size()));
    for (const auto &[system, formats] : meta.systems) {
        cstr(system);
        u32(static_cast<uint32_t>(formats.size()));
        for (const auto &f : formats) {
            u64(f.size());
            raw(f.data(), f.size());
        }
    }
    u32(static_cast<uint32_t>(meta.kallsyms.size()));
    raw(meta.kallsyms.data(), meta.kallsyms.size());
    u32(static_cast<uint32_t>(meta.printk.size()));
    raw(meta.printk.data(), meta.printk.size());
    u64(meta.cmdlines.size());
    raw(meta.cmdlines.data(), meta.cmdlines.size());
    u32(static_cast<uint32_t>(meta.cpuCount));
    raw("options  ", 10);
    auto textOption = [&](uint16_t id, const std::string &s) {
        if (s.empty()) return;
        u16(id);
        u32(static_cast<uint32_t>(s.size() + 1));
        cstr(s);
    };
    textOption(dat::kOptUname, meta.uname);
    textOption(dat::kOptTraceClock, meta.traceClock);
    textOption(dat::kOptVersion, "tickscope");
    textOption(dat::kOptMachineFacts, meta.machine);
    u16(0);
    raw("flyrecord", 10);
    tableAt_ = pos_;
    cpus_.assign(static_cast<size_t>(meta.cpuCount), {0, 0});
    for (int c = 0; c < meta.cpuCount; ++c) {
        u64(0);
        u64(0);
    }
}

DatFileWriter::~DatFileWriter()
{
    if (f_) std::fclose(f_);
    if (!done_) ::unlink(temp_.c_str());
}

void DatFileWriter::fail(const std::string &why)
{
    if (f_) std::fclose(f_);
    f_ = nullptr;
    ::unlink(temp_.c_str());
    done_ = true; // nothing left to remove
    throw LoadError(path_ + ": " + why);
}

void DatFileWriter::raw(const void *data, size_t size)
{
    if (size == 0) return;
    if (std::fwrite(data, 1, size, f_) != size) {
        const int e = errno;
        fail(std::string("write failed: ") + std::strerror(e ? e : EIO));
    }
    pos_ += size;
}

void DatFileWriter::pad()
{
    static const std::vector<uint8_t> zeros(65536, 0);
    uint64_t n = (pageSize_ - pos_ % pageSize_) % pageSize_;
    while (n > 0) {
        const size_t k = std::min<uint64_t>(n, zeros.size());
        raw(zeros.data(), k);
        n -= k;
    }
}

void DatFileWriter::endCpu()
{
    if (current_ < 0) return;
    auto &c = cpus_[static_cast<size_t>(current_)];
    c.second = pos_ - c.first;
    current_ = -1;
}

void DatFileWriter::beginCpu(int cpu)
{
    if (cpu < 0 || static_cast<size_t>(cpu) >= cpus_.size() || cpu <= current_)
        fail("internal error: CPU " + std::to_string(cpu) + " written out of order");
    endCpu();
    pad();
    current_ = cpu;
    cpus_[static_cast<size_t>(cpu)].first = pos_;
}

void DatFileWriter::write(const void *data, size_t size)
{
    if (current_ < 0) fail("internal error: CPU data before a CPU");
    raw(data, size);
}

void DatFileWriter::finish()
{
    endCpu();
    if (std::fseek(f_, static_cast<long>(tableAt_), SEEK_SET) != 0) fail("cannot seek in the output");
    for (auto &[offset, size] : cpus_) {
        // CPUs without data point at the end of the file with size 0, as trace-cmd writes them
        const uint64_t at = size ? offset : pos_;
        if (std::fwrite(&at, 8, 1, f_) != 1 || std::fwrite(&size, 8, 1, f_) != 1) {
            const int e = errno;
            fail(std::string("write failed: ") + std::strerror(e ? e : EIO));
        }
    }
    const bool ok = std::fflush(f_) == 0 && !std::ferror(f_) && ::fsync(fileno(f_)) == 0;
    const int e = errno;
    if (!ok) fail(std::string("write failed: ") + std::strerror(e ? e : EIO));
    std::fclose(f_);
    f_ = nullptr;
    std::error_code ec;
    std::filesystem::rename(temp_, path_, ec);
    if (ec) fail("cannot rename into place: " + ec.message());
    done_ = true;
}

} // namespace tickscope
