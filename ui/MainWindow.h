// The main window: open a trace (menu, command line, drag and drop, recent files), load and analyse it in
// the background with progress and cancel, and show it: the timeline in the centre, the trace's facts in
// the status bar (and the statistics text in a dock). Owns the one ViewState every view shares.
#pragma once

#include "Document.h"

#include <QMainWindow>

#include <memory>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QMenu;
class QDockWidget;
class QFrame;

namespace tickscope {
class Trace;
class TraceLoader;
class TimelineView;
class PanelDocks;
class ViewState;

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
    QString summaryText(); // the statistics dock's text (computed on first use)
    QString statusText() const;
    bool loading() const;
    double progressValue() const; // 0..1 of the progress bar
    const Document &document() const { return doc_; }
    ViewState *viewState() const { return state_; }
    TimelineView *timeline() const { return timeline_; }
    PanelDocks *panels() const { return panels_; }
    // Edit -> Copy Summary: the summary panel's report (the visible range) in the mail form of
    // `report --format mail`; empty while it is being computed.
    QString summaryMail() const;

signals:
    void traceShown(QString path);
    void loadFailed(QString message);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *e) override;
    void dropEvent(QDropEvent *e) override;
    void closeEvent(QCloseEvent *e) override;

private:
    void openDialog();
    void onLoaded(const QString &path, std::shared_ptr<std::vector<std::shared_ptr<const Trace>>> traces,
                  const Document &doc, double secs);
    void showMarkers();
    void onFailed(const QString &path, const QString &message);
    void setBusy(bool busy);
    void fillStats();
    void placeBusy();
    void addRecent(const QString &path);
    void rebuildRecentMenu();
    void copySummary();

    TraceLoader *loader_;
    ViewState *state_;
    TimelineView *timeline_;
    PanelDocks *panels_;
    QDockWidget *factsDock_;
    QPlainTextEdit *summary_;
    bool statsStale_ = false;
    double loadSeconds_ = 0;
    QLabel *markers_;
    QFrame *busy_;
    QProgressBar *progress_;
    QPushButton *cancel_;
    QLabel *status_;
    QMenu *recentMenu_;
    std::shared_ptr<std::vector<std::shared_ptr<const Trace>>> traces_;
    Document doc_;
};

} // namespace tickscope
