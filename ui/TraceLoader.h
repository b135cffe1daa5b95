// Loads a trace off the GUI thread with real progress and cancel; stale results are dropped by a
// generation counter (a newer load or a cancel bumps it).
#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace tickscope {
class Trace;

class TraceLoader : public QObject
{
    Q_OBJECT
public:
    explicit TraceLoader(QObject *parent = nullptr);
    ~TraceLoader() override;

    void load(const QString &path);
    // Runs the simulator on a scenario (tickscope-cli simulate's SCENARIO syntax) instead of loading a file.
    void simulate(const QString &scenario);
    void cancel();
    bool busy() const { return busy_; }

signals:
    void progress(double fraction);
    void loaded(QString path, std::shared_ptr<std::vector<std::unique_ptr<tickscope::Trace>>> traces, double seconds);
    void failed(QString path, QString message);
    void cancelled();

private:
    using Producer = std::function<std::vector<std::unique_ptr<Trace>>(std::atomic<bool> *cancel,
                                                                       std::function<void(double)> progress)>;
    void start(const QString &label, Producer produce);
    void joinWorker();

    std::thread worker_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    std::atomic<unsigned> generation_{0};
    bool busy_ = false;
};

} // namespace tickscope
