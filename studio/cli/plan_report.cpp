#include "plan_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace gantry::cli {

namespace {

using nlohmann::ordered_json;

std::string signedCount(int64_t n) {
    std::string out = n > 0 ? "+" : "";
    return out.append(std::to_string(n));
}

// "+4" for one type, "a=+2 b=0" for a mix.
std::string countsText(const std::vector<int64_t>& counts, const plan::PlanRequest& request) {
    if (counts.size() == 1) return signedCount(counts[0]);
    std::string out;
    for (size_t i = 0; i < counts.size(); ++i)
        out.append(i ? " " : "").append(request.types[i].name).append("=").append(signedCount(counts[i]));
    return out;
}

ordered_json countsJson(const std::vector<int64_t>& counts, const plan::PlanRequest& request) {
    ordered_json mix = ordered_json::object();
    for (size_t i = 0; i < counts.size(); ++i) mix[request.types[i].name] = counts[i];
    return mix;
}

int64_t totalOf(const std::vector<int64_t>& counts) {
    int64_t t = 0;
    for (int64_t c : counts) t += c;
    return t;
}

double costOf(const std::vector<int64_t>& counts, const plan::PlanRequest& request) {
    double c = 0;
    for (size_t i = 0; i < counts.size(); ++i) c += double(counts[i]) * request.ranges[i].cost;
    return c;
}

std::string valueText(const plan::Slo& slo, const std::optional<double>& v) {
    return v ? sim::formatMetricValue(slo.metric.info().unit, *v) : "n/a";
}

// Metrics that count only jobs that got to run: they look better when jobs never start.
bool countsOnlyStartedJobs(const plan::Slo& slo) {
    const std::string& n = slo.metric.info().name;
    return n.rfind("wait.", 0) == 0 || n.rfind("completion.", 0) == 0 || n.rfind("gang.wait.", 0) == 0;
}

double pendingAtEnd(const plan::SeedRun& run) {
    for (const auto& [k, v] : run.metrics)
        if (k == "pending_at_end") return v;
    return 0;
}

} // namespace

std::string planJson(const plan::PlanResult& r, const plan::PlanRequest& request, const PlanContext& ctx) {
    const bool mix = request.types.size() > 1;
    ordered_json o;
    o["input"] = ctx.input;
    o["profile"] = ctx.profile;
    auto types = ordered_json::array();
    for (size_t i = 0; i < request.types.size(); ++i) {
        ordered_json t;
        t["name"] = request.types[i].name;
        t["template"] = request.types[i].templateNode.has_value();
        t["nodes"] = i < ctx.pools.size() ? ctx.pools[i].nodes : 0;
        t["min"] = request.ranges[i].min;
        t["max"] = request.ranges[i].max;
        if (mix) t["cost"] = request.ranges[i].cost;
        types.push_back(std::move(t));
    }
    o["node_types"] = std::move(types);
    o["seeds"] = request.seeds;
    auto slos = ordered_json::array();
    for (const auto& s : request.slos) slos.push_back(s.text);

    ordered_json answer;
    answer["nodes"] = totalOf(r.answer);
    answer["met"] = r.met;
    if (mix) {
        answer["mix"] = countsJson(r.answer, request);
        answer["cost"] = costOf(r.answer, request);
    }
    if (const plan::PlanPoint* a = r.answerPoint()) {
        auto margin = ordered_json::array();
        for (size_t k = 0; k < request.slos.size(); ++k) {
            ordered_json m;
            m["slo"] = request.slos[k].text;
            m["worst"] = a->worst[k] ? ordered_json(*a->worst[k]) : ordered_json(nullptr);
            m["headroom"] =
                a->worst[k] ? ordered_json(request.slos[k].headroom(*a->worst[k])) : ordered_json(nullptr);
            margin.push_back(std::move(m));
        }
        answer["margin"] = std::move(margin);
    }
    if (r.cancelled) answer["cancelled"] = true;
    o["answer"] = std::move(answer);
    o["slo"] = std::move(slos);

    auto points = ordered_json::array();
    for (const auto& p : r.points) {
        ordered_json j;
        j["nodes"] = p.total();
        if (mix) {
            j["mix"] = countsJson(p.counts, request);
            j["cost"] = costOf(p.counts, request);
        }
        j["pass"] = p.pass;
        j["round"] = p.round;
        auto judged = ordered_json::array();
        for (size_t k = 0; k < request.slos.size() && k < p.sloPass.size(); ++k)
            judged.push_back({{"slo", request.slos[k].text},
                              {"pass", bool(p.sloPass[k])},
                              {"worst", p.worst[k] ? ordered_json(*p.worst[k]) : ordered_json(nullptr)}});
        j["slo"] = std::move(judged);
        auto seeds = ordered_json::array();
        for (const auto& s : p.seeds) {
            ordered_json metrics = ordered_json::object();
            for (const auto& [k, v] : s.metrics) metrics[k] = v;
            seeds.push_back({{"seed", s.seed}, {"metrics", std::move(metrics)}});
        }
        j["seeds"] = std::move(seeds);
        points.push_back(std::move(j));
    }
    o["points"] = std::move(points);
    auto violations = ordered_json::array();
    for (const auto& v : r.violations) {
        ordered_json j;
        j["passing"] = mix ? countsJson(v.passing, request) : ordered_json(v.passing[0]);
        j["failing"] = mix ? countsJson(v.failing, request) : ordered_json(v.failing[0]);
        violations.push_back(std::move(j));
    }
    o["monotonic_violations"] = std::move(violations);
    o["notes"] = ctx.notes;
    return o.dump(1) + "\n";
}

void printPlan(std::ostream& out, const plan::PlanResult& r, const plan::PlanRequest& request,
               const PlanContext& ctx) {
    const bool mix = request.types.size() > 1;
    std::string typeNames, seeds;
    for (size_t i = 0; i < request.types.size(); ++i)
        typeNames.append(i ? " and " : "").append(request.types[i].name);
    for (size_t i = 0; i < request.seeds.size(); ++i)
        seeds.append(i ? ", " : "").append(std::to_string(request.seeds[i]));
    out << "Plan: " << typeNames << " nodes for " << ctx.input << " under " << ctx.profile << " ("
        << request.seeds.size() << " seed" << (request.seeds.size() == 1 ? "" : "s") << ": " << seeds << "; "
        << ctx.threads << " thread" << (ctx.threads == 1 ? "" : "s") << ")\n";
    out << "SLOs:";
    for (const auto& s : request.slos) out << "  " << s.text;
    out << "\n\n";

    const plan::PlanPoint* a = r.answerPoint();
    if (r.cancelled) {
        out << "Cancelled after " << r.points.size() << " points.\n";
    } else if (!r.met) {
        out << "No answer: the SLOs do not hold even at " << countsText(r.answer, request)
            << " (the range's maximum). Widen the range (--max) or relax the SLOs.\n";
    } else {
        out << "Answer: ";
        if (mix) {
            char cost[64];
            std::snprintf(cost, sizeof cost, " (cost %g)", costOf(r.answer, request));
            out << countsText(r.answer, request) << " nodes" << cost;
        } else {
            const int64_t n = r.answer[0];
            const std::string what =
                request.types[0].templateNode ? "nodes like " + typeNames : typeNames + " nodes";
            out << (n > 0   ? "add " + std::to_string(n) + " " + what
                    : n < 0 ? "remove " + std::to_string(-n) + " " + what
                            : "no change to the " + what);
            if (!request.types[0].templateNode && !ctx.pools.empty()) {
                out << " (" << ctx.pools[0].nodes + n << " in the pool, " << ctx.pools[0].nodes << " now)";
                // In physical GPUs too: a GPU split into MIG instances counts once.
                if (ctx.pools[0].gpusPerNode > 0)
                    out << ", " << (ctx.pools[0].nodes + n) * ctx.pools[0].gpusPerNode << " GPUs";
            }
        }
        out << ": every SLO holds for all " << request.seeds.size() << " seeds\n";
        for (size_t k = 0; a && k < request.slos.size(); ++k) {
            const auto& slo = request.slos[k];
            out << "  " << slo.text << ": worst seed " << valueText(slo, a->worst[k]);
            if (a->worst[k]) out << ", " << slo.headroomText(*a->worst[k]);
            out << '\n';
        }
        // The neighbour that fails, when it was tried: the answer's margin in nodes.
        for (const auto& p : r.points) {
            if (mix || p.pass || p.counts[0] != r.answer[0] - 1) continue;
            out << "  one node fewer (" << countsText(p.counts, request) << ") fails:";
            for (size_t k = 0; k < request.slos.size(); ++k)
                if (!p.sloPass[k])
                    out << " " << request.slos[k].metric.name() << " "
                        << valueText(request.slos[k], p.worst[k]);
            out << '\n';
        }
        if (a)
            for (const auto& slo : request.slos) {
                if (!countsOnlyStartedJobs(slo)) continue;
                double pending = 0;
                for (const auto& s : a->seeds) pending = std::max(pending, pendingAtEnd(s));
                if (pending > 0)
                    out << "  note: " << slo.metric.name() << " counts only jobs that started; up to "
                        << pending
                        << " jobs were still waiting at the end (add pending_at_end==0 to require them "
                           "all)\n";
                break;
            }
    }

    // Points tried: one row each, columns as wide as their widest cell.
    std::vector<std::vector<std::string>> rows{{"nodes", "pass", "round"}};
    for (const auto& s : request.slos) rows[0].push_back(s.metric.name());
    for (const auto& p : r.points) {
        std::vector<std::string> row{countsText(p.counts, request), p.pass ? "yes" : "no",
                                     std::to_string(p.round)};
        for (size_t k = 0; k < request.slos.size(); ++k)
            row.push_back(valueText(request.slos[k], p.worst[k]) + (p.sloPass[k] ? "" : " x"));
        if (p.counts == r.answer && r.met) row.push_back("<- answer");
        rows.push_back(std::move(row));
    }
    std::vector<size_t> width;
    for (const auto& row : rows)
        for (size_t c = 0; c < row.size(); ++c) {
            if (width.size() <= c) width.push_back(0);
            width[c] = std::max(width[c], row[c].size());
        }
    out << "\nPoints tried (worst seed per SLO; x = misses)\n";
    for (const auto& row : rows) {
        std::string text = " ";
        for (size_t c = 0; c < row.size(); ++c)
            text.append(" ").append(row[c]).append(c + 1 < row.size() ? width[c] - row[c].size() : 0, ' ');
        out << text << '\n';
    }

    if (!mix && !r.points.empty() && !request.slos.empty()) {
        // The curve: the first SLO's metric against the count, its threshold as a bar.
        const plan::Slo& slo = request.slos[0];
        double top = std::fabs(slo.threshold);
        for (const auto& p : r.points)
            if (p.worst[0]) top = std::max(top, std::fabs(*p.worst[0]));
        if (top > 0) {
            const int bars = 40;
            const int mark = int(std::lround(std::fabs(slo.threshold) / top * bars));
            out << "\n"
                << slo.metric.name() << " (worst seed) against " << typeNames
                << " nodes added; | is the SLO (" << slo.symbol() << " "
                << sim::formatMetricValue(slo.metric.info().unit, slo.threshold) << ")\n";
            for (const auto& p : r.points) {
                const int bar = p.worst[0] ? int(std::lround(std::fabs(*p.worst[0]) / top * bars)) : 0;
                std::string row;
                for (int c = 0; c <= bars; ++c) row += c == mark ? "|" : c < bar ? "#" : " ";
                char line[32];
                std::snprintf(line, sizeof line, "  %6s ", signedCount(p.counts[0]).c_str());
                out << line << row << ' ' << valueText(slo, p.worst[0])
                    << (p.counts == r.answer && r.met ? "  <- answer" : "") << '\n';
            }
        }
    }

    out << '\n';
    if (r.violations.empty()) {
        out << "Monotonic assumption: held at every point tried.\n";
    } else {
        out << "Monotonic assumption violated at " << r.violations.size() << " pair"
            << (r.violations.size() == 1 ? "" : "s") << " of points (more nodes, a failing SLO):\n";
        size_t shown = 0;
        for (const auto& v : r.violations) {
            if (shown++ == 8) {
                out << "  ...\n";
                break;
            }
            out << "  " << countsText(v.failing, request) << " failed although "
                << countsText(v.passing, request) << " passed\n";
        }
        out << "The search trusts the assumption: its answer is the lowest count that passed with the count "
               "below it failing (or at the minimum); counts it skipped may behave otherwise, and other "
               "seeds "
               "may move it.\n";
    }
    for (const auto& n : ctx.notes) out << "note: " << n << '\n';
}

} // namespace gantry::cli
