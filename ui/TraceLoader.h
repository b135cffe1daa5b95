// Loads a trace off the GUI thread with real progress and cancel; stale results are dropped by a
// generation counter (a newer load or a cancel bumps it).
#pragma once

#include <QObject>
#include <QString>

#include <atomic>
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
    void cancel();
    bool busy() const { return busy_; }

signals:
    void progress(double fraction);
    void loaded(QString path, std::shared_ptr<std::vector<std::unique_ptr<tickscope::Trace>>> traces, double seconds);
    void failed(QString path, QString message);
    void cancelled();

private:
    void joinWorker();

    std::thread worker_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    std::atomic<unsigned> generation_{0};
    bool busy_ = false;
};

} // namespace tickscope
