#include "project/project_schema.h"

namespace gantry::project {

namespace {
template <class E, size_t N> bool lookup(const std::string& s, E& v, const E (&all)[N]) {
    for (E e : all)
        if (s == enumText(e)) {
            v = e;
            return true;
        }
    return false;
}
} // namespace

const char* enumText(Queue::Kind v) {
    return toString(v);
}
const char* enumText(QueueState v) {
    return toString(v);
}
const char* enumText(PodPhase v) {
    return toString(v);
}
const char* enumText(PodGroupPhase v) {
    return toString(v);
}
const char* enumText(SelectorOp v) {
    return toString(v);
}
const char* enumText(TaintEffect v) {
    return toString(v);
}
const char* enumText(NetworkTopologyConstraint::Mode v) {
    return v == NetworkTopologyConstraint::Mode::None ? "none" : toString(v);
}
const char* enumText(HyperNodeMember::Type v) {
    return v == HyperNodeMember::Type::Node ? "Node" : "HyperNode";
}
const char* enumText(HyperNodeMember::Match v) {
    switch (v) {
    case HyperNodeMember::Match::Exact:
        return "Exact";
    case HyperNodeMember::Match::Regex:
        return "Regex";
    case HyperNodeMember::Match::Label:
        return "Label";
    }
    return "Exact";
}
const char* enumText(TargetScheduler v) {
    return toString(v);
}
const char* enumText(KubeSchedulerProfile::Strategy v) {
    return toString(v);
}

bool enumFromText(const std::string& s, Queue::Kind& v) {
    using K = Queue::Kind;
    static const K all[] = {K::Queue, K::KueueClusterQueue, K::KueueCohort, K::YuniKornQueue};
    return lookup(s, v, all);
}
bool enumFromText(const std::string& s, QueueState& v) {
    static const QueueState all[] = {QueueState::Open, QueueState::Closed, QueueState::Closing,
                                     QueueState::Unknown};
    return lookup(s, v, all);
}
bool enumFromText(const std::string& s, PodPhase& v) {
    static const PodPhase all[] = {PodPhase::Pending, PodPhase::Running, PodPhase::Succeeded,
                                   PodPhase::Failed, PodPhase::Unknown};
    return lookup(s, v, all);
}
bool enumFromText(const std::string& s, PodGroupPhase& v) {
    auto p = podGroupPhaseFromString(s);
    if (p) v = *p;
    return p.has_value();
}
bool enumFromText(const std::string& s, SelectorOp& v) {
    static const SelectorOp all[] = {SelectorOp::In,           SelectorOp::NotIn, SelectorOp::Exists,
                                     SelectorOp::DoesNotExist, SelectorOp::Gt,    SelectorOp::Lt};
    return lookup(s, v, all);
}
bool enumFromText(const std::string& s, TaintEffect& v) {
    static const TaintEffect all[] = {TaintEffect::NoSchedule, TaintEffect::PreferNoSchedule,
                                      TaintEffect::NoExecute};
    return lookup(s, v, all);
}
bool enumFromText(const std::string& s, NetworkTopologyConstraint::Mode& v) {
    using M = NetworkTopologyConstraint::Mode;
    static const M all[] = {M::None, M::Hard, M::Soft};
    return lookup(s, v, all);
}
bool enumFromText(const std::string& s, HyperNodeMember::Type& v) {
    static const HyperNodeMember::Type all[] = {HyperNodeMember::Type::Node,
                                                HyperNodeMember::Type::HyperNode};
    return lookup(s, v, all);
}
bool enumFromText(const std::string& s, HyperNodeMember::Match& v) {
    using M = HyperNodeMember::Match;
    static const M all[] = {M::Exact, M::Regex, M::Label};
    return lookup(s, v, all);
}
bool enumFromText(const std::string& s, TargetScheduler& v) {
    static const TargetScheduler all[] = {TargetScheduler::Volcano, TargetScheduler::YuniKorn,
                                          TargetScheduler::Kueue};
    return lookup(s, v, all);
}
bool enumFromText(const std::string& s, KubeSchedulerProfile::Strategy& v) {
    using S = KubeSchedulerProfile::Strategy;
    static const S all[] = {S::LeastAllocated, S::MostAllocated, S::RequestedToCapacityRatio};
    return lookup(s, v, all);
}

// A pod a controller creates later waits for a role to be ready or complete (JobSet startup order,
// dependsOn), or for a pod to be scheduled (exclusive placement's leader).
const char* enumText(CreationCondition::Kind v) {
    switch (v) {
    case CreationCondition::Kind::RoleReady:
        return "RoleReady";
    case CreationCondition::Kind::RoleComplete:
        return "RoleComplete";
    case CreationCondition::Kind::PodScheduled:
        return "PodScheduled";
    }
    return "RoleReady";
}
bool enumFromText(const std::string& s, CreationCondition::Kind& v) {
    using K = CreationCondition::Kind;
    static const K all[] = {K::RoleReady, K::RoleComplete, K::PodScheduled};
    return lookup(s, v, all);
}

} // namespace gantry::project
