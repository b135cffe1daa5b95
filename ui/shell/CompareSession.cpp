// SPDX-License-Identifier: GPL-3.0-or-later
#include "CompareSession.h"

#include "TraceLoader.h"
#include "model/Trace.h"
#include "session/OpenRun.h"

namespace tickscope {

void CompareSession::start()
{
    expecting_ = true;
    pending_.reset();
}

void CompareSession::ended()
{
    expecting_ = false;
    pending_.reset();
}

void CompareSession::drop()
{
    if (expecting_) loader_->cancel();
    ended();
}

std::optional<Document> CompareSession::takeHeld()
{
    std::optional<Document> b = std::move(pending_);
    pending_.reset();
    return b;
}

void CompareSession::select(EventRef e)
{
    if (e.valid() && (e.run == 0 || e.run == 1)) selected_[e.run] = e;
}

std::shared_ptr<Comparison> CompareSession::compare(const Document &a, const Document &b,
                                                    std::string &why) const
{
    std::optional<Comparison> c = compareRuns(a, b, align_, why);
    if (!c) { // marker alignment asked for, and a run has none: by start (why says so)
        std::string none;
        c = compareRuns(a, b, Alignment{AlignBy::Start, 0}, none);
    }
    if (!c) return nullptr;
    auto shared = std::make_shared<Comparison>(std::move(*c));
    shared->cpuMap = cpuMap_;
    return shared;
}

std::shared_ptr<Comparison> CompareSession::realigned(const Document &a, const Comparison &shown,
                                                      std::string &why) const
{
    const std::optional<Comparison> r = compareRuns(a, shown.b, align_, why);
    if (!r) return nullptr;
    auto c = std::make_shared<Comparison>(shown);
    c->zeroA = r->zeroA;
    c->zeroB = r->zeroB;
    c->how = r->how;
    return c;
}

std::shared_ptr<Comparison> CompareSession::alignedOnSelections(const Document &a,
                                                                const Comparison &shown) const
{
    auto tsOf = [](const Document &d, EventRef e) -> std::optional<int64_t> {
        if (!e.valid() || !d.trace || e.cpu >= d.trace->cpuCount() ||
            static_cast<size_t>(e.index) >= d.trace->cpu(e.cpu).size())
            return std::nullopt;
        return d.trace->cpu(e.cpu).ts(static_cast<size_t>(e.index));
    };
    const auto ta = tsOf(a, selected_[0]), tb = tsOf(shown.b, selected_[1]);
    if (!ta || !tb) return nullptr;
    auto c = std::make_shared<Comparison>(shown);
    c->zeroA = *ta;
    c->zeroB = *tb;
    c->how = "selected events";
    return c;
}

std::shared_ptr<Comparison> CompareSession::withCpuMap(const Comparison &shown) const
{
    auto c = std::make_shared<Comparison>(shown);
    c->cpuMap = cpuMap_;
    return c;
}

} // namespace tickscope
