#pragma once
// A location inside a document: object fields, map keys and list indexes, written the way
// Kubernetes writes field paths ("spec.capability[nvidia.com/gpu]", "spec.tasks[0].name").
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gantry {

class FieldPath {
  public:
    FieldPath() = default;
    FieldPath field(std::string_view name) const; // a schema property: ".name"
    FieldPath key(std::string_view name) const;   // a key of a free map: "[name]"
    FieldPath index(size_t i) const;              // a list item: "[i]"

    bool empty() const { return segments_.empty(); }
    std::string str() const;     // "spec.resourceGroups[0].flavors[1].name"; "" for the root
    std::string pointer() const; // JSON pointer: "/spec/resourceGroups/0/flavors/1/name"
    FieldPath parent() const;

  private:
    struct Segment {
        enum class Kind { Field, Key, Index } kind;
        std::string text;
    };
    std::vector<Segment> segments_;
};

} // namespace gantry
