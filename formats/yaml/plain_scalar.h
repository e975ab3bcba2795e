#pragma once
// What a plain (unquoted) YAML scalar means to the readers Gantry's files meet: kubectl's
// (sigs.k8s.io/yaml on go-yaml v2, YAML 1.1: `yes`/`on` are booleans, `0x1f` is an integer) or
// YuniKorn's for queues.yaml (yaml.v3, YAML 1.2 core: only true/false are). Manifest checks read
// values through it; the scalar writer (yaml_scalar.h) quotes whatever it would not give back as text.
#include <nlohmann/json_fwd.hpp> // the definitions that use it include json.hpp
#include <string>

namespace gantry {

enum class YamlRules { Kubectl, Yaml12 };

// The value of a plain scalar: null, a boolean, an integer, a float or the text itself.
nlohmann::ordered_json resolvePlainScalar(const std::string& text, YamlRules rules = YamlRules::Kubectl);

struct DomNode;
// A whole YAML subtree as the JSON it means (mappings keep their key order; quoted scalars are strings).
nlohmann::ordered_json yamlToJson(const DomNode* node, YamlRules rules = YamlRules::Kubectl);

} // namespace gantry
