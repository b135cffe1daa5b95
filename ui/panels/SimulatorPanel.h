// SPDX-License-Identifier: GPL-3.0-or-later
// The what-if panel: pick a preset and variant, change any kernel or scenario key (one control per key,
// generated from the simulator's settings table: booleans as check boxes, words as combo boxes, numbers
// and CPU lists as text checked as typed, the key's meaning as its tooltip, the same names as `--set`),
// look at the scenario's tasks and interrupts (edit everything as JSON), pick the seed, and run: as the
// document, as B against the open document, against the unchanged preset, or with one boolean toggled. A
// value the simulator refuses is refused at its control, with the reason. Save and load the scenario as
// the JSON `tickscope-cli simulate FILE.json` reads. The runs themselves happen in the main window's
// loaders, off the GUI thread, with progress and cancel.
#pragma once

#include "TraceLoader.h"

#include "sim/Scenario.h"

#include <QWidget>

#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;
class QTableWidget;
class QToolButton;

namespace tickscope {

class SimulatorPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SimulatorPanel(QWidget *parent = nullptr);

    // The preset (and variant: "" for the baseline) whose scenario the controls start from.
    void choose(const QString &preset, const QString &variant = {});
    // Sets a key as its control would: false, with the reason shown under the controls, when refused.
    bool set(const std::string &key, const std::string &value);
    // Loads a scenario JSON file as the scenario to edit; false (reason shown) when it cannot be read.
    bool loadJson(const QString &path);
    // A cell of the tasks or interrupts table ("tasks"/"irqs", entry, JSON key, text): false (reason
    // shown) when the simulator refuses it.
    bool setListField(const char *list, size_t index, const QString &field, const QString &text);
    bool saveJson(const QString &path);

    const sim::Scenario &scenario() const { return current_; } // with every change applied
    Simulation simulation() const;                             // the scenario, seed and a title
    Simulation baseline() const;                               // the preset/variant/file unchanged
    QString error() const;                                     // the last refusal ("" after a good change)

    // The buttons' actions.
    void run() { emit openRequested(simulation()); }
    void runAsB() { emit compareWithDocumentRequested(simulation()); }
    void compareWithBaseline() { emit compareRequested(baseline(), simulation()); }
    void
    compareToggled(const std::string &key); // this scenario (A) against it with the boolean key flipped (B)

signals:
    void openRequested(tickscope::Simulation s);
    void compareWithDocumentRequested(tickscope::Simulation b);
    void compareRequested(tickscope::Simulation a, tickscope::Simulation b);

private:
    void rebuild(); // one control per key (a new scenario: other keys may have values)
    void refresh(); // the controls show current_'s values (a control is never deleted while it signals)
    void refuse(const QString &why);
    using Edits = std::vector<std::pair<std::string, std::string>>; // key=value in the order given
    bool applyAll(const Edits &edits, sim::Scenario &out, QString &why) const;
    void fillTables();
    void editJson();
    QString titleOf(const Edits &edits) const;

    QComboBox *preset_, *variant_;
    QSpinBox *seed_;
    QFormLayout *form_;
    QWidget *formHost_;
    QLabel *error_;
    QTableWidget *tasks_, *irqs_;
    sim::Scenario base_, current_;
    QString baseName_; // preset[:variant] or the JSON file's name
    Edits edits_;
    bool building_ = false;
    struct Row
    {
        std::string key;
        QWidget *control; // QCheckBox, QComboBox or QLineEdit
        QLabel *label;
        QToolButton *flip = nullptr;
    };
    std::vector<Row> rows_;
};

} // namespace tickscope
