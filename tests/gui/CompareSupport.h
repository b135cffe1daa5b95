// SPDX-License-Identifier: GPL-3.0-or-later
// What the compare view tests share: the fixtures' paths and opening a comparison.
#pragma once

#include "DifferencePanel.h"
#include "MainWindow.h"
#include "PanelDocks.h"

#include <QSignalSpy>

namespace tickscope::test {

inline QString data(const char *name)
{
    return QStringLiteral(TICKSCOPE_TEST_DATA "/") + QLatin1String(name);
}

// Opens A and B and waits for both to be on screen and for the difference panel's first result.
inline bool compare(MainWindow &w, const QString &a, const QString &b)
{
    QSignalSpy shown(&w, &MainWindow::comparisonShown);
    QSignalSpy diff(w.panels()->difference(), &DifferencePanel::updated);
    w.openComparison(a, b);
    return shown.wait(60000) && (diff.count() > 0 || diff.wait(30000));
}

} // namespace tickscope::test
