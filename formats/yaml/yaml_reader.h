#pragma once
// Typed, located access to parsed YAML (and JSON). Every read names the field it reads, so a wrong
// type, a bad quantity or a duplicate key becomes an InputError at file:line:column with the field's
// path ("Queue 'q1': spec.weight: expected an integer, got the string \"1\"").
//
// Type rules follow Kubernetes' JSON decoding: integers and booleans must be plain (unquoted)
// scalars; strings accept any scalar; quantities accept strings and numbers; null is "not set".
#include "input_error.h"
#include "model/diagnostic.h"
#include "model/resources.h"
#include "model/selectors.h"
#include "yaml/yaml_source.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gantry {

// Fields a reader met but Gantry does not model, gathered over a whole import so that a thousand pods
// with the same unmodelled field give one warning with a count and the first location.
class FieldNotes {
  public:
    void note(const std::string& kind, const std::string& path, const SourceRef& where);
    void appendTo(Diagnostics& out) const;
    bool empty() const { return notes_.empty(); }

  private:
    struct Entry {
        SourceRef first;
        int count = 0;
    };
    std::map<std::pair<std::string, std::string>, Entry> notes_;
    std::vector<std::pair<std::string, std::string>> order_;
};

// The document a node belongs to, plus what is being read (for messages) and where notes go.
struct YamlContext {
    TextOrigin origin;
    int document = 0;
    std::string subject;             // "Queue 'q1'"; prefixed to messages when not empty
    Diagnostics* warnings = nullptr; // where warn() goes; may be null (warnings dropped by caller's choice)
    FieldNotes* notes = nullptr;     // unknown-field notes; null makes unknown keys errors (strict formats)
    std::shared_ptr<const DomArena> arena; // keeps the nodes alive
};

class Y {
  public:
    Y() = default;
    Y(const DomNode* node, std::shared_ptr<const YamlContext> context, std::string path = {},
      const DomNode* fallback = nullptr);

    bool present() const { return node_ && node_->kind != DomNode::Kind::Null; }
    bool isMap() const { return present() && node_->isMap(); }
    bool isSeq() const { return present() && node_->isSequence(); }
    bool isScalar() const { return present() && node_->isScalar(); }
    bool quoted() const { return isScalar() && node_->quoted; }
    const DomNode* node() const { return node_; }
    const std::string& path() const { return path_; }
    const YamlContext& context() const { return *context_; }
    std::shared_ptr<const YamlContext> sharedContext() const { return context_; }
    // The same node read under another subject (e.g. once the object's name is known); field paths
    // restart from this node.
    Y withSubject(std::string subject) const;

    SourceRef where() const;
    [[noreturn]] void fail(const std::string& message) const;
    void warn(const std::string& message) const;

    // Child of a mapping; absent when the key is missing. Fails when this node is present and not a map.
    Y operator[](std::string_view key) const;
    // Items of a sequence (empty when absent); fails when present and not a sequence.
    std::vector<Y> items() const;
    // Entries of a mapping in file order (empty when absent); fails on non-map and on duplicate keys.
    std::vector<std::pair<std::string, Y>> entries() const;
    // Checks the keys of a mapping. Keys in `modelled` are read; keys in `ignored` are known to have no
    // effect on scheduling. Any other key is noted as unmodelled (context.notes), or is an error when the
    // context has no notes (Gantry's own strict formats). Duplicate keys are always an error.
    void checkKeys(std::string_view kind, std::initializer_list<std::string_view> modelled,
                   std::initializer_list<std::string_view> ignored = {}) const;

    // Fails unless `value` (read from this node) is one of `allowed`; an empty value passes.
    void expectOneOf(const std::string& value, std::initializer_list<const char*> allowed) const;
    // The string (def when absent), which must be empty or one of `allowed`.
    std::string choice(std::string def, std::initializer_list<const char*> allowed) const;

    std::string str(std::string def = {}) const;
    std::optional<std::string> optStr() const;
    int32_t i32(int32_t def = 0) const;
    std::optional<int32_t> optI32() const;
    int64_t i64(int64_t def = 0) const;
    std::optional<int64_t> optI64() const;
    uint64_t u64(uint64_t def = 0) const;
    double num(double def = 0) const;
    std::optional<double> optNum() const;
    bool boolean(bool def = false) const;
    std::optional<bool> optBool() const;
    std::vector<std::string> strings() const;
    Labels stringMap() const;
    // A quantity of the named resource in canonical units (model/resources.h). Negative is an error
    // unless allowNegative.
    // A quantity too large for int64 is an error, or the largest int64 with clampToMax (Kueue reads
    // such requests and quotas as "unlimited").
    int64_t quantity(std::string_view resource, bool allowNegative = false, bool clampToMax = false) const;
    std::optional<int64_t> optQuantity(std::string_view resource, bool clampToMax = false) const;
    // A quantity map (requests, capacity, quotas). Negative or unparsable amounts are errors.
    ResourceList resources(bool clampToMax = false) const;
    // A Go duration ("90s", "1h30m", "250ms") or a plain number of seconds.
    double durationSeconds(double def = 0) const;

  private:
    std::string describe() const; // "a mapping", "the string \"x\"", ...
    std::string child(std::string_view key) const;
    const DomNode* node_ = nullptr;
    std::shared_ptr<const YamlContext> context_;
    std::string path_;
    const DomNode* fallback_ = nullptr; // located at when the node itself is absent (its parent)
};

// Root reader of one document.
Y readerFor(const SourceDocument& doc, Diagnostics* warnings, FieldNotes* notes, std::string subject = {});

} // namespace gantry
