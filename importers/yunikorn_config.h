#pragma once
// Apache YuniKorn's queue configuration (`queues.yaml` in ConfigMap yunikorn-configs) -> the model's
// YuniKornPartition plus YuniKornQueue entries of the queue tree. YuniKorn's own parser is strict, so
// unknown keys are errors here too. Resource names stay YuniKorn's (`vcore` is CPU in millicores).
#include "model/cluster.h"
#include "yaml/yaml_reader.h"

#include <string>
#include <vector>

namespace gantry {

struct YuniKornConfig {
    YuniKornPartition partition;
    std::vector<Queue> queues; // root first, parents before children
};

// `root` is the parsed queues.yaml (a reader without field notes: strict). Partitions other than the
// first are reported as warnings through the reader's context (Gantry models one partition).
YuniKornConfig readYuniKornQueues(const Y& root);

} // namespace gantry
