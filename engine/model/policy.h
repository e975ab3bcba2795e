#pragma once
// The policy of every scheduler a project can run, each in its scheduler's own configuration format,
// as data (importers read the text). A profile reads its own part; the exporter writes the same.
#include "model/cluster.h"
#include "model/kueue_config.h"
#include "model/scheduler_conf.h"

#include <optional>

namespace gantry {

// The configuration formats profiles read (`--scheduler-conf FILE` takes the profile's).
enum class ConfigFormat {
    VolcanoSchedulerConf,       // volcano-scheduler.conf, or the ConfigMap that holds it
    KubeSchedulerConfiguration, // kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration
    YuniKornQueues,             // YuniKorn's queues.yaml, or the yunikorn-configs ConfigMap holding it
    KueueConfiguration,         // config.kueue.x-k8s.io Configuration, or the ConfigMap that holds it
};
const char* toString(ConfigFormat format); // as a person names it

struct SchedulerPolicies {
    SchedulerConf volcano = defaultVolcanoConf();
    KubeSchedulerProfile kube;
    // A YuniKorn configuration given on its own (--scheduler-conf); without it the YuniKorn profile
    // runs the cluster's own YuniKorn queues, or the project's queues as they would be exported.
    std::optional<YuniKornConfig> yunikorn;
    KueueConfig kueue;
    bool operator==(const SchedulerPolicies&) const = default;
};

} // namespace gantry
