#include "FindingsPanel.h"

#include "ViewState.h"

#include "analysis/TickReport.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace tickscope {

FindingsPanel::FindingsPanel(ViewState *state, QWidget *parent) : QWidget(parent), state_(state)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    list_ = new QTreeWidget(this);
    list_->setRootIsDecorated(false);
    list_->setUniformRowHeights(true);
    list_->setHeaderLabels({tr("#"), tr("CPU"), tr("Finding"), tr("First at")});
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
    runInBackground(
        this,
        [trace = doc_.trace, analysis = doc_.analysis, memo = doc_.reports, o] {
            return std::make_shared<const std::vector<Finding>>(memo->get(trace, analysis, o)->findings);
        },
        [this, gen](std::shared_ptr<const std::vector<Finding>> f) {
            if (gen != generation_) return;
            findings_ = std::move(f);
            fill();
            emit updated();
        });
}

void FindingsPanel::fill()
{
    list_->clear();
    if (findings_) {
        const int64_t first = doc_.valid() ? doc_.trace->startTs() : 0;
        for (size_t i = 0; i < findings_->size(); ++i) {
            const Finding &f = (*findings_)[i];
            auto *item = new QTreeWidgetItem(list_);
            item->setText(0, QString::number(i + 1));
            item->setText(1, QString::number(f.cpu));
            item->setText(2, QString::fromStdString(f.what));
            item->setText(3, f.count ? QString::number(static_cast<double>(f.first - first) / 1e9, 'f', 6)
                                     : QString());
            item->setData(0, Qt::UserRole, static_cast<qulonglong>(i));
            QString tip = QString::fromStdString(f.pattern);
            if (!f.cause.empty()) tip += QStringLiteral("\n") + QString::fromStdString(f.cause);
            item->setToolTip(2, tip);
            for (int c : {0, 1, 3})
                item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        }
        if (findings_->empty()) {
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

const Finding *FindingsPanel::current() const
{
    const QTreeWidgetItem *item = list_->currentItem();
    if (!item || !findings_ || !(item->flags() & Qt::ItemIsEnabled)) return nullptr;
    const size_t i = item->data(0, Qt::UserRole).toULongLong();
    return i < findings_->size() ? &(*findings_)[i] : nullptr;
}

void FindingsPanel::selectionChanged()
{
    instance_ = 0;
    const Finding *f = current();
    if (!f) {
        detail_->setText(findings_ ? tr("Select a finding to see its pattern and cause.")
                                   : tr("Looking for findings…"));
        position_->clear();
        previous_->setEnabled(false);
        next_->setEnabled(false);
        return;
    }
    QString text =
        QStringLiteral("<b>CPU %1: %2</b>").arg(f->cpu).arg(QString::fromStdString(f->what).toHtmlEscaped());
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
    const Finding *f = current();
    if (!f || k >= f->at.size()) return;
    instance_ = k;
    previous_->setEnabled(k > 0);
    next_->setEnabled(k + 1 < f->at.size());
    position_->setText(tr("instance %1 of %2").arg(k + 1).arg(f->at.size()));
    emit goTo(f->cpu, f->at[k], true);
}

} // namespace tickscope
