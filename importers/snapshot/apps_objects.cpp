// apps/v1 Deployment, ReplicaSet and StatefulSet: services that run until the end of a what-if, one
// pod per replica, named as their controllers name them (without the random part of the name: a
// Deployment's pods `<deployment>-<template hash>-<suffix>`, a ReplicaSet's `<replicaset>-<suffix>`,
// a StatefulSet's `<statefulset>-<ordinal>`). Each becomes one workload; how each scheduler groups
// its pods (Volcano: one PodGroup per ReplicaSet; YuniKorn: the namespace's application; Kueue: a
// pod group for a StatefulSet, pods admitted one by one for a Deployment) is the profile's reading.
#include "import_state.h"

#include <cstdint>

namespace gantry::snapshot {

namespace {

// Characters of the API server's generated names, from a hash: the same manifest gives the same names.
std::string suffixOf(uint64_t h, int length) {
    static constexpr char kAlphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    std::string out;
    for (int i = 0; i < length; ++i) {
        out += kAlphabet[h % (sizeof(kAlphabet) - 1)];
        h = h / (sizeof(kAlphabet) - 1) * 2654435761u + 0x9e3779b97f4a7c15ull;
    }
    return out;
}

uint64_t hashOf(const std::string& text) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    return h;
}

int32_t replicasOf(const Y& spec) {
    const int32_t n = spec["replicas"].i32(1); // the API default
    if (n < 0) spec["replicas"].fail("replicas must not be negative");
    return n;
}

void readReplicated(State& s, const Object& o, const char* kind, bool ordinals, bool templateHash) {
    const Y& r = o.root;
    r.checkKeys(kind, {"apiVersion", "kind", "metadata", "spec", "status"});
    auto spec = r["spec"];
    spec.checkKeys(kind, {"replicas", "template"},
                   {"selector", "strategy", "minReadySeconds", "revisionHistoryLimit",
                    "progressDeadlineSeconds", "paused", "serviceName", "podManagementPolicy",
                    "updateStrategy", "volumeClaimTemplates", "persistentVolumeClaimRetentionPolicy",
                    "ordinals"});
    Expansion e = expansionOf(o, "apps");
    Expansion::Role role;
    role.replicas = replicasOf(spec);
    role.pod = readPodTemplate(s, spec["template"], kind);
    std::string base = o.name + "-";
    if (templateHash) base += suffixOf(hashOf(o.ns + "/" + o.name), 10) + "-";
    const uint64_t seed = hashOf(base);
    role.podName = [base, seed, ordinals](int i) {
        return base +
               (ordinals ? std::to_string(i) : suffixOf(seed + uint64_t(i) * 0x9e3779b97f4a7c15ull, 5));
    };
    e.roles.push_back(std::move(role));
    queueOf(e);
    deferExpansion(s, o, std::move(e));
}

} // namespace

void readDeployment(State& s, const Object& o) {
    readReplicated(s, o, "Deployment", false, true);
}
void readReplicaSet(State& s, const Object& o) {
    // A ReplicaSet a Deployment of the input owns is that Deployment's: expanding both would double.
    for (const auto& ref : o.root["metadata"]["ownerReferences"].items())
        if (ref["kind"].str() == "Deployment")
            s.podOwners.emplace("apps/Deployment", o.ns, ref["name"].str());
    readReplicated(s, o, "ReplicaSet", false, false);
}
void readStatefulSet(State& s, const Object& o) {
    readReplicated(s, o, "StatefulSet", true, false);
}

} // namespace gantry::snapshot
