// A page of a list from the API server, read by the streaming JSON reader and written as YAML; the
// YAML it writes must parse back. The page is read twice, as a string and as the stream a live import
// reads while the answer arrives: both must write the same YAML or fail at the same byte.
#include "fuzz_target.h"
#include "input_error.h"
#include "live/list_stream.h"
#include "yaml/yaml_source.h"

#include <cstdlib>
#include <functional>
#include <sstream>

namespace {

// What reading the page gave: the YAML, or where and how it failed.
std::string outcome(const std::function<void(std::string&)>& read) {
    std::string yaml;
    try {
        read(yaml);
    } catch (const gantry::live::MalformedJson& e) {
        return "malformed at " + std::to_string(e.byte);
    } catch (const gantry::live::NotAList& e) {
        return std::string("not a list: ") + e.what();
    }
    return yaml;
}

} // namespace

GANTRY_FUZZ_TARGET(text) {
    std::string yaml = outcome([&](std::string& out) { gantry::live::streamListPage(text, "Pod", out); });
    std::istringstream stream(text);
    std::string streamed =
        outcome([&](std::string& out) { gantry::live::streamListPage(stream, "Pod", out); });
    if (streamed != yaml) std::abort();
    if (yaml.starts_with("malformed at ") || yaml.starts_with("not a list: ")) return;
    // Whatever the objects hold, the YAML written for them parses: an InputError here is a defect.
    gantry::loadDocuments(yaml, "page.yaml");
}
