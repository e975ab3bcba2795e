#include "kueue_compare.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

namespace gantry::test {

namespace {

using nlohmann::json;

// dict.get(key) or {}: a missing or null member reads as an empty object.
const json& member(const json& j, const std::string& key) {
    static const json empty = json::object();
    if (!j.is_object()) return empty;
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return empty;
    return *it;
}

bool has(const json& j, const std::string& key) {
    return j.is_object() && j.contains(key);
}

std::string text(const json& j) {
    return j.is_null() ? "None" : j.dump();
}

std::set<std::string> keys(const json& j) {
    std::set<std::string> out;
    if (j.is_object())
        for (auto it = j.begin(); it != j.end(); ++it) out.insert(it.key());
    return out;
}

std::set<std::string> names(const json& j) {
    std::set<std::string> out;
    if (j.is_array())
        for (const auto& v : j) out.insert(v.is_string() ? v.get<std::string>() : v.dump());
    return out;
}

std::string list(const std::set<std::string>& s) {
    std::string out = "[";
    for (const auto& x : s) out += (out.size() > 1 ? ", " : "") + std::string("'") + x + "'";
    return out + "]";
}

bool subset(const std::set<std::string>& a, const std::set<std::string>& b) {
    return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

// Domains as a multiset of (values, count).
std::multiset<std::pair<std::string, json>> domainSet(const json& domains) {
    std::multiset<std::pair<std::string, json>> out;
    if (domains.is_array())
        for (const auto& d : domains) out.insert({member(d, "values").dump(), d.value("count", json())});
    return out;
}

// queue_after part: ClusterQueue -> sorted workloads, empty lists left out.
std::map<std::string, std::vector<std::string>> queuePart(const json& qa, const std::string& part) {
    std::map<std::string, std::vector<std::string>> out;
    const json& p = member(qa, part);
    for (auto it = p.begin(); it != p.end(); ++it) {
        if (!it->is_array() || it->empty()) continue;
        std::vector<std::string> w;
        for (const auto& v : *it) w.push_back(v.is_string() ? v.get<std::string>() : v.dump());
        std::sort(w.begin(), w.end());
        out[it.key()] = w;
    }
    return out;
}

std::string partText(const std::map<std::string, std::vector<std::string>>& m) {
    json j = json::object();
    for (const auto& [k, v] : m) j[k] = v;
    return j.dump();
}

} // namespace

std::string compareKueue(const json& exp, const json& got) {
    if (!got.is_object()) return "output is not a JSON object";
    const json& ga = member(got, "admitted");
    const json& ea = member(exp, "admitted");
    for (auto it = ea.begin(); it != ea.end(); ++it) {
        const std::string wl = it.key();
        const json& e = *it;
        if (!ga.contains(wl) || ga[wl].is_null())
            return wl + " not admitted (expected in " + e.value("clusterQueue", "") + ")";
        const json& g = ga[wl];
        if (g.value("clusterQueue", json()) != e["clusterQueue"])
            return wl + " admitted to " + text(g.value("clusterQueue", json())) + ", expected " +
                   e["clusterQueue"].dump();
        const json& ef = member(e, "flavors");
        for (auto ps = ef.begin(); ps != ef.end(); ++ps)
            for (auto r = ps->begin(); r != ps->end(); ++r) {
                const json& gps = member(member(g, "flavors"), ps.key());
                const json gf = gps.contains(r.key()) ? gps[r.key()] : json();
                if (gf != *r)
                    return wl + " podset " + ps.key() + " " + r.key() + ": flavor " + text(gf) +
                           ", expected " + r->dump();
            }
        const json& ec = member(e, "counts");
        for (auto ps = ec.begin(); ps != ec.end(); ++ps) {
            const json& gc = member(g, "counts");
            const json gn = gc.contains(ps.key()) ? gc[ps.key()] : json();
            if (gn != *ps)
                return wl + " podset " + ps.key() + ": count " + text(gn) + ", expected " + ps->dump();
        }
        if (has(e, "admittedCondition")) {
            const json gcnd = has(g, "admittedCondition") ? g["admittedCondition"] : json(true);
            if (gcnd != e["admittedCondition"])
                return wl + ": Admitted condition " + gcnd.dump() + ", expected " +
                       e["admittedCondition"].dump();
        }
        const json& et = member(e, "topologyAssignment");
        for (auto ps = et.begin(); ps != et.end(); ++ps) {
            const json& gtAll = member(g, "topologyAssignment");
            const json gt = gtAll.contains(ps.key()) ? gtAll[ps.key()] : json();
            if (gt.is_null() || (gt.is_object() && gt.empty()))
                return wl + " podset " + ps.key() + ": no topologyAssignment";
            const json gl = gt.value("levels", json());
            if (gl != (*ps)["levels"])
                return wl + " podset " + ps.key() + ": topology levels " + text(gl) + ", expected " +
                       (*ps)["levels"].dump();
            if (domainSet(gt.value("domains", json::array())) != domainSet((*ps)["domains"]))
                return wl + " podset " + ps.key() + ": topology domains " +
                       text(gt.value("domains", json())) + ", expected " + (*ps)["domains"].dump();
        }
    }
    if (exp.value("admitted_exact", false) && keys(ga) != keys(ea))
        return "admitted set " + list(keys(ga)) + ", expected " + list(keys(ea));

    const auto gp = names(got.value("preempted", json::array()));
    const auto ep = names(exp.value("preempted", json::array()));
    if (exp.value("preempted_exact", false) && gp != ep)
        return "preempted " + list(gp) + ", expected " + list(ep);
    if (!subset(ep, gp)) return "preempted " + list(gp) + ", expected at least " + list(ep);
    const json& er = member(exp, "preemption_reasons");
    for (auto it = er.begin(); it != er.end(); ++it) {
        const json& gr = member(got, "preemption_reasons");
        const json g = gr.contains(it.key()) ? gr[it.key()] : json();
        if (g != *it) return it.key() + ": preemption reason " + text(g) + ", expected " + it->dump();
    }

    const auto gq = names(got.value("pending", json::array()));
    const auto eq = names(exp.value("pending", json::array()));
    if (exp.value("pending_exact", false) && gq != eq)
        return "pending " + list(gq) + ", expected " + list(eq);
    if (!subset(eq, gq)) return "pending " + list(gq) + ", expected at least " + list(eq);
    const json& epr = member(exp, "pending_reasons");
    for (auto it = epr.begin(); it != epr.end(); ++it) {
        const json& gr = member(got, "pending_reasons");
        const json g = gr.contains(it.key()) ? gr[it.key()] : json();
        if (g != *it) return it.key() + ": pending reason " + text(g) + ", expected " + it->dump();
    }

    if (has(exp, "queue_after")) {
        const json& eqa = member(exp, "queue_after");
        const json& gqa = member(got, "queue_after");
        for (const char* part : {"active", "inadmissible"}) {
            auto e = queuePart(eqa, part), g = queuePart(gqa, part);
            if (e != g)
                return std::string("queue_after.") + part + " " + partText(g) + ", expected " + partText(e);
        }
    }
    return {};
}

} // namespace gantry::test
