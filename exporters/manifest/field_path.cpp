#include "manifest/field_path.h"

namespace gantry {

FieldPath FieldPath::field(std::string_view name) const {
    FieldPath p = *this;
    p.segments_.push_back({Segment::Kind::Field, std::string(name)});
    return p;
}

FieldPath FieldPath::key(std::string_view name) const {
    FieldPath p = *this;
    p.segments_.push_back({Segment::Kind::Key, std::string(name)});
    return p;
}

FieldPath FieldPath::index(size_t i) const {
    FieldPath p = *this;
    p.segments_.push_back({Segment::Kind::Index, std::to_string(i)});
    return p;
}

FieldPath FieldPath::parent() const {
    FieldPath p = *this;
    if (!p.segments_.empty()) p.segments_.pop_back();
    return p;
}

std::string FieldPath::str() const {
    std::string out;
    for (const auto& s : segments_) {
        if (s.kind == Segment::Kind::Field) {
            if (!out.empty()) out += '.';
            out += s.text;
        } else {
            out += '[' + s.text + ']';
        }
    }
    return out;
}

std::string FieldPath::pointer() const {
    std::string out;
    for (const auto& s : segments_) {
        out += '/';
        for (char c : s.text) {
            if (c == '~')
                out += "~0";
            else if (c == '/')
                out += "~1";
            else
                out += c;
        }
    }
    return out;
}

} // namespace gantry
