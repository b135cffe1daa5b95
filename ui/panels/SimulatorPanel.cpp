// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimulatorPanel.h"

#include "sim/Presets.h"

#include <nlohmann/json.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace tickscope {

namespace {

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

// The columns of the tasks and interrupts tables: the JSON keys, in the order the JSON has them.
const QStringList kTaskFields{"name",     "cpu",     "count",           "policy",  "rt_prio",      "program",
                              "sleep_us", "work_us", "interval_us",     "min_us",  "max_us",       "sync_us",
                              "start_us", "loops",   "posix_cpu_timer", "markers", "work_by_clock"};
const QStringList kIrqFields{"name",  "irq",      "cpu",    "count",       "from_ms",
                             "to_ms", "every_ms", "timers", "timeouts_ms", "random_timeout"};

QTableWidget *smallTable(QWidget *parent, const QStringList &headers)
{
    auto *t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return t;
}

} // namespace

SimulatorPanel::SimulatorPanel(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *top = new QHBoxLayout;
    preset_ = new QComboBox(this);
    preset_->setObjectName(QStringLiteral("preset"));
    for (const sim::Preset &p : sim::presets())
        preset_->addItem(QString::fromUtf8(p.name.data(), static_cast<qsizetype>(p.name.size())));
    variant_ = new QComboBox(this);
    variant_->setObjectName(QStringLiteral("variant"));
    variant_->setToolTip(tr("The preset's variants: the patches of its series, or the hazards they avoid"));
    seed_ = new QSpinBox(this);
    seed_->setRange(1, 1'000'000'000);
    seed_->setPrefix(tr("seed "));
    seed_->setToolTip(tr("The random stream of the run (the same seed gives the same trace)"));
    top->addWidget(preset_, 1);
    top->addWidget(variant_);
    top->addWidget(seed_);
    layout->addLayout(top);

    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    formHost_ = new QWidget(scroll);
    form_ = new QFormLayout(formHost_);
    form_->setContentsMargins(2, 2, 2, 2);
    form_->setVerticalSpacing(2);
    scroll->setWidget(formHost_);
    // The keys, the tasks and the interrupts as tabs: the form gets the panel's height.
    auto *tabs = new QTabWidget(this);
    tabs->addTab(scroll, tr("Kernel && scenario keys"));
    layout->addWidget(tabs, 1);
    error_ = new QLabel(this);
    error_->setObjectName(QStringLiteral("simulatorError"));
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #b03000"));
    layout->addWidget(error_);

    tasks_ = smallTable(this, kTaskFields);
    irqs_ = smallTable(this, kIrqFields);
    tasks_->setObjectName(QStringLiteral("tasks"));
    irqs_->setObjectName(QStringLiteral("irqs"));
    tasks_->setToolTip(tr("Double-click a cell to change it (the JSON's keys and units)"));
    irqs_->setToolTip(tasks_->toolTip());
    // Queued: a change refills the table, which must not happen inside the table's own signal.
    connect(tasks_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (building_) return;
        QMetaObject::invokeMethod(
            this,
            [this, r = item->row(), f = kTaskFields[item->column()], t = item->text()] {
                setListField("tasks", static_cast<size_t>(r), f, t);
            },
            Qt::QueuedConnection);
    });
    connect(irqs_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (building_) return;
        QMetaObject::invokeMethod(
            this,
            [this, r = item->row(), f = kIrqFields[item->column()], t = item->text()] {
                setListField("irqs", static_cast<size_t>(r), f, t);
            },
            Qt::QueuedConnection);
    });
    tabs->addTab(tasks_, tr("Tasks"));
    tabs->addTab(irqs_, tr("Interrupts"));

    auto *files = new QHBoxLayout;
    auto *edit = new QPushButton(tr("Edit as JSON…"), this);
    edit->setToolTip(tr("Every part of the scenario, tasks and interrupts included, as the JSON "
                        "`tickscope-cli simulate FILE.json` reads"));
    auto *load = new QPushButton(tr("Load…"), this);
    auto *save = new QPushButton(tr("Save…"), this);
    files->addWidget(edit);
    files->addWidget(load);
    files->addWidget(save);
    files->addStretch(1);
    layout->addLayout(files);
    auto *buttons = new QHBoxLayout;
    auto *runB = new QPushButton(tr("Run"), this);
    runB->setObjectName(QStringLiteral("simRun"));
    runB->setToolTip(tr("Simulate and open the result as the document"));
    auto *asB = new QPushButton(tr("Run as B"), this);
    asB->setObjectName(QStringLiteral("simRunAsB"));
    asB->setToolTip(tr("Simulate and compare the result (B) with the open document (A)"));
    auto *cmp = new QPushButton(tr("Compare with Baseline"), this);
    cmp->setObjectName(QStringLiteral("simCompare"));
    cmp->setToolTip(tr("The preset unchanged (A) against this scenario (B), in the compare view"));
    buttons->addWidget(runB);
    buttons->addWidget(asB);
    buttons->addWidget(cmp);
    layout->addLayout(buttons);

    connect(preset_, &QComboBox::currentTextChanged, this, [this] {
        if (!building_) choose(preset_->currentText());
    });
    connect(variant_, &QComboBox::currentIndexChanged, this, [this] {
        if (!building_) choose(preset_->currentText(), variant_->currentData().toString());
    });
    connect(runB, &QPushButton::clicked, this, &SimulatorPanel::run);
    connect(asB, &QPushButton::clicked, this, &SimulatorPanel::runAsB);
    connect(cmp, &QPushButton::clicked, this, &SimulatorPanel::compareWithBaseline);
    connect(edit, &QPushButton::clicked, this, &SimulatorPanel::editJson);
    connect(load, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Load scenario"), QString(),
                                                          tr("Scenarios (*.json);;All files (*)"));
        if (!path.isEmpty()) loadJson(path);
    });
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save scenario"), QString(), tr("Scenarios (*.json)"));
        if (!path.isEmpty()) saveJson(path);
    });
    if (preset_->count()) choose(preset_->itemText(0));
}

void SimulatorPanel::choose(const QString &preset, const QString &variant)
{
    sim::Scenario s;
    const QString spec = variant.isEmpty() ? preset : preset + QLatin1Char(':') + variant;
    try {
        s = sim::loadScenario(spec.toStdString());
    } catch (const std::exception &e) {
        refuse(q(e.what()));
        return;
    }
    building_ = true;
    preset_->setCurrentText(preset);
    variant_->clear();
    variant_->addItem(tr("baseline"), QString());
    for (const auto &v : s.variants)
        variant_->addItem(q(v.first), q(v.first));
    variant_->setCurrentIndex(std::max(0, variant_->findData(variant)));
    building_ = false;
    base_ = s;
    baseName_ = spec;
    edits_.clear();
    current_ = base_;
    error_->clear();
    rebuild();
}

bool SimulatorPanel::applyAll(const Edits &edits, sim::Scenario &out, QString &why) const
{
    out = base_;
    try {
        for (const auto &[k, v] : edits)
            sim::applySetting(out, k, v);
        sim::validateScenario(out);
    } catch (const std::exception &e) {
        why = q(e.what());
        return false;
    }
    return true;
}

bool SimulatorPanel::set(const std::string &key, const std::string &value)
{
    Edits next = edits_;
    auto it = std::find_if(next.begin(), next.end(), [&](const auto &e) { return e.first == key; });
    if (it != next.end())
        it->second = value;
    else
        next.emplace_back(key, value);
    sim::Scenario s;
    QString why;
    if (!applyAll(next, s, why)) {
        refuse(why);
        refresh(); // the control goes back to the value in force
        return false;
    }
    edits_ = std::move(next);
    current_ = std::move(s);
    error_->clear();
    refresh();
    return true;
}

void SimulatorPanel::refuse(const QString &why)
{
    error_->setText(why);
}

QString SimulatorPanel::error() const
{
    return error_->text();
}

void SimulatorPanel::rebuild()
{
    building_ = true;
    while (form_->rowCount())
        form_->removeRow(0);
    rows_.clear();
    for (const sim::SettingInfo &info : sim::settingInfos()) {
        const auto value = sim::settingValue(current_, info.key);
        const QString key = q(info.key);
        QWidget *control = nullptr;
        QToolButton *flipButton = nullptr;
        if (info.type == sim::SettingType::Flag && value) {
            auto *row = new QWidget(formHost_);
            auto *h = new QHBoxLayout(row);
            h->setContentsMargins(0, 0, 0, 0);
            auto *box = new QCheckBox(row);
            box->setObjectName(QStringLiteral("setting:") + key);
            connect(box, &QCheckBox::toggled, this, [this, k = info.key](bool on) {
                if (!building_) set(k, on ? "true" : "false");
            });
            auto *flip = new QToolButton(row);
            flip->setObjectName(QStringLiteral("toggle:") + key);
            flip->setText(QStringLiteral("⇄"));
            connect(flip, &QToolButton::clicked, this, [this, k = info.key] { compareToggled(k); });
            h->addWidget(box);
            h->addWidget(flip);
            h->addStretch(1);
            control = box;
            flipButton = flip;
        } else if (info.type == sim::SettingType::Flag) { // acts on the tasks: off until set
            auto *box = new QCheckBox(formHost_);
            box->setObjectName(QStringLiteral("setting:") + key);
            connect(box, &QCheckBox::toggled, this, [this, k = info.key](bool on) {
                if (!building_) set(k, on ? "true" : "false");
            });
            control = box;
        } else if (!info.choices.empty()) {
            auto *combo = new QComboBox(formHost_);
            combo->setObjectName(QStringLiteral("setting:") + key);
            for (const std::string &c : info.choices)
                combo->addItem(q(c));
            connect(combo, &QComboBox::currentTextChanged, this, [this, k = info.key](const QString &t) {
                if (!building_) set(k, t.toStdString());
            });
            control = combo;
        } else {
            auto *line = new QLineEdit(formHost_);
            line->setObjectName(QStringLiteral("setting:") + key);
            if (!value) line->setPlaceholderText(tr("unchanged"));
            connect(line, &QLineEdit::editingFinished, this, [this, line, k = info.key] {
                if (building_) return;
                const std::string t = line->text().trimmed().toStdString();
                const auto now = sim::settingValue(current_, k);
                if ((now && t == *now) || (!now && t.empty())) return;
                set(k, t);
            });
            control = line;
        }
        const QString tip = q(info.meaning) + (info.kernel ? QString() : tr("\n(scenario key)")) +
                            tr("\n--set %1=…").arg(key);
        control->setToolTip(tip);
        auto *label = new QLabel(key, formHost_);
        label->setToolTip(tip);
        form_->addRow(label, flipButton ? control->parentWidget() : control);
        rows_.push_back({info.key, control, label, flipButton});
    }
    building_ = false;
    refresh();
}

void SimulatorPanel::refresh()
{
    building_ = true;
    for (Row &r : rows_) {
        const auto value = sim::settingValue(current_, r.key);
        QString edited;
        for (const auto &[k, v] : edits_)
            if (k == r.key) edited = q(v);
        if (auto *box = qobject_cast<QCheckBox *>(r.control))
            box->setChecked(value ? *value == "true" : edited == QStringLiteral("true"));
        else if (auto *combo = qobject_cast<QComboBox *>(r.control))
            combo->setCurrentText(value ? q(*value) : edited);
        else if (auto *line = qobject_cast<QLineEdit *>(r.control))
            line->setText(value ? q(*value) : edited);
        if (r.flip && value)
            r.flip->setToolTip(tr("Compare with %1 toggled: this scenario (A) against it with %1 %2 (B)")
                                   .arg(q(r.key), *value == "true" ? tr("off") : tr("on")));
        QFont f = r.label->font();
        f.setBold(!edited.isEmpty()); // changed from the preset
        r.label->setFont(f);
    }
    building_ = false;
    fillTables();
}

namespace {

QString cellText(const nlohmann::json &v)
{
    if (v.is_null()) return {};
    if (v.is_string()) return QString::fromStdString(v.get<std::string>());
    if (v.is_array()) {
        QStringList parts;
        for (const auto &x : v)
            parts << QString::fromStdString(x.dump());
        return parts.join(QStringLiteral(", "));
    }
    return QString::fromStdString(v.dump());
}

} // namespace

void SimulatorPanel::fillTables()
{
    const bool wasBuilding = building_;
    building_ = true;
    const nlohmann::json j = nlohmann::json::parse(sim::scenarioJson(current_));
    auto fill = [&](QTableWidget *t, const char *list, const QStringList &fields, size_t editable) {
        t->setRowCount(0);
        if (!j.contains(list)) return;
        for (size_t i = 0; i < j[list].size(); ++i) {
            const int r = t->rowCount();
            t->insertRow(r);
            for (int c = 0; c < fields.size(); ++c) {
                const std::string f = fields[c].toStdString();
                auto *item =
                    new QTableWidgetItem(j[list][i].contains(f) ? cellText(j[list][i][f]) : QString());
                if (i >= editable) { // added by a --set key (hog_cpus, second_task): that key changes it
                    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
                    item->setToolTip(tr("Added by a key on the first tab"));
                }
                t->setItem(r, c, item);
            }
        }
    };
    fill(tasks_, "tasks", kTaskFields, base_.tasks.size());
    fill(irqs_, "irqs", kIrqFields, base_.irqs.size());
    building_ = wasBuilding;
}

bool SimulatorPanel::setListField(const char *list, size_t index, const QString &field, const QString &text)
{
    sim::Scenario base;
    try {
        base = sim::withListField(base_, list, index, field.toStdString(), text.trimmed().toStdString());
    } catch (const std::exception &e) {
        refuse(q(e.what()));
        fillTables(); // the cell goes back to the value in force
        return false;
    }
    const sim::Scenario oldBase = base_;
    base_ = base;
    sim::Scenario s;
    QString why;
    if (!applyAll(edits_, s, why)) {
        base_ = oldBase;
        refuse(why);
        fillTables();
        return false;
    }
    current_ = std::move(s);
    if (!baseName_.endsWith(tr(" (edited)"))) baseName_ += tr(" (edited)");
    error_->clear();
    refresh();
    return true;
}

QString SimulatorPanel::titleOf(const Edits &edits) const
{
    QString t = baseName_;
    for (const auto &[k, v] : edits)
        t += QStringLiteral(",%1=%2").arg(q(k), q(v));
    return t;
}

Simulation SimulatorPanel::simulation() const
{
    return {current_, static_cast<uint64_t>(seed_->value()), titleOf(edits_)};
}

Simulation SimulatorPanel::baseline() const
{
    return {base_, static_cast<uint64_t>(seed_->value()), baseName_};
}

void SimulatorPanel::compareToggled(const std::string &key)
{
    const auto v = sim::settingValue(current_, key);
    if (!v) return;
    Edits flipped = edits_;
    const std::string to = *v == "true" ? "false" : "true";
    auto it = std::find_if(flipped.begin(), flipped.end(), [&](const auto &e) { return e.first == key; });
    if (it != flipped.end())
        it->second = to;
    else
        flipped.emplace_back(key, to);
    sim::Scenario b;
    QString why;
    if (!applyAll(flipped, b, why)) {
        refuse(why);
        return;
    }
    emit compareRequested(simulation(), {b, static_cast<uint64_t>(seed_->value()), titleOf(flipped)});
}

bool SimulatorPanel::loadJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        refuse(tr("%1: cannot read it (%2)").arg(path, f.errorString()));
        return false;
    }
    const QByteArray text = f.read(16 << 20);
    try {
        sim::Scenario s = sim::parseScenario(text.toStdString(), path.toStdString());
        sim::validateScenario(s);
        base_ = std::move(s);
    } catch (const std::exception &e) {
        refuse(q(e.what()));
        return false;
    }
    baseName_ = QFileInfo(path).fileName();
    building_ = true;
    variant_->clear();
    variant_->addItem(tr("as in the file"), QString());
    building_ = false;
    edits_.clear();
    current_ = base_;
    error_->clear();
    rebuild();
    return true;
}

bool SimulatorPanel::saveJson(const QString &path)
{
    QFile f(path);
    const std::string text = sim::scenarioJson(current_);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        f.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size())) {
        refuse(tr("%1: cannot write it (%2)").arg(path, f.errorString()));
        return false;
    }
    return true;
}

void SimulatorPanel::editJson()
{
    QDialog d(this);
    d.setWindowTitle(tr("Scenario as JSON"));
    auto *layout = new QVBoxLayout(&d);
    auto *text = new QPlainTextEdit(&d);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text->setPlainText(q(sim::scenarioJson(current_)));
    auto *why = new QLabel(&d);
    why->setWordWrap(true);
    why->setStyleSheet(QStringLiteral("color: #b03000"));
    auto *box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &d);
    layout->addWidget(text, 1);
    layout->addWidget(why);
    layout->addWidget(box);
    d.resize(640, 720);
    connect(box, &QDialogButtonBox::rejected, &d, &QDialog::reject);
    connect(box, &QDialogButtonBox::accepted, &d, [&] {
        try { // refused text keeps the dialog open, with the reason
            sim::Scenario s = sim::parseScenario(text->toPlainText().toStdString(), "scenario");
            sim::validateScenario(s);
            base_ = std::move(s);
            baseName_ = q(base_.name) + tr(" (edited)");
            edits_.clear();
            current_ = base_;
            error_->clear();
            rebuild();
            d.accept();
        } catch (const std::exception &e) {
            why->setText(q(e.what()));
        }
    });
    d.exec();
}

} // namespace tickscope
