#pragma once
// kube-scheduler's KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) -> the contrast
// profile: NodeResourcesFit's scoringStrategy (type, resources, requestedToCapacityRatio shape) and
// the score plugins' weights (plugins.score.enabled / disabled). Located errors for wrong types and
// values kube-scheduler's validation rejects; warnings for parts Gantry does not model.
#include "model/diagnostic.h"
#include "model/scheduler_conf.h"
#include "yaml/yaml_reader.h"

#include <string>

namespace gantry {

// The profile named schedulerName (default "default-scheduler"; the first profile when none has it).
KubeSchedulerProfile readKubeSchedulerConfigFile(const std::string& path, Diagnostics* warnings = nullptr,
                                                 const std::string& schedulerName = "default-scheduler");
KubeSchedulerProfile parseKubeSchedulerConfig(const std::string& text, const std::string& name,
                                              Diagnostics* warnings = nullptr,
                                              const std::string& schedulerName = "default-scheduler");

} // namespace gantry
