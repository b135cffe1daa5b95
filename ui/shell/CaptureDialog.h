// SPDX-License-Identifier: GPL-3.0-or-later
// File -> Capture: records this machine (core/capture) with the chosen events, CPUs, buffer size,
// duration (or until Stop) and an optional command; while recording, a table of per-CPU counts (events,
// ticks, wakeups, pages with lost events before them) refreshes five times a second from the readers'
// counters, so the GUI thread only reads numbers. Stop (or the duration, or the command's exit) saves
// the trace.dat and hands its path over; the window then loads and analyses it like any file.
#pragma once

#include <QDialog>

#include <cstdint>
#include <memory>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProcess;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace tickscope {

class Capture;

class CaptureDialog : public QDialog
{
    Q_OBJECT
public:
    explicit CaptureDialog(QWidget *parent = nullptr);
    ~CaptureDialog() override;

    // The file the capture is saved to before it is opened (in the cache directory).
    QString outputPath() const { return out_; }
    bool recording() const;
    // For tests: start and stop as the buttons do.
    bool startCapture();
    void stopCapture();
    int liveRows() const;
    QString liveCell(int row, int column) const;

    // The live view: while recording, a snapshot of each CPU's newest pages is written in the background
    // and handed over (liveSnapshot) at most five times a second, the next only after liveDone() says the
    // window has shown (or failed to show) the previous one.
    void liveDone();
    static constexpr uint64_t kLiveBytesPerCpu = 2u << 20;

signals:
    void captured(QString path);
    void liveSnapshot(QString path);

protected:
    void closeEvent(QCloseEvent *e) override;

private:
    void refresh();
    void fail(const QString &message);

    QCheckBox *defaults_;
    QLineEdit *events_, *filters_, *cpus_, *command_;
    QSpinBox *bufferKb_;
    QDoubleSpinBox *duration_;
    QPushButton *start_, *stop_;
    QLabel *status_;
    QTableWidget *table_;
    QTimer *timer_;
    QProcess *process_ = nullptr;
    void requestSnapshot();
    std::shared_ptr<Capture> capture_; // shared with a snapshot job still running
    bool liveBusy_ = false;
    QString livePath_;
    qint64 startedMs_ = 0;
    QString out_;
};

} // namespace tickscope
