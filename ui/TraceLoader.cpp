#include "TraceLoader.h"

#include "import/Loader.h"

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
        opt.progress = [this, gen](double f) {
            QMetaObject::invokeMethod(this, [this, gen, f] {
                if (gen == generation_) emit progress(f);
            }, Qt::QueuedConnection);
        };
        const auto t0 = std::chrono::steady_clock::now();
        try {
            auto traces = std::make_shared<std::vector<std::unique_ptr<Trace>>>(loadAll(path.toStdString(), opt));
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            QMetaObject::invokeMethod(this, [this, gen, path, traces, secs] {
                if (gen != generation_) return;
                busy_ = false;
                emit loaded(path, traces, secs);
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
