// A YAML double-quoted scalar: the one escaping both the snapshot writer and the manifest writer use.
#pragma once

#include <string>
#include <string_view>

namespace gantry {

// Appends `s` as a double-quoted YAML scalar; control characters become \xNN escapes so that any
// byte string survives a round trip through a YAML 1.1 or 1.2 reader.
void appendYamlDoubleQuoted(std::string_view s, std::string& out);

} // namespace gantry
