#pragma once
// YAML scalars as `kubectl get -o yaml` prints them: strings that YAML would read as something else
// (numbers, booleans, null, indicators) are double-quoted; multi-line strings (ConfigMap data) become
// literal blocks when that is exact. live/list_stream.h writes whole objects with these.
#include <string>
#include <string_view>

namespace gantry::live {

// A string scalar and its line end: plain when that is exact, else double-quoted; multi-line text as a
// literal block whose lines are indented by `indent` + 2.
void appendYamlString(std::string_view text, int indent, std::string& out);
// A map key (plain or double-quoted), without the colon.
void appendYamlKey(std::string_view key, std::string& out);

} // namespace gantry::live
