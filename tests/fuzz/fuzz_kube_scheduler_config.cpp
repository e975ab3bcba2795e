// kube-scheduler's KubeSchedulerConfiguration (profiles, plugins, plugin arguments).
#include "fuzz_target.h"
#include "input_error.h"
#include "kube_scheduler_config_reader.h"

GANTRY_FUZZ_TARGET(text) {
    try {
        gantry::Diagnostics warnings;
        gantry::parseKubeSchedulerConfig(text, "kube-scheduler.yaml", &warnings);
    } catch (const gantry::InputError&) {
    }
}
