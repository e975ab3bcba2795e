#include "k8s/taint_toleration.h"

namespace gantry::engine::k8s {

std::string untoleratedTaintReason(const Taint& taint) {
    return "node(s) had untolerated taint {" + taint.key + ": " + taint.value + "}";
}

const Taint* firstUntolerated(const PodShape& pod, const NodeRec& node) {
    return firstUntoleratedTaint(node.taints, pod.tolerations);
}

int64_t intolerablePreferNoSchedule(const PodShape& pod, const NodeRec& node) {
    int64_t n = 0;
    for (const auto& taint : node.taints) {
        if (taint.effect != TaintEffect::PreferNoSchedule) continue;
        bool ok = false;
        for (const auto& t : pod.tolerations) {
            if (t.effect && *t.effect != TaintEffect::PreferNoSchedule) continue;
            if (tolerates(t, taint)) ok = true;
        }
        if (!ok) ++n;
    }
    return n;
}

} // namespace gantry::engine::k8s
