#pragma once
// Kueue's Configuration (config.kueue.x-k8s.io v1beta1 / v1beta2), alone or inside the ConfigMap the
// Kueue manager reads (data key controller_manager_config.yaml) -> KueueConfig: fair sharing and its
// preemption strategies, waitForPodsReady with its requeuing backoff, feature gates. Located errors
// for wrong types and values Kueue's validation rejects; the rest of the file is not read.
#include "model/diagnostic.h"
#include "model/kueue_config.h"
#include "yaml/yaml_reader.h"

#include <string>

namespace gantry {

KueueConfig readKueueConfigFile(const std::string& path, Diagnostics* warnings = nullptr);
KueueConfig parseKueueConfig(const std::string& text, const std::string& name,
                             Diagnostics* warnings = nullptr);
// The data key of the ConfigMap Kueue's install ships (kueue-manager-config).
inline constexpr const char* kKueueConfigKey = "controller_manager_config.yaml";
// An already parsed Configuration.
KueueConfig readKueueConfig(const Y& root);

} // namespace gantry
