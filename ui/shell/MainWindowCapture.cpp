// SPDX-License-Identifier: GPL-3.0-or-later
// The MainWindow's capture and trace.dat side: File -> Capture and its live view, File -> Save As Trace.dat,
// and the window of time offered when a file is too big for memory.
#include "MainWindow.h"

#include "DemoBanner.h"

#include "BackgroundJob.h"

#include "CaptureDialog.h"
#include "TraceLoader.h"

#include "write/TraceDatWriter.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QStatusBar>

#include <algorithm>

namespace tickscope {

CaptureDialog *MainWindow::captureDialog()
{
    auto *d = new CaptureDialog(this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    connect(d, &CaptureDialog::captured, this, [this](const QString &path) { openFile(path); });
    connect(d, &CaptureDialog::liveSnapshot, this, &MainWindow::showLive);
    // the next snapshot once this one is on screen (or could not be)
    connect(this, &MainWindow::traceShown, d, &CaptureDialog::liveDone);
    connect(this, &MainWindow::loadFailed, d, &CaptureDialog::liveDone);
    d->show();
    return d;
}

void MainWindow::showLive(const QString &snapshot)
{
    if (loader_->busy() && !live_) return; // the user's own load comes first
    demoBanner_->hide();
    dropB();
    live_ = true;
    loader_->load(snapshot);
}

namespace {

// The trace as trace.dat at `path`: a copy of the file it was read from when it is one, else written by
// the trace.dat writer; "" when done, else what went wrong. Runs on any thread (it only reads the trace).
QString saveTrace(const Trace &t, const QString &path)
{
    const TraceMeta &m = t.meta;
    if (m.fileVersion > 0 && QFileInfo(QString::fromStdString(m.path)).isFile()) {
        // the file itself, through a temporary name: nothing under the final name unless complete
        const QString temp = path + QStringLiteral(".part");
        QFile::remove(temp);
        if (!QFile::copy(QString::fromStdString(m.path), temp)) {
            QFile::remove(temp);
            return MainWindow::tr("%1: cannot write (disk full or no permission)").arg(path);
        }
        QFile::remove(path);
        if (!QFile::rename(temp, path)) {
            QFile::remove(temp);
            return MainWindow::tr("%1: cannot rename into place").arg(path);
        }
        return {};
    }
    try {
        writeTraceDat(t, path.toStdString());
    } catch (const std::exception &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

QString MainWindow::saveTraceDat(const QString &path)
{
    if (!doc_.valid()) return tr("Nothing is open.");
    return saveTrace(*doc_.trace, path);
}

void MainWindow::saveAs(const QString &path)
{
    const auto finish = [this, path](const QString &error) {
        if (error.isEmpty()) {
            statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
        } else {
            statusBar()->clearMessage();
            if (!nonInteractive_) QMessageBox::critical(this, tr("Save as trace.dat"), error);
        }
        emit saved(path, error);
    };
    if (!doc_.valid()) return finish(tr("Nothing is open."));
    if (saving_) return finish(tr("%1: another save is still running").arg(path));
    // A live snapshot's file is replaced several times a second: the one on screen is copied now (it is
    // small). Anything else off the GUI thread: a copy of a multi-GB file or the writing of a big
    // simulation takes seconds; the job holds the trace, and the file it was read from stays.
    if (live_) return finish(saveTraceDat(path));
    saving_ = true;
    saveAs_->setEnabled(false);
    statusBar()->showMessage(tr("Saving %1…").arg(path));
    runInBackground(
        this, [trace = doc_.trace, path] { return saveTrace(*trace, path); },
        [this, finish](const QString &error) {
            saving_ = false;
            saveAs_->setEnabled(doc_.valid());
            finish(error);
        });
}

void MainWindow::saveAsDialog()
{
    if (!doc_.valid()) return;
    QString path =
        QFileDialog::getSaveFileName(this, tr("Save as trace.dat"), QString(), tr("trace.dat (*.dat)"));
    if (path.isEmpty()) return;
    if (!path.endsWith(QStringLiteral(".dat"))) path += QStringLiteral(".dat");
    saveAs(path);
}

void MainWindow::onTooBig(const QString &path, const QString &message, double spanSeconds)
{
    if (nonInteractive_ || live_) {
        onFailed(path, message);
        return;
    }
    setBusy(false);
    showFacts();
    // Offer the window that fits (the message names it), as --load-window does on the command line.
    QDialog d(this);
    d.setWindowTitle(tr("Trace too big for memory"));
    auto *form = new QFormLayout(&d);
    auto *text = new QLabel(message, &d);
    text->setWordWrap(true);
    form->addRow(text);
    auto *from = new QDoubleSpinBox(&d), *to = new QDoubleSpinBox(&d);
    for (QDoubleSpinBox *b : {from, to}) {
        b->setRange(0, std::max(0.001, spanSeconds));
        b->setDecimals(3);
        b->setSuffix(tr(" s"));
    }
    const QRegularExpression fits(QStringLiteral("about ([0-9.]+) s fit"));
    const auto m = fits.match(message);
    to->setValue(m.hasMatch() ? m.captured(1).toDouble() : spanSeconds / 10);
    form->addRow(tr("Load from"), from);
    form->addRow(tr("to"), to);
    auto *box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &d);
    box->button(QDialogButtonBox::Ok)->setText(tr("Load This Window"));
    form->addRow(box);
    connect(box, &QDialogButtonBox::accepted, &d, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, &d, &QDialog::reject);
    emit loadFailed(message);
    if (d.exec() != QDialog::Accepted || to->value() <= from->value()) return;
    live_ = false;
    setBusy(true);
    progress_->setValue(0);
    status_->setText(tr("Loading %1 s to %2 s of %3…")
                         .arg(from->value(), 0, 'f', 3)
                         .arg(to->value(), 0, 'f', 3)
                         .arg(QFileInfo(path).fileName()));
    loader_->load(path, std::make_pair(from->value(), to->value()));
}

} // namespace tickscope
