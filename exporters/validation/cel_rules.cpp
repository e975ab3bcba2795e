#include "validation/cel_rules.h"

#include <algorithm>
#include <map>
#include <string>

namespace gantry {

namespace {

bool has(const Json& obj, const char* key) {
    return obj.is_object() && obj.contains(key) && !obj[key].is_null();
}

// CEL's field selection: a missing field is an evaluation error, which fails the rule.
const Json& get(const Json& obj, const char* key) {
    if (!has(obj, key)) throw std::out_of_range(key);
    return obj[key];
}

bool equals(const Json& obj, const char* key, const char* text) {
    const Json& v = get(obj, key);
    return v.is_string() && v.get<std::string>() == text;
}

bool in(const Json& obj, const char* key, std::initializer_list<const char*> values) {
    const Json& v = get(obj, key);
    return v.is_string() && std::any_of(values.begin(), values.end(), [&](const char* x) { return v == x; });
}

template <class F> bool all(const Json& list, F f) {
    if (!list.is_array()) throw std::out_of_range("not a list");
    return std::all_of(list.begin(), list.end(), f);
}

size_t size(const Json& v) {
    if (!v.is_array() && !v.is_object() && !v.is_string()) throw std::out_of_range("size");
    return v.size();
}

bool noBorrowingLimitWithoutCohort(const Json& self, const char* cohortField) {
    if (has(self, cohortField) || !has(self, "resourceGroups")) return true;
    return all(get(self, "resourceGroups"), [](const Json& rg) {
        return all(get(rg, "flavors"), [](const Json& f) {
            return all(get(f, "resources"), [](const Json& r) { return !has(r, "borrowingLimit"); });
        });
    });
}

const std::map<std::string, CelCheck, std::less<>>& registry() {
    static const std::map<std::string, CelCheck, std::less<>> checks{
        // Volcano HyperNode member selector: exactly one of the three.
        {"has(self.exactMatch) || has(self.regexMatch) || has(self.labelMatch)",
         [](const Json& s) { return has(s, "exactMatch") || has(s, "regexMatch") || has(s, "labelMatch"); }},
        {"(has(self.exactMatch) ? 1 : 0) + (has(self.regexMatch) ? 1 : 0) + (has(self.labelMatch) ? 1 : 0) "
         "<= 1",
         [](const Json& s) {
             return int(has(s, "exactMatch")) + int(has(s, "regexMatch")) + int(has(s, "labelMatch")) <= 1;
         }},
        // Kueue resource groups: each flavor lists as many resources as the group covers.
        {"self.flavors.all(x, size(x.resources) == size(self.coveredResources))",
         [](const Json& s) {
             size_t n = size(get(s, "coveredResources"));
             return all(get(s, "flavors"), [&](const Json& f) { return size(get(f, "resources")) == n; });
         }},
        // Kueue Topology levels: unique, and the hostname label only as the last level.
        {"size(self.filter(i, size(self.filter(j, j == i)) > 1)) == 0",
         [](const Json& s) {
             if (!s.is_array()) throw std::out_of_range("not a list");
             for (size_t i = 0; i < s.size(); ++i)
                 for (size_t j = 0; j < i; ++j)
                     if (s[i] == s[j]) return false;
             return true;
         }},
        {"size(self.filter(i, i.nodeLabel == 'kubernetes.io/hostname')) == 0 || self[size(self) - "
         "1].nodeLabel == "
         "'kubernetes.io/hostname'",
         [](const Json& s) {
             bool any = false;
             all(s, [&](const Json& l) {
                 return (any = any || equals(l, "nodeLabel", "kubernetes.io/hostname")), true;
             });
             return !any || (!s.empty() && equals(s.back(), "nodeLabel", "kubernetes.io/hostname"));
         }},
        // Kueue ClusterQueue: borrowingLimit only inside a cohort (v1beta1 `cohort`, v1beta2 `cohortName`).
        {"!has(self.cohort) && has(self.resourceGroups) ? self.resourceGroups.all(rg, rg.flavors.all(f, "
         "f.resources.all(r, !has(r.borrowingLimit)))) : true",
         [](const Json& s) { return noBorrowingLimitWithoutCohort(s, "cohort"); }},
        {"!has(self.cohortName) && has(self.resourceGroups) ? self.resourceGroups.all(rg, rg.flavors.all(f, "
         "f.resources.all(r, !has(r.borrowingLimit)))) : true",
         [](const Json& s) { return noBorrowingLimitWithoutCohort(s, "cohortName"); }},
        {"!has(self.preference) || (self.whenCanBorrow == 'TryNextFlavor' && self.whenCanPreempt == "
         "'TryNextFlavor')",
         [](const Json& s) {
             return !has(s, "preference") || (equals(s, "whenCanBorrow", "TryNextFlavor") &&
                                              equals(s, "whenCanPreempt", "TryNextFlavor"));
         }},
        {"!(self.reclaimWithinCohort == 'Never' && has(self.borrowWithinCohort) && "
         "self.borrowWithinCohort.policy != "
         "'Never')",
         [](const Json& s) {
             return !(equals(s, "reclaimWithinCohort", "Never") && has(s, "borrowWithinCohort") &&
                      !equals(get(s, "borrowWithinCohort"), "policy", "Never"));
         }},
        // Kueue ResourceFlavor.
        {"!has(self.topologyName) || self.nodeLabels.size() >= 1",
         [](const Json& s) { return !has(s, "topologyName") || size(get(s, "nodeLabels")) >= 1; }},
        {"self.all(x, x.effect in ['NoSchedule', 'PreferNoSchedule', 'NoExecute'])",
         [](const Json& s) {
             return all(s, [](const Json& x) {
                 return in(x, "effect", {"NoSchedule", "PreferNoSchedule", "NoExecute"});
             });
         }},
        {"self.all(x, !has(x.key) ? x.operator == 'Exists' : true)",
         [](const Json& s) {
             return all(s, [](const Json& x) { return has(x, "key") || equals(x, "operator", "Exists"); });
         }},
        {"self.all(x, has(x.tolerationSeconds) ? x.effect == 'NoExecute' : true)",
         [](const Json& s) {
             return all(s, [](const Json& x) {
                 return !has(x, "tolerationSeconds") || equals(x, "effect", "NoExecute");
             });
         }},
        {"self.all(x, !has(x.operator) || x.operator in ['Equal', 'Exists'])",
         [](const Json& s) {
             return all(s, [](const Json& x) {
                 return !has(x, "operator") || in(x, "operator", {"Equal", "Exists"});
             });
         }},
        {"self.all(x, has(x.operator) && x.operator == 'Exists' ? !has(x.value) : true)",
         [](const Json& s) {
             return all(s, [](const Json& x) {
                 return !(has(x, "operator") && equals(x, "operator", "Exists")) || !has(x, "value");
             });
         }},
        {"self.all(x, !has(x.effect) || x.effect in ['NoSchedule', 'PreferNoSchedule', 'NoExecute'])",
         [](const Json& s) {
             return all(s, [](const Json& x) {
                 return !has(x, "effect") || in(x, "effect", {"NoSchedule", "PreferNoSchedule", "NoExecute"});
             });
         }},
    };
    return checks;
}

} // namespace

const CelCheck* findCelCheck(std::string_view normalizedRule) {
    const auto& r = registry();
    auto it = r.find(normalizedRule);
    return it == r.end() ? nullptr : &it->second;
}

} // namespace gantry
