#include "MappedFile.h"

#include "InputFile.h"

#include <cerrno>
#include <cstring>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tickscope {

MappedFile::MappedFile(const std::string &path)
{
    const int fd = openRegularFile(path, error_);
    if (fd < 0) return;
    struct stat st{};
    if (::fstat(fd, &st) != 0) {
        error_ = std::strerror(errno);
    } else if (st.st_size <= 0) {
        error_ = "empty file";
    } else {
        void *p = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            error_ = std::string("cannot be mapped: ") + std::strerror(errno);
        } else {
            data_ = static_cast<uint8_t *>(p);
            size_ = static_cast<uint64_t>(st.st_size);
            ::madvise(p, size_, MADV_SEQUENTIAL);
        }
    }
    ::close(fd);
}

MappedFile::~MappedFile()
{
    if (data_) ::munmap(data_, size_);
}

} // namespace tickscope
