#pragma once
// Manifests as typed JSON values, read from YAML or JSON with every value's location kept.
// YAML scalars are resolved as kubectl resolves them (yaml/plain_scalar.h; quoted text is always a
// string), so a check on the JSON value sees exactly what the API server would see.
#include "manifest/field_path.h"
#include "model/diagnostic.h"
#include "yaml/plain_scalar.h"

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gantry {

using Json = nlohmann::ordered_json;

struct ManifestDocument {
    std::string file;
    int index = 0; // 1-based position in a multi-document stream (0 = not from a stream)
    Json value;
    // JSON pointer of each value read from text -> its 1-based line and column.
    std::map<std::string, std::pair<int, int>> marks;
    // Problems found while reading (duplicate keys); reported with the document's other problems.
    Diagnostics readProblems;

    // Location of a path: the nearest ancestor that has a mark; the document itself otherwise.
    SourceRef where(const FieldPath& path) const;
};

// Reads every non-empty document of a YAML/JSON file. Throws InputError (file:line:column) on a
// syntax error or an unreadable file.
std::vector<ManifestDocument> readManifestFile(const std::string& path);
std::vector<ManifestDocument> parseManifests(const std::string& text, const std::string& name,
                                             YamlRules rules = YamlRules::Kubectl);

// Where the text of a string field of `outer` sits in the outer file: a literal block (`|`) maps line
// by line (inner 1-based line n is outer line n + lineOffset, columns shifted by columnOffset);
// any other form pins every location to the field itself.
struct EmbeddedText {
    std::string text;
    int lineOffset = 0;
    int columnOffset = 0;
    std::optional<std::pair<int, int>> pinned; // line, column
};
EmbeddedText embeddedText(const ManifestDocument& outer, const FieldPath& field,
                          const std::string& outerText);

// Parses YAML text held in a string field of `outer` (a ConfigMap's data value) and maps the
// locations of its values back into the outer file when the field is a literal block (`|`);
// otherwise every location is the field's own. Throws InputError located the same way.
std::vector<ManifestDocument> parseEmbeddedYaml(const ManifestDocument& outer, const FieldPath& field,
                                                const std::string& outerText,
                                                YamlRules rules = YamlRules::Kubectl);

// YAML text of a value: block style, two-space indent, keys in the value's order, strings quoted
// whenever a YAML 1.1 or 1.2 reader could take them for something else.
std::string toYaml(const Json& value);
// Several documents separated by "---".
std::string toYamlStream(const std::vector<Json>& documents);

} // namespace gantry
