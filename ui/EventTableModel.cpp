#include "EventTableModel.h"

#include "BackgroundJob.h"
#include "Timing.h"

#include "model/EventFormat.h"

#include <algorithm>
#include <climits>
#include <string>

namespace tickscope {

namespace {

std::shared_ptr<std::atomic<bool>> renew(std::shared_ptr<std::atomic<bool>> &flag)
{
    if (flag) flag->store(true);
    flag = std::make_shared<std::atomic<bool>>(false);
    return flag;
}

} // namespace

EventTableModel::EventTableModel(QObject *parent) : QAbstractTableModel(parent) {}

EventTableModel::~EventTableModel()
{
    for (auto *f : {&cancel_, &filterCancel_, &searchCancel_}) {
        if (*f) (*f)->store(true);
    }
}

void EventTableModel::setDocument(const Document &doc)
{
    beginResetModel();
    doc_ = doc;
    order_.reset();
    rows_.reset();
    window_.clear();
    filter_ = {};
    filterPending_ = false;
    ordering_ = false;
    count_ = 0;
    listed_ = doc_.trace && !tooMany() && MergedCursor::usable(*doc_.trace);
    if (listed_) count_ = static_cast<int>(doc_.trace->eventCount());
    endResetModel();
    ++generation_;
    ++filterGeneration_;
    ++searchGeneration_;
    renew(cancel_);
    renew(filterCancel_);
    renew(searchCancel_);
    if (!doc_.trace) return;
    if (tooMany()) {
        emit busy(tr("%1 events: too many for the table").arg(doc_.trace->eventCount()));
        return;
    }
    if (listed_) { // the rows are read where the view asks: nothing to make first
        markTime("event table listed");
        emit busy({});
        emit rowsReady();
        return;
    }
    order(); // (a trace whose events are not each in time order: only the order lists them)
}

bool EventTableModel::tooMany() const
{
    return doc_.trace && doc_.trace->eventCount() > static_cast<size_t>(INT_MAX);
}

void EventTableModel::order()
{
    if (order_ || ordering_ || !doc_.trace || tooMany()) return;
    ordering_ = true;
    const uint64_t gen = generation_;
    if (!listed_) emit busy(tr("indexing %1 events…").arg(doc_.trace->eventCount()));
    struct Made
    {
        std::shared_ptr<const MergedOrder> order;
        std::string error; // why it could not be made (empty: made, or cancelled)
    };
    std::shared_ptr<const Trace> trace = doc_.trace;
    runInBackground(
        this,
        [trace, cancel = cancel_]() -> Made {
            try {
                auto m = MergedOrder::build(*trace, cancel.get());
                return {m ? std::make_shared<const MergedOrder>(std::move(*m)) : nullptr, {}};
            } catch (const std::exception &e) { // (out of memory): the table says so, and lists what it can
                return {nullptr, e.what()};
            }
        },
        [this, gen](Made made) {
            if (gen != generation_) return;
            ordering_ = false;
            std::shared_ptr<const MergedOrder> order = std::move(made.order);
            if (!order) { // no filter then: the unfiltered rows stay (a trace listed by cursors has them)
                filterPending_ = false;
                emit busy(made.error.empty()
                              ? QString()
                              : tr("cannot order the events: %1").arg(QString::fromStdString(made.error)));
                emit rowsReady();
                return;
            }
            if (filter_.active()) {
                order_ = std::move(order); // rows appear with the filter's
                startFilter();
                return;
            }
            if (listed_) {
                order_ = std::move(order);
                return;
            }
            beginResetModel();
            order_ = std::move(order);
            count_ = static_cast<int>(order_->size());
            endResetModel();
            markTime("event table ordered");
            emit busy({});
            emit rowsReady();
        });
}

void EventTableModel::setFilter(const EventFilter &filter)
{
    filter_ = filter;
    if (tooMany()) return; // no rows to filter
    if (!filter_.active()) {
        ++filterGeneration_;
        renew(filterCancel_);
        filterPending_ = false;
        if (!order_ && !listed_) return; // listed when the order is ready
        beginResetModel();
        rows_.reset();
        count_ = static_cast<int>(doc_.trace->eventCount());
        endResetModel();
        emit busy({});
        emit rowsReady();
        return;
    }
    if (!order_) { // the filter's rows are rows of the order: made first (once per document)
        filterPending_ = true;
        ++filterGeneration_;
        renew(filterCancel_);
        emit busy(tr("filtering…"));
        order();
        return;
    }
    startFilter();
}

void EventTableModel::startFilter()
{
    filterPending_ = true;
    const uint64_t gen = ++filterGeneration_;
    auto cancel = renew(filterCancel_);
    emit busy(tr("filtering…"));
    std::shared_ptr<const Trace> trace = doc_.trace;
    std::shared_ptr<const MergedOrder> order = order_;
    runInBackground(
        this,
        [trace, order, filter = filter_, cancel]() -> std::shared_ptr<const std::vector<uint32_t>> {
            auto rows = filterRows(*trace, *order, filter, cancel.get());
            return rows ? std::make_shared<const std::vector<uint32_t>>(std::move(*rows)) : nullptr;
        },
        [this, gen](std::shared_ptr<const std::vector<uint32_t>> rows) {
            if (gen != filterGeneration_ || !rows) return;
            beginResetModel();
            rows_ = std::move(rows);
            filterPending_ = false;
            count_ = static_cast<int>(rows_->size());
            endResetModel();
            markTime("event table ordered");
            emit busy({});
            emit rowsReady();
        });
}

int EventTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : count_;
}

int EventTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

EventPos EventTableModel::eventAt(int row) const
{
    if (row < 0 || row >= rowCount()) return {};
    if (rows_) return order_->at((*rows_)[static_cast<size_t>(row)]);
    if (!listed_) return order_->at(static_cast<size_t>(row));
    // A window of rows around the one asked for (the view asks for a screenful, row after row, each
    // column in turn), read by a cursor placed there.
    const auto r = static_cast<size_t>(row);
    if (r < windowFirst_ || r >= windowFirst_ + window_.size()) {
        constexpr size_t kWindow = 512;
        windowFirst_ = r > kWindow / 4 ? r - kWindow / 4 : 0;
        window_.clear();
        for (MergedCursor c(*doc_.trace, windowFirst_); c.valid() && window_.size() < kWindow; c.next())
            window_.push_back(c.pos());
    }
    return window_[r - windowFirst_];
}

QString EventTableModel::relativeTime(int64_t ts) const
{
    const int64_t rel = ts - doc_.trace->startTs();
    const int64_t a = rel < 0 ? -rel : rel;
    return QStringLiteral("%1%2.%3")
        .arg(rel < 0 ? QStringLiteral("-") : QString())
        .arg(a / 1000000000)
        .arg(a % 1000000000, 9, 10, QLatin1Char('0'));
}

QVariant EventTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    if (role == Qt::TextAlignmentRole && index.column() <= Cpu)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    if (role == Qt::ToolTipRole && index.column() != Fields) return {};
    const Trace &trace = *doc_.trace;
    const EventPos e = eventAt(index.row());
    const CpuEvents &ev = trace.cpu(e.cpu);
    switch (index.column()) {
    case Time:
        return relativeTime(ev.ts(e.index));
    case Cpu:
        return e.cpu;
    case Task: {
        return QStringLiteral("%1:%2")
            .arg(QString::fromStdString(taskComm(trace, e.cpu, e.index)))
            .arg(ev.pid(e.index));
    }
    case Event:
        return QString::fromStdString(trace.types()[ev.type(e.index)].name);
    case Fields:
        return QString::fromStdString(formatEventFields(trace, e.cpu, e.index));
    }
    return {};
}

QVariant EventTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Time:
        return tr("Time (s)");
    case Cpu:
        return tr("CPU");
    case Task:
        return tr("Task");
    case Event:
        return tr("Event");
    case Fields:
        return tr("Fields");
    }
    return {};
}

int EventTableModel::viewRowOfMerged(size_t merged, bool exact) const
{
    if (!rows_) {
        const size_t n = doc_.trace->eventCount();
        if (exact && merged >= n) return -1;
        return static_cast<int>(std::min(merged, n));
    }
    const auto it = std::lower_bound(rows_->begin(), rows_->end(), merged);
    if (exact && (it == rows_->end() || *it != merged)) return -1;
    return static_cast<int>(it - rows_->begin());
}

int EventTableModel::rowOf(EventPos e) const
{
    if (!ready() || !doc_.trace || e.cpu < 0 || e.cpu >= doc_.trace->cpuCount() ||
        e.index >= doc_.trace->cpu(e.cpu).size())
        return -1;
    return viewRowOfMerged(MergedOrder::rowOf(*doc_.trace, e), true);
}

int EventTableModel::rowAtOrAfter(EventPos e) const
{
    if (!ready() || !doc_.trace || e.cpu < 0 || e.cpu >= doc_.trace->cpuCount() ||
        e.index >= doc_.trace->cpu(e.cpu).size())
        return rowCount();
    return viewRowOfMerged(MergedOrder::rowOf(*doc_.trace, e), false);
}

int EventTableModel::rowAtTime(int64_t t) const
{
    if (!ready() || !doc_.trace) return rowCount();
    return viewRowOfMerged(MergedOrder::rowAtTime(*doc_.trace, t), false);
}

void EventTableModel::find(const QString &text, int from, bool forward)
{
    const uint64_t gen = ++searchGeneration_;
    auto cancel = renew(searchCancel_);
    if (!ready() || !doc_.trace || text.isEmpty()) {
        emit searchDone(-1);
        return;
    }
    emit busy(tr("searching…"));
    runInBackground(
        this,
        [trace = doc_.trace, order = rows_ || !listed_ ? order_ : nullptr, rows = rows_,
         needle = text.toStdString(), from, forward, cancel] {
            // the unfiltered list of a trace read by cursors is searched the same way, without the order
            return order ? findRow(*trace, *order, rows.get(), from, forward, needle, cancel.get())
                         : findRow(*trace, from, forward, needle, cancel.get());
        },
        [this, gen](int64_t row) {
            if (gen != searchGeneration_) return;
            emit busy({});
            emit searchDone(static_cast<int>(row));
        });
}

size_t EventTableModel::indexBytes() const
{
    return (order_ ? order_->bytes() : 0) + (rows_ ? rows_->capacity() * sizeof(uint32_t) : 0) +
           window_.capacity() * sizeof(EventPos);
}

} // namespace tickscope
