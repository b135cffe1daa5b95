#include "TraceLoader.h"

#include "analysis/TickAnalysis.h"
#include "import/Loader.h"
#include "sim/Presets.h"
#include "sim/Simulator.h"
#include "view/TimelineIndex.h"

#include <QFileInfo>
#include <QMetaObject>

#include <chrono>

namespace tickscope {

TraceLoader::TraceLoader(QObject *parent) : QObject(parent) {}

TraceLoader::~TraceLoader()
{
    if (cancel_) cancel_->store(true);
    joinWorker();
}

void TraceLoader::joinWorker()
{
    if (worker_.joinable()) worker_.join();
}

void TraceLoader::cancel()
{
    if (!busy_) return;
    if (cancel_) cancel_->store(true);
    ++generation_;
    busy_ = false;
    emit cancelled();
}

void TraceLoader::load(const QString &path)
{
    const std::string file = path.toStdString();
    start(path, QFileInfo(path).fileName(), [file](std::atomic<bool> *cancel, std::function<void(double)> progress) {
        LoadOptions opt;
        opt.cancel = cancel;
        opt.progress = std::move(progress);
        return loadAll(file, opt);
    });
}

void TraceLoader::simulate(const QString &scenario)
{
    const std::string spec = scenario.toStdString();
    start(scenario, tr("simulated %1").arg(scenario), [spec](std::atomic<bool> *, std::function<void(double)> progress) {
        sim::SimResult r = sim::simulate(sim::loadScenario(spec), 1);
        progress(1.0);
        std::vector<std::unique_ptr<Trace>> traces;
        traces.push_back(std::move(r.trace));
        return traces;
    });
}

void TraceLoader::start(const QString &label, const QString &title, Producer produce)
{
    if (cancel_) cancel_->store(true);
    joinWorker();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    const unsigned gen = ++generation_;
    busy_ = true;
    auto flag = cancel_;
    worker_ = std::thread([this, label, title, gen, flag, produce = std::move(produce)] {
        auto report = [this, gen](double f) {
            QMetaObject::invokeMethod(this, [this, gen, f] {
                if (gen == generation_) emit progress(f);
            }, Qt::QueuedConnection);
        };
        const auto t0 = std::chrono::steady_clock::now();
        try {
            auto sources = produce(flag.get(), [report](double f) { report(0.8 * f); });
            auto traces = std::make_shared<std::vector<std::shared_ptr<const Trace>>>();
            for (auto &t : sources) traces->push_back(std::shared_ptr<const Trace>(std::move(t)));
            if (traces->empty()) throw std::runtime_error(label.toStdString() + ": no events");
            if (flag->load()) throw LoadCancelled();
            Document doc;
            doc.title = title;
            doc.trace = traces->front();
            doc.analysis = std::make_shared<const TickAnalysis>(TickAnalysis::run(*doc.trace));
            report(0.95);
            if (flag->load()) throw LoadCancelled();
            doc.timeline = std::make_shared<const TimelineIndex>(TimelineIndex::build(*doc.trace, *doc.analysis));
            report(1.0);
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            QMetaObject::invokeMethod(this, [this, gen, label, traces, doc, secs] {
                if (gen != generation_) return;
                busy_ = false;
                emit loaded(label, traces, doc, secs);
            }, Qt::QueuedConnection);
        } catch (const LoadCancelled &) {
            // cancel() already told the UI.
        } catch (const std::exception &e) {
            const QString msg = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, gen, label, msg] {
                if (gen != generation_) return;
                busy_ = false;
                emit failed(label, msg);
            }, Qt::QueuedConnection);
        }
    });
}

} // namespace tickscope
