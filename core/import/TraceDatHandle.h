// SPDX-License-Identifier: GPL-3.0-or-later
// RAII for a libtracecmd input: the top-level handle and the buffer-instance handles derived from it.
#pragma once

#include <map>
#include <string>
#include <vector>

struct tracecmd_input;
struct tep_handle;

namespace tickscope {

class TraceDatHandle
{
public:
    // Opens path. Throws LoadError with a clear message.
    explicit TraceDatHandle(const std::string &path);
    ~TraceDatHandle();
    TraceDatHandle(const TraceDatHandle &) = delete;
    TraceDatHandle &operator=(const TraceDatHandle &) = delete;

    tracecmd_input *top() const { return top_; }
    // The handle of a buffer instance ("" = top level); owned here. Throws LoadError when absent.
    tracecmd_input *instance(const std::string &name);
    std::vector<std::string> instanceNames() const; // without the top level
    const std::string &path() const { return path_; }

    static void silenceLibraries();

private:
    std::string path_;
    tracecmd_input *top_ = nullptr;
    std::map<std::string, tracecmd_input *> instances_;
};

} // namespace tickscope
