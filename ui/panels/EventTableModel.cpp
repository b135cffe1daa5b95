// SPDX-License-Identifier: GPL-3.0-or-later
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
    for (auto *f : {&filterCancel_, &searchCancel_}) {
        if (*f) (*f)->store(true);
    }
}

void EventTableModel::setDocument(const Document &doc)
{
    beginResetModel();
    doc_ = doc;
    rows_.reset();
    window_.clear();
    filter_ = {};
    filterPending_ = false;
    count_ = 0;
    listed_ = doc_.trace && !tooMany() && MergedCursor::usable(*doc_.trace);
    if (listed_) count_ = static_cast<int>(doc_.trace->eventCount());
    endResetModel();
    ++filterGeneration_;
    ++searchGeneration_;
    renew(filterCancel_);
    renew(searchCancel_);
    if (!doc_.trace) return;
    if (tooMany()) {
        emit busy(tr("%1 events: too many for the table").arg(doc_.trace->eventCount()));
        return;
    }
    if (!listed_) { // (only a trace made by hand: every loaded one is sorted)
        emit busy(tr("not listed: the events of a CPU are not in time order"));
        return;
    }
    // The rows are read where the view asks: nothing to make first.
    markTime("event table listed");
    emit busy({});
    emit rowsReady();
}

bool EventTableModel::tooMany() const
{
    return doc_.trace && doc_.trace->eventCount() > static_cast<size_t>(INT_MAX);
}

void EventTableModel::setFilter(const EventFilter &filter)
{
    filter_ = filter;
    if (!listed_) return; // no rows to filter
    ++searchGeneration_;  // a search's row is a row of the rows it searched
    renew(searchCancel_);
    if (!filter_.active()) {
        ++filterGeneration_;
        renew(filterCancel_);
        filterPending_ = false;
        beginResetModel();
        rows_.reset();
        count_ = static_cast<int>(doc_.trace->eventCount());
        endResetModel();
        emit busy({});
        emit rowsReady();
        return;
    }
    filterPending_ = true;
    const uint64_t gen = ++filterGeneration_;
    auto cancel = renew(filterCancel_);
    emit busy(tr("filtering…"));
    struct Kept
    {
        std::shared_ptr<const std::vector<EventKey>> rows; // null: cancelled, or failed
        std::string error;                                 // why it failed
    };
    runInBackground(
        this,
        [trace = doc_.trace, filter = filter_, cancel]() -> Kept {
            try {
                auto rows = filterEvents(*trace, filter, cancel.get());
                return {rows ? std::make_shared<const std::vector<EventKey>>(std::move(*rows)) : nullptr, {}};
            } catch (const std::exception &e) { // (out of memory): the table says so, and lists every event
                return {nullptr, e.what()};
            }
        },
        [this, gen](Kept kept) {
            if (gen != filterGeneration_) return;
            if (!kept.rows) {
                if (kept.error.empty()) return; // cancelled
                beginResetModel();
                rows_.reset();
                filterPending_ = false;
                count_ = static_cast<int>(doc_.trace->eventCount());
                endResetModel();
                emit busy(tr("cannot filter: %1").arg(QString::fromStdString(kept.error)));
                emit rowsReady();
                return;
            }
            beginResetModel();
            rows_ = std::move(kept.rows);
            filterPending_ = false;
            count_ = static_cast<int>(rows_->size());
            endResetModel();
            markTime("event table filtered");
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
    if (rows_) return posOf((*rows_)[static_cast<size_t>(row)]);
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

bool EventTableModel::holds(EventPos e) const
{
    return doc_.trace && e.cpu >= 0 && e.cpu < doc_.trace->cpuCount() &&
           e.index < doc_.trace->cpu(e.cpu).size();
}

int EventTableModel::rowOf(EventPos e) const
{
    if (!ready() || !holds(e)) return -1;
    const int r = rowAtOrAfter(e);
    if (!rows_) return r; // e's own row
    return r < rowCount() && posOf((*rows_)[static_cast<size_t>(r)]) == e ? r : -1;
}

int EventTableModel::rowAtOrAfter(EventPos e) const
{
    if (!ready() || !holds(e)) return rowCount();
    if (!rows_) return static_cast<int>(MergedCursor::rowOf(*doc_.trace, e));
    return static_cast<int>(
        std::lower_bound(rows_->begin(), rows_->end(), e,
                         [&](EventKey k, EventPos x) { return mergedBefore(*doc_.trace, posOf(k), x); }) -
        rows_->begin());
}

int EventTableModel::rowAtTime(int64_t t) const
{
    if (!ready() || !doc_.trace) return rowCount();
    if (!rows_) return static_cast<int>(MergedCursor::rowAtTime(*doc_.trace, t));
    return static_cast<int>(std::lower_bound(rows_->begin(), rows_->end(), t,
                                             [&](EventKey k, int64_t x) {
                                                 const EventPos p = posOf(k);
                                                 return doc_.trace->cpu(p.cpu).ts(p.index) < x;
                                             }) -
                            rows_->begin());
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
        [trace = doc_.trace, rows = rows_, needle = text.toStdString(), from, forward, cancel] {
            return rows ? findRow(*trace, *rows, from, forward, needle, cancel.get())
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
    return (rows_ ? rows_->capacity() * sizeof(EventKey) : 0) + window_.capacity() * sizeof(EventPos);
}

} // namespace tickscope
