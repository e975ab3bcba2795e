#pragma once
// Apache YuniKorn's queue configuration (`queues.yaml` in ConfigMap yunikorn-configs) -> the model's
// YuniKornPartition plus YuniKornQueue entries of the queue tree. YuniKorn's own parser is strict, so
// unknown keys are errors here too. Resource names stay YuniKorn's (`vcore` is CPU in millicores).
#include "model/cluster.h"
#include "yaml/yaml_reader.h"

#include <string>
#include <vector>

namespace gantry {

// `root` is the parsed queues.yaml (a reader without field notes: strict). Partitions other than the
// first are reported as warnings through the reader's context (Gantry models one partition).
YuniKornConfig readYuniKornQueues(const Y& root);

// `--scheduler-conf FILE` for the YuniKorn profile: queues.yaml itself, or a ConfigMap holding it
// (key queues.yaml, as yunikorn-configs does). Throws InputError, located, for bad input.
YuniKornConfig readYuniKornConfigFile(const std::string& path, Diagnostics* warnings);

} // namespace gantry
