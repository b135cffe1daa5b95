// SPDX-License-Identifier: GPL-3.0-or-later
// Opens a run (core/session/OpenRun.h: a trace loaded or a scenario simulated, analysed and indexed for
// the timeline) off the GUI thread with real progress and cancel (progress covers all three steps: about
// 80 % load, 15 % analysis, 5 % index); stale results are dropped by a generation counter (a newer load or
// a cancel bumps it).
#pragma once

#include "session/Document.h"
#include "session/OpenRun.h"

#include "sim/Scenario.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace tickscope {
class Trace;

// A scenario to simulate as one run (the simulator panel's): the scenario, its seed and the run's title.
struct Simulation
{
    sim::Scenario scenario;
    uint64_t seed = 1;
    QString title;
};

class TraceLoader : public QObject
{
    Q_OBJECT
public:
    explicit TraceLoader(QObject *parent = nullptr);
    ~TraceLoader() override;

    // window: only seconds A to B after the first event of a trace.dat (LoadOptions::window).
    void load(const QString &path, std::optional<std::pair<double, double>> window = std::nullopt);
    // Starts loading `path` at once, on a thread of its own, before the QApplication exists (the GUI's main
    // calls it first): Qt's start-up then overlaps the load. The first load() of the same path adopts it;
    // any other load() cancels it. Reading the file needs no Qt.
    static void prestart(const std::string &path);
    // Both runs of `tickscope --compare A B` (each adopted by the load() of its path).
    static void prestart(const std::vector<std::string> &paths);
    static bool prestartPending(); // one waits for its load() (for tests)
    // Runs the simulator on a scenario (PRESET[:VARIANT][,KEY=VALUE...], as `compare` takes) instead of
    // loading a file.
    void simulate(const QString &scenario);
    void simulate(const Simulation &s);
    void cancel();
    bool busy() const { return busy_; }

signals:
    void progress(double fraction);
    // traces: every source of the file (the first one is the document's); seconds: load + analysis + index.
    void loaded(QString path, std::shared_ptr<std::vector<std::shared_ptr<const tickscope::Trace>>> traces,
                tickscope::Document document, double seconds);
    void failed(QString path, QString message);
    // The model would not fit in memory (TooBigError): nothing was allocated; spanSeconds is the file's span.
    void tooBig(QString path, QString message, double spanSeconds);
    void cancelled();

private:
    void start(const QString &label, RunSource source, OpenOptions options);
    void retireWorker();
    void joinAll();

    // A superseded load is told to stop and left to finish on its own (a join here would block the GUI
    // thread until its current step ends); finished ones are joined at the next start, all at exit.
    struct Worker
    {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };
    Worker worker_;
    std::vector<Worker> retired_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    std::atomic<unsigned> generation_{0};
    bool busy_ = false;
};

} // namespace tickscope
