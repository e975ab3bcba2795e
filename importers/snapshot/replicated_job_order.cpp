#include "replicated_job_order.h"

#include <algorithm>

namespace gantry::snapshot {

ReplicatedJobOrder::ReplicatedJobOrder(const Y& jobSetSpec) {
    auto startup = jobSetSpec["startupPolicy"];
    startup.checkKeys("JobSet startupPolicy", {"startupPolicyOrder"});
    inOrder_ = startup["startupPolicyOrder"].choice("AnyOrder", {"AnyOrder", "InOrder"}) == "InOrder";
}

void ReplicatedJobOrder::next(const Y& rj, Expansion::Role& role) {
    std::vector<CreationCondition> after;
    if (inOrder_)
        for (const auto& earlier : names_)
            after.push_back(CreationCondition{CreationCondition::Kind::RoleReady, earlier, {}, rj.where()});
    for (const auto& d : rj["dependsOn"].items()) {
        d.checkKeys("JobSet dependsOn", {"name", "status"});
        if (names_.empty()) d.fail("dependsOn can't be set for the first replicated job");
        const std::string name = d["name"].str();
        if (std::find(names_.begin(), names_.end(), name) == names_.end())
            d["name"].fail("replicated job " + role.role + " cannot depend on replicated job '" + name +
                           "': dependsOn names an earlier replicated job");
        const std::string status = d["status"].str();
        if (status != "Ready" && status != "Complete")
            d["status"].fail("expected Ready or Complete, got '" + status + "'");
        const bool complete = status == "Complete";
        after.push_back(CreationCondition{complete ? CreationCondition::Kind::RoleComplete
                                                   : CreationCondition::Kind::RoleReady,
                                          name,
                                          {},
                                          d.where()});
        if (complete) awaitedComplete_.try_emplace(name, d);
    }
    role.pod.pod.createdAfter = std::move(after);
    auto annotations = rj["template"]["metadata"]["annotations"];
    if (annotations[key::Duration].present())
        role.pod.pod.runSeconds = annotations[key::Duration].durationSeconds(0);
    names_.push_back(role.role);
}

void ReplicatedJobOrder::finish(std::vector<Expansion::Role>& roles, const Y& where) const {
    for (auto& role : roles) {
        auto awaited = awaitedComplete_.find(role.role);
        if (awaited == awaitedComplete_.end()) {
            if (role.pod.pod.runSeconds)
                where.warn("gantry.io/duration on replicated job " + role.role +
                           " is read only for replicated jobs another one waits to Complete; the JobSet's "
                           "own gantry.io/duration times the rest");
            role.pod.pod.runSeconds.reset();
            continue;
        }
        if (!role.pod.pod.runSeconds) {
            awaited->second.warn("replicated job " + role.role +
                                 " is awaited Complete and has no gantry.io/duration on its template: "
                                 "`gantry simulate` takes it to complete as soon as its pods run");
            role.pod.pod.runSeconds = 0;
        }
    }
}

} // namespace gantry::snapshot
