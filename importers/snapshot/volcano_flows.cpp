// Volcano's flow.volcano.sh JobTemplate and JobFlow. A JobTemplate is a Volcano Job spec that no
// controller runs by itself; the jobflow controller (pkg/controllers/jobflow/
// jobflow_controller_action.go, deployJob) makes the Volcano Job <jobflow>-<flow> from the template
// named as the flow, in the flow's namespace: at once for a flow without dependsOn, and for the others
// only once every target's job is Completed. A snapshot is taken before any job of a flow completed,
// so Gantry makes the first ones and says which wait.
#include "import_state.h"

namespace gantry::snapshot {

void readJobTemplate(State& s, const Object& o) {
    o.root.checkKeys("JobTemplate", {"apiVersion", "kind", "metadata", "spec", "status"});
    if (!s.jobTemplates.emplace(std::make_pair(o.ns, o.name), o).second)
        o.root["metadata"]["name"].fail("JobTemplate " + o.ns + "/" + o.name + " is defined more than once");
}

void readJobFlow(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("JobFlow", {"apiVersion", "kind", "metadata", "spec", "status"});
    auto spec = r["spec"];
    spec.checkKeys("JobFlow", {"flows"}, {"jobRetainPolicy"});
    for (const auto& flow : spec["flows"].items()) {
        // patch: the controller at this commit copies the template's spec unpatched.
        flow.checkKeys("JobFlow flow", {"name", "dependsOn"}, {"patch"});
        if (flow["name"].str().empty()) flow.fail("a flow needs a name (the JobTemplate it runs)");
        flow["dependsOn"].checkKeys("JobFlow flow dependsOn", {"targets"}, {"probe"});
    }
    s.jobFlows.push_back(o);
}

void finishJobFlows(State& s) {
    for (const Object& flowObject : s.jobFlows) {
        for (const auto& flow : flowObject.root["spec"]["flows"].items()) {
            const std::string flowName = flow["name"].str();
            const std::string jobName = flowObject.name + "-" + flowName;
            const auto targets = flow["dependsOn"]["targets"].strings();
            if (!targets.empty()) {
                std::string list;
                for (const auto& t : targets) list += (list.empty() ? "" : ", ") + flowObject.name + "-" + t;
                flow.warn("JobFlow " + flowObject.ns + "/" + flowObject.name + ": Volcano Job " + jobName +
                          " is made only once " + list + (targets.size() > 1 ? " are" : " is") +
                          " Completed; Gantry does not model that, so the job is not in this cluster");
                continue;
            }
            auto tmpl = s.jobTemplates.find({flowObject.ns, flowName});
            if (tmpl == s.jobTemplates.end()) {
                flow["name"].warn("JobFlow " + flowObject.ns + "/" + flowObject.name + ": JobTemplate " +
                                  flowObject.ns + "/" + flowName +
                                  " is not in the input; the jobflow controller cannot make Volcano Job " +
                                  jobName + " without it");
                continue;
            }
            // A live export may hold the job already.
            bool exists = false;
            for (const auto& w : s.workloads)
                exists = exists || (w.group == "batch.volcano.sh" && w.kind == "Job" &&
                                    w.ns == flowObject.ns && w.name == jobName);
            if (exists) continue;
            Object job = tmpl->second;
            job.group = "batch.volcano.sh";
            job.kind = "Job";
            job.name = jobName;
            job.ns = flowObject.ns;
            const std::string createdBy = "volcano.sh/createdByJobTemplate";
            job.labels = {{createdBy, flowObject.ns + "." + flowName},
                          {"volcano.sh/createdByJobFlow", flowObject.ns + "." + flowObject.name}};
            job.annotations = job.labels;
            job.creationTimestamp = flowObject.creationTimestamp;
            readVolcanoJobSpec(s, job, job.root["spec"], "");
        }
    }
}

} // namespace gantry::snapshot
