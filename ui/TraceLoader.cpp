#include "TraceLoader.h"

#include "analysis/TickAnalysis.h"
#include "import/Loader.h"
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
    if (cancel_) cancel_->store(true);
    joinWorker();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    const unsigned gen = ++generation_;
    busy_ = true;
    auto flag = cancel_;
    worker_ = std::thread([this, path, gen, flag] {
        LoadOptions opt;
        opt.cancel = flag.get();
        auto report = [this, gen](double f) {
            QMetaObject::invokeMethod(this, [this, gen, f] {
                if (gen == generation_) emit progress(f);
            }, Qt::QueuedConnection);
        };
        opt.progress = [report](double f) { report(0.8 * f); };
        const auto t0 = std::chrono::steady_clock::now();
        try {
            auto sources = loadAll(path.toStdString(), opt);
            auto traces = std::make_shared<std::vector<std::shared_ptr<const Trace>>>();
            for (auto &t : sources) traces->push_back(std::shared_ptr<const Trace>(std::move(t)));
            if (traces->empty()) throw std::runtime_error(path.toStdString() + ": no events");
            if (flag->load()) throw LoadCancelled();
            Document doc;
            doc.title = QFileInfo(path).fileName();
            doc.trace = traces->front();
            doc.analysis = std::make_shared<const TickAnalysis>(TickAnalysis::run(*doc.trace));
            report(0.95);
            if (flag->load()) throw LoadCancelled();
            doc.timeline = std::make_shared<const TimelineIndex>(TimelineIndex::build(*doc.trace, *doc.analysis));
            report(1.0);
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            QMetaObject::invokeMethod(this, [this, gen, path, traces, doc, secs] {
                if (gen != generation_) return;
                busy_ = false;
                emit loaded(path, traces, doc, secs);
            }, Qt::QueuedConnection);
        } catch (const LoadCancelled &) {
            // cancel() already told the UI.
        } catch (const std::exception &e) {
            const QString msg = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, gen, path, msg] {
                if (gen != generation_) return;
                busy_ = false;
                emit failed(path, msg);
            }, Qt::QueuedConnection);
        }
    });
}

} // namespace tickscope
