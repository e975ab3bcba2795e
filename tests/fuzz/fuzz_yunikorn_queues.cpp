// YuniKorn's queues.yaml, bare (as in the ConfigMap's value).
#include "fuzz_target.h"
#include "input_error.h"
#include "yaml/yaml_reader.h"
#include "yunikorn_config.h"

GANTRY_FUZZ_TARGET(text) {
    try {
        auto docs = gantry::loadDocuments(text, "queues.yaml");
        if (docs.empty()) return;
        gantry::Diagnostics warnings;
        gantry::readYuniKornQueues(gantry::readerFor(docs[0], &warnings, nullptr));
    } catch (const gantry::InputError&) {
    }
}
