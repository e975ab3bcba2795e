#pragma once
// Pieces the three exporters share: the queue tree seen from any scheduler, Kubernetes-safe names,
// lossy-step warnings, node classes and the pod template of a what-if workload.
#include "export/export.h"
#include "model/cluster.h"
#include "model/kubernetes_names.h"
#include "model/loss_log.h"
#include "model/node_classes.h"
#include "model/queue_tree.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gantry::exporting {

// Collects the warnings of an export: every lossy step names its object and field.
class Losses {
  public:
    explicit Losses(ExportBundle& bundle) : bundle_(bundle) {}
    // "<what> <name>, <field>: <message>", located at the source object when known.
    void add(const std::string& what, const std::string& name, const std::string& field,
             const std::string& message, const SourceRef& where = {});
    void queue(const Queue& q, const std::string& field, const std::string& message) {
        add("queue", q.name, field, message, q.source);
    }
    void note(const std::string& text) { bundle_.notes.push_back(text); }
    // The losses and notes of a translation done in the engine, in their order.
    void replay(const LossLog& log);

  private:
    ExportBundle& bundle_;
};

// The queue tree and its neutral quotas live in the engine (model/queue_tree.h): the YuniKorn
// profile runs a project's queues through the same translation the YuniKorn exporter writes.
using gantry::buildQueueTree;
using gantry::fromYuniKornResource;
using gantry::NeutralQuota;
using gantry::QueueNode;
using gantry::QueueTree;
using gantry::toYuniKornResource;

// Kubernetes names and node classes live in the engine (model/kubernetes_names.h,
// model/node_classes.h): the Kueue profile names and groups them as the Kueue exporter does.

// An amount the way an operator would write it: bytes take whichever exact suffix is shorter, binary
// on a tie (10G stays 10G rather than 9765625Ki, 64Gi stays 64Gi); other units as formatAmount.
std::string readableAmount(const std::string& resource, int64_t amount);
// metav1.LabelSelector.
Json labelSelectorJson(const LabelSelector& s);
// A quantity map as Kubernetes writes it ({"cpu": "4", "memory": "16Gi"}).
Json quantityMap(const ResourceList& resources);
Json objectMeta(const std::string& name, const std::string& ns = "", const Labels& labels = {},
                const Labels& annotations = {});

// Node objects for `kubectl apply --server-side`: the topology labels of designed (inventory) nodes,
// and the node-class labels Gantry chose. Empty when there is nothing to add.
std::vector<Json> nodeLabelPatches(const Cluster& cluster, const std::vector<NodeClass>& classes);

// A pod template for a what-if workload: one container that sleeps for the mean duration, with
// the workload's requests, GPUs, node selector and tolerations. Fractional GPUs are lossy.
Json workloadPodTemplate(const WorkloadTemplate& w, Losses& losses, const Labels& labels = {},
                         const Labels& annotations = {}, const std::string& schedulerName = "");
// A one-line description of the what-if arrival and duration, kept as an annotation.
std::string describeWhatIf(const WorkloadTemplate& w);
// The Job object of a workload template (Volcano's or batch/v1), with the what-if annotation.
Json workloadJob(const char* apiVersion, const WorkloadTemplate& w, Json spec, const Labels& labels = {},
                 Labels annotations = {});
Json tolerationJson(const Toleration& t);

// The engine's translations, their lossy steps reported to `losses` as they happen.
std::vector<NeutralQuota> neutralQuotas(const QueueTree& tree, const Cluster& cluster, const char* target,
                                        Losses& losses);
void nameQueues(QueueTree& tree, std::string (*valid)(const std::string&), const std::string& rule,
                Losses& losses);

} // namespace gantry::exporting
