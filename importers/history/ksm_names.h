#pragma once
// How kube-state-metrics names what it exports, and the way back. A Kubernetes label key becomes a
// Prometheus label "label_" + the key with every character outside [a-zA-Z0-9_] replaced by '_' and
// then snake-cased (kube-state-metrics internal/store/utils.go, labelName); a resource name has only
// its invalid characters replaced ("nvidia.com/gpu" -> "nvidia_com_gpu"). Both lose information, so
// the way back knows the keys and resources Gantry reads; other names stay as exported.
#include <optional>
#include <string>
#include <string_view>

namespace gantry::history {

// The Prometheus label kube-state-metrics writes for a Kubernetes label key.
std::string ksmLabelName(std::string_view key);

// The Kubernetes label key of a kube_pod_labels / kube_node_labels label ("label_..."): a
// well-known key when one maps to it, else the name without its "label_" prefix. nullopt for
// labels that are not exported object labels (namespace, pod, uid, node, job, instance, ...).
std::optional<std::string> labelKeyOf(std::string_view promLabel);

// The resource name behind a sanitized one ("nvidia_com_gpu" -> "nvidia.com/gpu",
// "ephemeral_storage" -> "ephemeral-storage", "nvidia_com_mig_1g_5gb" -> "nvidia.com/mig-1g.5gb").
// *known is false when the name is not one Gantry knows (it is then returned as it came).
std::string resourceNameOf(std::string_view sanitized, bool* known);

// The canonical integer amount (model/resources.h) of a value kube-state-metrics reports in `unit`
// ("core", "byte", "integer") for the resource.
int64_t amountOf(std::string_view resource, double value);

} // namespace gantry::history
