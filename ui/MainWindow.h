// The main window: open a trace (menu, command line, drag and drop, recent files), load it in the
// background with progress and cancel, and show what was loaded. The timeline comes with the GUI issue.
#pragma once

#include <QMainWindow>

#include <memory>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QMenu;

namespace tickscope {
class Trace;
class TraceLoader;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    void openFile(const QString &path);
    // Simulates a scenario (PRESET[:VARIANT] or FILE.json) and shows its trace; the first start opens
    // seed000-nohzfull-poll this way, so that a newcomer sees spurious ticks at once.
    void openScenario(const QString &scenario);
    // For tests: what the summary view shows, and whether a load is running.
    QString summaryText() const;
    bool loading() const;

signals:
    void traceShown(QString path);
    void loadFailed(QString message);

protected:
    void dragEnterEvent(QDragEnterEvent *e) override;
    void dropEvent(QDropEvent *e) override;
    void closeEvent(QCloseEvent *e) override;

private:
    void openDialog();
    void onLoaded(const QString &path, std::shared_ptr<std::vector<std::unique_ptr<Trace>>> traces, double secs);
    void onFailed(const QString &path, const QString &message);
    void setBusy(bool busy);
    void addRecent(const QString &path);
    void rebuildRecentMenu();

    TraceLoader *loader_;
    QPlainTextEdit *summary_;
    QProgressBar *progress_;
    QPushButton *cancel_;
    QLabel *status_;
    QMenu *recentMenu_;
    std::shared_ptr<std::vector<std::unique_ptr<Trace>>> traces_;
};

} // namespace tickscope
