// The events of the whole trace as one time-sorted table (time relative to the trace start, CPU,
// comm:pid, event, fields), virtual: a row is formatted only when the view asks for it. Unfiltered, the
// rows are read where the view asks, by a cursor over the CPUs' events (MergedCursor): the table lists a
// trace as soon as it is set, with nothing made first. A filter's rows (4 bytes per kept event) are rows
// of the merged order of all CPUs (MergedOrder, ~1 byte per event), made on the thread pool with the first
// filter of a document and kept with it. A trace whose CPUs' events are not each in time order is listed
// by the order alone (made when the document is set; until then the table is empty). Superseded jobs are
// cancelled and their results dropped.
#pragma once

#include "Document.h"

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
    bool ready() const { return (listed_ || order_ != nullptr) && !filterPending_; }

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

    size_t indexBytes() const; // the merged order, the filter's rows and the window of rows read

signals:
    void rowsReady(); // the rows are listed (at once, from setDocument, when read by cursors), or a filter's
    void busy(QString what);
    void searchDone(int row);

private:
    size_t mergedRow(int row) const
    {
        return rows_ ? (*rows_)[static_cast<size_t>(row)] : static_cast<size_t>(row);
    }
    int viewRowOfMerged(size_t merged, bool exact) const;
    void startFilter();
    void order(); // makes the merged order in the background, unless made or being made
    bool tooMany() const; // more events than the table's rows can count
    QString relativeTime(int64_t ts) const;

    Document doc_;
    std::shared_ptr<const MergedOrder> order_;
    std::shared_ptr<const std::vector<uint32_t>> rows_; // null: no filter
    EventFilter filter_;
    bool filterPending_ = false;
    bool listed_ = false;   // the unfiltered rows are read by cursors (else from the order)
    bool ordering_ = false; // the order is being made
    mutable size_t windowFirst_ = 0;
    mutable std::vector<EventPos> window_; // rows windowFirst_... of the unfiltered list
    int count_ = 0; // rows shown: changes only inside a model reset
    uint64_t generation_ = 0, filterGeneration_ = 0, searchGeneration_ = 0;
    std::shared_ptr<std::atomic<bool>> cancel_, filterCancel_, searchCancel_;
};

} // namespace tickscope
