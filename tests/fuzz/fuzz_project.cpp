// The .gantry project file.
#include "fuzz_target.h"
#include "input_error.h"
#include "project/project_reader.h"

GANTRY_FUZZ_TARGET(text) {
    try {
        gantry::Diagnostics warnings;
        gantry::readProject(text, "fuzz.gantry", &warnings);
    } catch (const gantry::InputError&) {
    }
}
