// SPDX-License-Identifier: GPL-3.0-or-later
#include "FindingsPanel.h"

#include "ViewState.h"

#include "report/TickReport.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>
#include <utility>

namespace tickscope {

FindingsPanel::FindingsPanel(ViewState *state, QWidget *parent) : QWidget(parent), state_(state)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    list_ = new QTreeWidget(this);
    list_->setRootIsDecorated(false);
    list_->setUniformRowHeights(true);
    list_->setHeaderLabels({tr("#"), tr("CPU"), tr("Finding"), tr("First at (s)")});
    list_->header()->setStretchLastSection(false);
    list_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    list_->header()->setSectionResizeMode(2, QHeaderView::Stretch);
    list_->setToolTip(tr("What the analysis found over the whole trace on the CPUs shown, worst first. "
                         "Click a row to go to its first instance; F / Shift+F in the timeline step "
                         "through all of them."));
    layout->addWidget(list_, 1);
    detail_ = new QLabel(this);
    detail_->setWordWrap(true);
    detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    detail_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(detail_);
    auto *row = new QHBoxLayout;
    previous_ = new QPushButton(tr("◀ Previous"), this);
    next_ = new QPushButton(tr("Next ▶"), this);
    position_ = new QLabel(this);
    row->addWidget(previous_);
    row->addWidget(next_);
    row->addWidget(position_, 1);
    layout->addLayout(row);
    connect(list_, &QTreeWidget::currentItemChanged, this, [this] { selectionChanged(); });
    connect(list_, &QTreeWidget::itemClicked, this, [this] { showInstance(0); });
    connect(previous_, &QPushButton::clicked, this, [this] {
        if (instance_ > 0) showInstance(instance_ - 1);
    });
    connect(next_, &QPushButton::clicked, this, [this] { showInstance(instance_ + 1); });
    connect(state_, &ViewState::cpusChanged, this, [this] { compute(); });
    connect(state_, &ViewState::comparisonChanged, this, [this] {
        // Another B (or none): its old findings go at once, not when the new ones are computed (F would
        // step through the old B's times in the new B meanwhile).
        const std::shared_ptr<const Comparison> &c = state_->comparison();
        if (findingsB_ && (!c || !c->valid() || c->b.trace != findingsBOf_)) {
            findingsB_.reset();
            fill();
            emit updated();
        }
        compute();
    });
    selectionChanged();
}

void FindingsPanel::setDocument(const Document &doc)
{
    doc_ = doc;
    findings_.reset();
    fill();
    compute();
}

void FindingsPanel::setLateWakeupNs(int64_t ns)
{
    if (ns == lateWakeupNs_) return;
    lateWakeupNs_ = ns;
    compute();
}

void FindingsPanel::compute()
{
    if (!doc_.valid()) return;
    const uint64_t gen = ++generation_;
    ReportOptions o;
    o.cpus = state_->cpus();
    std::sort(o.cpus.begin(), o.cpus.end());
    o.lateWakeupNs = lateWakeupNs_;
    // Run B's on the B CPUs shown against A's.
    const std::shared_ptr<const Comparison> cmp = state_->comparison();
    std::optional<ReportOptions> ob;
    if (cmp && cmp->valid()) {
        ob = o;
        ob->cpus = cmp->cpusB(o.cpus);
        std::sort(ob->cpus.begin(), ob->cpus.end());
        ob->cpus.erase(std::unique(ob->cpus.begin(), ob->cpus.end()), ob->cpus.end());
    }
    using List = std::shared_ptr<const std::vector<Finding>>;
    runInBackground(
        this,
        [a = doc_, o, b = cmp ? cmp->b : Document{}, ob] {
            auto of = [](const Document &d, const ReportOptions &opt) {
                return std::make_shared<const std::vector<Finding>>(
                    d.reports->get(d.trace, d.analysis, opt)->findings);
            };
            // No B CPU shown against the A CPUs shown: none of B's (an empty list would mean all).
            const List none = std::make_shared<const std::vector<Finding>>();
            return std::make_pair(of(a, o), !ob ? List() : ob->cpus.empty() ? none : of(b, *ob));
        },
        [this, gen, bTrace = cmp && cmp->valid() ? cmp->b.trace : nullptr](std::pair<List, List> f) {
            if (gen != generation_) return;
            findings_ = std::move(f.first);
            findingsB_ = std::move(f.second);
            findingsBOf_ = findingsB_ ? bTrace : nullptr;
            fill();
            emit updated();
        });
}

void FindingsPanel::fill()
{
    list_->clear();
    if (findings_) {
        // Times from the trace's start, or in the compare view from each run's time zero.
        const std::shared_ptr<const Comparison> &cmp = state_->comparison();
        const bool compare = findingsB_ && cmp;
        const int64_t zeroA = compare ? cmp->zeroA : doc_.valid() ? doc_.trace->startTs() : 0;
        int n = 0;
        auto add = [&](const std::vector<Finding> &list, bool runB) {
            const int64_t zero = runB ? cmp->zeroB : zeroA;
            for (size_t i = 0; i < list.size(); ++i) {
                const Finding &f = list[i];
                auto *item = new QTreeWidgetItem(list_);
                item->setText(0, QString::number(++n));
                item->setText(1, compare ? QStringLiteral("%1 %2").arg(runB ? 'B' : 'A').arg(f.cpu)
                                         : QString::number(f.cpu));
                item->setText(2, QString::fromStdString(f.what));
                item->setText(3, f.count ? QString::number(static_cast<double>(f.first - zero) / 1e9, 'f', 6)
                                         : QString());
                item->setData(0, Qt::UserRole, static_cast<qulonglong>(i));
                item->setData(0, Qt::UserRole + 1, runB);
                QString tip = QString::fromStdString(f.pattern);
                if (!f.cause.empty()) tip += QStringLiteral("\n") + QString::fromStdString(f.cause);
                item->setToolTip(2, tip);
                for (int c : {0, 1, 3})
                    item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
            }
        };
        add(*findings_, false);
        if (compare) add(*findingsB_, true);
        if (n == 0) {
            auto *item = new QTreeWidgetItem(list_);
            item->setText(2, tr("Nothing found on the CPUs shown."));
            item->setFlags(Qt::NoItemFlags);
        } else {
            const QSignalBlocker block(list_); // the worst one's details, without moving the view
            list_->setCurrentItem(list_->topLevelItem(0));
        }
    }
    selectionChanged();
}

const Finding *FindingsPanel::current(bool *runB) const
{
    const QTreeWidgetItem *item = list_->currentItem();
    if (!item || !(item->flags() & Qt::ItemIsEnabled)) return nullptr;
    const bool b = item->data(0, Qt::UserRole + 1).toBool();
    if (runB) *runB = b;
    const auto &list = b ? findingsB_ : findings_;
    const size_t i = item->data(0, Qt::UserRole).toULongLong();
    return list && i < list->size() ? &(*list)[i] : nullptr;
}

void FindingsPanel::selectionChanged()
{
    instance_ = 0;
    bool runB = false;
    const Finding *f = current(&runB);
    if (!f) {
        detail_->setText(findings_ ? tr("Select a finding to see its pattern and cause.")
                                   : tr("Looking for findings…"));
        position_->clear();
        previous_->setEnabled(false);
        next_->setEnabled(false);
        return;
    }
    QString text = QStringLiteral("<b>%1CPU %2: %3</b>")
                       .arg(state_->comparison() ? (runB ? tr("Run B, ") : tr("Run A, ")) : QString())
                       .arg(f->cpu)
                       .arg(QString::fromStdString(f->what).toHtmlEscaped());
    if (!f->pattern.empty())
        text += QStringLiteral("<br>") + QString::fromStdString(f->pattern).toHtmlEscaped();
    if (!f->cause.empty())
        text += QStringLiteral("<br><i>") + QString::fromStdString(f->cause).toHtmlEscaped() + "</i>";
    detail_->setText(text);
    position_->setText(tr("%n instance(s)", nullptr, static_cast<int>(f->at.size())));
    previous_->setEnabled(false);
    next_->setEnabled(f->at.size() > 1);
}

void FindingsPanel::showInstance(size_t k)
{
    bool runB = false;
    const Finding *f = current(&runB);
    if (!f || k >= f->at.size()) return;
    instance_ = k;
    previous_->setEnabled(k > 0);
    next_->setEnabled(k + 1 < f->at.size());
    position_->setText(tr("instance %1 of %2").arg(k + 1).arg(f->at.size()));
    if (runB)
        emit goToB(f->cpu, f->at[k], true);
    else
        emit goTo(f->cpu, f->at[k], true);
}

} // namespace tickscope
