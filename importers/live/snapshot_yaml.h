#pragma once
// Kubernetes objects (JSON, as the API serves them) written as block-style YAML documents, the way
// `kubectl get -o yaml` prints them, fast enough for 100,000 pods. Strings that YAML would read as
// something else (numbers, booleans, null, indicators) are double-quoted; multi-line strings
// (ConfigMap data) become literal blocks when that is exact.
#include <nlohmann/json.hpp>
#include <string>

namespace gantry::live {

// Appends "---\n" and the object as one YAML document.
void appendYamlDocument(const nlohmann::json& object, std::string& out);
// One scalar as YAML text (plain, quoted); for keys and tests.
std::string yamlScalar(const std::string& text);

} // namespace gantry::live
