// File -> Capture: records this machine (core/capture) with the chosen events, CPUs, buffer size,
// duration (or until Stop) and an optional command; while recording, a table of per-CPU counts (events,
// ticks, wakeups, pages with lost events before them) refreshes four times a second from the readers'
// counters, so the GUI thread only reads numbers. Stop (or the duration, or the command's exit) saves
// the trace.dat and hands its path over; the window then loads and analyses it like any file.
#pragma once

#include <QDialog>

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

signals:
    void captured(QString path);

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
    std::unique_ptr<Capture> capture_;
    qint64 startedMs_ = 0;
    QString out_;
};

} // namespace tickscope
