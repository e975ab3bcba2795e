#include "yaml/yaml_reader.h"

#include "model/go_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <set>

namespace gantry {

void FieldNotes::note(const std::string& kind, const std::string& path, const SourceRef& where) {
    auto key = std::make_pair(kind, path);
    auto [it, inserted] = notes_.try_emplace(key);
    if (inserted) {
        it->second.first = where;
        order_.push_back(key);
    }
    ++it->second.count;
}

void FieldNotes::appendTo(Diagnostics& out) const {
    for (const auto& key : order_) {
        const auto& e = notes_.at(key);
        std::string msg = key.first + " field '" + key.second + "' is not modelled by Gantry and was ignored";
        if (e.count > 1) msg += " (" + std::to_string(e.count) + " objects; first here)";
        out.push_back(Diagnostic{Severity::Warning, e.first, msg});
    }
}

Y::Y(const DomNode* node, std::shared_ptr<const YamlContext> context, std::string path,
     const DomNode* fallback)
    : node_(node), context_(std::move(context)), path_(std::move(path)), fallback_(fallback) {}

Y Y::withSubject(std::string subject) const {
    auto ctx = std::make_shared<YamlContext>(*context_);
    ctx->subject = std::move(subject);
    return Y(node_, ctx, {}, fallback_); // the subject names the object; paths start below it
}

SourceRef Y::where() const {
    const DomNode* at = node_ ? node_ : fallback_;
    if (!at) return context_->origin.locate(-1, -1, context_->document);
    return context_->origin.locate(at->line, at->column, context_->document);
}

void Y::fail(const std::string& message) const {
    std::string text;
    if (!context_->subject.empty()) text += context_->subject + ": ";
    if (!path_.empty()) text += path_ + ": ";
    throw InputError(where(), text + message);
}

void Y::warn(const std::string& message) const {
    if (!context_->warnings) return;
    std::string text;
    if (!context_->subject.empty()) text += context_->subject + ": ";
    if (!path_.empty()) text += path_ + ": ";
    context_->warnings->push_back(Diagnostic{Severity::Warning, where(), text + message});
}

std::string Y::child(std::string_view key) const {
    if (path_.empty()) return std::string(key);
    return path_ + "." + std::string(key);
}

std::string Y::describe() const {
    if (!present()) return "nothing";
    if (node_->isMap()) return "a mapping";
    if (node_->isSequence()) return "a list";
    if (quoted()) return "the string \"" + node_->text + "\"";
    return "'" + node_->text + "'";
}

Y Y::operator[](std::string_view key) const {
    const DomNode* here = node_ ? node_ : fallback_;
    if (!present()) return Y(nullptr, context_, child(key), here);
    if (!node_->isMap()) fail("expected a mapping, got " + describe());
    const auto& c = node_->children;
    for (size_t i = 0; i + 1 < c.size(); i += 2)
        if (c[i]->isScalar() && c[i]->text == key) return Y(c[i + 1], context_, child(key), c[i]);
    return Y(nullptr, context_, child(key), here);
}

std::vector<Y> Y::items() const {
    std::vector<Y> out;
    if (!present()) return out;
    if (!node_->isSequence()) fail("expected a list, got " + describe());
    out.reserve(node_->children.size());
    size_t i = 0;
    for (const DomNode* item : node_->children)
        out.emplace_back(item, context_, path_ + "[" + std::to_string(i++) + "]", node_);
    return out;
}

std::vector<std::pair<std::string, Y>> Y::entries() const {
    std::vector<std::pair<std::string, Y>> out;
    if (!present()) return out;
    if (!node_->isMap()) fail("expected a mapping, got " + describe());
    const auto& c = node_->children;
    out.reserve(c.size() / 2);
    std::set<std::string_view> seen;
    for (size_t i = 0; i + 1 < c.size(); i += 2) {
        Y key(c[i], context_, path_, node_);
        if (!c[i]->isScalar()) key.fail("keys must be scalars");
        const std::string& name = c[i]->text;
        if (!seen.insert(name).second) key.fail("duplicate key '" + name + "'");
        out.emplace_back(name, Y(c[i + 1], context_, child(name), c[i]));
    }
    return out;
}

void Y::checkKeys(std::string_view kind, std::initializer_list<std::string_view> modelled,
                  std::initializer_list<std::string_view> ignored) const {
    auto in = [](std::initializer_list<std::string_view> list, const std::string& name) {
        return std::find(list.begin(), list.end(), name) != list.end();
    };
    const auto& c = present() && node_->isMap() ? node_->children : std::vector<const DomNode*>{};
    size_t i = 0;
    for (const auto& [name, value] : entries()) { // entries() rejects non-maps and duplicate keys
        const DomNode* keyNode = c[2 * i++];
        if (in(modelled, name) || in(ignored, name)) continue;
        Y key(keyNode, context_, path_, node_);
        if (context_->notes) {
            context_->notes->note(std::string(kind), child(name), key.where());
        } else {
            std::string expected;
            for (auto k : modelled) expected += (expected.empty() ? "" : ", ") + std::string(k);
            key.fail("unknown key '" + name + "'" +
                     (expected.empty() ? "" : " (expected one of: " + expected + ")"));
        }
    }
}

void Y::expectOneOf(const std::string& value, std::initializer_list<const char*> allowed) const {
    if (value.empty()) return;
    for (const char* a : allowed)
        if (value == a) return;
    std::string list;
    for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    fail("unknown value '" + value + "' (expected " + list + ")");
}

std::string Y::choice(std::string def, std::initializer_list<const char*> allowed) const {
    std::string value = str(std::move(def));
    expectOneOf(value, allowed);
    return value;
}

std::string Y::str(std::string def) const {
    if (!present()) return def;
    if (!node_->isScalar()) fail("expected a string, got " + describe());
    return node_->text;
}

std::optional<std::string> Y::optStr() const {
    if (!present()) return std::nullopt;
    return str();
}

namespace {
template <class T> std::optional<T> parseInteger(const std::string& s) {
    T v{};
    const char* b = s.data();
    const char* e = s.data() + s.size();
    if (b != e && *b == '+') ++b;
    auto [p, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || p != e || b == e) return std::nullopt;
    return v;
}
} // namespace

std::optional<int64_t> Y::optI64() const {
    if (!present()) return std::nullopt;
    if (!node_->isScalar() || quoted()) fail("expected an integer, got " + describe());
    auto v = parseInteger<int64_t>(node_->text);
    if (!v) fail("expected an integer, got " + describe());
    return v;
}

int64_t Y::i64(int64_t def) const {
    return optI64().value_or(def);
}

std::optional<int32_t> Y::optI32() const {
    auto v = optI64();
    if (!v) return std::nullopt;
    if (*v < INT32_MIN || *v > INT32_MAX)
        fail("integer " + std::to_string(*v) + " is out of the int32 range");
    return int32_t(*v);
}

int32_t Y::i32(int32_t def) const {
    return optI32().value_or(def);
}

uint64_t Y::u64(uint64_t def) const {
    if (!present()) return def;
    if (!node_->isScalar() || quoted()) fail("expected a non-negative integer, got " + describe());
    auto v = parseInteger<uint64_t>(node_->text);
    if (!v) fail("expected a non-negative integer, got " + describe());
    return *v;
}

std::optional<double> Y::optNum() const {
    if (!present()) return std::nullopt;
    if (!node_->isScalar() || quoted()) fail("expected a number, got " + describe());
    const std::string& s = node_->text;
    double v = 0;
    const char* b = s.data();
    if (!s.empty() && *b == '+') ++b;
    auto [p, ec] = std::from_chars(b, s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v))
        fail("expected a number, got " + describe());
    return v;
}

double Y::num(double def) const {
    return optNum().value_or(def);
}

std::optional<bool> Y::optBool() const {
    if (!present()) return std::nullopt;
    // YAML 1.1 booleans, as Kubernetes' YAML decoder (go-yaml v2) and yaml-cpp read them.
    static const std::set<std::string_view> yes{"y",    "Y",    "yes", "Yes", "YES", "true",
                                                "True", "TRUE", "on",  "On",  "ON"};
    static const std::set<std::string_view> no{"n",     "N",     "no",  "No",  "NO", "false",
                                               "False", "FALSE", "off", "Off", "OFF"};
    if (node_->isScalar() && !quoted()) {
        if (yes.count(node_->text)) return true;
        if (no.count(node_->text)) return false;
    }
    fail("expected true or false, got " + describe());
}

bool Y::boolean(bool def) const {
    return optBool().value_or(def);
}

std::vector<std::string> Y::strings() const {
    std::vector<std::string> out;
    for (const auto& item : items()) out.push_back(item.str());
    return out;
}

Labels Y::stringMap() const {
    Labels out;
    for (const auto& [k, v] : entries()) out[k] = v.str();
    return out;
}

std::optional<int64_t> Y::optQuantity(std::string_view resource, bool clampToMax) const {
    if (!present()) return std::nullopt;
    return quantity(resource, false, clampToMax);
}

int64_t Y::quantity(std::string_view resource, bool allowNegative, bool clampToMax) const {
    if (!present()) fail("missing quantity");
    if (!node_->isScalar()) fail("expected a quantity, got " + describe());
    const std::string& text = node_->text;
    std::string error;
    auto q = Quantity::parse(text, &error);
    if (!q) fail("'" + text + "' is not a valid quantity: " + error);
    if (q->negative() && !q->isZero() && !allowNegative) fail("quantity '" + text + "' must not be negative");
    auto amount = toAmount(resource, *q);
    if (!amount && clampToMax && !q->negative()) return std::numeric_limits<int64_t>::max();
    if (!amount) fail("quantity '" + text + "' is out of range");
    return *amount;
}

ResourceList Y::resources(bool clampToMax) const {
    ResourceList out;
    for (const auto& [name, value] : entries()) {
        if (name.empty()) value.fail("empty resource name");
        out.set(name, value.quantity(name, false, clampToMax));
    }
    return out;
}

double Y::durationSeconds(double def) const {
    if (!present()) return def;
    if (!node_->isScalar()) fail("expected a duration, got " + describe());
    const std::string& s = node_->text;
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    std::optional<double> parsed;
    if (ec == std::errc() && p == s.data() + s.size())
        parsed = v;
    else
        parsed = engine::parseGoDuration(s); // Go's time.ParseDuration, written once
    if (!parsed || !std::isfinite(*parsed))
        fail("'" + s + "' is not a duration (seconds, or Go form such as 90s, 15m, 1h30m)");
    if (*parsed < 0) fail("duration '" + s + "' must not be negative");
    return *parsed;
}

Y readerFor(const SourceDocument& doc, Diagnostics* warnings, FieldNotes* notes, std::string subject) {
    auto ctx = std::make_shared<YamlContext>();
    ctx->origin = doc.origin;
    ctx->document = doc.index;
    ctx->subject = std::move(subject);
    ctx->warnings = warnings;
    ctx->notes = notes;
    ctx->arena = doc.arena;
    return Y(doc.root, ctx, {}, doc.root);
}

} // namespace gantry
