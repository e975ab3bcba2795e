#include "profiles/kueue/resource_transformations.h"

#include "model/resources.h"

#include <algorithm>
#include <map>

namespace gantry::engine::kueue {

namespace {

__extension__ typedef __int128 Wide; // exact products of two int64 amounts
constexpr Wide kWideMax = (Wide(1) << 126);

// Canonical amounts per unit of a Kubernetes quantity of the resource (cpu: 1000 per core).
Wide scaleOf(const std::string& name) {
    return unitOf(name) == ResourceUnit::Milli ? 1000 : 1;
}

// a * b, saturated at +-kWideMax (Kueue multiplies exact decimals; past int64 it is unlimited).
Wide mulSat(Wide a, Wide b) {
    Wide r;
    if (__builtin_mul_overflow(a, b, &r) || r > kWideMax || r < -kWideMax)
        return (a < 0) == (b < 0) ? kWideMax : -kWideMax;
    return r;
}

Wide addSat(Wide a, Wide b) {
    Wide r;
    if (__builtin_add_overflow(a, b, &r) || r > kWideMax || r < -kWideMax)
        return b > 0 ? kWideMax : -kWideMax;
    return r;
}

} // namespace

Requests countedRequests(const KueueConfig& config, Requests in) {
    if (!config.excludeResourcePrefixes.empty())
        in.erase(std::remove_if(in.begin(), in.end(),
                                [&](const auto& r) {
                                    for (const auto& p : config.excludeResourcePrefixes)
                                        if (r.first.rfind(p, 0) == 0) return true;
                                    return false;
                                }),
                 in.end());
    if (config.transformations.empty()) return in;
    auto transformationOf = [&](const std::string& name) {
        return std::find_if(config.transformations.begin(), config.transformations.end(),
                            [&](const KueueConfig::Transformation& t) { return t.input == name; });
    };
    if (std::none_of(in.begin(), in.end(), [&](const auto& r) {
            return transformationOf(r.first) != config.transformations.end();
        }))
        return in;
    // What the transformations generate, exactly, over a common denominator of 10^6 (an input's and
    // a multiplier's scale at most 1000 each).
    constexpr Wide kDenominator = 1000000;
    Requests kept;
    std::map<std::string, Wide> generated;
    for (const auto& [name, amount] : in) {
        auto t = transformationOf(name);
        if (t == config.transformations.end()) {
            kept.emplace_back(name, amount);
            continue;
        }
        Wide base = amount, factor = kDenominator / scaleOf(name);
        if (!t->multiplyBy.empty()) {
            auto m =
                std::find_if(in.begin(), in.end(), [&](const auto& r) { return r.first == t->multiplyBy; });
            if (m != in.end()) {
                base = mulSat(base, m->second);
                factor /= scaleOf(m->first);
            }
        }
        base = mulSat(base, factor);
        for (const auto& [out, perUnit] : t->outputs) {
            Wide& sum = generated[out];
            sum = addSat(sum, mulSat(base, perUnit));
        }
        if (!t->replace) kept.emplace_back(name, amount);
    }
    for (const auto& [name, total] : generated) {
        // Negative totals count zero; a quantity is rounded up to the unit Kueue counts it in
        // (MilliValue for cpu, Value for the rest: whole units of an extended resource).
        const Wide step = kDenominator * (unitOf(name) == ResourceUnit::Milli && name != "cpu" ? 1000 : 1);
        const Wide v = total <= 0 ? 0 : mulSat((total + step - 1) / step, step / kDenominator);
        const Amount a = v >= Wide(kUnlimited) ? kUnlimited : Amount(v);
        // A named copy: clang 14 cannot capture a structured binding.
        const std::string& resource = name;
        auto it = std::find_if(kept.begin(), kept.end(), [&](const auto& r) { return r.first == resource; });
        if (it != kept.end())
            it->second = addAmount(it->second, a);
        else
            kept.emplace_back(name, a);
    }
    return kept;
}

} // namespace gantry::engine::kueue
