// SPDX-License-Identifier: GPL-3.0-or-later
#include "KeysDialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QMenu>
#include <QMenuBar>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace tickscope {
namespace {

QString plain(QString text)
{
    text.remove(QLatin1Char('&'));
    text.remove(QStringLiteral("…"));
    return text.toHtmlEscaped();
}

void addRows(const QMenu *menu, const QString &path, QString &rows)
{
    for (const QAction *a : menu->actions()) {
        if (a->isSeparator()) continue;
        if (a->menu()) {
            addRows(a->menu(), path + QStringLiteral(" › ") + plain(a->text()), rows);
            continue;
        }
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText).toHtmlEscaped();
        if (keys.isEmpty()) continue;
        rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2 › %3</td></tr>")
                    .arg(keys.join(QStringLiteral(", ")), path, plain(a->text()));
    }
}

} // namespace

QString KeysDialog::reference(const QMenuBar *menus)
{
    QString rows;
    for (const QAction *a : menus->actions())
        if (a->menu()) addRows(a->menu(), plain(a->text()), rows);
    const std::pair<const char *, const char *> mouse[] = {
        {QT_TR_NOOP("Wheel"), QT_TR_NOOP("zoom around the pointer")},
        {QT_TR_NOOP("Shift+Wheel"), QT_TR_NOOP("scroll the CPU lanes")},
        {QT_TR_NOOP("Drag"), QT_TR_NOOP("pan")},
        {QT_TR_NOOP("Shift+Drag"), QT_TR_NOOP("zoom to the dragged span")},
        {QT_TR_NOOP("Click"), QT_TR_NOOP("select the nearest event; its details in the Events panel")},
        {QT_TR_NOOP("Ctrl+Click"), QT_TR_NOOP("set marker A (its time against B in the status bar)")},
        {QT_TR_NOOP("Ctrl+Shift+Click"), QT_TR_NOOP("set marker B")},
        {QT_TR_NOOP("Ctrl+Drag in a B lane"), QT_TR_NOOP("slide run B against run A (comparison)")},
        {QT_TR_NOOP("Hover"), QT_TR_NOOP("what is under the pointer, with what the trace could not tell")},
        {QT_TR_NOOP("Right-click a lane"), QT_TR_NOOP("collapse, expand, sort and choose CPUs")},
        {QT_TR_NOOP("Home / End"),
         QT_TR_NOOP("the trace's start / end, at the same zoom (timeline focused)")}};
    QString gestures;
    for (const auto &[what, does] : mouse)
        gestures += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(tr(what), tr(does));
    return tr("<h3>Keys</h3><p>The timeline's keys work wherever the focus is, except in a text field.</p>"
              "<table cellspacing=4>%1</table><h3>Mouse on the timeline</h3><table cellspacing=4>%2</table>")
        .arg(rows, gestures);
}

KeysDialog::KeysDialog(const QMenuBar *menus, QWidget *parent)
    : QDialog(parent), text_(new QTextBrowser(this))
{
    setWindowTitle(tr("Keyboard and Mouse"));
    text_->setHtml(reference(menus));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(text_);
    layout->addWidget(buttons);
    resize(620, 640);
}

} // namespace tickscope
