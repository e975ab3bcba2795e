#pragma once
// Bulk label assignment: which nodes a name pattern picks, and which value each gets when values
// are numbered ("rack-{n}" with 8 nodes per value gives rack-0 to the first 8, rack-1 to the next).
#include "model/cluster.h"

#include <QString>
#include <optional>
#include <string>
#include <vector>

namespace gantry::studio {

// A glob ("gpu-a-*", "node-?1") or, between slashes, a regular expression ("/h100-[0-9]+/").
// Returns nullopt and sets *error for a bad regular expression.
std::optional<std::vector<int>> nodesMatching(const Cluster& cluster, const QString& pattern, QString* error);

struct LabelPlan {
    std::string key;
    QString valueTemplate; // may hold {n} (group number) and {i} (position); {n:02} pads
    int nodesPerValue = 0; // 0 = every node the same {n}
    int firstNumber = 0;
};

// The value each node (in the given order) receives.
std::vector<std::string> planValues(const LabelPlan& plan, size_t nodeCount);
// The value of the node at `index`.
std::string planValue(const LabelPlan& plan, size_t index);
// Whether the template is a valid label value once filled in (Kubernetes label value rules).
bool isValidLabelValue(const std::string& value);
bool isValidLabelKey(const std::string& key);

} // namespace gantry::studio
