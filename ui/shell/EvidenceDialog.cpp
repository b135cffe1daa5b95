// SPDX-License-Identifier: GPL-3.0-or-later
#include "EvidenceDialog.h"

#include "report/Evidence.h"
#include "session/Document.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace tickscope {

EvidenceDialog::EvidenceDialog(const Document &doc, QWidget *parent)
    : QDialog(parent), text_(new QPlainTextEdit(this))
{
    setWindowTitle(tr("What This Trace Can Tell"));
    auto *head = new QLabel(this);
    head->setWordWrap(true);
    head->setText(
        tr("What the report of <b>%1</b> measures, infers and cannot see, from the events the trace "
           "holds. A figure it does not record is shown as “not recorded” (text: –, JSON: null), "
           "never as 0.")
            .arg(QFileInfo(QString::fromStdString(doc.trace->meta.path)).fileName().toHtmlEscaped()));
    text_->setReadOnly(true);
    text_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text_->setPlainText(QString::fromStdString(formatEvidenceText(*doc.evidence)));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *copy = buttons->addButton(tr("&Copy"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(text_->toPlainText()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(head);
    layout->addWidget(text_, 1);
    layout->addWidget(buttons);
    resize(760, 420);
}

QString EvidenceDialog::text() const
{
    return text_->toPlainText();
}

} // namespace tickscope
