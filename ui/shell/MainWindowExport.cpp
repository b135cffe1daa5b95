// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's pictures: File -> Export View (a dialog for size, scale and summary, then the file) and
// Edit -> Copy Image, drawn by ExportView like `tickscope-cli render`, with the command that renders the
// same view in the footer.
#include "MainWindow.h"

#include "PanelDocks.h"
#include "SummaryPanel.h"
#include "TimelinePlot.h"
#include "TimelineView.h"
#include "ViewState.h"

#include "analysis/CpuList.h"
#include "report/ReportMail.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QMessageBox>
#include <QSpinBox>
#include <QStatusBar>

#include <numeric>

namespace tickscope {

namespace {

QString secondsText(int64_t ns)
{
    return QString::number(static_cast<double>(ns) / 1e9, 'f', 6);
}

} // namespace

QStringList MainWindow::renderArgs(QSize size, bool summary) const
{
    QStringList a{runA_};
    const auto &c = state_->comparison();
    int64_t zero = timeline_->plot()->origin();
    if (c && c->valid()) {
        a << QStringLiteral("--compare") << compare_.runB();
        if (c->how != "marker" && c->how != "start") {
            // any other alignment as render's --align OFFSET: A's zero at its start, B's moved alike
            const int64_t off = (c->zeroB - c->b.trace->startTs()) - (c->zeroA - doc_.trace->startTs());
            a << QStringLiteral("--align") << secondsText(off);
            zero = doc_.trace->startTs();
        } else {
            a << QStringLiteral("--align") << QString::fromStdString(c->how);
        }
    }
    a << QStringLiteral("--window")
      << secondsText(state_->rangeStart() - zero) + QLatin1Char(':') + secondsText(state_->rangeEnd() - zero);
    std::vector<int> all(static_cast<size_t>(doc_.trace->cpuCount()));
    std::iota(all.begin(), all.end(), 0);
    if (state_->cpus() != all)
        a << QStringLiteral("--cpus") << QString::fromStdString(formatCpuList(state_->cpus()));
    a << QStringLiteral("--size") << QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
    if (summary) a << QStringLiteral("--summary");
    return a;
}

ExportOptions MainWindow::exportOptions(QSize size, double scale, bool summary) const
{
    ExportOptions o;
    o.size = size;
    o.scale = scale;
    o.functions = doc_.valid() && doc_.trace->functions.timed();
    const int64_t zero = timeline_->plot()->origin();
    const auto &c = state_->comparison();
    o.title = exportTitle(doc_, c && c->valid() ? c.get() : nullptr,
                          static_cast<double>(state_->rangeStart() - zero) / 1e9,
                          static_cast<double>(state_->rangeEnd() - zero) / 1e9);
    if (summary) {
        ReportOptions ro;
        ro.cpus = state_->cpus();
        ro.from = state_->rangeStart();
        ro.to = state_->rangeEnd();
        ro.windowSource = "window";
        const TickReport r = TickReport::make(*doc_.trace, *doc_.analysis, ro);
        const std::string tool = "tickscope " + QCoreApplication::applicationVersion().toStdString();
        for (const QString &line : QString::fromStdString(formatReportMail(r, false, tool))
                                       .split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            o.summary << line;
    }
    o.footer = renderFooter(renderArgs(size, summary), QCoreApplication::applicationVersion());
    return o;
}

QString MainWindow::exportTo(const QString &path, QSize size, double scale, bool summary)
{
    if (!doc_.valid()) return tr("Nothing is open");
    return exportView(timeline_->plot(), exportOptions(size, scale, summary), path);
}

void MainWindow::exportDialog()
{
    if (!doc_.valid()) return;
    QDialog d(this);
    d.setWindowTitle(tr("Export view"));
    auto *form = new QFormLayout(&d);
    auto *w = new QSpinBox(&d), *h = new QSpinBox(&d);
    w->setRange(320, 16384);
    h->setRange(240, 16384);
    w->setValue(1920);
    h->setValue(1080);
    auto *sizeRow = new QHBoxLayout;
    sizeRow->addWidget(w);
    sizeRow->addWidget(h);
    form->addRow(tr("Size (pixels)"), sizeRow);
    auto *scale = new QDoubleSpinBox(&d);
    scale->setRange(0.25, 8);
    scale->setValue(1);
    scale->setToolTip(tr("PNG: image pixels per pixel (2 for high-DPI screens)"));
    form->addRow(tr("Scale (PNG)"), scale);
    auto *summary = new QCheckBox(tr("The summary of the visible range below the lanes"), &d);
    form->addRow(summary);
    auto *box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &d);
    form->addRow(box);
    connect(box, &QDialogButtonBox::accepted, &d, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, &d, &QDialog::reject);
    if (d.exec() != QDialog::Accepted) return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export view"), QString(),
                                                      tr("PNG image (*.png);;SVG (*.svg);;PDF (*.pdf)"));
    if (path.isEmpty()) return;
    const QString error = exportTo(path, QSize(w->value(), h->value()), scale->value(), summary->isChecked());
    if (!error.isEmpty()) QMessageBox::critical(this, tr("Export failed"), error);
}

void MainWindow::copyImage()
{
    if (!doc_.valid()) return;
    const QSize size = timeline_->plot()->size() + QSize(0, 120); // room for the title, legend and footer
    QGuiApplication::clipboard()->setImage(exportImage(timeline_->plot(), exportOptions(size, 1, false)));
    statusBar()->showMessage(tr("Copied the view as an image (%1x%2)").arg(size.width()).arg(size.height()),
                             3000);
}

QString MainWindow::summaryMail() const
{
    const TickReport *r = panels_->summary()->report();
    if (!r) return {};
    const std::string tool = "tickscope " + QCoreApplication::applicationVersion().toStdString();
    return QString::fromStdString(formatReportMail(*r, false, tool));
}

void MainWindow::copySummary()
{
    const QString text = summaryMail();
    if (text.isEmpty()) {
        statusBar()->showMessage(tr("The summary is not ready yet"), 3000);
        return;
    }
    QGuiApplication::clipboard()->setText(text);
    statusBar()->showMessage(
        tr("Copied the summary of the visible range (%1 lines)").arg(text.count(QLatin1Char('\n'))), 3000);
}

} // namespace tickscope
