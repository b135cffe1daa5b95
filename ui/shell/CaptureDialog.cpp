// SPDX-License-Identifier: GPL-3.0-or-later
#include "CaptureDialog.h"

#include "BackgroundJob.h"
#include "analysis/CpuList.h"
#include "capture/Capture.h"
#include "capture/Tracefs.h"
#include "import/Loader.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <cstdio>

namespace tickscope {

CaptureDialog::CaptureDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Capture this machine"));
    auto *top = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    top->addLayout(form);
    defaults_ = new QCheckBox(tr("The tick analysis's events (those this kernel has)"), this);
    defaults_->setChecked(true);
    form->addRow(tr("Events"), defaults_);
    events_ = new QLineEdit(this);
    events_->setPlaceholderText(tr("system/event or system, comma-separated"));
    events_->setEnabled(false);
    connect(defaults_, &QCheckBox::toggled, events_, [this](bool on) { events_->setEnabled(!on); });
    form->addRow(tr("Chosen events"), events_);
    filters_ = new QLineEdit(this);
    filters_->setPlaceholderText(tr("sched/sched_switch:prev_pid != 0, ... (the kernel's filter syntax)"));
    form->addRow(tr("Filters"), filters_);
    cpus_ = new QLineEdit(this);
    cpus_->setPlaceholderText(tr("all online CPUs, or a list such as 0-3,8"));
    form->addRow(tr("CPUs"), cpus_);
    bufferKb_ = new QSpinBox(this);
    bufferKb_->setRange(64, 4 << 20);
    bufferKb_->setValue(8192);
    bufferKb_->setSuffix(tr(" KiB per CPU"));
    form->addRow(tr("Buffer"), bufferKb_);
    duration_ = new QDoubleSpinBox(this);
    duration_->setRange(0, 86400);
    duration_->setDecimals(1);
    duration_->setValue(10);
    duration_->setSuffix(tr(" s"));
    duration_->setSpecialValueText(tr("until Stop"));
    form->addRow(tr("Duration"), duration_);
    command_ = new QLineEdit(this);
    command_->setPlaceholderText(tr("optional: started after the recording; it ends when the command exits"));
    form->addRow(tr("Command"), command_);

    table_ = new QTableWidget(0, 6, this);
    table_->setHorizontalHeaderLabels(
        {tr("CPU"), tr("Events"), tr("Ticks"), tr("Timer IRQs"), tr("Wakeups"), tr("Lost pages")});
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setToolTip(
        tr("Ticks: expiries of the tick's hrtimer (tick_nohz_handler or tick_sched_timer). Timer IRQs: "
           "local_timer_entry, every local timer interrupt. Spurious ticks need the analysis: the report "
           "shows them once the capture is stopped. Lost pages: pages the kernel marked as following "
           "overwritten events"));
    top->addWidget(table_);
    status_ = new QLabel(tr("Needs root and a mounted tracefs; records into a private instance and changes "
                            "nothing else in tracefs."),
                         this);
    status_->setWordWrap(true);
    top->addWidget(status_);
    auto *buttons = new QHBoxLayout;
    start_ = new QPushButton(tr("&Start"), this);
    stop_ = new QPushButton(tr("S&top"), this);
    stop_->setEnabled(false);
    auto *close = new QPushButton(tr("&Close"), this);
    buttons->addStretch();
    buttons->addWidget(start_);
    buttons->addWidget(stop_);
    buttons->addWidget(close);
    top->addLayout(buttons);
    connect(start_, &QPushButton::clicked, this, &CaptureDialog::startCapture);
    connect(stop_, &QPushButton::clicked, this, &CaptureDialog::stopCapture);
    connect(close, &QPushButton::clicked, this, &QDialog::close);
    timer_ = new QTimer(this);
    timer_->setInterval(200); // five refreshes a second: four or more also when a live view takes longer
    connect(timer_, &QTimer::timeout, this, &CaptureDialog::refresh);
    resize(620, 520);
}

CaptureDialog::~CaptureDialog()
{
    if (process_) {
        process_->disconnect(this);
        process_->kill();
        process_->waitForFinished(2000);
    }
    capture_.reset(); // stops the readers and removes the instance (once a running snapshot is done)
    if (!livePath_.isEmpty()) QFile::remove(livePath_);
}

bool CaptureDialog::recording() const
{
    return capture_ && capture_->running();
}

void CaptureDialog::fail(const QString &message)
{
    status_->setText(message);
    if (isVisible()) QMessageBox::critical(this, tr("Capture"), message);
}

bool CaptureDialog::startCapture()
{
    if (recording()) return false;
    CaptureOptions o;
    if (!defaults_->isChecked()) {
        o.events = splitCommaList(events_->text().toStdString());
        if (o.events.empty()) {
            fail(tr("Name the events to record, or record the tick analysis's events."));
            return false;
        }
    }
    o.filters = splitCommaList(filters_->text().toStdString());
    if (!cpus_->text().trimmed().isEmpty()) {
        const auto list = parseCpuList(cpus_->text().trimmed().toStdString());
        if (!list) {
            fail(tr("CPUs: expected a list such as 0-3,8, got '%1'").arg(cpus_->text()));
            return false;
        }
        o.cpus = *list;
    }
    o.bufferKb = bufferKb_->value();
    try {
        capture_ = std::make_shared<Capture>(o);
        capture_->start();
    } catch (const std::exception &e) {
        capture_.reset();
        fail(QString::fromStdString(e.what()));
        return false;
    }
    QStringList missing, costs;
    for (const auto &m : capture_->missing()) {
        const QString cost = QString::fromStdString(m.cost);
        if (costs.contains(cost)) continue; // user_enter and user_exit cost the same
        costs << cost;
        missing << QString::fromStdString(m.event) + QStringLiteral(" (") + cost + QLatin1Char(')');
    }
    table_->setRowCount(static_cast<int>(capture_->cpus().size()));
    for (int r = 0; r < table_->rowCount(); ++r) {
        table_->setItem(r, 0,
                        new QTableWidgetItem(QString::number(capture_->cpus()[static_cast<size_t>(r)])));
        for (int c = 1; c < table_->columnCount(); ++c) {
            auto *item = new QTableWidgetItem(QStringLiteral("0"));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(r, c, item);
        }
    }
    status_->setText(
        tr("Recording %1 events on %2 CPUs into %3.%4")
            .arg(capture_->enabled().size())
            .arg(capture_->cpus().size())
            .arg(QString::fromStdString(capture_->instanceName()))
            .arg(missing.isEmpty() ? QString() : tr("\nThis kernel lacks ") + missing.join(tr("; "))));
    startedMs_ = QDateTime::currentMSecsSinceEpoch();
    if (!command_->text().trimmed().isEmpty()) {
        process_ = new QProcess(this);
        QStringList args = QProcess::splitCommand(command_->text());
        const QString program = args.takeFirst();
        connect(process_, &QProcess::finished, this, &CaptureDialog::stopCapture);
        connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart) {
                stopCapture();
                fail(tr("The command could not be started: %1")
                         .arg(process_ ? process_->errorString() : QString()));
            }
        });
        process_->start(program, args);
    }
    start_->setEnabled(false);
    stop_->setEnabled(true);
    timer_->start();
    return true;
}

void CaptureDialog::requestSnapshot()
{
    if (liveBusy_ || !recording()) return;
    liveBusy_ = true;
    if (livePath_.isEmpty())
        livePath_ = QDir::temp().filePath(
            QStringLiteral("tickscope-live-%1.dat").arg(QCoreApplication::applicationPid()));
    runInBackground(
        this,
        [cap = capture_, path = livePath_.toStdString()]() -> QString {
            QString error;
            try {
                cap->snapshot(path, kLiveBytesPerCpu);
            } catch (const std::exception &e) {
                error = QString::fromStdString(e.what());
            }
            if (cap.use_count() == 1) { // the dialog is gone: nobody will show or remove the snapshot
                std::remove(path.c_str());
                return QStringLiteral("closed");
            }
            return error;
        },
        [this](const QString &error) {
            if (!error.isEmpty() || !recording()) {
                liveBusy_ = false;
                return;
            }
            emit liveSnapshot(livePath_);
        });
}

void CaptureDialog::liveDone()
{
    liveBusy_ = false;
}

void CaptureDialog::refresh()
{
    if (!capture_) return;
    requestSnapshot();
    for (int r = 0; r < table_->rowCount(); ++r) {
        const CpuLive &l = capture_->live(static_cast<size_t>(r));
        table_->item(r, 1)->setText(QString::number(l.events.load(std::memory_order_relaxed)));
        table_->item(r, 2)->setText(QString::number(l.ticks.load(std::memory_order_relaxed)));
        table_->item(r, 3)->setText(QString::number(l.timerIrqs.load(std::memory_order_relaxed)));
        table_->item(r, 4)->setText(QString::number(l.wakeups.load(std::memory_order_relaxed)));
        table_->item(r, 5)->setText(QString::number(l.lostPages.load(std::memory_order_relaxed)));
    }
    const double secs = (QDateTime::currentMSecsSinceEpoch() - startedMs_) / 1000.0;
    if (recording() && duration_->value() > 0 && secs >= duration_->value()) stopCapture();
}

void CaptureDialog::stopCapture()
{
    if (!recording()) return;
    timer_->stop();
    capture_->stop();
    refresh();
    if (process_ && process_->state() != QProcess::NotRunning) {
        process_->disconnect(this);
        process_->terminate();
        if (!process_->waitForFinished(2000)) process_->kill();
    }
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    QDir().mkpath(dir);
    out_ = dir + QStringLiteral("/capture-%1.dat")
                     .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    status_->setText(tr("Saving %1…").arg(out_));
    try {
        capture_->save(out_.toStdString());
    } catch (const std::exception &e) {
        capture_.reset();
        start_->setEnabled(true);
        stop_->setEnabled(false);
        fail(QString::fromStdString(e.what()));
        return;
    }
    capture_.reset();
    start_->setEnabled(true);
    stop_->setEnabled(false);
    status_->setText(
        tr("Saved %1; it opens in the main window (File → Save As Trace.dat keeps a copy).").arg(out_));
    emit captured(out_);
}

void CaptureDialog::closeEvent(QCloseEvent *e)
{
    stopCapture(); // a running capture is saved and opened, not lost
    QDialog::closeEvent(e);
}

int CaptureDialog::liveRows() const
{
    return table_->rowCount();
}

QString CaptureDialog::liveCell(int row, int column) const
{
    const auto *item = table_->item(row, column);
    return item ? item->text() : QString();
}

} // namespace tickscope
