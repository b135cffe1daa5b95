#include "EventTable.h"

#include "EventTableModel.h"
#include "ViewState.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <set>

namespace tickscope {

EventTable::EventTable(ViewState *state, QWidget *parent)
    : QWidget(parent), state_(state), model_(new EventTableModel(this)), view_(new QTableView(this)),
      cpu_(new QComboBox(this)), task_(new QLineEdit(this)), event_(new QComboBox(this)),
      search_(new QLineEdit(this)), previous_(new QToolButton(this)), next_(new QToolButton(this)),
      follow_(new QCheckBox(tr("Follow range"), this)), status_(new QLabel(this)),
      filterDelay_(new QTimer(this))
{
    cpu_->setToolTip(tr("Show the events of one CPU"));
    task_->setPlaceholderText(tr("task: comm or pid"));
    task_->setClearButtonEnabled(true);
    event_->setEditable(true);
    event_->setInsertPolicy(QComboBox::NoInsert);
    event_->lineEdit()->setPlaceholderText(tr("event name"));
    event_->lineEdit()->setClearButtonEnabled(true);
    event_->setMinimumContentsLength(16);
    search_->setPlaceholderText(tr("search text"));
    search_->setClearButtonEnabled(true);
    previous_->setText(tr("Previous"));
    previous_->setToolTip(tr("Previous match"));
    previous_->setArrowType(Qt::UpArrow);
    next_->setText(tr("Next"));
    next_->setToolTip(tr("Next match (Enter)"));
    next_->setArrowType(Qt::DownArrow);
    follow_->setToolTip(tr("Scroll to the start of the visible range when it changes"));

    auto *bar = new QHBoxLayout;
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
    layout->addWidget(view_, 1);

    view_->setModel(model_);
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
    connect(next_, &QToolButton::clicked, this, [this] { search(true); });
    connect(previous_, &QToolButton::clicked, this, [this] { search(false); });
    connect(model_, &EventTableModel::rowsReady, this, &EventTable::onRowsReady);
    connect(model_, &EventTableModel::busy, this, [this](const QString &what) {
        busy_ = what;
        updateStatus();
    });
    connect(model_, &EventTableModel::searchDone, this, [this](int row) {
        searchNote_ = row < 0 ? tr("not found") : QString();
        if (row >= 0) {
            view_->selectRow(row);
            view_->scrollTo(model_->index(row, 0), QAbstractItemView::PositionAtCenter);
        }
        updateStatus();
        emit searchFinished(row >= 0);
    });
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &cur) { onCurrentRowChanged(cur.row()); });
    connect(state_, &ViewState::selectionChanged, this, &EventTable::showSelection);
    connect(state_, &ViewState::rangeChanged, this, [this](int64_t start, int64_t) {
        if (!follow_->isChecked() || !model_->ready()) return;
        const int row = model_->rowAtTime(start);
        if (row < model_->rowCount())
            view_->scrollTo(model_->index(row, 0), QAbstractItemView::PositionAtTop);
    });
    updateStatus();
}

void EventTable::setDocument(const Document &doc)
{
    {
        const QSignalBlocker b1(cpu_), b2(task_), b3(event_);
        cpu_->clear();
        cpu_->addItem(tr("All CPUs"), -1);
        event_->clear();
        task_->clear();
        if (doc.trace) {
            for (int c = 0; c < doc.trace->cpuCount(); ++c)
                cpu_->addItem(tr("CPU %1").arg(c), c);
            std::set<std::string> names; // the event types that occur, by name
            for (const EventType &t : doc.trace->types())
                names.insert(t.name);
            event_->addItem(QString());
            for (const std::string &n : names)
                event_->addItem(QString::fromStdString(n));
        }
    }
    searchNote_.clear();
    model_->setDocument(doc);
    updateStatus();
}

void EventTable::applyFilter()
{
    filterDelay_->stop();
    if (!model_->document().trace) return;
    model_->setFilter(EventFilter::make(*model_->document().trace, cpu_->currentData().toInt(),
                                        task_->text().trimmed().toStdString(),
                                        event_->currentText().trimmed().toStdString()));
}

void EventTable::search(bool forward)
{
    const int cur = view_->currentIndex().isValid() ? view_->currentIndex().row() : -1;
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
    state_->setSelection({e.cpu, static_cast<int64_t>(e.index)});
    syncing_ = false;
}

void EventTable::showSelection()
{
    if (syncing_ || !model_->ready()) return;
    const EventRef sel = state_->selection();
    syncing_ = true;
    if (!sel.valid()) {
        view_->clearSelection();
    } else {
        const EventPos e{sel.cpu, static_cast<size_t>(sel.index)};
        const int row = model_->rowOf(e);
        if (row >= 0) {
            view_->selectRow(row);
            view_->scrollTo(model_->index(row, 0), QAbstractItemView::PositionAtCenter);
        } else { // hidden by the filter: show where it would be
            view_->clearSelection();
            const int near = std::min(model_->rowAtOrAfter(e), model_->rowCount() - 1);
            if (near >= 0) view_->scrollTo(model_->index(near, 0), QAbstractItemView::PositionAtCenter);
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
    if (!busy_.isEmpty()) {
        s = busy_;
    } else if (model_->document().trace && model_->ready()) {
        const auto total = static_cast<qlonglong>(model_->document().trace->eventCount());
        s = model_->rowCount() == total ? tr("%L1 events").arg(total)
                                        : tr("%L1 of %L2 events").arg(model_->rowCount()).arg(total);
    }
    if (!searchNote_.isEmpty()) s += QStringLiteral(" — ") + searchNote_;
    status_->setText(s);
}

} // namespace tickscope
