// SPDX-License-Identifier: GPL-3.0-or-later
#include "DemoBanner.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace tickscope {

namespace {
constexpr int kShownRecent = 5;
}

DemoBanner::DemoBanner(QWidget *parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("demoBanner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, QColor(0xfff4d6)); // a note, not a warning
    setPalette(p);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(8, 6, 8, 6);
    outer->setSpacing(4);

    auto *top = new QHBoxLayout;
    what_ = new QLabel(
        tr("<b>Demo:</b> a simulated 4-CPU nohz_full machine (scenario <tt>seed000-nohzfull-poll</tt>), "
           "nohz_full CPUs 2-3, idle=poll: <b>A</b> as the kernel is, <b>B</b> with the two patches "
           "(variant <tt>p1p2</tt>) that stop the spurious ticks on its polling CPUs. Nothing here comes "
           "from your machine."),
        this);
    what_->setWordWrap(true);
    top->addWidget(what_, 1);
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Hide this note (the demo stays open)"));
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    top->addWidget(close, 0, Qt::AlignTop);
    outer->addLayout(top);

    auto *actions = new QHBoxLayout;
    auto button = [&](const QString &text, const QString &tip, void (DemoBanner::*signal)()) {
        auto *b = new QPushButton(text, this);
        b->setToolTip(tip);
        connect(b, &QPushButton::clicked, this, signal);
        actions->addWidget(b);
    };
    button(tr("Open a Trace…"), tr("A trace.dat (trace-cmd record) or ftrace text; File → Open, Ctrl+O"),
           &DemoBanner::openRequested);
    button(tr("Capture…"), tr("Record this machine into a trace.dat (File → Capture)"),
           &DemoBanner::captureRequested);
    button(tr("Try What If"),
           tr("Change the simulated machine (HZ, idle, nohz_full, the patches) and compare (View → What If)"),
           &DemoBanner::whatIfRequested);
    actions->addStretch(1);
    outer->addLayout(actions);

    recentRow_ = new QWidget(this);
    recentLayout_ = new QHBoxLayout(recentRow_);
    recentLayout_->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(recentRow_);
    setRecentFiles({});
}

void DemoBanner::setRecentFiles(const QStringList &paths)
{
    while (QLayoutItem *item = recentLayout_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    auto *label = new QLabel(paths.isEmpty() ? tr("No recent files yet.") : tr("Recent:"), recentRow_);
    recentLayout_->addWidget(label);
    for (qsizetype i = 0; i < std::min<qsizetype>(paths.size(), kShownRecent); ++i) {
        const QString &path = paths[i]; // (the lambda below keeps a copy)
        auto *b = new QToolButton(recentRow_);
        b->setText(QFileInfo(path).fileName());
        b->setToolTip(path);
        b->setObjectName(QStringLiteral("recent%1").arg(i));
        connect(b, &QToolButton::clicked, this, [this, path] { emit recentRequested(path); });
        recentLayout_->addWidget(b);
    }
    recentLayout_->addStretch(1);
}

QString DemoBanner::text() const
{
    QString t = what_->text();
    for (const QWidget *w : findChildren<QWidget *>()) {
        if (const auto *b = qobject_cast<const QAbstractButton *>(w)) t += QLatin1Char('\n') + b->text();
        if (const auto *l = qobject_cast<const QLabel *>(w); l && l != what_)
            t += QLatin1Char('\n') + l->text();
    }
    return t;
}

} // namespace tickscope
