#include "tools/latency_probe.h"

#include <algorithm>
#include <cmath>

namespace lmscope::tools {

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    const double rank = std::ceil(p / 100.0 * double(values.size()));
    const size_t index = size_t(std::clamp(rank, 1.0, double(values.size()))) - 1;
    return values[index];
}

LatencyProbe::LatencyProbe(int interval_ms, QObject* parent) : QObject(parent) {
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(interval_ms);
    connect(&timer_, &QTimer::timeout, this, &LatencyProbe::tick);
}

void LatencyProbe::start() {
    gaps_ms_.clear();
    clock_.start();
    last_ns_ = clock_.nsecsElapsed();
    timer_.start();
}

void LatencyProbe::stop() { timer_.stop(); }

void LatencyProbe::tick() {
    const qint64 now = clock_.nsecsElapsed();
    gaps_ms_.push_back(double(now - last_ns_) / 1e6);
    last_ns_ = now;
}

GapStats LatencyProbe::stats() const {
    GapStats s;
    s.ticks = gaps_ms_.size();
    if (gaps_ms_.empty()) return s;
    s.max_ms = *std::max_element(gaps_ms_.begin(), gaps_ms_.end());
    s.p99_ms = percentile(gaps_ms_, 99.0);
    s.p50_ms = percentile(gaps_ms_, 50.0);
    return s;
}

}  // namespace lmscope::tools
