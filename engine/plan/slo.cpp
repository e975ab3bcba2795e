#include "plan/slo.h"

#include "model/go_text.h"

#include <cctype>
#include <cmath>

namespace gantry::plan {

namespace {

struct Operator {
    const char* symbol;
    Comparison comparison;
};
// Two-character operators first, so "<=" is not read as "<" then "=".
constexpr Operator kOperators[] = {{"<=", Comparison::LessOrEqual}, {">=", Comparison::GreaterOrEqual},
                                   {"==", Comparison::Equal},       {"!=", Comparison::NotEqual},
                                   {"<", Comparison::Less},         {">", Comparison::Greater}};

// 'text' (built by appending: GCC 12 warns wrongly about "'" + std::string).
std::string quoted(std::string_view text) {
    std::string out(1, '\'');
    out.append(text);
    out += '\'';
    return out;
}

bool metricChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' || c == '[' ||
           c == ']';
}

} // namespace

bool Slo::holds(double v) const {
    switch (comparison) {
    case Comparison::Less:
        return v < threshold;
    case Comparison::LessOrEqual:
        return v <= threshold;
    case Comparison::Greater:
        return v > threshold;
    case Comparison::GreaterOrEqual:
        return v >= threshold;
    case Comparison::Equal:
        return v == threshold;
    case Comparison::NotEqual:
        return v != threshold;
    }
    return false;
}

double Slo::headroom(double v) const {
    switch (comparison) {
    case Comparison::Less:
    case Comparison::LessOrEqual:
        return threshold - v;
    case Comparison::Greater:
    case Comparison::GreaterOrEqual:
        return v - threshold;
    case Comparison::Equal:
        return -std::fabs(v - threshold);
    case Comparison::NotEqual:
        return std::fabs(v - threshold);
    }
    return 0;
}

double Slo::worst(double a, double b) const {
    if (holds(a) != holds(b)) return holds(a) ? b : a;
    return headroom(a) <= headroom(b) ? a : b;
}

std::string Slo::headroomText(double value) const {
    if (comparison == Comparison::Equal || comparison == Comparison::NotEqual)
        return holds(value) ? "holds" : "misses";
    const double h = headroom(value);
    const std::string amount = sim::formatMetricValue(metric.info().unit, std::fabs(h));
    return h >= 0 ? amount + " to spare" : "misses by " + amount;
}

const char* Slo::symbol() const {
    for (const auto& op : kOperators)
        if (op.comparison == comparison) return op.symbol;
    return "?";
}

std::variant<Slo, SloError> parseSlo(std::string_view text) {
    size_t i = 0;
    auto skipBlanks = [&] {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    };
    skipBlanks();
    const size_t metricStart = i;
    while (i < text.size() && metricChar(text[i])) ++i;
    const std::string_view metricText = text.substr(metricStart, i - metricStart);
    if (metricText.empty()) return SloError{metricStart + 1, "expected a metric name, e.g. wait.p95<1h"};
    skipBlanks();
    const size_t opStart = i;
    const Operator* op = nullptr;
    for (const auto& candidate : kOperators) {
        const std::string_view s = candidate.symbol;
        if (text.substr(i, s.size()) == s) {
            op = &candidate;
            break;
        }
    }
    if (!op) {
        if (i < text.size() && text[i] == '=')
            return SloError{opStart + 1, "write == to compare for equality"};
        return SloError{opStart + 1,
                        "expected a comparison (<, <=, >, >=, ==, !=) after " + quoted(metricText)};
    }
    i += std::string_view(op->symbol).size();
    skipBlanks();
    const size_t valueStart = i;
    size_t valueEnd = text.size();
    while (valueEnd > valueStart && std::isspace(static_cast<unsigned char>(text[valueEnd - 1]))) --valueEnd;
    const std::string_view valueText = text.substr(valueStart, valueEnd - valueStart);

    std::string why;
    auto metric = sim::parseMetric(metricText, &why);
    if (!metric) return SloError{metricStart + 1, why};
    if (valueText.empty())
        return SloError{valueStart + 1, std::string("expected a threshold after ") + op->symbol};
    const bool time = metric->info().unit == sim::MetricUnit::Seconds;
    std::optional<double> threshold = engine::parseGoFloat(valueText);
    if (!threshold && time) threshold = engine::parseGoDuration(valueText);
    if (!threshold || !std::isfinite(*threshold))
        return SloError{valueStart + 1,
                        quoted(valueText) + " is not " +
                            (time ? "a duration (e.g. 90s, 30m, 1h30m) or a number of seconds" : "a number")};
    Slo slo;
    slo.text = engine::trim(text);
    slo.metric = *metric;
    slo.comparison = op->comparison;
    slo.threshold = *threshold;
    return slo;
}

} // namespace gantry::plan
