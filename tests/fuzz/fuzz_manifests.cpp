// What gantry validate reads: manifests of any kind, against the bundled schemas and the schedulers'
// rules. It reports every problem as a diagnostic and throws nothing.
#include "fuzz_target.h"
#include "validation/manifest_validator.h"

GANTRY_FUZZ_TARGET(text) {
    gantry::validateManifestText(text, "fuzz.yaml");
}
