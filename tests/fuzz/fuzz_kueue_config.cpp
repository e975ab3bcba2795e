// Kueue's Configuration, bare or inside the kueue-manager-config ConfigMap.
#include "fuzz_target.h"
#include "input_error.h"
#include "kueue_config_reader.h"

GANTRY_FUZZ_TARGET(text) {
    try {
        gantry::Diagnostics warnings;
        gantry::parseKueueConfig(text, "controller_manager_config.yaml", &warnings);
    } catch (const gantry::InputError&) {
    }
}
