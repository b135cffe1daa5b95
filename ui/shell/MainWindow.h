// SPDX-License-Identifier: GPL-3.0-or-later
// The main window: open a trace (menu, command line, drag and drop, recent files), load and analyse it in
// the background with progress and cancel, and show it: the timeline in the centre, the trace's facts in
// the status bar (and the statistics text in a dock). Owns the one ViewState every view shares.
#pragma once

#include "CompareSession.h"
#include "ExportView.h"
#include "TraceLoader.h"
#include "ViewState.h"
#include "session/Document.h"

#include "session/RunAlignment.h"

#include <QMainWindow>
#include <QPointer>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QMenu;
class QAction;

class QMessageBox;

namespace tickscope {
class CaptureDialog;
class DemoBanner;
class EvidenceDialog;
class KeysDialog;
} // namespace tickscope
class QDockWidget;
class QFrame;

namespace tickscope {
class Trace;
class TraceLoader;
class FunctionsPanel;
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
    // The compare view (A = the document, before; B = after). A run is a trace file or a scenario
    // (PRESET[:VARIANT][,KEY=VALUE...] or FILE.json). compareWith loads B against the open document;
    // openComparison loads both at once, each in the background with its own progress and cancel. A bad
    // B gets the error dialog and leaves A open.
    void compareWith(const QString &run);
    void openComparison(const QString &a, const QString &b);
    // The same for simulations the simulator panel made (edited scenarios, their own seeds).
    void openSimulation(const Simulation &s);
    void compareWithSimulation(const Simulation &b);
    void openSimulationComparison(const Simulation &a, const Simulation &b);
    // Realigns the shown comparison: by start, marker or an offset (nullopt: by marker when both runs
    // have one, else start); false, with the reason in the status bar, when it cannot.
    bool setAlignment(std::optional<Alignment> align);
    bool alignOnSelections(); // each run's time zero at the event last selected in it
    void setCpuMap(std::vector<int> map);
    void setOnlyDifferingCpus(bool on);
    void closeComparison();
    bool loadingB() const;
    // File -> Export View and Edit -> Copy Image: the picture `tickscope-cli render` draws for the same
    // view (its arguments, output aside, are renderArgs()).
    ExportOptions exportOptions(QSize size, double scale, bool summary) const;
    QStringList renderArgs(QSize size, bool summary) const;
    QString exportTo(const QString &path, QSize size, double scale, bool summary);
    // Simulates a scenario (PRESET[:VARIANT] or FILE.json) and shows its trace; the first start opens
    // seed000-nohzfull-poll this way, so that a newcomer sees spurious ticks at once.
    void openScenario(const QString &scenario);
    // The first start: the simulated demo comparison (seed000-nohzfull-poll before and after p1p2)
    // under a banner that says so and offers Open, Capture, What If and the recent files; the banner
    // goes once anything else is opened.
    void showDemo();
    DemoBanner *demoBanner() const { return demoBanner_; }
    // For tests: what the summary view shows, and whether a load is running.
    QString summaryText(); // the statistics dock's text (computed on first use)
    QString statusText() const;
    bool loading() const;
    double progressValue() const; // 0..1 of the progress bar
    const Document &document() const { return doc_; }
    ViewState *viewState() const { return state_; }
    TimelineView *timeline() const { return timeline_; }
    FunctionsPanel *callsView() const { return callsView_; } // in the timeline's place for callsOnly()
    PanelDocks *panels() const { return panels_; }
    // Edit -> Copy Summary: the summary panel's report (the visible range) in the mail form of
    // `report --format mail`; empty while it is being computed.
    QString summaryMail() const;
    // File -> Save As Trace.dat: a document loaded from a trace.dat is copied as it is (a capture's pages as
    // the kernel wrote them); a simulation or text trace is written by core/write. "" or the error.
    QString saveTraceDat(const QString &path);
    // File -> Save As after its dialog: the same, on a background thread (a live snapshot at once);
    // emits saved() when done and says a failure in a dialog. One save at a time: another is refused.
    void saveAs(const QString &path);
    // File -> Capture: the (non-modal) capture dialog, connected to this window's live view.
    CaptureDialog *captureDialog();
    // View -> What This Trace Can Tell (nullptr without a document): non-modal, deleted on close.
    EvidenceDialog *evidenceDialog();
    KeysDialog *keysDialog(); // Help -> Keyboard and Mouse
    // A capture's live snapshot (CaptureDialog): loaded and shown like a file, without a progress bar, a
    // recent-files entry or a warnings dialog; the status line says it is live.
    void showLive(const QString &snapshot);
    bool showingLive() const { return live_; }
    // --screenshot and benchmarks: a trace's load warnings go to stderr, one line each, instead of a
    // dialog that would wait for a click.
    void setNonInteractive(bool on) { nonInteractive_ = on; }

signals:
    void traceShown(QString path);
    void comparisonShown(); // both runs of a comparison are on screen
    void loadFailed(QString message);
    void backgroundFailed(QString what);     // a view's background computation threw (BackgroundJob.h)
    void saved(QString path, QString error); // saveAs() finished; error empty when it worked

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *e) override;
    void dropEvent(QDropEvent *e) override;
    void closeEvent(QCloseEvent *e) override;

private:
    // the constructor's steps
    void buildCentral();
    void buildMenus(); // MainWindowMenus.cpp
    void connectLoaders();
    void restoreWindow();
    void openDialog();
    void compareDialog();
    void compareScenarioDialog();
    void open(const QString &run); // a trace file, or a scenario to simulate
    void onLoadedB(const QString &run, const Document &doc);
    void exportDialog();
    void saveAsDialog();
    void copyImage();
    void showComparison(const Document &b);
    void updateBusy();
    void dropB();                                                        // forget B: cancel its load, drop it
    void startB(const QString &name, const std::function<void()> &load); // B's progress row, then load
    void onLoaded(const QString &path, std::shared_ptr<std::vector<std::shared_ptr<const Trace>>> traces,
                  const Document &doc, double secs);
    void showMarkers();
    void onFailed(const QString &path, const QString &message);
    void onBackgroundFailure(const QString &what);
    void onTooBig(const QString &path, const QString &message, double spanSeconds);
    void showFacts(); // the status bar's facts of what is shown (both runs in the compare view)
    void setBusy(bool busy);
    void fillStats();
    void placeBusy();
    void addRecent(const QString &path);
    void rebuildRecentMenu();
    void copySummary();

    TraceLoader *loader_;
    CompareSession compare_; // run B and what was asked of the comparison
    bool busyA_ = false;
    QWidget *rowA_ = nullptr, *rowB_ = nullptr;
    QProgressBar *progressB_ = nullptr;
    QPushButton *cancelB_ = nullptr;
    QLabel *labelA_ = nullptr, *labelB_ = nullptr;
    ViewState *state_;
    TimelineView *timeline_ = nullptr;
    PanelDocks *panels_ = nullptr;
    QDockWidget *factsDock_ = nullptr;
    QPlainTextEdit *summary_ = nullptr;
    bool statsStale_ = false;
    double loadSeconds_ = 0;
    QLabel *markers_ = nullptr;
    QFrame *busy_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QPushButton *cancel_ = nullptr;
    QLabel *status_ = nullptr;
    QString statusA_;     // the status text of the document alone
    QString runA_;        // the run as opened: a path or a scenario
    QMenu *recentMenu_ = nullptr;
    QAction *saveAs_ = nullptr;
    bool live_ = false; // the document is a capture's live snapshot
    int liveViews_ = 0; // live snapshots shown in a row
    std::shared_ptr<std::vector<std::shared_ptr<const Trace>>> traces_;
    Document doc_;
    bool nonInteractive_ = false;
    QPointer<QMessageBox> failureBox_; // the background-failure dialog while it is open
    bool saving_ = false;              // a Save As job is running
    FunctionsPanel *callsView_ = nullptr;
    DemoBanner *demoBanner_ = nullptr;
};

} // namespace tickscope
