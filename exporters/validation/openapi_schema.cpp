#include "validation/openapi_schema.h"

#include "validation/cel_rules.h"

#include <cmath>
#include <set>
#include <stdexcept>

namespace gantry {

const char* toString(Schema::Type type) {
    switch (type) {
    case Schema::Type::None:
        return "any";
    case Schema::Type::Object:
        return "object";
    case Schema::Type::Array:
        return "array";
    case Schema::Type::String:
        return "string";
    case Schema::Type::Integer:
        return "integer";
    case Schema::Type::Number:
        return "number";
    case Schema::Type::Boolean:
        return "boolean";
    }
    return "any";
}

namespace {

[[noreturn]] void unsupported(const std::string& pointer, const std::string& what) {
    throw std::runtime_error("schema " + (pointer.empty() ? std::string("/") : pointer) + ": " + what);
}

// Go's RE2 patterns in ECMAScript terms: a leading (?i) becomes the icase flag. Other RE2-only
// constructs are rejected at compile time so a pattern is never silently skipped.
std::regex compilePattern(const std::string& pattern, const std::string& pointer) {
    std::string p = pattern;
    auto flags = std::regex::ECMAScript | std::regex::optimize;
    if (p.rfind("(?i)", 0) == 0 || p.rfind("^(?i)", 0) == 0) {
        p.erase(p.find("(?i)"), 4);
        flags |= std::regex::icase;
    } else if (p.find("(?") != std::string::npos && p.find("(?:") == std::string::npos &&
               p.find("(?=") == std::string::npos && p.find("(?!") == std::string::npos) {
        unsupported(pointer, "pattern uses an RE2 flag group Gantry cannot translate: " + pattern);
    }
    try {
        return std::regex(p, flags);
    } catch (const std::regex_error& e) {
        unsupported(pointer, "pattern does not compile (" + std::string(e.what()) + "): " + pattern);
    }
}

Schema::Type typeFromString(const std::string& t, const std::string& pointer) {
    if (t == "object") return Schema::Type::Object;
    if (t == "array") return Schema::Type::Array;
    if (t == "string") return Schema::Type::String;
    if (t == "integer") return Schema::Type::Integer;
    if (t == "number") return Schema::Type::Number;
    if (t == "boolean") return Schema::Type::Boolean;
    unsupported(pointer, "unknown type '" + t + "'");
}

std::string normalizeSpaces(const std::string& s) {
    std::string out;
    bool space = false;
    for (char c : s) {
        if (c == ' ' || c == '\n' || c == '\t') {
            space = true;
            continue;
        }
        if (space && !out.empty()) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

} // namespace

const Schema* SchemaSet::compile(const Json& document, const std::string& pointer, const Resolver& resolver) {
    Context ctx{document, resolver, {}};
    Json::json_pointer p(pointer);
    if (!document.contains(p)) unsupported(pointer, "no schema at this pointer");
    return compileNode(document.at(p), pointer, ctx);
}

const Schema* SchemaSet::compileNode(const Json& node, const std::string& pointer, Context& ctx) {
    if (!node.is_object()) unsupported(pointer, "a schema must be an object");
    if (node.contains("x-gantry-ref")) {
        std::string ref = node["x-gantry-ref"].get<std::string>();
        if (ref.rfind("#/", 0) == 0) {
            auto known = ctx.local.find(ref);
            if (known != ctx.local.end()) return known->second;
            Json::json_pointer target(ref.substr(1));
            if (!ctx.document.contains(target)) unsupported(pointer, "x-gantry-ref does not resolve: " + ref);
            // Register before compiling so a recursive reference finds it.
            Schema& placeholder = arena_.emplace_back();
            ctx.local[ref] = &placeholder;
            const Schema* compiled = compileNode(ctx.document.at(target), ref.substr(1), ctx);
            placeholder = *compiled;
            return &placeholder;
        }
        if (!ctx.resolver) unsupported(pointer, "x-gantry-ref without a resolver");
        const Schema* target = ctx.resolver(ref);
        if (!target) unsupported(pointer, "x-gantry-ref does not resolve: " + ref);
        return target;
    }
    Schema& s = arena_.emplace_back();
    auto child = [&](const Json& n, const std::string& sub) { return compileNode(n, pointer + sub, ctx); };
    auto integer = [&](const char* key) -> std::optional<int64_t> {
        if (!node.contains(key)) return std::nullopt;
        if (!node[key].is_number_integer()) unsupported(pointer, std::string(key) + " must be an integer");
        return node[key].get<int64_t>();
    };
    auto number = [&](const char* key) -> std::optional<double> {
        if (!node.contains(key)) return std::nullopt;
        if (!node[key].is_number()) unsupported(pointer, std::string(key) + " must be a number");
        return node[key].get<double>();
    };
    for (const auto& [key, value] : node.items()) {
        if (key == "type")
            s.type = typeFromString(value.get<std::string>(), pointer);
        else if (key == "properties")
            for (const auto& [name, sub] : value.items())
                s.properties[name] = child(sub, "/properties/" + name);
        else if (key == "required")
            s.required = value.get<std::vector<std::string>>();
        else if (key == "items")
            s.items = child(value, "/items");
        else if (key == "additionalProperties") {
            if (value.is_boolean()) {
                s.additionalPropertiesAny = value.get<bool>();
                if (!s.additionalPropertiesAny)
                    unsupported(pointer, "additionalProperties: false is not structural");
            } else {
                s.additionalProperties = child(value, "/additionalProperties");
            }
        } else if (key == "enum")
            s.enumValues = value.get<std::vector<Json>>();
        else if (key == "pattern") {
            s.pattern = value.get<std::string>();
            s.patternRegex = compilePattern(s.pattern, pointer);
        } else if (key == "format")
            s.format = value.get<std::string>();
        else if (key == "nullable")
            s.nullable = value.get<bool>();
        else if (key == "x-kubernetes-int-or-string")
            s.intOrString = value.get<bool>();
        else if (key == "x-kubernetes-preserve-unknown-fields")
            s.preserveUnknownFields = value.get<bool>();
        else if (key == "x-kubernetes-embedded-resource")
            s.embeddedResource = value.get<bool>();
        else if (key == "x-kubernetes-list-type")
            s.listType = value.get<std::string>();
        else if (key == "x-kubernetes-list-map-keys")
            s.listMapKeys = value.get<std::vector<std::string>>();
        else if (key == "uniqueItems")
            s.uniqueItems = value.get<bool>();
        else if (key == "exclusiveMinimum")
            s.exclusiveMinimum = value.get<bool>();
        else if (key == "exclusiveMaximum")
            s.exclusiveMaximum = value.get<bool>();
        else if (key == "anyOf" || key == "allOf" || key == "oneOf") {
            auto& list = key == "anyOf" ? s.anyOf : key == "allOf" ? s.allOf : s.oneOf;
            for (size_t i = 0; i < value.size(); ++i)
                list.push_back(child(value[i], "/" + key + "/" + std::to_string(i)));
        } else if (key == "not")
            s.notSchema = child(value, "/not");
        else if (key == "default")
            s.defaultValue = value;
        else if (key == "x-gantry-unknown-fields")
            s.unknownFieldsWarn = value == "warning";
        else if (key == "x-kubernetes-validations") {
            for (const auto& r : value) {
                CelRule rule;
                rule.rule = normalizeSpaces(r.value("rule", ""));
                rule.message = r.value("message", "");
                if (rule.message.empty()) rule.message = "failed rule: " + rule.rule;
                rule.fieldPath = r.value("fieldPath", "");
                rule.transition = rule.rule.find("oldSelf") != std::string::npos;
                rule.check = rule.transition ? nullptr : findCelCheck(rule.rule);
                s.rules.push_back(std::move(rule));
            }
        }
    }
    s.minimum = number("minimum");
    s.maximum = number("maximum");
    s.multipleOf = number("multipleOf");
    s.minLength = integer("minLength");
    s.maxLength = integer("maxLength");
    s.minItems = integer("minItems");
    s.maxItems = integer("maxItems");
    s.minProperties = integer("minProperties");
    s.maxProperties = integer("maxProperties");
    return &s;
}

std::vector<std::string> SchemaSet::unevaluatedRules() const {
    std::set<std::string> out;
    for (const auto& s : arena_)
        for (const auto& r : s.rules)
            if (!r.transition && !r.check) out.insert(r.rule);
    return {out.begin(), out.end()};
}

namespace {

const char* jsonTypeName(const Json& v) {
    switch (v.type()) {
    case Json::value_t::null:
        return "null";
    case Json::value_t::boolean:
        return "boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
        return "integer";
    case Json::value_t::number_float:
        return "number";
    case Json::value_t::string:
        return "string";
    case Json::value_t::array:
        return "array";
    case Json::value_t::object:
        return "object";
    default:
        return "value";
    }
}

// JSON has one number type: 1000.0 is an integer to the API server (kube-openapi accepts any
// float with no fraction where an integer is expected).
bool isInteger(const Json& v) {
    if (v.is_number_integer()) return true;
    if (!v.is_number_float()) return false;
    double d = v.get<double>();
    return std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.2e18;
}

bool typeMatches(Schema::Type t, const Json& v) {
    switch (t) {
    case Schema::Type::None:
        return true;
    case Schema::Type::Object:
        return v.is_object();
    case Schema::Type::Array:
        return v.is_array();
    case Schema::Type::String:
        return v.is_string();
    case Schema::Type::Integer:
        return isInteger(v);
    case Schema::Type::Number:
        return v.is_number();
    case Schema::Type::Boolean:
        return v.is_boolean();
    }
    return false;
}

// Values come from users' files: bytes that are not UTF-8 are shown replaced, not thrown on (found by
// fuzzing: tests/fuzz/corpus/manifests/invalid-utf8-in-enum-value).
std::string shown(const Json& v) {
    return v.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string shortValue(const Json& v) {
    std::string s = shown(v);
    return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

std::string numberText(double d) {
    if (std::floor(d) == d && std::fabs(d) < 1e18) return std::to_string(int64_t(d));
    return Json(d).dump();
}

size_t utf8Length(const std::string& s) {
    size_t n = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80) ++n;
    return n;
}

bool isRfc3339(const std::string& s) {
    static const std::regex re(
        R"(^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt ]([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$)");
    return std::regex_match(s, re);
}

struct Validator {
    SchemaProblems& out;
    const ValidateOptions& options;

    void error(const FieldPath& p, std::string msg) { out.push_back({Severity::Error, p, std::move(msg)}); }
    void warning(const FieldPath& p, std::string msg) {
        out.push_back({Severity::Warning, p, std::move(msg)});
    }

    // Value checks that anyOf/allOf/oneOf branches carry (structural schemas put no fields there).
    bool valueChecksPass(const Json& v, const Schema& s) {
        SchemaProblems scratch;
        Validator inner{scratch, options};
        inner.validate(v, s, FieldPath(), false);
        return scratch.empty() || std::none_of(scratch.begin(), scratch.end(), [](const SchemaProblem& p) {
                   return p.severity == Severity::Error;
               });
    }

    void validate(const Json& v, const Schema& s, const FieldPath& path, bool root) {
        if (v.is_null()) {
            if (!s.nullable && s.type != Schema::Type::None)
                warning(path, "null value; the API server drops it (the field is not nullable)");
            return;
        }
        if (s.intOrString) {
            if (!isInteger(v) && !v.is_string()) {
                error(path, std::string("must be an integer or a string, not ") + jsonTypeName(v));
                return;
            }
        } else if (!typeMatches(s.type, v)) {
            error(path, std::string("must be of type ") + toString(s.type) + ", not " + jsonTypeName(v) +
                            " (" + shortValue(v) + ")");
            return;
        }
        if (!s.enumValues.empty() &&
            std::find(s.enumValues.begin(), s.enumValues.end(), v) == s.enumValues.end()) {
            std::string allowed;
            for (const auto& e : s.enumValues) allowed += (allowed.empty() ? "" : ", ") + e.dump();
            error(path, "unsupported value " + shortValue(v) + ": supported values: " + allowed);
        }
        if (v.is_string()) checkString(v.get_ref<const std::string&>(), s, path);
        if (v.is_number()) checkNumber(v, s, path);
        if (v.is_array()) checkArray(v, s, path);
        if (v.is_object()) checkObject(v, s, path, root);
        for (const auto* branch : s.allOf)
            if (!valueChecksPass(v, *branch))
                error(path, "does not satisfy every allOf branch of the schema");
        if (!s.anyOf.empty() && std::none_of(s.anyOf.begin(), s.anyOf.end(),
                                             [&](const Schema* b) { return valueChecksPass(v, *b); }))
            error(path, "does not satisfy any anyOf branch of the schema");
        if (!s.oneOf.empty() && std::count_if(s.oneOf.begin(), s.oneOf.end(),
                                              [&](const Schema* b) { return valueChecksPass(v, *b); }) != 1)
            error(path, "must satisfy exactly one oneOf branch of the schema");
        if (s.notSchema && valueChecksPass(v, *s.notSchema)) error(path, "must not match the 'not' schema");
        for (const auto& rule : s.rules) {
            if (!rule.check) continue;
            bool holds = false;
            try {
                holds = (*rule.check)(v);
            } catch (const std::exception&) {
                holds = false; // a rule on a malformed value fails, as CEL's evaluation error does
            }
            if (!holds)
                error(rule.fieldPath.empty() ? path : appendFieldPath(path, rule.fieldPath), rule.message);
        }
    }

    static FieldPath appendFieldPath(FieldPath p, const std::string& rel) {
        size_t i = 0;
        while (i < rel.size()) {
            if (rel[i] == '.') ++i;
            size_t end = rel.find_first_of(".[", i);
            p = p.field(rel.substr(i, end == std::string::npos ? std::string::npos : end - i));
            i = end == std::string::npos ? rel.size() : end;
            while (i < rel.size() && rel[i] == '[') {
                size_t close = rel.find(']', i);
                p = p.key(rel.substr(i + 1, close - i - 1));
                i = close + 1;
            }
        }
        return p;
    }

    void checkString(const std::string& str, const Schema& s, const FieldPath& path) {
        size_t len = utf8Length(str);
        if (s.minLength && int64_t(len) < *s.minLength)
            error(path, "must be at least " + std::to_string(*s.minLength) + " characters long");
        if (s.maxLength && int64_t(len) > *s.maxLength)
            error(path, "must be no more than " + std::to_string(*s.maxLength) + " characters (" +
                            std::to_string(len) + ")");
        if (s.patternRegex) {
            // std::regex recurses per character; a bounded input keeps it from exhausting the stack.
            if (str.size() > 4096)
                error(path, "is too long to check against pattern " + s.pattern);
            else if (!std::regex_search(str, *s.patternRegex))
                error(path, "\"" + str + "\" does not match the pattern " + s.pattern);
        }
        if (s.format == "date-time" && !isRfc3339(str))
            error(path, "\"" + str + "\" is not an RFC 3339 date-time");
    }

    void checkNumber(const Json& v, const Schema& s, const FieldPath& path) {
        double d = v.get<double>();
        if (v.is_number_integer()) {
            if (s.format == "int32" && (v.get<int64_t>() < INT32_MIN || v.get<int64_t>() > INT32_MAX))
                error(path, shortValue(v) + " is out of range for int32");
            if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX))
                error(path, shortValue(v) + " is out of range for int64");
        }
        if (s.minimum && (s.exclusiveMinimum ? d <= *s.minimum : d < *s.minimum))
            error(path, std::string("must be ") +
                            (s.exclusiveMinimum ? "greater than " : "greater than or equal to ") +
                            numberText(*s.minimum) + " (got " + shortValue(v) + ")");
        if (s.maximum && (s.exclusiveMaximum ? d >= *s.maximum : d > *s.maximum))
            error(path, std::string("must be ") +
                            (s.exclusiveMaximum ? "less than " : "less than or equal to ") +
                            numberText(*s.maximum) + " (got " + shortValue(v) + ")");
        if (s.multipleOf && *s.multipleOf > 0 && std::fmod(d, *s.multipleOf) != 0)
            error(path, "must be a multiple of " + numberText(*s.multipleOf));
    }

    void checkArray(const Json& v, const Schema& s, const FieldPath& path) {
        if (s.minItems && int64_t(v.size()) < *s.minItems)
            error(path, "must have at least " + std::to_string(*s.minItems) + " item(s), has " +
                            std::to_string(v.size()));
        if (s.maxItems && int64_t(v.size()) > *s.maxItems)
            error(path, "must have at most " + std::to_string(*s.maxItems) + " items, has " +
                            std::to_string(v.size()));
        if (s.items)
            for (size_t i = 0; i < v.size(); ++i) validate(v[i], *s.items, path.index(i), false);
        if (s.listType == "set" || s.uniqueItems) {
            for (size_t i = 0; i < v.size(); ++i)
                for (size_t j = 0; j < i; ++j)
                    if (v[i] == v[j]) {
                        error(path.index(i), "duplicate value " + shortValue(v[i]));
                        break;
                    }
        } else if (s.listType == "map" && !s.listMapKeys.empty()) {
            std::set<std::string> seen;
            for (size_t i = 0; i < v.size(); ++i) {
                if (!v[i].is_object()) continue;
                Json key = Json::object();
                for (const auto& k : s.listMapKeys)
                    if (v[i].contains(k)) key[k] = v[i][k];
                if (!seen.insert(shown(key)).second) error(path.index(i), "duplicate entry " + shown(key));
            }
        }
    }

    void checkObject(const Json& v, const Schema& s, const FieldPath& path, bool root) {
        if (s.minProperties && int64_t(v.size()) < *s.minProperties)
            error(path, "must have at least " + std::to_string(*s.minProperties) + " field(s)");
        if (s.maxProperties && int64_t(v.size()) > *s.maxProperties)
            error(path, "must have at most " + std::to_string(*s.maxProperties) + " field(s), has " +
                            std::to_string(v.size()));
        for (const auto& name : s.required) {
            auto it = v.find(name);
            if (it == v.end() || (it->is_null() && !propertyNullable(s, name)))
                error(path.field(name), "required field \"" + name + "\" is missing");
        }
        for (const auto& [key, value] : v.items()) {
            if ((root || s.embeddedResource) && key == "metadata" && options.objectMeta) {
                options.objectMeta(value, path.field(key), out);
                continue;
            }
            auto prop = s.properties.find(key);
            if (prop != s.properties.end()) {
                validate(value, *prop->second, path.field(key), false);
            } else if (s.additionalProperties) {
                validate(value, *s.additionalProperties, path.key(key), false);
            } else if (s.additionalPropertiesAny || s.preserveUnknownFields ||
                       (s.embeddedResource && (key == "apiVersion" || key == "kind"))) {
                continue;
            } else if (s.unknownFieldsWarn) {
                warning(path.field(key), "unknown field \"" + (path.empty() ? key : path.str() + "." + key) +
                                             "\" (ignored by the scheduler)");
            } else {
                error(path.field(key),
                      "unknown field \"" + (path.empty() ? key : path.str() + "." + key) + "\"");
            }
        }
    }

    static bool propertyNullable(const Schema& s, const std::string& name) {
        auto it = s.properties.find(name);
        return it != s.properties.end() && it->second->nullable;
    }
};

// Kubernetes defaults a CRD object before it validates it, so CEL rules see the defaults.
void applyDefaults(Json& v, const Schema& s) {
    if (v.is_object() && (s.type == Schema::Type::Object || s.type == Schema::Type::None)) {
        for (const auto& [name, prop] : s.properties) {
            auto it = v.find(name);
            if ((it == v.end() || (it->is_null() && !prop->nullable)) && prop->defaultValue)
                v[name] = *prop->defaultValue;
        }
        for (auto& [key, child] : v.items()) {
            auto prop = s.properties.find(key);
            if (prop != s.properties.end())
                applyDefaults(child, *prop->second);
            else if (s.additionalProperties)
                applyDefaults(child, *s.additionalProperties);
        }
    } else if (v.is_array() && s.items) {
        for (auto& item : v) applyDefaults(item, *s.items);
    }
}

} // namespace

void validateAgainstSchema(const Json& value, const Schema& schema, const FieldPath& path,
                           SchemaProblems& out, const ValidateOptions& options) {
    Json defaulted = value;
    applyDefaults(defaulted, schema);
    Validator{out, options}.validate(defaulted, schema, path, path.empty());
}

} // namespace gantry
