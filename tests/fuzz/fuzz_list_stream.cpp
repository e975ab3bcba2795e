// A page of a list from the API server, read by the streaming JSON reader and written as YAML; the
// YAML it writes must parse back.
#include "fuzz_target.h"
#include "input_error.h"
#include "live/list_stream.h"
#include "yaml/yaml_source.h"

GANTRY_FUZZ_TARGET(text) {
    std::string yaml;
    try {
        gantry::live::streamListPage(text, "Pod", yaml);
    } catch (const gantry::live::MalformedJson&) {
        return;
    } catch (const gantry::live::NotAList&) {
        return;
    }
    // Whatever the objects hold, the YAML written for them parses: an InputError here is a defect.
    gantry::loadDocuments(yaml, "page.yaml");
}
