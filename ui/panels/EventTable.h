// SPDX-License-Identifier: GPL-3.0-or-later
// The event table panel: a filter bar (CPU, task, event name), a text search with next / previous, and
// a QTableView over EventTableModel. Synced both ways through the ViewState: picking a row selects its
// event; a selection made elsewhere (a timeline click) selects and scrolls to its row. With "follow"
// on, the table scrolls to the start of the visible range.
//
// In the compare view a run box chooses whose events are listed, A's (the document) or B's; selecting an
// event of the other run in the timeline switches to it. Each run has a model of its own, B's made when
// first shown, so that switching back and forth does not order the events again.
//
// The view holds only the rows that fit on screen (EventRowWindow, a window onto the model's rows) and
// a scroll bar of its own spans the whole table: a QTableView over millions of rows would keep a
// QHeaderView section per row (12+ bytes each, built on the GUI thread at every reset). Rows below are
// the model's (absolute) rows; the wheel, the scroll bar and the keys move the window.
#pragma once

#include "ViewState.h"
#include "session/Document.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QScrollBar;
class QTableView;
class QTimer;
class QToolButton;

namespace tickscope {

class EventTableModel;
class EventRowWindow;
class ViewState;

class EventTable : public QWidget
{
    Q_OBJECT
public:
    EventTable(ViewState *state, QWidget *parent = nullptr);

    void setDocument(const Document &doc);

    // For tests and the lead: the parts a person uses. model(): the run shown.
    EventTableModel *model() const { return model_; }
    QComboBox *runBox() const { return runBox_; }
    int run() const { return run_; } // 0: A (the document), 1: B (the compared run)
    void showRun(int run);
    QTableView *view() const { return view_; }
    QComboBox *cpuFilter() const { return cpu_; }
    QLineEdit *taskFilter() const { return task_; }
    QComboBox *eventFilter() const { return event_; }
    QLineEdit *searchEdit() const { return search_; }
    QToolButton *nextButton() const { return next_; }
    QToolButton *previousButton() const { return previous_; }
    QCheckBox *followRange() const { return follow_; }
    QScrollBar *scrollBar() const { return scroll_; }
    QString statusText() const;

    // In the model's rows: the current row (-1: none), the first row on screen, the rows on screen,
    // whether a row is selected, and where a cell is drawn in the view's viewport (empty when off screen).
    int currentRow() const { return current_; }
    int topRow() const;
    int visibleRows() const;
    bool isRowSelected(int row) const;
    QRect cellRect(int row, int column) const;
    enum class Place
    {
        Visible, // scroll as little as needed
        Top,
        Center
    };
    // Makes `row` current and selected (without telling the ViewState), scrolled into view.
    void selectRow(int row, Place place = Place::Visible);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

signals:
    void searchFinished(bool found);

private:
    void connectModel(EventTableModel *m);
    void fillFilters(const Trace *trace);
    void onComparisonChanged();
    QString filterKey() const;
    void applyFilter();
    void search(bool forward);
    void onCurrentRowChanged(int row);
    void showSelection();
    void onRowsReady();
    void updateStatus();
    void scrollToRow(int row, Place place);
    void fitWindow();         // the window's size follows the viewport's height
    void showCurrentInView(); // the view's current / selected row follows current_ and the window
    // A key, a click or a search: the current row, the window and the ViewState selection.
    void moveCurrent(int row, Place place = Place::Visible);

    ViewState *state_;
    EventTableModel *models_[2];
    EventTableModel *model_; // models_[run_]
    EventRowWindow *window_;
    QTableView *view_;
    QScrollBar *scroll_;
    QComboBox *cpu_;
    QLineEdit *task_;
    QComboBox *event_;
    QLineEdit *search_;
    QToolButton *previous_, *next_;
    QCheckBox *follow_;
    QComboBox *runBox_;
    QLabel *status_;
    QTimer *filterDelay_;
    QString busy_[2], searchNote_;
    bool syncing_ = false;
    bool windowSync_ = false; // the view's current row is being set from current_
    int current_ = -1;        // the current row of the model
    int run_ = 0;
    EventRef lastSelection_; // the ViewState selection last seen
    QString applied_[2];     // the filter each model was last given (CPU, task, event)
};

} // namespace tickscope
