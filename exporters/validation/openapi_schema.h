#pragma once
// A structural OpenAPI v3 schema (the `openAPIV3Schema` of a CRD) and a validator that checks a
// value against it the way the API server does with `kubectl apply --validate=strict`: types,
// required fields, enums, patterns, int-or-string, preserve-unknown-fields, additionalProperties,
// nullable, numeric and size bounds, formats, list types, and unknown fields as errors.
// CEL rules (x-kubernetes-validations) are evaluated through explicit C++ checks registered in
// cel_rules.cpp; a rule without one is kept as text and listed by unevaluatedRules().
#include "manifest/document.h"
#include "manifest/field_path.h"
#include "model/diagnostic.h"

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace gantry {

// One problem found in one value.
struct SchemaProblem {
    Severity severity = Severity::Error;
    FieldPath path;
    std::string message;
};
using SchemaProblems = std::vector<SchemaProblem>;

using CelCheck = std::function<bool(const Json& self)>; // true when the rule holds

struct CelRule {
    std::string rule;
    std::string message;
    std::string fieldPath;   // relative path of the problem, e.g. ".preference"
    bool transition = false; // mentions oldSelf: needs the stored object, so never evaluated here
    const CelCheck* check = nullptr;
};

struct Schema {
    enum class Type { None, Object, Array, String, Integer, Number, Boolean };
    Type type = Type::None;
    std::map<std::string, const Schema*> properties;
    std::vector<std::string> required;
    const Schema* items = nullptr;
    const Schema* additionalProperties = nullptr; // a free map's value schema
    bool additionalPropertiesAny = false;         // additionalProperties: true
    std::vector<Json> enumValues;
    std::string pattern;
    std::optional<std::regex> patternRegex;
    std::string format;
    std::optional<double> minimum, maximum, multipleOf;
    bool exclusiveMinimum = false, exclusiveMaximum = false;
    std::optional<int64_t> minLength, maxLength, minItems, maxItems, minProperties, maxProperties;
    bool uniqueItems = false;
    bool nullable = false;
    bool intOrString = false;
    bool preserveUnknownFields = false;
    bool embeddedResource = false;
    std::string listType; // atomic | set | map
    std::vector<std::string> listMapKeys;
    std::vector<const Schema*> anyOf, allOf, oneOf;
    const Schema* notSchema = nullptr;
    std::vector<CelRule> rules;
    std::optional<Json> defaultValue; // applied before validation, as the API server does
    bool unknownFieldsWarn = false;   // x-gantry-unknown-fields: warning
};

const char* toString(Schema::Type type);

// Owns compiled schemas. `x-gantry-ref: "#/definitions/<name>"` refers into the same document
// (recursion allowed); other references ("<file>#<version>:<pointer>") go to the resolver.
class SchemaSet {
  public:
    using Resolver = std::function<const Schema*(const std::string& ref)>;
    // Compiles the schema at `pointer` inside `document`. Throws std::runtime_error naming the JSON
    // pointer of a construct it cannot compile.
    const Schema* compile(const Json& document, const std::string& pointer, const Resolver& resolver = {});
    // CEL rules with no C++ check (transition rules are not listed).
    std::vector<std::string> unevaluatedRules() const;

  private:
    struct Context {
        const Json& document;
        const Resolver& resolver;
        std::map<std::string, const Schema*> local;
    };
    const Schema* compileNode(const Json& node, const std::string& pointer, Context& ctx);
    std::deque<Schema> arena_;
};

// Options of one validation.
struct ValidateOptions {
    // Called for the root object's `metadata` instead of descending into its schema.
    std::function<void(const Json& metadata, const FieldPath& path, SchemaProblems& out)> objectMeta;
};

void validateAgainstSchema(const Json& value, const Schema& schema, const FieldPath& path,
                           SchemaProblems& out, const ValidateOptions& options = {});

} // namespace gantry
