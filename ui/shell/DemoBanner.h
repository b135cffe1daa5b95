// SPDX-License-Identifier: GPL-3.0-or-later
// The first start's banner over the timeline: says the compare view below is a simulated demo, not the
// user's machine, and offers the ways to one's own trace (Open, Capture, the recent files) and the
// what-if panel. The main window hides it once anything else is opened.
#pragma once

#include <QFrame>
#include <QStringList>

class QLabel;
class QHBoxLayout;

namespace tickscope {

class DemoBanner : public QFrame
{
    Q_OBJECT
public:
    explicit DemoBanner(QWidget *parent = nullptr);
    // The recent files offered (the newest first; at most five are shown, by file name, the path in a
    // tooltip); none: the row says so.
    void setRecentFiles(const QStringList &paths);
    QString text() const; // what it says, for tests

signals:
    void openRequested();
    void captureRequested();
    void whatIfRequested();
    void recentRequested(QString path);

private:
    QLabel *what_;
    QWidget *recentRow_;
    QHBoxLayout *recentLayout_;
};

} // namespace tickscope
