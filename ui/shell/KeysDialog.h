// SPDX-License-Identifier: GPL-3.0-or-later
// Help -> Keyboard and Mouse: every menu action that has a shortcut, read from the menus themselves (so
// the list cannot drift from them), and the timeline's mouse gestures.
#pragma once

#include <QDialog>

class QMenuBar;
class QTextBrowser;

namespace tickscope {

class KeysDialog : public QDialog
{
    Q_OBJECT
public:
    KeysDialog(const QMenuBar *menus, QWidget *parent = nullptr);
    // The reference as HTML: one table of keys by menu, one of mouse gestures.
    static QString reference(const QMenuBar *menus);
    QTextBrowser *text() const { return text_; }

private:
    QTextBrowser *text_;
};

} // namespace tickscope
