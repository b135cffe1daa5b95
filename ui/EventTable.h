// The event table panel: a filter bar (CPU, task, event name), a text search with next / previous, and
// a QTableView over EventTableModel. Synced both ways through the ViewState: picking a row selects its
// event; a selection made elsewhere (a timeline click) selects and scrolls to its row. With "follow"
// on, the table scrolls to the start of the visible range.
#pragma once

#include "Document.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;
class QToolButton;

namespace tickscope {

class EventTableModel;
class ViewState;

class EventTable : public QWidget
{
    Q_OBJECT
public:
    EventTable(ViewState *state, QWidget *parent = nullptr);

    void setDocument(const Document &doc);

    // For tests and the lead: the parts a person uses.
    EventTableModel *model() const { return model_; }
    QTableView *view() const { return view_; }
    QComboBox *cpuFilter() const { return cpu_; }
    QLineEdit *taskFilter() const { return task_; }
    QComboBox *eventFilter() const { return event_; }
    QLineEdit *searchEdit() const { return search_; }
    QToolButton *nextButton() const { return next_; }
    QToolButton *previousButton() const { return previous_; }
    QCheckBox *followRange() const { return follow_; }
    QString statusText() const;

signals:
    void searchFinished(bool found);

private:
    void applyFilter();
    void search(bool forward);
    void onCurrentRowChanged(int row);
    void showSelection();
    void onRowsReady();
    void updateStatus();

    ViewState *state_;
    EventTableModel *model_;
    QTableView *view_;
    QComboBox *cpu_;
    QLineEdit *task_;
    QComboBox *event_;
    QLineEdit *search_;
    QToolButton *previous_, *next_;
    QCheckBox *follow_;
    QLabel *status_;
    QTimer *filterDelay_;
    QString busy_, searchNote_;
    bool syncing_ = false;
};

} // namespace tickscope
