// SPDX-License-Identifier: GPL-3.0-or-later
#include "InputFile.h"

#include "Loader.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace tickscope {
namespace {

const char *kindOf(mode_t m)
{
    if (S_ISDIR(m)) return "is a directory, not a trace file";
    if (S_ISCHR(m)) return "is a character device, not a trace file";
    if (S_ISBLK(m)) return "is a block device, not a trace file";
    if (S_ISSOCK(m)) return "is a socket, not a trace file";
    return nullptr;
}

// O_NONBLOCK: opening a FIFO that has no writer returns at once instead of waiting for one.
int openNonBlocking(const std::string &path, struct stat &st, std::string &error)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        error = std::strerror(errno);
        return -1;
    }
    if (::fstat(fd, &st) != 0) {
        error = std::strerror(errno);
        ::close(fd);
        return -1;
    }
    if (const char *kind = kindOf(st.st_mode)) {
        error = kind;
        ::close(fd);
        return -1;
    }
    return fd;
}

} // namespace

RegularFile::RegularFile(const std::string &path)
{
    struct stat st
    {
    };
    std::string error;
    fd_ = openNonBlocking(path, st, error);
    if (fd_ < 0) throw LoadError(path + ": " + error);
    if (!S_ISREG(st.st_mode)) {
        ::close(fd_);
        throw LoadError(path +
                        ": is a pipe, not a regular file; a trace.dat is read at random offsets, so save "
                        "it to a file first");
    }
}

RegularFile::~RegularFile()
{
    ::close(fd_);
}

InputFile::InputFile(const std::string &path, int idleTimeoutMs) : path_(path)
{
    struct stat st
    {
    };
    std::string error;
    const int fd = openNonBlocking(path, st, error);
    if (fd < 0) throw LoadError(path + ": " + error);
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        void *p = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            ::madvise(p, static_cast<size_t>(st.st_size), MADV_SEQUENTIAL);
            map_ = p;
            mapSize_ = static_cast<size_t>(st.st_size);
            ::close(fd);
            return;
        }
    }
    try {
        readStream(fd, idleTimeoutMs, S_ISFIFO(st.st_mode));
    } catch (...) {
        ::close(fd);
        throw;
    }
    ::close(fd);
}

InputFile::~InputFile()
{
    if (map_) ::munmap(map_, mapSize_);
}

std::string_view InputFile::bytes() const
{
    return map_ ? std::string_view(static_cast<const char *>(map_), mapSize_) : std::string_view(buf_);
}

// Pipes and pseudo-files (size 0 in stat): read until the end, polling so that a writer that stays
// silent cannot hang the load, and refusing more than kMaxStreamBytes. A named FIFO that no writer has
// opened yet reads as ended: it gets the same idle time for a writer to arrive.
void InputFile::readStream(int fd, int idleTimeoutMs, bool fifo)
{
    const auto started = std::chrono::steady_clock::now();
    const auto waited = [&] {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                     started)
            .count();
    };
    const auto silence = [&](const char *what) {
        char secs[32];
        std::snprintf(secs, sizeof secs, "%.3g", idleTimeoutMs / 1000.0);
        return LoadError(path_ + ": " + what + " for " + secs + " s; is anything writing to it?");
    };
    char chunk[1 << 16];
    while (true) {
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n > 0) {
            if (buf_.size() + static_cast<size_t>(n) > kMaxStreamBytes)
                throw LoadError(
                    path_ +
                    ": more than 1 GiB from a pipe or pseudo-file; save it to a regular file and open that");
            buf_.append(chunk, static_cast<size_t>(n));
            continue;
        }
        if (n == 0) {
            if (!fifo || !buf_.empty()) return;
            if (waited() >= idleTimeoutMs) throw silence("no writer opened it");
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            continue;
        }
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) throw LoadError(path_ + ": " + std::strerror(errno));
        pollfd p{fd, POLLIN, 0};
        const int r = ::poll(&p, 1, idleTimeoutMs);
        if (r == 0) throw silence("no data arrived");
        if (r < 0 && errno != EINTR) throw LoadError(path_ + ": " + std::strerror(errno));
    }
}

} // namespace tickscope
