// SPDX-License-Identifier: GPL-3.0-or-later
// The per-CPU analysis summary: the numbers of `tickscope-cli report` (TickReport, computed by core for a
// window) for the visible range or the whole trace, one column per CPU shown. Recomputed in the
// background when the document arrives and, debounced, when the range or the CPUs change.
#pragma once

#include "BackgroundJob.h"
#include "session/Document.h"

#include "report/TickReport.h"

#include <QWidget>

#include <memory>
#include <vector>

class QCheckBox;
class QLabel;
class QTableWidget;

namespace tickscope {

class ViewState;

class SummaryPanel : public QWidget
{
    Q_OBJECT
public:
    SummaryPanel(ViewState *state, QWidget *parent = nullptr);

    void setDocument(const Document &doc);

    QCheckBox *wholeTrace() const { return whole_; }
    QTableWidget *table() const { return table_; }
    // The shown text of a metric row ("spurious", "ticks", ... as in the first column) for a CPU; empty
    // when absent.
    QString cell(const QString &metric, int cpu) const;
    const TickReport *report() const { return report_.get(); }

    // A range or CPU change waits for more before it recomputes (for tests).
    bool debouncing() const { return recompute_.debouncing(); }

signals:
    void updated();

private:
    // What a summary is computed from; a change that leaves these equal recomputes nothing.
    struct Inputs
    {
        std::vector<int> cpus; // sorted
        bool whole = false;
        int64_t from = 0, to = 0; // the visible range unless whole
        bool operator==(const Inputs &) const = default;
    };
    Inputs inputs() const;
    void schedule();
    void compute();
    void show(const TickReport &r);

    ViewState *state_;
    Document doc_;
    QCheckBox *whole_;
    QLabel *window_;
    QTableWidget *table_;
    std::shared_ptr<const TickReport> report_;
    Recompute<Inputs> recompute_;
};

} // namespace tickscope
