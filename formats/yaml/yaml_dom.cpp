#include "yaml/yaml_dom.h"

#include "input_error.h"
#include "yaml/yaml_source.h"

#include <map>
#include <string_view>
#include <yaml.h>

namespace gantry {

namespace {

// Builds DomNodes from libyaml's parser events (libyaml reads YAML several times faster than
// yaml-cpp, which matters for snapshots of thousands of nodes). Scalars are kept as text: their type
// is decided later by the reader, by YAML 1.2 rules.
class Builder {
  public:
    Builder(DomArena& arena, const TextOrigin& origin) : arena_(arena), origin_(origin) {}
    const DomNode* root() const { return root_; }

    void startDocument() {
        root_ = nullptr;
        stack_.clear();
        anchors_.clear();
    }
    void alias(const yaml_event_t& e) {
        auto it = anchors_.find(text(e.data.alias.anchor));
        // libyaml leaves aliases to the composer: an unknown one is ours to refuse.
        if (it == anchors_.end())
            throw InputError(origin_.locate(int(e.start_mark.line), int(e.start_mark.column), 0),
                             "YAML syntax error: alias *" + std::string(text(e.data.alias.anchor)) +
                                 " names no anchor defined before it");
        attach(it->second);
    }
    void scalar(const yaml_event_t& e) {
        const auto& sc = e.data.scalar;
        std::string_view value(reinterpret_cast<const char*>(sc.value), sc.length);
        const bool plain = sc.style == YAML_PLAIN_SCALAR_STYLE;
        const std::string_view tag = text(sc.tag);
        // An untagged plain ~, null or nothing at all is YAML's null.
        if (plain && tag.empty() &&
            (value.empty() || value == "~" || value == "null" || value == "Null" || value == "NULL")) {
            add(node(e, DomNode::Kind::Null), sc.anchor);
            return;
        }
        DomNode* n = node(e, DomNode::Kind::Scalar);
        n->quoted = !plain || tag == YAML_STR_TAG; // `!!str 123` is a string, as a quoted "123" is
        n->text.assign(value);
        add(n, sc.anchor);
    }
    void startCollection(const yaml_event_t& e, DomNode::Kind kind, yaml_char_t* anchor) {
        DomNode* n = node(e, kind);
        add(n, anchor);
        stack_.push_back(n);
    }
    void endCollection() { stack_.pop_back(); }

  private:
    static std::string_view text(const yaml_char_t* s) {
        return s ? std::string_view(reinterpret_cast<const char*>(s)) : std::string_view();
    }
    DomNode* node(const yaml_event_t& e, DomNode::Kind kind) {
        DomNode* n = arena_.make();
        n->kind = kind;
        n->line = int(e.start_mark.line);
        n->column = int(e.start_mark.column);
        n->pos = long(e.start_mark.index);
        return n;
    }
    void add(DomNode* n, const yaml_char_t* anchor) {
        if (anchor) anchors_[std::string(text(anchor))] = n;
        attach(n);
    }
    void attach(const DomNode* n) {
        if (stack_.empty())
            root_ = n;
        else
            stack_.back()->children.push_back(n);
    }
    DomArena& arena_;
    const TextOrigin& origin_;
    const DomNode* root_ = nullptr;
    std::vector<DomNode*> stack_;
    std::map<std::string, const DomNode*, std::less<>> anchors_;
};

// Owns a libyaml parser and the event it last produced.
class EventParser {
  public:
    explicit EventParser(const std::string& text) {
        yaml_parser_initialize(&parser_);
        yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()),
                                     text.size());
    }
    ~EventParser() {
        if (hasEvent_) yaml_event_delete(&event_);
        yaml_parser_delete(&parser_);
    }
    EventParser(const EventParser&) = delete;
    EventParser& operator=(const EventParser&) = delete;

    // The next event; a syntax error throws InputError at the parser's mark.
    const yaml_event_t& next(const TextOrigin& origin) {
        if (hasEvent_) yaml_event_delete(&event_);
        hasEvent_ = yaml_parser_parse(&parser_, &event_) != 0;
        if (!hasEvent_) fail(origin);
        return event_;
    }

  private:
    [[noreturn]] void fail(const TextOrigin& origin) const {
        std::string what = parser_.problem ? parser_.problem : "unreadable input";
        if (parser_.context) what += " " + std::string(parser_.context);
        if (parser_.context && parser_.context_mark.line != parser_.problem_mark.line)
            what += " (started at line " +
                    std::to_string(origin.locate(int(parser_.context_mark.line), 0, 0).line) + ")";
        const yaml_mark_t& at = parser_.problem_mark;
        throw InputError(origin.locate(int(at.line), int(at.column), 0), "YAML syntax error: " + what);
    }
    yaml_parser_t parser_;
    yaml_event_t event_;
    bool hasEvent_ = false;
};

class JsonParser {
  public:
    JsonParser(const std::string& s, const TextOrigin& origin, DomArena& arena)
        : s_(s), origin_(origin), arena_(arena) {}

    const DomNode* document() {
        ws();
        const DomNode* v = value(0);
        ws();
        if (i_ < s_.size()) fail("unexpected " + here() + " after the JSON value");
        return v;
    }

  private:
    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(origin_.locate(line_, column_, 0), "JSON syntax error: " + what);
    }
    std::string here() const {
        if (i_ >= s_.size()) return "end of input";
        unsigned char c = static_cast<unsigned char>(s_[i_]);
        if (c < 0x20 || c >= 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "0x%02x", c);
            return std::string("byte ") + buf;
        }
        return std::string("'") + char(c) + "'";
    }
    void advance() {
        if (s_[i_] == '\n')
            ++line_, column_ = 0;
        else
            ++column_;
        ++i_;
    }
    void ws() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
            advance();
    }
    DomNode* make(DomNode::Kind kind) {
        DomNode* n = arena_.make();
        n->kind = kind;
        n->line = line_;
        n->column = column_;
        n->pos = long(i_);
        return n;
    }
    bool literal(const char* word) {
        size_t n = std::char_traits<char>::length(word);
        if (s_.compare(i_, n, word) != 0) return false;
        for (size_t k = 0; k < n; ++k) advance();
        return true;
    }

    const DomNode* value(int depth) {
        if (depth > 512) fail("nesting deeper than 512 levels");
        if (i_ >= s_.size()) fail("unexpected end of input, expected a value");
        char c = s_[i_];
        if (c == '{') return object(depth);
        if (c == '[') return array(depth);
        if (c == '"') {
            DomNode* n = make(DomNode::Kind::Scalar);
            n->quoted = true;
            n->text = string();
            return n;
        }
        if (c == '-' || (c >= '0' && c <= '9')) return number();
        DomNode* n = make(DomNode::Kind::Scalar);
        if (literal("true"))
            n->text = "true";
        else if (literal("false"))
            n->text = "false";
        else if (literal("null"))
            n->kind = DomNode::Kind::Null;
        else
            fail("unexpected " + here() + ", expected a value");
        return n;
    }

    const DomNode* object(int depth) {
        DomNode* n = make(DomNode::Kind::Map);
        advance();
        ws();
        if (i_ < s_.size() && s_[i_] == '}') {
            advance();
            return n;
        }
        while (true) {
            ws();
            if (i_ >= s_.size() || s_[i_] != '"') fail("expected a string key, got " + here());
            DomNode* key = make(DomNode::Kind::Scalar);
            key->quoted = true;
            key->text = string();
            ws();
            if (i_ >= s_.size() || s_[i_] != ':') fail("expected ':' after an object key, got " + here());
            advance();
            ws();
            n->children.push_back(key);
            n->children.push_back(value(depth + 1));
            ws();
            if (i_ < s_.size() && s_[i_] == ',') {
                advance();
                continue;
            }
            if (i_ < s_.size() && s_[i_] == '}') {
                advance();
                return n;
            }
            fail("expected ',' or '}' after an object member, got " + here());
        }
    }

    const DomNode* array(int depth) {
        DomNode* n = make(DomNode::Kind::Sequence);
        advance();
        ws();
        if (i_ < s_.size() && s_[i_] == ']') {
            advance();
            return n;
        }
        while (true) {
            ws();
            n->children.push_back(value(depth + 1));
            ws();
            if (i_ < s_.size() && s_[i_] == ',') {
                advance();
                continue;
            }
            if (i_ < s_.size() && s_[i_] == ']') {
                advance();
                return n;
            }
            fail("expected ',' or ']' after an array item, got " + here());
        }
    }

    const DomNode* number() {
        DomNode* n = make(DomNode::Kind::Scalar);
        size_t start = i_;
        auto digits = [&] {
            size_t k = i_;
            while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') advance();
            return i_ > k;
        };
        if (s_[i_] == '-') advance();
        if (i_ < s_.size() && s_[i_] == '0')
            advance();
        else if (!digits())
            fail("expected digits in a number, got " + here());
        if (i_ < s_.size() && s_[i_] == '.') {
            advance();
            if (!digits()) fail("expected digits after the decimal point, got " + here());
        }
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
            advance();
            if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) advance();
            if (!digits()) fail("expected digits in the exponent, got " + here());
        }
        n->text.assign(s_, start, i_ - start);
        return n;
    }

    unsigned hex4() {
        unsigned v = 0;
        for (int k = 0; k < 4; ++k) {
            if (i_ >= s_.size()) fail("unexpected end of input in a \\u escape");
            char c = s_[i_];
            v <<= 4;
            if (c >= '0' && c <= '9')
                v |= unsigned(c - '0');
            else if (c >= 'a' && c <= 'f')
                v |= unsigned(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                v |= unsigned(c - 'A' + 10);
            else
                fail("expected a hex digit in a \\u escape, got " + here());
            advance();
        }
        return v;
    }

    static void utf8(std::string& out, unsigned cp) {
        if (cp < 0x80)
            out += char(cp);
        else if (cp < 0x800)
            out += char(0xC0 | (cp >> 6)), out += char(0x80 | (cp & 0x3F));
        else if (cp < 0x10000)
            out += char(0xE0 | (cp >> 12)), out += char(0x80 | ((cp >> 6) & 0x3F)),
                out += char(0x80 | (cp & 0x3F));
        else
            out += char(0xF0 | (cp >> 18)), out += char(0x80 | ((cp >> 12) & 0x3F)),
                out += char(0x80 | ((cp >> 6) & 0x3F)), out += char(0x80 | (cp & 0x3F));
    }

    [[noreturn]] void unterminated(int line, int column) {
        line_ = line, column_ = column;
        fail("unterminated string");
    }

    std::string string() {
        int startLine = line_, startColumn = column_;
        advance(); // opening quote
        std::string out;
        while (true) {
            // Copy a run of ordinary bytes at once.
            size_t run = i_;
            while (run < s_.size() && s_[run] != '"' && s_[run] != '\\' &&
                   static_cast<unsigned char>(s_[run]) >= 0x20)
                ++run;
            out.append(s_, i_, run - i_);
            column_ += int(run - i_);
            i_ = run;
            if (i_ >= s_.size()) unterminated(startLine, startColumn);
            char c = s_[i_];
            if (c == '"') {
                advance();
                return out;
            }
            if (c != '\\') fail("control character " + here() + " in a string (escape it)");
            advance();
            if (i_ >= s_.size()) unterminated(startLine, startColumn);
            char e = s_[i_];
            advance();
            switch (e) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                unsigned cp = hex4();
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    if (s_.compare(i_, 2, "\\u") != 0) fail("a high surrogate must be followed by a low one");
                    advance();
                    advance();
                    unsigned lo = hex4();
                    if (lo < 0xDC00 || lo > 0xDFFF) fail("a high surrogate must be followed by a low one");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    fail("a low surrogate without a high one");
                }
                utf8(out, cp);
                break;
            }
            default:
                --column_, --i_, fail("unknown escape \\" + std::string(1, e));
            }
        }
    }

    const std::string& s_;
    const TextOrigin& origin_;
    DomArena& arena_;
    size_t i_ = 0;
    int line_ = 0, column_ = 0;
};

} // namespace

std::vector<DomDocument> parseYaml(const std::string& text, const TextOrigin& origin, DomArena& arena) {
    std::vector<DomDocument> docs;
    EventParser parser(text);
    Builder builder(arena, origin);
    int index = 0;
    for (;;) {
        const yaml_event_t& e = parser.next(origin);
        switch (e.type) {
        case YAML_STREAM_END_EVENT:
            return docs;
        case YAML_DOCUMENT_START_EVENT:
            ++index;
            builder.startDocument();
            break;
        case YAML_DOCUMENT_END_EVENT:
            if (const DomNode* root = builder.root(); root && root->kind != DomNode::Kind::Null)
                docs.push_back(DomDocument{root, index});
            break;
        case YAML_ALIAS_EVENT:
            builder.alias(e);
            break;
        case YAML_SCALAR_EVENT:
            builder.scalar(e);
            break;
        case YAML_SEQUENCE_START_EVENT:
            builder.startCollection(e, DomNode::Kind::Sequence, e.data.sequence_start.anchor);
            break;
        case YAML_MAPPING_START_EVENT:
            builder.startCollection(e, DomNode::Kind::Map, e.data.mapping_start.anchor);
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            builder.endCollection();
            break;
        default:
            break;
        }
    }
}

DomDocument parseJson(const std::string& text, const TextOrigin& origin, DomArena& arena) {
    JsonParser p(text, origin, arena);
    return DomDocument{p.document(), 1};
}

} // namespace gantry
