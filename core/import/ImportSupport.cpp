// SPDX-License-Identifier: GPL-3.0-or-later
#include "ImportSupport.h"

#include "TraceDatHandle.h"
#include "TraceDatImporter.h"

#include <algorithm>

namespace tickscope {

void Progress::set(int cpu, double fraction)
{
    if (!options_.progress) return;
    std::lock_guard lock(mutex_);
    done_[static_cast<size_t>(cpu)] = fraction;
    double sum = 0;
    for (double d : done_)
        sum += d;
    options_.progress(done_.empty() ? 1.0 : sum / static_cast<double>(done_.size()));
}

std::string selectedTraceClock(std::string_view c)
{
    const auto a = c.find('[');
    const auto b = c.find(']');
    if (a != std::string_view::npos && b != std::string_view::npos && b > a)
        return std::string(c.substr(a + 1, b - a - 1));
    return std::string(c.substr(0, c.find_first_of(" \n")));
}

void DecodeState::finishThread(RecordDecoder &dec)
{
    std::lock_guard lock(mutex);
    unknown += dec.unknownRecords;
    trace.tasks.merge(std::move(dec.tasks.entries));
}

void DecodeState::finish()
{
    trace.tasks.finalize();
    for (auto &w : cpuWarnings) {
        if (!w.empty()) trace.warnings.push_back(std::move(w));
    }
    if (unknown)
        trace.warnings.push_back(std::to_string(unknown) +
                                 " records of event ids without a format were skipped");
    for (int c = 0; c < trace.cpuCount(); ++c)
        trace.cpu(c).sortByTime();
}

std::vector<std::string> chooseInstances(const std::string &path, TraceDatHandle *file,
                                         const DatLayout *layout, const LoadOptions &options, bool requireOne)
{
    if (options.instanceGiven) {
        bool known = false;
        if (layout) {
            for (const auto &b : layout->buffers)
                known |= b.name == options.instance;
        }
        if (!known && file) file->instance(options.instance); // throws for an unknown name
        if (!known && !file) throw LoadError(path + ": no buffer instance named '" + options.instance + "'");
        return {options.instance};
    }
    std::vector<std::string> names;
    if (layout) {
        for (const auto &b : layout->buffers) {
            bool data = false;
            for (const auto &c : b.cpus)
                data |= c.size > 0;
            if (data) names.push_back(b.name);
        }
    } else {
        for (const auto &i : listInstances(*file)) {
            if (i.hasData) names.push_back(i.name);
        }
    }
    if (names.empty()) {
        if (layout) {
            for (const auto &b : layout->buffers) {
                if (b.unreadable) throw LoadError(path + ": truncated: no event data left in the file");
            }
        }
        // A file without events: its top level, empty (or its only buffer when it has no top level).
        if (layout && layout->buffers.empty())
            throw LoadError(path + ": not a readable trace.dat: it lists no CPU data");
        bool top = !layout;
        if (layout) {
            for (const auto &b : layout->buffers)
                top |= b.name.empty();
        }
        names.push_back(top ? std::string() : layout->buffers.front().name);
    }
    if (requireOne && names.size() > 1) throw severalInstancesError(path, names);
    return names;
}

} // namespace tickscope
