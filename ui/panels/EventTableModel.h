// SPDX-License-Identifier: GPL-3.0-or-later
// The events of the whole trace as one time-sorted table (time relative to the trace start, CPU,
// comm:pid, event, fields), virtual: a row is formatted only when the view asks for it. No order of every
// event is made: the unfiltered rows are read where the view asks, by a cursor over the CPUs' events
// (MergedCursor), and the table lists a trace as soon as it is set. A filter's rows are the events it
// keeps (8 bytes each), found on the thread pool by cursors over chunks of rows. Superseded jobs are
// cancelled and their results dropped.
#pragma once

#include "session/Document.h"

#include "model/EventFilter.h"
#include "model/MergedOrder.h"

#include <QAbstractTableModel>

#include <atomic>
#include <memory>
#include <vector>

namespace tickscope {

class EventTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Time,
        Cpu,
        Task,
        Event,
        Fields,
        ColumnCount
    };

    explicit EventTableModel(QObject *parent = nullptr);
    ~EventTableModel() override;

    void setDocument(const Document &doc);
    const Document &document() const { return doc_; }
    // Applied in the background; rowsReady() when the table shows it.
    void setFilter(const EventFilter &filter);
    bool ready() const { return listed_ && !filterPending_; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    EventPos eventAt(int row) const;
    // The row showing e, -1 when the filter hides it (or the rows are not ready).
    int rowOf(EventPos e) const;
    // The first row at or after the merged position of e / of time t (rowCount() when none).
    int rowAtOrAfter(EventPos e) const;
    int rowAtTime(int64_t t) const;

    // Searches from row `from` on (or back) in the background; searchDone(row or -1).
    void find(const QString &text, int from, bool forward);

    size_t indexBytes() const; // the filter's rows and the window of rows read

signals:
    void rowsReady(); // the rows are listed (at once, from setDocument), or a filter's are
    void busy(QString what);
    void searchDone(int row);

private:
    bool tooMany() const;         // more events than the table's rows can count
    bool holds(EventPos e) const; // an event of the document's trace
    QString relativeTime(int64_t ts) const;

    Document doc_;
    std::shared_ptr<const std::vector<EventKey>> rows_; // the filter's; null: no filter
    EventFilter filter_;
    bool filterPending_ = false;
    bool listed_ = false; // the trace's rows can be read (MergedCursor::usable)
    mutable size_t windowFirst_ = 0;
    mutable std::vector<EventPos> window_; // rows windowFirst_... of the unfiltered list
    int count_ = 0;                        // rows shown: changes only inside a model reset
    uint64_t filterGeneration_ = 0, searchGeneration_ = 0;
    std::shared_ptr<std::atomic<bool>> filterCancel_, searchCancel_;
};

} // namespace tickscope
