// YuniKorn's Kubernetes shim at apache/yunikorn-k8shim 23b6b47f reads pods, not workload objects
// (pkg/common/utils/utils.go): the application is the pod's app id (label or annotation
// yunikorn.apache.org/app-id, label applicationId, label spark-app-selector), else one generated per
// namespace; the queue is label yunikorn.apache.org/queue, annotation yunikorn.apache.org/queue,
// then the legacy label `queue`, else the placement rules decide. A gang exists only where the pods
// carry task groups (yunikorn.apache.org/task-groups): a batch Job, a JobSet or a Kubeflow job is
// no gang by itself.
//
// Workloads written for another scheduler (a Volcano PodGroup or Job) and Gantry's own what-ifs are
// the workload under study: they keep their queue (mapped to YuniKorn's tree) and their gang, as
// `gantry export --target yunikorn` writes them.
#include "profiles/yunikorn/controllers.h"

#include "model/workload_source.h"
#include "profiles/yunikorn/shim.h"

namespace gantry::engine::yunikorn {

WorkloadReading readWorkload(const PodGroup& g, const std::vector<const Pod*>& pods,
                             std::map<std::string, PodMeta>* metas) {
    WorkloadReading r;
    r.minMember = g.minMember;
    r.minTaskMember = g.minTaskMember;
    r.minResources = g.minResources;
    const WorkloadSource source = workloadSource(g);
    if (source == WorkloadSource::Gantry || source == WorkloadSource::Volcano || pods.empty()) {
        r.queue = g.queue;
        return r;
    }
    const PodMeta meta = readPodMeta(*pods.front(), nullptr);
    r.queue = meta.queue;
    // Pods without an app id of their own join their namespace's generated application.
    r.application = meta.appId;
    if (metas) metas->try_emplace(meta.appId, meta);
    int32_t gang = 0;
    for (const auto& tg : meta.taskGroups) gang += tg.minMember;
    r.minMember = gang > 0 ? gang : 1;
    r.minTaskMember.clear();
    r.minResources = {};
    return r;
}

} // namespace gantry::engine::yunikorn
