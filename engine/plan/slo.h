#pragma once
// A service level the planner must meet: a comparison of one simulation metric (sim/metrics.h) with
// a threshold, written as the user types it: "wait.p95<1h", "queue[pretrain].wait.p95 <= 2h",
// "pending_at_end==0", "gpu.mean_allocation_pct>=70". Thresholds of time metrics are Go durations
// (1h30m) or seconds; the others are plain numbers.
#include "sim/metrics.h"

#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace gantry::plan {

enum class Comparison { Less, LessOrEqual, Greater, GreaterOrEqual, Equal, NotEqual };

struct Slo {
    std::string text; // as given, blanks trimmed
    sim::MetricRef metric;
    Comparison comparison = Comparison::Less;
    double threshold = 0;

    bool holds(double value) const;
    // How far a value is from the threshold on the side the SLO wants (negative: it misses by that
    // much); for == and != the distance, signed by whether the SLO holds.
    double headroom(double value) const;
    // Of several seeds' values, the one furthest on the wrong side (the seed that decides).
    double worst(double a, double b) const;
    // The headroom in words, in the metric's unit: "41m to spare", "misses by 5m"; for == and !=
    // "holds" or "misses".
    std::string headroomText(double value) const;
    const char* symbol() const;
};

// What is wrong with an expression and where: column is 1-based in the text given.
struct SloError {
    size_t column = 1;
    std::string message;
};

std::variant<Slo, SloError> parseSlo(std::string_view text);

} // namespace gantry::plan
