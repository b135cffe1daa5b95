// SPDX-License-Identifier: GPL-3.0-or-later
// What the analysis found (the whole-trace report's findings, on the CPUs shown), worst first, one
// row each: the CPU, the finding with its count, where the first one is. Below, the selected finding's
// pattern and the known cause it matches. Selecting a row goes to its first instance in the timeline;
// Previous / Next step through its instances. Computed in the background when the document or the shown
// CPUs change. In the compare view run B's findings follow A's (on the B CPUs shown against A's), the
// CPU column says the run ("A 3", "B 3") and "First at" counts from each run's time zero.
#pragma once

#include "BackgroundJob.h"
#include "session/Document.h"

#include "report/Findings.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace tickscope {

class ViewState;

class FindingsPanel : public QWidget
{
    Q_OBJECT
public:
    FindingsPanel(ViewState *state, QWidget *parent = nullptr);

    void setDocument(const Document &doc);
    QTreeWidget *list() const { return list_; }
    QLabel *detail() const { return detail_; }
    std::shared_ptr<const std::vector<Finding>> findings() const { return findings_; }   // run A's
    std::shared_ptr<const std::vector<Finding>> findingsB() const { return findingsB_; } // null: no B
    // Wakeups at least this late are findings (the timeline's L threshold); recomputes.
    void setLateWakeupNs(int64_t ns);
    // Shows instance k of the selected finding (goTo is emitted).
    void showInstance(size_t k);

signals:
    void updated(); // new findings are listed
    void goTo(int cpu, int64_t ts, bool zoomIn);
    void goToB(int cpuB, int64_t tsB, bool zoomIn); // an instance of run B's (B's CPU and time)

private:
    void compute();
    void fill();
    void selectionChanged();
    // The selected finding, and whether it is run B's.
    const Finding *current(bool *runB = nullptr) const;

    ViewState *state_;
    Document doc_;
    QTreeWidget *list_;
    QLabel *detail_, *position_;
    QPushButton *previous_, *next_;
    std::shared_ptr<const std::vector<Finding>> findings_, findingsB_;
    std::shared_ptr<const Trace> findingsBOf_; // the run B findingsB_ are of
    size_t instance_ = 0;
    int64_t lateWakeupNs_ = kLateWakeupNs;
    uint64_t generation_ = 0;
};

} // namespace tickscope
