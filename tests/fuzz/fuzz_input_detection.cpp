// Telling a snapshot from an inventory, a project or a scheduler configuration by a file's first
// document, as gantry inspect and the studio's Open do.
#include "fuzz_target.h"
#include "input_error.h"
#include "input_loader.h"

GANTRY_FUZZ_TARGET(text) {
    try {
        gantry::detectInputKindOfText(text, "fuzz.yaml");
    } catch (const gantry::InputError&) {
    }
}
