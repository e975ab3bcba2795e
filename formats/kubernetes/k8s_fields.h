#pragma once
// Readers for the Kubernetes field types several kinds share: label selectors, node affinity, pod
// (anti-)affinity, taints, tolerations, topology spread. Each validates enums and types as the API
// server does and fails at the offending field.
#include "model/selectors.h"
#include "yaml/yaml_reader.h"

#include <optional>
#include <vector>

namespace gantry {

LabelSelector readLabelSelector(const Y& node);
std::optional<LabelSelector> readOptionalLabelSelector(const Y& node); // absent/null -> nullopt
SelectorRequirement readRequirement(const Y& node, bool nodeSelector);
NodeSelectorTerm readNodeSelectorTerm(const Y& node);
std::optional<NodeAffinity> readNodeAffinity(const Y& node);
PodAffinity readPodAffinity(const Y& node);
Taint readTaint(const Y& node);
std::vector<Taint> readTaints(const Y& node);
std::vector<Toleration> readTolerations(const Y& node);
std::vector<TopologySpreadConstraint> readTopologySpread(const Y& node);
TaintEffect readTaintEffect(const Y& node);

} // namespace gantry
