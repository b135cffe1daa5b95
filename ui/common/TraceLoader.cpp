// SPDX-License-Identifier: GPL-3.0-or-later
#include "TraceLoader.h"

#include "BackgroundJob.h"

#include "Timing.h"

#include "import/Loader.h"
#include "util/Cancel.h"

#include <QMetaObject>

#include <chrono>
#include <exception>
#include <future>
#include <mutex>

namespace tickscope {

namespace {

struct ProgressThrottle
{
    std::mutex mutex;
    std::chrono::steady_clock::time_point last{};
    double shown = -1;
    bool due(double f)
    {
        const auto now = std::chrono::steady_clock::now();
        const std::lock_guard lock(mutex);
        if (f < 1.0 && (f - shown < 0.005 || now - last < std::chrono::milliseconds(50))) return false;
        last = now;
        shown = f;
        return true;
    }
};

// A load begun by prestart(), waiting for its TraceLoader.
struct Prestarted
{
    std::string path;
    std::atomic<bool> cancel{false};
    std::atomic<double> progress{0};
    std::future<std::vector<std::unique_ptr<Trace>>> result;
};

struct PrestartSlot
{
    std::mutex mutex;
    std::vector<std::shared_ptr<Prestarted>> loads; // one per run (a comparison prestarts A and B)
    ~PrestartSlot() // never adopted (the program ends early): stop them; the futures' destructors wait
    {
        for (auto &l : loads)
            l->cancel.store(true);
    }
};

PrestartSlot &prestartSlot()
{
    static PrestartSlot slot;
    return slot;
}

// A prestarted load of `path`, taken out of the slot. When none is of `path`, something else is being
// opened: the prestarted loads are stale and cancelled.
std::shared_ptr<Prestarted> takePrestarted(const std::string &path)
{
    PrestartSlot &slot = prestartSlot();
    std::vector<std::shared_ptr<Prestarted>> stale;
    const std::lock_guard lock(slot.mutex);
    for (auto it = slot.loads.begin(); it != slot.loads.end(); ++it) {
        if ((*it)->path != path) continue;
        std::shared_ptr<Prestarted> p = std::move(*it);
        slot.loads.erase(it);
        return p;
    }
    for (auto &l : slot.loads)
        l->cancel.store(true);
    slot.loads.clear(); // waits for them to notice (once per page)
    return nullptr;
}

} // namespace

void TraceLoader::prestart(const std::string &path)
{
    prestart(std::vector<std::string>{path});
}

void TraceLoader::prestart(const std::vector<std::string> &paths)
{
    std::vector<std::shared_ptr<Prestarted>> loads;
    for (const std::string &path : paths) {
        auto p = std::make_shared<Prestarted>();
        p->path = path;
        Prestarted *raw = p.get(); // the future is owned by *p: the thread never outlives it
        p->result = std::async(std::launch::async, [raw] {
            markTime("load started");
            LoadOptions opt = viewLoadOptions();
            opt.cancel = &raw->cancel;
            opt.progress = [raw](double f) { raw->progress.store(f, std::memory_order_relaxed); };
            return loadAll(raw->path, opt);
        });
        loads.push_back(std::move(p));
    }
    PrestartSlot &slot = prestartSlot();
    const std::lock_guard lock(slot.mutex);
    for (auto &l : slot.loads)
        l->cancel.store(true);
    slot.loads = std::move(loads);
}

bool TraceLoader::prestartPending()
{
    PrestartSlot &slot = prestartSlot();
    const std::lock_guard lock(slot.mutex);
    return !slot.loads.empty();
}

TraceLoader::TraceLoader(QObject *parent) : QObject(parent)
{
    GuiInbox::instance(); // on the GUI thread, before the workers post to it
}

TraceLoader::~TraceLoader()
{
    if (cancel_) cancel_->store(true);
    joinAll();
}

void TraceLoader::retireWorker()
{
    if (worker_.thread.joinable()) retired_.push_back(std::move(worker_));
    worker_ = {};
    for (auto it = retired_.begin(); it != retired_.end();) {
        if (it->done->load()) {
            it->thread.join(); // it has returned: no wait
            it = retired_.erase(it);
        } else {
            ++it;
        }
    }
}

void TraceLoader::joinAll()
{
    retireWorker();
    for (auto &w : retired_)
        w.thread.join();
    retired_.clear();
}

void TraceLoader::cancel()
{
    if (!busy_) return;
    if (cancel_) cancel_->store(true);
    ++generation_;
    busy_ = false;
    emit cancelled();
}

void TraceLoader::load(const QString &path, std::optional<std::pair<double, double>> window)
{
    const std::string file = path.toStdString();
    OpenOptions options;
    options.load = viewLoadOptions();
    options.load.window = window;
    options.allSources = true;
    if (std::shared_ptr<Prestarted> early = window ? nullptr : takePrestarted(file))
        options.early = [early](const std::atomic<bool> *cancel,
                                const std::function<void(double)> &progress) {
            while (early->result.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
                if (cancel->load()) early->cancel.store(true);
                progress(early->progress.load(std::memory_order_relaxed));
            }
            return early->result.get(); // the load's traces, or its error
        };
    start(path, RunSource::file(file), std::move(options));
}

void TraceLoader::simulate(const QString &scenario)
{
    start(scenario, RunSource::spec(scenario.toStdString()), {});
}

void TraceLoader::simulate(const Simulation &s)
{
    start(s.title, RunSource::simulation(s.scenario, s.seed, s.title.toStdString()), {});
}

void TraceLoader::start(const QString &label, RunSource source, OpenOptions options)
{
    if (cancel_) cancel_->store(true);
    retireWorker();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    const unsigned gen = ++generation_;
    busy_ = true;
    auto flag = cancel_;
    auto done = std::make_shared<std::atomic<bool>>(false);
    worker_.done = done;
    const QPointer<QObject> self(this);
    worker_.thread = std::thread([this, self, label, gen, flag, done, source = std::move(source),
                                  options = std::move(options)]() mutable {
        struct MarkDone
        {
            std::atomic<bool> &done;
            ~MarkDone() { done.store(true); }
        } markDone{*done};
        // At most 20 progress updates a second (the decoders report per page, from several threads):
        // each one repaints the bar on the GUI thread, which shares the cores with the load.
        auto throttle = std::make_shared<ProgressThrottle>();
        auto report = [this, self, gen, throttle](double f) {
            if (!throttle->due(f)) return;
            postToGui(self, [this, gen, f] {
                if (gen == generation_) emit progress(f);
            });
        };
        const auto t0 = std::chrono::steady_clock::now();
        try {
            options.cancel = flag.get();
            options.progress = report;
            options.mark = markTime;
            OpenedRun run = openRun(source, options);
            auto traces = std::make_shared<std::vector<std::shared_ptr<const Trace>>>(std::move(run.sources));
            const Document doc = std::move(run.doc);
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            postToGui(self, [this, gen, label, traces, doc, secs] {
                if (gen != generation_) return;
                busy_ = false;
                emit loaded(label, traces, doc, secs);
            });
        } catch (const LoadCancelled &) {
            // cancel() already told the UI, or a newer load superseded this one.
        } catch (const TooBigError &e) {
            const QString msg = QString::fromStdString(e.what());
            const double span = e.spanSeconds;
            postToGui(self, [this, gen, label, msg, span] {
                if (gen != generation_) return;
                busy_ = false;
                emit tooBig(label, msg, span);
            });
        } catch (const Cancelled &) {
        } catch (const std::exception &e) {
            const QString msg = QString::fromStdString(e.what());
            postToGui(self, [this, gen, label, msg] {
                if (gen != generation_) return;
                busy_ = false;
                emit failed(label, msg);
            });
        }
    });
}

} // namespace tickscope
