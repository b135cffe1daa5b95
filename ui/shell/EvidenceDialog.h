// SPDX-License-Identifier: GPL-3.0-or-later
// View -> What This Trace Can Tell: which report figures the shown trace measures, which are inferred and
// from what, which it does not record and why, and the trace-cmd / tickscope-cli capture line that would
// record the rest (report/Evidence). Read-only text with a Copy button.
#pragma once

#include <QDialog>

class QPlainTextEdit;

namespace tickscope {

struct Document;

class EvidenceDialog : public QDialog
{
    Q_OBJECT
public:
    EvidenceDialog(const Document &doc, QWidget *parent = nullptr);
    QString text() const; // what it shows (for tests)

private:
    QPlainTextEdit *text_;
};

} // namespace tickscope
