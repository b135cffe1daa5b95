// The events of the whole trace as one time-sorted table (time relative to the trace start, CPU,
// comm:pid, event, fields), virtual: a row is formatted only when the view asks for it. The merged order
// of all CPUs (MergedOrder, ~1 byte per event) and the rows a filter keeps (4 bytes per kept event) are
// built on the thread pool; until the order is ready the table is empty. Superseded jobs are cancelled
// and their results dropped.
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
    bool ready() const { return order_ != nullptr && !filterPending_; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    EventPos eventAt(int row) const;
    // The row showing e, -1 when the filter hides it (or no order yet).
    int rowOf(EventPos e) const;
    // The first row at or after the merged position of e / of time t (rowCount() when none).
    int rowAtOrAfter(EventPos e) const;
    int rowAtTime(int64_t t) const;

    // Searches from row `from` on (or back) in the background; searchDone(row or -1).
    void find(const QString &text, int from, bool forward);

    size_t indexBytes() const; // the merged order and the filter's rows

signals:
    void rowsReady(); // the order (or a new filter's rows) is in the table
    void busy(QString what);
    void searchDone(int row);

private:
    size_t mergedRow(int row) const
    {
        return rows_ ? (*rows_)[static_cast<size_t>(row)] : static_cast<size_t>(row);
    }
    int viewRowOfMerged(size_t merged, bool exact) const;
    void startFilter();
    QString relativeTime(int64_t ts) const;

    Document doc_;
    std::shared_ptr<const MergedOrder> order_;
    std::shared_ptr<const std::vector<uint32_t>> rows_; // null: no filter
    EventFilter filter_;
    bool filterPending_ = false;
    int count_ = 0; // rows shown: changes only inside a model reset
    uint64_t generation_ = 0, filterGeneration_ = 0, searchGeneration_ = 0;
    std::shared_ptr<std::atomic<bool>> cancel_, filterCancel_, searchCancel_;
};

} // namespace tickscope
