// Kueue's rules outside the CRD schemas (its validating webhook): resource groups, limits only in a
// cohort, lendingLimit <= nominalQuota, references between objects, the cohort tree.
#include "model/kubernetes_names.h"
#include "validation/manifest_set.h"

#include <algorithm>
#include <map>
#include <set>

namespace gantry {

namespace {

bool isKueue(const ManifestObject& o, const char* kind) {
    return o.content == ManifestObject::Content::Object && o.group == "kueue.x-k8s.io" && o.kind == kind;
}

// Resource groups of a ClusterQueue or a Cohort.
void checkResourceGroups(const ManifestObject& o, bool clusterQueue, bool inCohort,
                         const std::set<std::string>& knownFlavors, bool flavorsInFiles, ProblemSink& sink) {
    const Json* groups = o.at({"spec", "resourceGroups"});
    if (!groups || !groups->is_array()) return;
    const FieldPath at = FieldPath().field("spec").field("resourceGroups");
    std::map<std::string, size_t> flavorGroup, resourceGroup;
    size_t totalFlavors = 0, totalResources = 0;
    for (size_t g = 0; g < groups->size(); ++g) {
        const Json& rg = (*groups)[g];
        if (!rg.is_object()) continue;
        FieldPath gp = at.index(g);
        std::vector<std::string> covered;
        if (rg.contains("coveredResources") && rg["coveredResources"].is_array()) {
            for (size_t i = 0; i < rg["coveredResources"].size(); ++i) {
                const Json& r = rg["coveredResources"][i];
                std::string name = r.is_string() ? r.get<std::string>() : std::string();
                covered.push_back(name);
                FieldPath rp = gp.field("coveredResources").index(i);
                if (auto why = checkQualifiedName(name); !why.empty())
                    sink.error(o, rp, "resource name \"" + name + "\" is not a valid label key: " + why);
                auto [it, fresh] = resourceGroup.emplace(name, g);
                if (!fresh)
                    sink.error(o, rp,
                               "resource \"" + name + "\" is already covered by resourceGroups[" +
                                   std::to_string(it->second) + "]; a resource may be in one group only");
            }
        }
        totalResources += covered.size();
        if (!rg.contains("flavors") || !rg["flavors"].is_array()) continue;
        const Json& flavors = rg["flavors"];
        totalFlavors += flavors.size();
        if (flavors.size() * covered.size() > 512)
            sink.error(o, gp,
                       "has " + std::to_string(flavors.size() * covered.size()) +
                           " flavor x resource pairs; at most 512 are allowed");
        for (size_t f = 0; f < flavors.size(); ++f) {
            const Json& fl = flavors[f];
            if (!fl.is_object()) continue;
            FieldPath fp = gp.field("flavors").index(f);
            std::string flavor = stringAt(fl, "name");
            auto [it, fresh] = flavorGroup.emplace(flavor, g);
            if (!fresh)
                sink.error(o, fp.field("name"),
                           "flavor \"" + flavor + "\" is already used in resourceGroups[" +
                               std::to_string(it->second) + "]; a flavor may be in one resource group only");
            if (flavorsInFiles && !flavor.empty() && !knownFlavors.count(flavor))
                sink.warning(o, fp.field("name"), "ResourceFlavor \"" + flavor + "\" is not in these files");
            if (!fl.contains("resources") || !fl["resources"].is_array()) continue;
            const Json& resources = fl["resources"];
            for (size_t r = 0; r < resources.size(); ++r) {
                const Json& q = resources[r];
                if (!q.is_object()) continue;
                FieldPath qp = fp.field("resources").index(r);
                std::string name = stringAt(q, "name");
                if (r < covered.size() && name != covered[r])
                    sink.error(o, qp.field("name"),
                               "must be \"" + covered[r] +
                                   "\": a flavor lists the group's coveredResources, in the "
                                   "same order (coveredResources[" +
                                   std::to_string(r) + "])");
                std::optional<int64_t> nominal, borrowing, lending;
                auto amount = [&](const char* key, std::optional<int64_t>& out) {
                    if (!q.contains(key)) return;
                    out = quantityAmount(name, q[key]);
                    if (out && *out < 0) sink.error(o, qp.field(key), "must be greater than or equal to 0");
                };
                amount("nominalQuota", nominal);
                amount("borrowingLimit", borrowing);
                amount("lendingLimit", lending);
                if (q.contains("lendingLimit") && clusterQueue && !inCohort)
                    sink.error(o, qp.field("lendingLimit"), "must be nil when cohortName is empty");
                if (clusterQueue && lending && nominal && *lending > *nominal)
                    sink.error(o, qp.field("lendingLimit"),
                               "must be less than or equal to the nominalQuota (" +
                                   formatAmount(name, *lending) + " > " + formatAmount(name, *nominal) + ")");
            }
        }
    }
    if (totalFlavors > 256)
        sink.error(o, at, "uses " + std::to_string(totalFlavors) + " flavors; at most 256 are allowed");
    if (totalResources > 256)
        sink.error(o, at, "covers " + std::to_string(totalResources) + " resources; at most 256 are allowed");
}

void checkFairSharing(const ManifestObject& o, ProblemSink& sink) {
    const Json* w = o.at({"spec", "fairSharing", "weight"});
    if (!w) return;
    std::string text = w->is_string()           ? w->get<std::string>()
                       : w->is_number_integer() ? std::to_string(w->get<int64_t>())
                                                : "";
    auto q = Quantity::parse(text);
    if (!q) return; // the schema reported it
    FieldPath at = FieldPath().field("spec").field("fairSharing").field("weight");
    if (q->negative())
        sink.error(o, at, "must be greater than or equal to 0");
    else if (!q->isZero() && q->toDouble() <= 1e-9)
        sink.error(o, at, "a non-zero weight must be greater than 1e-9");
}

} // namespace

void checkKueueObjects(const std::vector<ManifestObject>& objects, ProblemSink& sink) {
    std::set<std::string> flavors, clusterQueues, topologies;
    std::map<std::string, const ManifestObject*> cohorts;
    bool anyFlavor = false, anyClusterQueue = false, anyTopology = false;
    for (const auto& o : objects) {
        if (isKueue(o, "ResourceFlavor")) flavors.insert(o.name), anyFlavor = true;
        if (isKueue(o, "ClusterQueue")) clusterQueues.insert(o.name), anyClusterQueue = true;
        if (isKueue(o, "Topology")) topologies.insert(o.name), anyTopology = true;
        if (isKueue(o, "Cohort")) {
            if (!cohorts.emplace(o.name, &o).second)
                sink.error(o, FieldPath().field("metadata").field("name"),
                           "Cohort \"" + o.name + "\" is defined more than once");
        }
    }
    std::set<std::string> seenCq, cohortCycle;
    for (const auto& o : objects) {
        if (isKueue(o, "ClusterQueue")) {
            if (!seenCq.insert(o.name).second)
                sink.error(o, FieldPath().field("metadata").field("name"),
                           "ClusterQueue \"" + o.name + "\" is defined more than once");
            const char* cohortField = o.version == "v1beta1" ? "cohort" : "cohortName";
            const Json* cohort = o.at({"spec", cohortField});
            bool inCohort = cohort && cohort->is_string() && !cohort->get<std::string>().empty();
            checkResourceGroups(o, true, inCohort, flavors, anyFlavor, sink);
            checkFairSharing(o, sink);
            if (!o.at({"spec", "namespaceSelector"}))
                sink.warning(
                    o, FieldPath().field("spec").field("namespaceSelector"),
                    "not set: a null namespaceSelector admits workloads from no namespace; {} admits all");
            // Admission checks may only name the queue's own flavors.
            std::set<std::string> own;
            if (const Json* groups = o.at({"spec", "resourceGroups"}); groups && groups->is_array())
                for (const auto& rg : *groups)
                    if (rg.is_object() && rg.contains("flavors") && rg["flavors"].is_array())
                        for (const auto& f : rg["flavors"])
                            if (f.is_object()) own.insert(stringAt(f, "name"));
            if (const Json* checks = o.at({"spec", "admissionChecksStrategy", "admissionChecks"});
                checks && checks->is_array())
                for (size_t i = 0; i < checks->size(); ++i)
                    if ((*checks)[i].is_object() && (*checks)[i].contains("onFlavors") &&
                        (*checks)[i]["onFlavors"].is_array())
                        for (size_t j = 0; j < (*checks)[i]["onFlavors"].size(); ++j) {
                            const Json& f = (*checks)[i]["onFlavors"][j];
                            if (f.is_string() && !own.count(f.get<std::string>()))
                                sink.error(o,
                                           FieldPath()
                                               .field("spec")
                                               .field("admissionChecksStrategy")
                                               .field("admissionChecks")
                                               .index(i)
                                               .field("onFlavors")
                                               .index(j),
                                           "flavor \"" + f.get<std::string>() +
                                               "\" is not used by this ClusterQueue");
                        }
        }
        if (isKueue(o, "Cohort")) {
            checkResourceGroups(o, false, true, flavors, anyFlavor, sink);
            checkFairSharing(o, sink);
            // The cohort tree must not loop.
            std::vector<std::string> chain{o.name};
            const ManifestObject* cur = &o;
            while (true) {
                const Json* p = cur->at({"spec", "parentName"});
                if (!p || !p->is_string() || p->get<std::string>().empty()) break;
                std::string parent = p->get<std::string>();
                if (std::find(chain.begin(), chain.end(), parent) != chain.end()) {
                    if (parent == o.name && !cohortCycle.count(o.name)) {
                        std::string text;
                        for (const auto& c : chain) text += c + " -> ";
                        cohortCycle.insert(chain.begin(), chain.end());
                        sink.error(o, FieldPath().field("spec").field("parentName"),
                                   "cycle in the cohort tree: " + text + parent);
                    }
                    break;
                }
                chain.push_back(parent);
                auto it = cohorts.find(parent);
                if (it == cohorts.end()) break;
                cur = it->second;
            }
        }
        if (isKueue(o, "LocalQueue")) {
            const Json* cq = o.at({"spec", "clusterQueue"});
            if (cq && cq->is_string() && anyClusterQueue && !clusterQueues.count(cq->get<std::string>()))
                sink.warning(o, FieldPath().field("spec").field("clusterQueue"),
                             "ClusterQueue \"" + cq->get<std::string>() + "\" is not in these files");
            if (o.name.size() > 63)
                sink.warning(o, FieldPath().field("metadata").field("name"),
                             "longer than 63 characters: jobs cannot name it in their "
                             "kueue.x-k8s.io/queue-name label");
        }
        if (isKueue(o, "ResourceFlavor")) {
            const Json* t = o.at({"spec", "topologyName"});
            if (t && t->is_string() && anyTopology && !topologies.count(t->get<std::string>()))
                sink.warning(o, FieldPath().field("spec").field("topologyName"),
                             "Topology \"" + t->get<std::string>() + "\" is not in these files");
        }
    }
}

} // namespace gantry
