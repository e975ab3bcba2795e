#include "policy_reader.h"

#include "kube_scheduler_config_reader.h"
#include "kueue_config_reader.h"
#include "volcano/scheduler_conf_reader.h"
#include "yunikorn_config.h"

namespace gantry {

void readPolicyFile(const std::string& path, ConfigFormat format, SchedulerPolicies& policies,
                    Diagnostics* warnings) {
    switch (format) {
    case ConfigFormat::VolcanoSchedulerConf:
        policies.volcano = readSchedulerConfFile(path, warnings);
        return;
    case ConfigFormat::KubeSchedulerConfiguration:
        policies.kube = readKubeSchedulerConfigFile(path, warnings);
        return;
    case ConfigFormat::YuniKornQueues:
        policies.yunikorn = readYuniKornConfigFile(path, warnings);
        return;
    case ConfigFormat::KueueConfiguration:
        policies.kueue = readKueueConfigFile(path, warnings);
        return;
    }
}

} // namespace gantry
