// SPDX-License-Identifier: GPL-3.0-or-later
#include "EventTable.h"

#include "EventTableModel.h"
#include "ViewState.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <QWheelEvent>

#include <algorithm>
#include <set>

namespace tickscope {

// The rows [first, first + size) of the event table model, size = min(capacity, the model's rows): what
// the QTableView shows. Moving the window changes data, not rows (no reset, no header work).
class EventRowWindow : public QAbstractTableModel
{
public:
    EventRowWindow(EventTableModel *source, QObject *parent) : QAbstractTableModel(parent), source_(source) {}

    // Another run's rows: from the top, the current capacity.
    void setSource(EventTableModel *source)
    {
        source_ = source;
        first_ = 0;
        reset(capacity_);
    }

    int first() const { return first_; }
    int size() const { return size_; }
    int total() const { return source_->rowCount(); }

    // A new capacity or model: the view's rows change.
    void reset(int capacity)
    {
        beginResetModel();
        capacity_ = std::max(1, capacity);
        size_ = std::min(capacity_, total());
        first_ = std::clamp(first_, 0, total() - size_);
        endResetModel();
    }
    void setFirst(int first)
    {
        first = std::clamp(first, 0, total() - size_);
        if (first == first_) return;
        first_ = first;
        if (size_ > 0) emit dataChanged(index(0, 0), index(size_ - 1, columnCount() - 1));
    }

    int rowCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : size_; }
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : source_->columnCount();
    }
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (!index.isValid() || index.row() >= size_) return {};
        return source_->data(source_->index(first_ + index.row(), index.column()), role);
    }
    QVariant headerData(int section, Qt::Orientation o, int role) const override
    {
        return o == Qt::Horizontal ? source_->headerData(section, o, role) : QVariant();
    }

private:
    EventTableModel *source_;
    int first_ = 0, size_ = 0, capacity_ = 1;
};

EventTable::EventTable(ViewState *state, QWidget *parent)
    : QWidget(parent), state_(state), models_{new EventTableModel(this), new EventTableModel(this)},
      model_(models_[0]), window_(new EventRowWindow(model_, this)), view_(new QTableView(this)),
      scroll_(new QScrollBar(Qt::Vertical, this)), cpu_(new QComboBox(this)), task_(new QLineEdit(this)),
      event_(new QComboBox(this)), search_(new QLineEdit(this)), previous_(new QToolButton(this)),
      next_(new QToolButton(this)), follow_(new QCheckBox(tr("Follow range"), this)),
      runBox_(new QComboBox(this)), status_(new QLabel(this)), filterDelay_(new QTimer(this))
{
    runBox_->addItem(tr("Run A"));
    runBox_->addItem(tr("Run B"));
    runBox_->setToolTip(tr("List the events of run A (the document) or of run B (the compared run)"));
    runBox_->hide(); // shown in the compare view
    cpu_->setToolTip(tr("Show the events of one CPU"));
    task_->setPlaceholderText(tr("task: comm or pid"));
    event_->setEditable(true);
    event_->setInsertPolicy(QComboBox::NoInsert);
    event_->lineEdit()->setPlaceholderText(tr("event name"));
    event_->setMinimumContentsLength(16);
    search_->setPlaceholderText(tr("search text"));
    // The clear buttons come with the first text (they only show with text anyway): the style's icon
    // costs ~5 ms each to build, on the GUI thread, while a file loads.
    for (QLineEdit *e : {task_, event_->lineEdit(), search_}) {
        connect(
            e, &QLineEdit::textChanged, e, [e] { e->setClearButtonEnabled(true); }, Qt::SingleShotConnection);
    }
    previous_->setText(tr("Previous"));
    previous_->setToolTip(tr("Previous match"));
    previous_->setArrowType(Qt::UpArrow);
    next_->setText(tr("Next"));
    next_->setToolTip(tr("Next match (Enter)"));
    next_->setArrowType(Qt::DownArrow);
    follow_->setToolTip(tr("Scroll to the start of the visible range when it changes"));

    auto *bar = new QHBoxLayout;
    bar->addWidget(runBox_);
    bar->addWidget(cpu_);
    bar->addWidget(task_, 1);
    bar->addWidget(event_, 1);
    bar->addSpacing(12);
    bar->addWidget(search_, 2);
    bar->addWidget(previous_);
    bar->addWidget(next_);
    bar->addWidget(follow_);
    bar->addWidget(status_);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    auto *table = new QHBoxLayout;
    table->setSpacing(0);
    table->addWidget(view_, 1);
    table->addWidget(scroll_);
    layout->addLayout(table, 1);

    view_->setModel(window_);
    view_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view_->installEventFilter(this);
    view_->viewport()->installEventFilter(this);
    scroll_->setRange(0, 0);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setWordWrap(false);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 4);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    const int digit = view_->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    view_->setColumnWidth(EventTableModel::Time, digit * 16);
    view_->setColumnWidth(EventTableModel::Cpu, digit * 5);
    view_->setColumnWidth(EventTableModel::Task, digit * 22);
    view_->setColumnWidth(EventTableModel::Event, digit * 24);

    filterDelay_->setSingleShot(true);
    filterDelay_->setInterval(250);
    connect(filterDelay_, &QTimer::timeout, this, &EventTable::applyFilter);
    connect(cpu_, &QComboBox::currentIndexChanged, this, &EventTable::applyFilter);
    connect(task_, &QLineEdit::textChanged, filterDelay_, qOverload<>(&QTimer::start));
    connect(event_, &QComboBox::currentTextChanged, filterDelay_, qOverload<>(&QTimer::start));
    connect(search_, &QLineEdit::returnPressed, this, [this] { search(true); });
    // "not found" belongs to the text searched for: editing the text drops it.
    connect(search_, &QLineEdit::textChanged, this, [this] {
        if (searchNote_.isEmpty()) return;
        searchNote_.clear();
        updateStatus();
    });
    connect(next_, &QToolButton::clicked, this, [this] { search(true); });
    connect(previous_, &QToolButton::clicked, this, [this] { search(false); });
    connect(scroll_, &QScrollBar::valueChanged, this, [this](int first) {
        window_->setFirst(first);
        showCurrentInView();
    });
    connectModel(models_[0]);
    connectModel(models_[1]);
    connect(runBox_, &QComboBox::activated, this, &EventTable::showRun);
    connect(state_, &ViewState::comparisonChanged, this, &EventTable::onComparisonChanged);
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &cur) {
                if (!windowSync_ && cur.isValid()) moveCurrent(window_->first() + cur.row());
            });
    connect(state_, &ViewState::selectionChanged, this, [this](EventRef sel) {
        // An event of the other run picked elsewhere: list that run (its rows show it once ready). Not for
        // the same selection said again (a realigned comparison), which would undo the run box's choice.
        if (!syncing_ && sel.valid() && sel.run != run_ && !(sel == lastSelection_)) showRun(sel.run);
        lastSelection_ = sel;
        showSelection();
    });
    connect(state_, &ViewState::rangeChanged, this, [this](int64_t start, int64_t) {
        if (!follow_->isChecked() || !model_->ready()) return;
        // The range is on A's time; B's events are shifted by the alignment.
        const auto &c = state_->comparison();
        const int row = model_->rowAtTime(run_ == 1 && c ? start + c->shift() : start);
        if (row < model_->rowCount()) scrollToRow(row, Place::Top);
    });
    updateStatus();
}

void EventTable::connectModel(EventTableModel *m)
{
    const int run = m == models_[0] ? 0 : 1;
    connect(m, &QAbstractItemModel::modelReset, this, [this, m] {
        if (m != model_) return;
        current_ = -1;
        window_->reset(visibleRows());
        fitWindow();
    });
    connect(m, &EventTableModel::rowsReady, this, [this, m] {
        if (m == model_) onRowsReady();
    });
    connect(m, &EventTableModel::busy, this, [this, run](const QString &what) {
        busy_[run] = what;
        updateStatus();
    });
    connect(m, &EventTableModel::searchDone, this, [this, m](int row) {
        if (m != model_) return;
        searchNote_ = row < 0 ? tr("not found") : QString();
        if (row >= 0) moveCurrent(row, Place::Center);
        updateStatus();
        emit searchFinished(row >= 0);
    });
}

void EventTable::showRun(int run)
{
    const auto &c = state_->comparison();
    if (run != 1 || !c || !c->valid()) run = 0;
    if (run == run_) {
        runBox_->setCurrentIndex(run);
        return;
    }
    run_ = run;
    model_ = models_[run];
    if (run == 1 && model_->document().trace != c->b.trace) {
        applied_[1].clear();
        model_->setDocument(c->b); // listed at once
    }
    current_ = -1;
    searchNote_.clear();
    window_->setSource(model_);
    fitWindow();
    runBox_->setCurrentIndex(run);
    fillFilters(model_->document().trace.get());
    if (filterKey() != applied_[run_]) applyFilter();
    updateStatus();
    showSelection();
}

void EventTable::onComparisonChanged()
{
    const auto &c = state_->comparison();
    const bool shown = c && c->valid();
    runBox_->setVisible(shown);
    if (!shown) {
        showRun(0);
        models_[1]->setDocument({}); // B's order and rows go with it
        applied_[1].clear();
        return;
    }
    if (models_[1]->document().trace && models_[1]->document().trace != c->b.trace) { // another B
        applied_[1].clear();
        if (run_ == 1) {
            model_->setDocument(c->b);
            fillFilters(c->b.trace.get());
            applyFilter();
            updateStatus();
        } else {
            models_[1]->setDocument({}); // the old B goes now; the new one is set when listed
        }
    }
}

int EventTable::topRow() const
{
    return window_->first();
}

int EventTable::visibleRows() const
{
    const int h = view_->verticalHeader()->defaultSectionSize();
    return std::max(1, view_->viewport()->height() / std::max(1, h));
}

bool EventTable::isRowSelected(int row) const
{
    return row >= 0 && row == current_;
}

QRect EventTable::cellRect(int row, int column) const
{
    const int r = row - window_->first();
    if (row < 0 || r < 0 || r >= window_->size()) return {};
    return view_->visualRect(window_->index(r, column));
}

void EventTable::fitWindow()
{
    if (window_->rowCount() != std::min(visibleRows(), window_->total())) window_->reset(visibleRows());
    const QSignalBlocker block(scroll_); // the window is already where the bar says
    scroll_->setRange(0, std::max(0, window_->total() - window_->size()));
    scroll_->setPageStep(std::max(1, window_->size()));
    scroll_->setValue(window_->first());
    showCurrentInView();
}

void EventTable::scrollToRow(int row, Place place)
{
    const int n = window_->size();
    int first = window_->first();
    switch (place) {
    case Place::Visible:
        if (row < first)
            first = row;
        else if (row >= first + n)
            first = row - n + 1;
        break;
    case Place::Top:
        first = row;
        break;
    case Place::Center:
        first = row - n / 2;
        break;
    }
    scroll_->setValue(std::clamp(first, 0, scroll_->maximum())); // moves the window
}

void EventTable::showCurrentInView()
{
    windowSync_ = true;
    const int r = current_ - window_->first();
    QItemSelectionModel *sel = view_->selectionModel();
    if (current_ >= 0 && r >= 0 && r < window_->size()) {
        const int column = std::max(0, view_->currentIndex().column());
        sel->setCurrentIndex(window_->index(r, column),
                             QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    } else {
        sel->clear();
    }
    windowSync_ = false;
}

void EventTable::selectRow(int row, Place place)
{
    current_ = row >= 0 && row < model_->rowCount() ? row : -1;
    if (current_ >= 0) scrollToRow(current_, place);
    showCurrentInView();
}

void EventTable::moveCurrent(int row, Place place)
{
    if (model_->rowCount() == 0) return;
    row = std::clamp(row, 0, model_->rowCount() - 1);
    selectRow(row, place);
    onCurrentRowChanged(row);
}

bool EventTable::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == view_->viewport()) {
        if (event->type() == QEvent::Resize) {
            fitWindow();
        } else if (event->type() == QEvent::Wheel) {
            auto *wheel = static_cast<QWheelEvent *>(event);
            if (qAbs(wheel->angleDelta().y()) >= qAbs(wheel->angleDelta().x())) {
                QCoreApplication::sendEvent(scroll_, event); // the window's scroll bar, not the view's
                return true;
            }
        }
        return false;
    }
    if (watched == view_ && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        const int page = std::max(1, window_->size() - 1);
        const int from = current_ >= 0 ? current_ : window_->first();
        switch (key->key()) {
        case Qt::Key_Up:
            moveCurrent(current_ >= 0 ? from - 1 : from);
            return true;
        case Qt::Key_Down:
            moveCurrent(current_ >= 0 ? from + 1 : from);
            return true;
        case Qt::Key_PageUp:
            moveCurrent(from - page);
            return true;
        case Qt::Key_PageDown:
            moveCurrent(from + page);
            return true;
        case Qt::Key_Home:
            moveCurrent(0);
            return true;
        case Qt::Key_End:
            moveCurrent(model_->rowCount() - 1);
            return true;
        default:
            break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void EventTable::setDocument(const Document &doc)
{
    showRun(0);
    { // a new document starts unfiltered
        const QSignalBlocker b1(cpu_), b2(task_), b3(event_);
        cpu_->setCurrentIndex(0);
        task_->clear();
        event_->setCurrentText(QString());
    }
    fillFilters(doc.trace.get());
    searchNote_.clear();
    applied_[0].clear();
    model_->setDocument(doc);
    updateStatus();
}

// The CPU and event choices of a run's trace; the CPU chosen and the texts stay when the trace has them.
void EventTable::fillFilters(const Trace *trace)
{
    const QSignalBlocker b1(cpu_), b2(event_);
    const int cpu = cpu_->currentData().isValid() ? cpu_->currentData().toInt() : -1;
    const QString event = event_->currentText();
    cpu_->clear();
    cpu_->addItem(tr("All CPUs"), -1);
    event_->clear();
    event_->addItem(QString());
    if (!trace) return;
    for (int c = 0; c < trace->cpuCount(); ++c)
        cpu_->addItem(tr("CPU %1").arg(c), c);
    cpu_->setCurrentIndex(std::max(0, cpu_->findData(cpu)));
    std::set<std::string> names; // the event types that occur, by name
    for (const EventType &t : trace->types())
        names.insert(t.name);
    for (const std::string &n : names)
        event_->addItem(QString::fromStdString(n));
    event_->setCurrentText(event);
}

QString EventTable::filterKey() const
{
    return QStringLiteral("%1\n%2\n%3")
        .arg(cpu_->currentData().toInt())
        .arg(task_->text().trimmed(), event_->currentText().trimmed());
}

void EventTable::applyFilter()
{
    filterDelay_->stop();
    if (!model_->document().trace) return;
    applied_[run_] = filterKey();
    model_->setFilter(EventFilter::make(*model_->document().trace, cpu_->currentData().toInt(),
                                        task_->text().trimmed().toStdString(),
                                        event_->currentText().trimmed().toStdString()));
}

void EventTable::search(bool forward)
{
    const int cur = current_;
    const int from = forward ? cur + 1 : (cur < 0 ? model_->rowCount() - 1 : cur - 1);
    searchNote_.clear();
    model_->find(search_->text(), from, forward);
}

void EventTable::onCurrentRowChanged(int row)
{
    if (syncing_ || row < 0) return;
    const EventPos e = model_->eventAt(row);
    if (e.cpu < 0) return;
    syncing_ = true;
    state_->setSelection({e.cpu, static_cast<int64_t>(e.index), run_});
    syncing_ = false;
}

void EventTable::showSelection()
{
    if (syncing_ || !model_->ready()) return;
    const EventRef sel = state_->selection();
    syncing_ = true;
    if (!sel.valid() || sel.run != run_) {
        selectRow(-1);
    } else {
        const EventPos e{sel.cpu, static_cast<size_t>(sel.index)};
        const int row = model_->rowOf(e);
        if (row >= 0) {
            selectRow(row, Place::Center);
        } else { // hidden by the filter: show where it would be
            selectRow(-1);
            const int near = std::min(model_->rowAtOrAfter(e), model_->rowCount() - 1);
            if (near >= 0) scrollToRow(near, Place::Center);
        }
    }
    syncing_ = false;
}

void EventTable::onRowsReady()
{
    updateStatus();
    showSelection();
}

QString EventTable::statusText() const
{
    return status_->text();
}

void EventTable::updateStatus()
{
    QString s;
    if (!busy_[run_].isEmpty()) {
        s = busy_[run_];
    } else if (model_->document().trace && model_->ready()) {
        const auto total = static_cast<qlonglong>(model_->document().trace->eventCount());
        s = model_->rowCount() == total ? tr("%L1 events").arg(total)
                                        : tr("%L1 of %L2 events").arg(model_->rowCount()).arg(total);
    }
    if (!searchNote_.isEmpty()) s += QStringLiteral(" — ") + searchNote_;
    status_->setText(s);
}

} // namespace tickscope
