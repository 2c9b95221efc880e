// Measures how long the UI thread's event loop goes without turning: a precise timer fires
// every `interval_ms`, and each gap between two firings is recorded. A gap much longer than the
// interval is a stall: something (a model update, a paint) held the thread that long.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <vector>

namespace lmscope::tools {

struct GapStats {
    size_t ticks = 0;
    double max_ms = 0.0;
    double p99_ms = 0.0;
    double p50_ms = 0.0;
};

// The nearest-rank percentile `p` (0..100) of `values` (copied and sorted); 0 when empty.
double percentile(std::vector<double> values, double p);

class LatencyProbe : public QObject {
    Q_OBJECT
public:
    explicit LatencyProbe(int interval_ms = 2, QObject* parent = nullptr);
    void start();
    void stop();
    GapStats stats() const;

private:
    void tick();

    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ns_ = 0;
    std::vector<double> gaps_ms_;  // [tick] time since the tick before
};

}  // namespace lmscope::tools
