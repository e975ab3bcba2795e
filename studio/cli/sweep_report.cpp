#include "sweep_report.h"

#include "input_error.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

namespace gantry::cli {

namespace {

using nlohmann::ordered_json;

std::vector<plan::Slo> parsedSlos(const SweepHeader& h) {
    std::vector<plan::Slo> out;
    for (const auto& text : h.slos) {
        auto parsed = plan::parseSlo(text);
        if (auto* s = std::get_if<plan::Slo>(&parsed)) out.push_back(std::move(*s));
    }
    return out;
}

std::optional<double> metricOf(const PointRecord& p, const std::string& name) {
    for (const auto& [k, v] : p.metrics)
        if (k == name) return v;
    return std::nullopt;
}

struct Group {
    std::string profile, policy;
    int64_t nodes = 0;
    std::vector<const PointRecord*> points;
};

std::vector<Group> groupsOf(const std::vector<PointRecord>& points) {
    std::vector<Group> out;
    std::map<std::tuple<std::string, std::string, int64_t>, size_t> index;
    for (const auto& p : points) {
        auto [it, inserted] = index.try_emplace({p.profile, p.policy, p.nodes}, out.size());
        if (inserted) out.push_back({p.profile, p.policy, p.nodes, {}});
        out[it->second].points.push_back(&p);
    }
    return out;
}

struct Judgement {
    bool pass = true;
    std::vector<bool> sloPass;
    std::vector<std::optional<double>> worst;
};

Judgement judge(const std::vector<plan::Slo>& slos, const std::vector<const PointRecord*>& points) {
    Judgement j;
    for (const auto& slo : slos) {
        bool holds = true;
        std::optional<double> worst;
        for (const auto* p : points) {
            auto v = metricOf(*p, slo.metric.name());
            if (!v) {
                holds = false;
                continue;
            }
            holds = holds && slo.holds(*v);
            worst = worst ? slo.worst(*worst, *v) : *v;
        }
        j.sloPass.push_back(holds);
        j.worst.push_back(worst);
        j.pass = j.pass && holds;
    }
    return j;
}

ordered_json metricsJson(const std::vector<std::pair<std::string, double>>& metrics) {
    ordered_json o = ordered_json::object();
    for (const auto& [k, v] : metrics) o[k] = v;
    return o;
}

std::string signedCount(int64_t n) {
    std::string out = n > 0 ? "+" : "";
    return out.append(std::to_string(n));
}

// A Kubernetes object name from the grid's: lower-case letters, digits and '-', at most 50 characters
// (room for the generated pods' suffixes).
std::string dnsName(const std::string& text) {
    std::string out;
    for (char c : text) {
        const char l = char(std::tolower(static_cast<unsigned char>(c)));
        if (std::isalnum(static_cast<unsigned char>(l)))
            out += l;
        else if (!out.empty() && out.back() != '-')
            out += '-';
    }
    while (!out.empty() && out.back() == '-') out.pop_back();
    if (out.size() > 50) out.resize(50);
    while (!out.empty() && out.back() == '-') out.pop_back();
    return out.empty() ? "grid" : out;
}

} // namespace

std::string pointFileName(size_t index) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "point-%06zu.json", index);
    return buf;
}

std::string pointJson(const SweepHeader& h, const PointRecord& p) {
    ordered_json o;
    o["grid"] = h.grid;
    o["fingerprint"] = h.fingerprint;
    o["points_total"] = h.points;
    o["slo"] = h.slos;
    o["index"] = p.index;
    o["profile"] = p.profile;
    o["policy"] = p.policy;
    o["nodes"] = p.nodes;
    o["seed"] = p.seed;
    o["metrics"] = metricsJson(p.metrics);
    return o.dump(1) + "\n";
}

std::pair<SweepHeader, PointRecord> readPointJson(const std::string& text, const std::string& path) {
    ordered_json o = ordered_json::parse(text, nullptr, false);
    auto bad = [&](const std::string& what) { return InputError(SourceRef{path, 0, 0, 0}, what); };
    if (o.is_discarded() || !o.is_object()) throw bad("not a JSON object");
    try {
        SweepHeader h;
        h.grid = o.at("grid").get<std::string>();
        h.fingerprint = o.at("fingerprint").get<std::string>();
        h.points = o.at("points_total").get<size_t>();
        h.slos = o.at("slo").get<std::vector<std::string>>();
        PointRecord p;
        p.index = o.at("index").get<size_t>();
        p.profile = o.at("profile").get<std::string>();
        p.policy = o.at("policy").get<std::string>();
        p.nodes = o.at("nodes").get<int64_t>();
        p.seed = o.at("seed").get<uint64_t>();
        for (const auto& [k, v] : o.at("metrics").items()) p.metrics.emplace_back(k, v.get<double>());
        return {h, p};
    } catch (const nlohmann::json::exception& e) {
        throw bad(std::string("not a sweep point: ") + e.what());
    }
}

std::string reportJson(const SweepHeader& h, const std::vector<PointRecord>& points) {
    const auto slos = parsedSlos(h);
    ordered_json o;
    o["grid"] = h.grid;
    o["fingerprint"] = h.fingerprint;
    o["points_total"] = h.points;
    o["slo"] = h.slos;
    auto list = ordered_json::array();
    for (const auto& p : points) {
        ordered_json j;
        j["index"] = p.index;
        j["profile"] = p.profile;
        j["policy"] = p.policy;
        j["nodes"] = p.nodes;
        j["seed"] = p.seed;
        if (!slos.empty()) j["pass"] = judge(slos, {&p}).pass;
        j["metrics"] = metricsJson(p.metrics);
        list.push_back(std::move(j));
    }
    o["points"] = std::move(list);
    auto groups = ordered_json::array();
    for (const auto& g : groupsOf(points)) {
        ordered_json j;
        j["profile"] = g.profile;
        j["policy"] = g.policy;
        j["nodes"] = g.nodes;
        auto seeds = ordered_json::array();
        for (const auto* p : g.points) seeds.push_back(p->seed);
        j["seeds"] = std::move(seeds);
        if (!slos.empty()) {
            const Judgement verdict = judge(slos, g.points);
            j["pass"] = verdict.pass;
            auto judged = ordered_json::array();
            for (size_t k = 0; k < slos.size(); ++k)
                judged.push_back(
                    {{"slo", slos[k].text},
                     {"pass", bool(verdict.sloPass[k])},
                     {"worst", verdict.worst[k] ? ordered_json(*verdict.worst[k]) : ordered_json(nullptr)}});
            j["slo"] = std::move(judged);
        }
        // Means over the seeds, for metrics every seed has, in the first seed's order.
        ordered_json mean = ordered_json::object();
        for (const auto& [name, first] : g.points.front()->metrics) {
            double sum = 0;
            bool everywhere = true;
            for (const auto* p : g.points) {
                auto v = metricOf(*p, name);
                everywhere = everywhere && v.has_value();
                sum += v.value_or(0);
            }
            if (everywhere) mean[name] = sum / double(g.points.size());
        }
        j["mean"] = std::move(mean);
        groups.push_back(std::move(j));
    }
    o["groups"] = std::move(groups);
    return o.dump(1) + "\n";
}

void printReport(std::ostream& out, const SweepHeader& h, const std::vector<PointRecord>& points) {
    const auto slos = parsedSlos(h);
    out << "Sweep " << h.grid << ": " << points.size() << " points\n";
    std::vector<std::vector<std::string>> rows{{"profile", "policy", "nodes", "seeds"}};
    for (const auto& s : slos) rows[0].push_back(s.metric.name());
    if (!slos.empty()) rows[0].push_back("pass");
    for (const char* m : {"wait.p95", "gpu.mean_allocation_pct", "pending_at_end"})
        rows[0].push_back(std::string("mean ") + m);
    for (const auto& g : groupsOf(points)) {
        std::vector<std::string> row{g.profile, g.policy, signedCount(g.nodes),
                                     std::to_string(g.points.size())};
        const Judgement verdict = judge(slos, g.points);
        for (size_t k = 0; k < slos.size(); ++k)
            row.push_back((verdict.worst[k]
                               ? sim::formatMetricValue(slos[k].metric.info().unit, *verdict.worst[k])
                               : std::string("n/a")) +
                          (verdict.sloPass[k] ? "" : " x"));
        if (!slos.empty()) row.push_back(verdict.pass ? "yes" : "no");
        for (auto [name, unit] : {std::pair{"wait.p95", sim::MetricUnit::Seconds},
                                  std::pair{"gpu.mean_allocation_pct", sim::MetricUnit::Percent},
                                  std::pair{"pending_at_end", sim::MetricUnit::Count}}) {
            double sum = 0;
            for (const auto* p : g.points) sum += metricOf(*p, name).value_or(0);
            row.push_back(sim::formatMetricValue(unit, sum / double(g.points.size())));
        }
        rows.push_back(std::move(row));
    }
    std::vector<size_t> width(rows[0].size(), 0);
    for (const auto& row : rows)
        for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    for (const auto& row : rows) {
        std::string text = " ";
        for (size_t c = 0; c < row.size(); ++c)
            text.append(" ").append(row[c]).append(c + 1 < row.size() ? width[c] - row[c].size() : 0, ' ');
        out << text << '\n';
    }
    if (!slos.empty()) out << "(worst seed per SLO; x = misses)\n";
}

std::vector<Json> sweepJobObjects(const JobSpec& spec) {
    const std::string name = "gantry-sweep-" + dnsName(spec.name);
    Json labels = {{"app.kubernetes.io/name", "gantry-sweep"}, {"gantry.io/sweep", dnsName(spec.name)}};
    auto meta = [&] {
        Json m = {{"name", name}};
        if (!spec.ns.empty()) m["namespace"] = spec.ns;
        m["labels"] = labels;
        return m;
    };
    Json data = Json::object();
    for (const auto& [key, text] : spec.files) data[key] = text;
    Json configMap = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", meta()}, {"data", data}};

    const std::string grid = std::string(kJobGridDir) + "/grid.yaml";
    Json container = {{"name", "point"},
                      {"image", spec.image},
                      {"command", {"gantry", "sweep", "point", "--grid", grid, "--out", kJobResultsDir}},
                      {"resources", {{"requests", {{"cpu", spec.cpu}, {"memory", spec.memory}}}}},
                      {"volumeMounts",
                       {{{"name", "grid"}, {"mountPath", kJobGridDir}, {"readOnly", true}},
                        {{"name", "results"}, {"mountPath", kJobResultsDir}}}}};
    Json pod = {{"restartPolicy", "Never"},
                {"containers", {container}},
                {"volumes",
                 {{{"name", "grid"}, {"configMap", {{"name", name}}}},
                  {{"name", "results"}, {"persistentVolumeClaim", {{"claimName", spec.resultsClaim}}}}}}};
    Json job = {{"apiVersion", "batch/v1"},
                {"kind", "Job"},
                {"metadata", meta()},
                {"spec",
                 {{"completionMode", "Indexed"},
                  {"completions", spec.completions},
                  {"parallelism", std::min<size_t>(size_t(spec.parallelism), spec.completions)},
                  {"template", {{"metadata", {{"labels", labels}}}, {"spec", pod}}}}}};
    return {configMap, job};
}

} // namespace gantry::cli
