#include "profiles/volcano/plugins/fairshare_history.h"

#include "model/go_text.h"
#include "model/resources.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string_view>

namespace gantry::engine::fairshare {

namespace {

constexpr double kCleanupThreshold = 0.01; // usageCleanupThreshold

std::string located(const FairshareStateMap& m, const std::string& why) {
    std::string where = m.source.str();
    return "fairshare: the state in ConfigMap " + m.ns + "/" + m.name +
           (where.empty() ? "" : " (" + where + ")") + " cannot be read (" + why +
           "): starting without usage history, as the scheduler does";
}

} // namespace

std::optional<std::string> loadState(History& h, const std::vector<FairshareStateMap>& maps,
                                     const std::string& ns, const std::string& name,
                                     std::optional<int64_t> epochUnix) {
    const FairshareStateMap* found = nullptr;
    for (const auto& m : maps)
        if (m.ns == ns && m.name == name) found = &m;
    if (!found || found->stateJson.empty()) return std::nullopt;
    // encoding/json into persistedState: keys match the fields case-insensitively, in the order
    // written (a later match overwrites); unknown keys are ignored; null leaves lastCycle as it was
    // and sets queues to nil; a value of the wrong type fails the whole state.
    const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(found->stateJson, nullptr, false);
    if (doc.is_discarded()) return located(*found, "not JSON");
    if (doc.is_null()) return std::nullopt;
    if (!doc.is_object()) return located(*found, "not a JSON object");
    auto is = [](const std::string& key, std::string_view field) {
        return key.size() == field.size() &&
               std::equal(key.begin(), key.end(), field.begin(), [](char a, char b) {
                   return std::tolower(static_cast<unsigned char>(a)) ==
                          std::tolower(static_cast<unsigned char>(b));
               });
    };
    std::optional<double> lastCycle;
    std::map<std::string, std::map<std::string, double>> usage;
    for (const auto& [key, value] : doc.items()) {
        if (is(key, "lastCycle")) {
            if (value.is_null()) continue;
            if (!value.is_string()) return located(*found, key + " is not a string");
            lastCycle = parseRfc3339(value.get<std::string>());
            if (!lastCycle)
                return located(*found, key + " '" + value.get<std::string>() + "' is not an RFC 3339 time");
        } else if (is(key, "queues")) {
            if (value.is_null()) {
                usage.clear();
                continue;
            }
            if (!value.is_object()) return located(*found, key + " is not an object");
            // A map decoded into keeps its entries; each queue's own map is decoded afresh.
            for (const auto& [queue, namespaces] : value.items()) {
                auto& into = usage[queue];
                into.clear();
                if (namespaces.is_null()) continue;
                if (!namespaces.is_object()) return located(*found, key + "." + queue + " is not an object");
                for (const auto& [nsName, amount] : namespaces.items()) {
                    if (!amount.is_number())
                        return located(*found, key + "." + queue + "." + nsName + " is not a number");
                    into[nsName] = amount.get<double>();
                }
            }
        }
    }
    h.usage = std::move(usage);
    // time.Time's zero value (no lastCycle) makes the next session's elapsed time zero.
    h.lastCycle.reset();
    h.lastFromState = false;
    if (lastCycle) {
        // In the state's seconds; without an object's creation time the session runs at lastCycle.
        h.lastCycle = epochUnix ? *lastCycle - double(*epochUnix) : 0.0;
        h.lastFromState = true;
    }
    return std::nullopt;
}

std::map<std::string, double> fairShares(const std::map<std::string, double>& demand, double total) {
    std::map<std::string, double> shares;
    std::map<std::string, double> remaining;
    for (const auto& [ns, want] : demand)
        if (want > 0) remaining.emplace(ns, want);
    if (remaining.empty() || total <= 0) return shares;
    double available = total;
    while (!remaining.empty()) {
        const double equal = available / double(remaining.size());
        bool satisfied = false;
        for (auto it = remaining.begin(); it != remaining.end();) {
            if (it->second <= equal) {
                shares[it->first] = it->second;
                available -= it->second;
                it = remaining.erase(it);
                satisfied = true;
            } else {
                ++it;
            }
        }
        if (!satisfied) {
            for (const auto& [ns, want] : remaining) shares[ns] = equal;
            break;
        }
    }
    return shares;
}

double decayFactor(double elapsedSeconds, double halfLifeSeconds) {
    if (halfLifeSeconds <= 0) return 1;
    return std::pow(2.0, -elapsedSeconds / halfLifeSeconds);
}

void decayAll(History& h, double factor) {
    for (auto& [queue, namespaces] : h.usage)
        for (auto it = namespaces.begin(); it != namespaces.end();) {
            const double decayed = it->second * factor;
            if (decayed < kCleanupThreshold) {
                it = namespaces.erase(it);
            } else {
                it->second = decayed;
                ++it;
            }
        }
}

double accrued(double units, double period, int64_t sessions, double halfLifeSeconds) {
    if (units == 0 || sessions <= 0) return 0;
    if (sessions == 1) return units * period;
    const double f = decayFactor(period, halfLifeSeconds);
    // The newest session's share is not decayed, the oldest's sessions - 1 times.
    const double sum = f >= 1 ? double(sessions) : (1 - std::pow(f, double(sessions))) / (1 - f);
    return units * period * sum;
}

std::map<std::pair<std::string, std::string>, double> usageAt(const History& h, double t, double period) {
    std::map<std::pair<std::string, std::string>, double> out;
    const double elapsed = h.lastCycle ? std::max(0.0, t - *h.lastCycle) : 0;
    const double factor = decayFactor(elapsed, h.halfLifeSeconds);
    for (const auto& [queue, namespaces] : h.usage)
        for (const auto& [ns, usage] : namespaces) out[{queue, ns}] = usage * factor;
    if (elapsed > 0 && period > 0) {
        const int64_t sessions = std::max<int64_t>(1, std::llround(elapsed / period));
        for (const auto& [key, units] : h.running)
            out[key] += accrued(units, elapsed / double(sessions), sessions, h.halfLifeSeconds);
    }
    return out;
}

void UsageRecorder::sample(const History& h, double t, double period) {
    for (const auto& [queue, key] : h.resourceKeys) keys_[queue] = key;
    for (const auto& [tenant, units] : usageAt(h, t, period)) {
        auto it = keys_.find(tenant.first);
        const std::string key = it == keys_.end() ? "nvidia.com/gpu" : it->second;
        // Units times seconds: milli-units for cpu and extended resources, bytes for memory.
        const double perHour = unitOf(key) == ResourceUnit::Bytes   ? double(int64_t(1) << 30) * 3600
                               : unitOf(key) == ResourceUnit::Milli ? 1000.0 * 3600
                                                                    : 3600.0;
        auto& v = usage_[tenant];
        v.resize(samples_, 0.0);
        v.push_back(units / perHour);
    }
    ++samples_;
}

std::vector<ObjectSeries> UsageRecorder::series() const {
    std::vector<ObjectSeries> out;
    for (const auto& [tenant, values] : usage_) {
        ObjectSeries s;
        s.kind = "fairshare namespace";
        s.name = tenant.first + "/" + tenant.second;
        auto it = keys_.find(tenant.first);
        const std::string key = it == keys_.end() ? "nvidia.com/gpu" : it->second;
        std::vector<double> v = values;
        v.resize(samples_, v.empty() ? 0.0 : v.back());
        double peak = 0;
        for (double x : v) peak = std::max(peak, x);
        s.series.emplace_back("decayed_usage_" + key + (unitOf(key) == ResourceUnit::Bytes ? "_gib" : "") +
                                  "_hours",
                              std::move(v));
        s.totals.emplace_back("peak_decayed_usage_hours", peak);
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace gantry::engine::fairshare
