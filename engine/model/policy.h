#pragma once
// The policy of every scheduler a project can run, each in its scheduler's own configuration format,
// as data (importers read the text). A profile reads its own part; the exporter writes the same.
#include "model/kueue_config.h"
#include "model/scheduler_conf.h"

namespace gantry {

// The configuration formats profiles read (`--scheduler-conf FILE` takes the profile's).
enum class ConfigFormat {
    VolcanoSchedulerConf,       // volcano-scheduler.conf, or the ConfigMap that holds it
    KubeSchedulerConfiguration, // kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration
    KueueConfiguration,         // config.kueue.x-k8s.io Configuration, or the ConfigMap that holds it
};
const char* toString(ConfigFormat format); // as a person names it

struct SchedulerPolicies {
    SchedulerConf volcano = defaultVolcanoConf();
    KubeSchedulerProfile kube;
    KueueConfig kueue;
    bool operator==(const SchedulerPolicies&) const = default;
};

} // namespace gantry
