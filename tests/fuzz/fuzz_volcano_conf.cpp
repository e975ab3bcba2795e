// volcano-scheduler.conf (actions, tiers, plugins and their arguments).
#include "fuzz_target.h"
#include "input_error.h"
#include "volcano/scheduler_conf_reader.h"

GANTRY_FUZZ_TARGET(text) {
    try {
        gantry::Diagnostics warnings;
        gantry::TextOrigin origin;
        origin.file = "volcano-scheduler.conf";
        gantry::parseSchedulerConf(text, origin, &warnings);
    } catch (const gantry::InputError&) {
    }
}
