#include "yaml_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
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

Y::Y(YAML::Node node, std::shared_ptr<const YamlContext> context, std::string path, YAML::Mark fallback)
    : node_(std::move(node)), context_(std::move(context)), path_(std::move(path)), fallback_(fallback) {}

Y Y::withSubject(std::string subject) const {
    auto ctx = std::make_shared<YamlContext>(*context_);
    ctx->subject = std::move(subject);
    return Y(node_, ctx, path_, fallback_);
}

SourceRef Y::where() const {
    YAML::Mark m = node_.IsDefined() ? node_.Mark() : fallback_;
    return context_->origin.locate(m.line, m.column, context_->document);
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
    if (node_.IsMap()) return "a mapping";
    if (node_.IsSequence()) return "a list";
    if (quoted()) return "the string \"" + node_.Scalar() + "\"";
    return "'" + node_.Scalar() + "'";
}

Y Y::operator[](std::string_view key) const {
    YAML::Mark here = node_.IsDefined() ? node_.Mark() : fallback_;
    if (!present()) return Y(YAML::Node(YAML::NodeType::Undefined), context_, child(key), here);
    if (!node_.IsMap()) fail("expected a mapping, got " + describe());
    // Lookup without the insertion a non-const operator[] would do.
    for (auto it = node_.begin(); it != node_.end(); ++it)
        if (it->first.IsScalar() && it->first.Scalar() == key)
            return Y(it->second, context_, child(key), it->first.Mark());
    return Y(YAML::Node(YAML::NodeType::Undefined), context_, child(key), here);
}

std::vector<Y> Y::items() const {
    std::vector<Y> out;
    if (!present()) return out;
    if (!node_.IsSequence()) fail("expected a list, got " + describe());
    size_t i = 0;
    out.reserve(node_.size());
    for (const auto& item : node_)
        out.emplace_back(item, context_, path_ + "[" + std::to_string(i++) + "]", node_.Mark());
    return out;
}

std::vector<std::pair<std::string, Y>> Y::entries() const {
    std::vector<std::pair<std::string, Y>> out;
    if (!present()) return out;
    if (!node_.IsMap()) fail("expected a mapping, got " + describe());
    std::set<std::string> seen;
    for (auto it = node_.begin(); it != node_.end(); ++it) {
        Y key(it->first, context_, path_, node_.Mark());
        if (!it->first.IsScalar()) key.fail("keys must be scalars");
        const std::string& name = it->first.Scalar();
        if (!seen.insert(name).second) key.fail("duplicate key '" + name + "'");
        out.emplace_back(name, Y(it->second, context_, child(name), it->first.Mark()));
    }
    return out;
}

void Y::checkKeys(std::string_view kind, std::initializer_list<std::string_view> modelled,
                  std::initializer_list<std::string_view> ignored) const {
    if (!present()) return;
    if (!node_.IsMap()) fail("expected a mapping, got " + describe());
    std::set<std::string_view> seen;
    for (auto it = node_.begin(); it != node_.end(); ++it) {
        Y key(it->first, context_, path_, node_.Mark());
        if (!it->first.IsScalar()) key.fail("keys must be scalars");
        const std::string& name = it->first.Scalar();
        if (!seen.insert(name).second) key.fail("duplicate key '" + name + "'");
        auto in = [&](std::initializer_list<std::string_view> list) {
            return std::find(list.begin(), list.end(), name) != list.end();
        };
        if (in(modelled) || in(ignored)) continue;
        if (context_->notes) {
            context_->notes->note(std::string(kind), child(name), key.where());
        } else {
            std::string expected;
            for (auto k : modelled) expected += (expected.empty() ? "" : ", ") + std::string(k);
            Y(it->first, context_, path_, node_.Mark())
                .fail("unknown key '" + name + "'" +
                      (expected.empty() ? "" : " (expected one of: " + expected + ")"));
        }
    }
}

std::string Y::str(std::string def) const {
    if (!present()) return def;
    if (!node_.IsScalar()) fail("expected a string, got " + describe());
    return node_.Scalar();
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
    if (!node_.IsScalar() || quoted()) fail("expected an integer, got " + describe());
    auto v = parseInteger<int64_t>(node_.Scalar());
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
    auto v = optI64();
    if (!v) return def;
    if (*v < 0) fail("expected a non-negative integer, got " + describe());
    return uint64_t(*v);
}

std::optional<double> Y::optNum() const {
    if (!present()) return std::nullopt;
    if (!node_.IsScalar() || quoted()) fail("expected a number, got " + describe());
    const std::string& s = node_.Scalar();
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
    bool v = false;
    if (!node_.IsScalar() || quoted() || !YAML::convert<bool>::decode(node_, v))
        fail("expected true or false, got " + describe());
    return v;
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

std::optional<int64_t> Y::optQuantity(std::string_view resource) const {
    if (!present()) return std::nullopt;
    return quantity(resource);
}

int64_t Y::quantity(std::string_view resource, bool allowNegative) const {
    if (!present()) fail("missing quantity");
    if (!node_.IsScalar()) fail("expected a quantity, got " + describe());
    std::string error;
    auto q = Quantity::parse(node_.Scalar(), &error);
    if (!q) fail("'" + node_.Scalar() + "' is not a valid quantity: " + error);
    if (q->negative() && !q->isZero() && !allowNegative)
        fail("quantity '" + node_.Scalar() + "' must not be negative");
    auto amount = toAmount(resource, *q);
    if (!amount) fail("quantity '" + node_.Scalar() + "' is out of range");
    return *amount;
}

ResourceList Y::resources() const {
    ResourceList out;
    for (const auto& [name, value] : entries()) {
        if (name.empty()) value.fail("empty resource name");
        out.set(name, value.quantity(name));
    }
    return out;
}

std::optional<double> parseGoDuration(std::string_view s) {
    if (s.empty()) return std::nullopt;
    bool neg = false;
    if (s[0] == '-' || s[0] == '+') neg = s[0] == '-', s.remove_prefix(1);
    if (s == "0") return 0.0;
    double total = 0;
    bool any = false;
    while (!s.empty()) {
        size_t i = 0;
        while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
        if (i == 0) return std::nullopt;
        double v = 0;
        auto [p, ec] = std::from_chars(s.data(), s.data() + i, v);
        if (ec != std::errc() || p != s.data() + i) return std::nullopt;
        s.remove_prefix(i);
        size_t u = 0;
        while (u < s.size() && std::isalpha(static_cast<unsigned char>(s[u]))) ++u;
        std::string_view unit = s.substr(0, u);
        s.remove_prefix(u);
        double scale = 0;
        if (unit == "h")
            scale = 3600;
        else if (unit == "m")
            scale = 60;
        else if (unit == "s")
            scale = 1;
        else if (unit == "ms")
            scale = 1e-3;
        else if (unit == "us" || unit == "µs")
            scale = 1e-6;
        else if (unit == "ns")
            scale = 1e-9;
        else
            return std::nullopt;
        total += v * scale;
        any = true;
    }
    if (!any) return std::nullopt;
    return neg ? -total : total;
}

double Y::durationSeconds(double def) const {
    if (!present()) return def;
    if (!node_.IsScalar()) fail("expected a duration, got " + describe());
    const std::string& s = node_.Scalar();
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    std::optional<double> parsed;
    if (ec == std::errc() && p == s.data() + s.size())
        parsed = v;
    else
        parsed = parseGoDuration(s);
    if (!parsed || !std::isfinite(*parsed))
        fail("'" + s + "' is not a duration (seconds, or Go form such as 90s, 15m, 1h30m)");
    if (*parsed < 0) fail("duration '" + s + "' must not be negative");
    return *parsed;
}

Y readerFor(const YAML::Node& root, const TextOrigin& origin, int document, Diagnostics* warnings,
            FieldNotes* notes, std::string subject) {
    auto ctx = std::make_shared<YamlContext>();
    ctx->origin = origin;
    ctx->document = document;
    ctx->subject = std::move(subject);
    ctx->warnings = warnings;
    ctx->notes = notes;
    return Y(root, ctx, {}, root.IsDefined() ? root.Mark() : YAML::Mark::null_mark());
}

} // namespace gantry
