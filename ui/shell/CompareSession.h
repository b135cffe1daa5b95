// SPDX-License-Identifier: GPL-3.0-or-later
// The compare view's state apart from the window that shows it: run B while it loads (or, loaded before
// A, while it waits for A), what the user asked of the comparison (the alignment, the CPU map, the event
// last selected in each run), and the comparisons made from them. The main window calls these and says
// the outcome (status bar, title); nothing here draws.
#pragma once

#include "ViewState.h"
#include "session/Document.h"
#include "session/RunAlignment.h"

#include <QString>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tickscope {

class TraceLoader;

class CompareSession
{
public:
    explicit CompareSession(TraceLoader *loaderB) : loader_(loaderB) {}
    TraceLoader *loader() const { return loader_; }

    // B's load: started, ended (loaded, failed or cancelled), or dropped (its load cancelled: a new A).
    void start();
    void ended();
    void drop();
    bool expecting() const { return expecting_; }
    // B arrived before A: kept until A is shown.
    void hold(const Document &b) { pending_ = b; }
    std::optional<Document> takeHeld();

    // A against B as asked (alignment, CPU map); when asked by marker and a run has none, by start, with
    // why in `why`. Null only when no alignment at all works.
    std::shared_ptr<Comparison> compare(const Document &a, const Document &b, std::string &why) const;
    // The shown comparison realigned as asked by setAlignment (null, with why, when it cannot be).
    std::shared_ptr<Comparison> realigned(const Document &a, const Comparison &shown, std::string &why) const;
    // The shown comparison with each run's zero at the event last selected in it; null until both runs
    // have a selected event that is still in its trace.
    std::shared_ptr<Comparison> alignedOnSelections(const Document &a, const Comparison &shown) const;
    std::shared_ptr<Comparison> withCpuMap(const Comparison &shown) const;

    void setAlignment(std::optional<Alignment> align) { align_ = align; }
    const std::optional<Alignment> &alignment() const { return align_; }
    void setCpuMap(std::vector<int> map) { cpuMap_ = std::move(map); }
    void select(EventRef e); // an event selected in run 0 (A) or 1 (B)
    void forgetSelections() { selected_[0] = selected_[1] = {}; }
    void setRunB(const QString &run) { runB_ = run; }
    const QString &runB() const { return runB_; } // as opened: a path or a scenario

private:
    TraceLoader *loader_;
    bool expecting_ = false;
    std::optional<Document> pending_;
    std::optional<Alignment> align_;
    std::vector<int> cpuMap_;
    EventRef selected_[2];
    QString runB_;
};

} // namespace tickscope
