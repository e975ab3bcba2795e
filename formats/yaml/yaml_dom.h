#pragma once
// A small read-only document tree with a location on every node, built from YAML (libyaml's event
// parser) or from JSON (our own parser, much faster than reading JSON as YAML). Importers read it
// through Y (yaml_reader.h); nodes live in an arena owned by the document.
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gantry {

struct DomNode {
    enum class Kind : uint8_t { Null, Scalar, Sequence, Map };
    Kind kind = Kind::Null;
    bool quoted = false; // a quoted (or JSON string) scalar, as opposed to a plain one
    int line = -1;       // 0-based, as the parsers count
    int column = -1;     // 0-based, in bytes
    long pos = -1;       // byte offset in the text
    std::string text;    // scalar value
    // Sequence: the items. Map: key, value, key, value, ... in file order.
    std::vector<const DomNode*> children;

    bool isMap() const { return kind == Kind::Map; }
    bool isSequence() const { return kind == Kind::Sequence; }
    bool isScalar() const { return kind == Kind::Scalar; }
    size_t mapSize() const { return children.size() / 2; }
};

class DomArena {
  public:
    DomNode* make() { return &nodes_.emplace_back(); }

  private:
    std::deque<DomNode> nodes_;
};

struct TextOrigin;

struct DomDocument {
    const DomNode* root = nullptr;
    int index = 0; // 1-based position in a multi-document stream
};

// Parses every YAML document of `text` (empty ones are skipped). Syntax errors throw InputError
// located through `origin` (yaml_source.h).
std::vector<DomDocument> parseYaml(const std::string& text, const TextOrigin& origin, DomArena& arena);
// Parses one JSON value (RFC 8259), strictly.
DomDocument parseJson(const std::string& text, const TextOrigin& origin, DomArena& arena);

} // namespace gantry
