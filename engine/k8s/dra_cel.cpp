// The device-selector CEL of dra_cel.h: a recursive-descent parser into a flat node list (operands
// before the node that uses them), and an evaluator of those nodes over one device.
#include "k8s/dra_cel.h"

#include "model/quantity.h"

#include <cctype>

namespace gantry::engine::k8s {

// A value during evaluation. Quantities are milli-units, as device capacities are kept.
struct Value {
    enum class Type : uint8_t { Error, Bool, Int, String, Quantity, Missing } type = Type::Error;
    bool flag = false;
    int64_t number = 0;
    std::string text;
};

struct DeviceSelector::Node {
    enum class Op : uint8_t {
        Literal,   // value
        Driver,    // device.driver
        Attribute, // device.attributes[domain].name
        Capacity,  // device.capacity[domain].name
        HasAttr,   // 'name' in device.attributes[domain]
        HasCap,    // 'name' in device.capacity[domain]
        Not,
        And,
        Or,
        Eq,
        Ne,
        Lt,
        Le,
        Gt,
        Ge,
        CompareTo, // a.compareTo(b): -1, 0, 1
    } op = Op::Literal;
    Value value;              // Literal
    std::string domain, name; // Attribute, Capacity, HasAttr, HasCap
    int32_t a = -1, b = -1;   // operands (indices)
};

namespace {

using Node = DeviceSelector::Node;
using Op = Node::Op;

class Parser {
  public:
    Parser(const std::string& text, std::vector<Node>& out) : s_(text), out_(out) {}

    bool parse(std::string* error) {
        int32_t root = orExpr();
        skip();
        if (root >= 0 && pos_ != s_.size()) fail("unexpected '" + s_.substr(pos_, 12) + "'");
        if (!error_.empty()) {
            if (error) *error = error_ + " at offset " + std::to_string(failAt_);
            return false;
        }
        return true;
    }

  private:
    void fail(const std::string& what) {
        if (error_.empty()) {
            error_ = what;
            failAt_ = pos_;
        }
    }
    void skip() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    }
    bool eat(const std::string& token) {
        skip();
        if (s_.compare(pos_, token.size(), token) != 0) return false;
        // A word must end there ("in" is not the start of "int").
        if (std::isalpha(static_cast<unsigned char>(token.back())) && pos_ + token.size() < s_.size() &&
            (std::isalnum(static_cast<unsigned char>(s_[pos_ + token.size()])) ||
             s_[pos_ + token.size()] == '_'))
            return false;
        pos_ += token.size();
        return true;
    }
    void expect(const std::string& token) {
        if (!eat(token)) fail("expected '" + token + "'");
    }
    int32_t add(Node n) {
        out_.push_back(std::move(n));
        return int32_t(out_.size() - 1);
    }
    int32_t binary(Op op, int32_t a, int32_t b) {
        Node n;
        n.op = op;
        n.a = a;
        n.b = b;
        return add(std::move(n));
    }

    int32_t orExpr() {
        int32_t a = andExpr();
        while (error_.empty() && eat("||")) a = binary(Op::Or, a, andExpr());
        return a;
    }
    int32_t andExpr() {
        int32_t a = unary();
        while (error_.empty() && eat("&&")) a = binary(Op::And, a, unary());
        return a;
    }
    int32_t unary() {
        if (eat("!")) return binary(Op::Not, unary(), -1);
        return comparison();
    }
    int32_t comparison() {
        int32_t a = postfix();
        if (!error_.empty()) return a;
        static const std::pair<const char*, Op> ops[] = {{"==", Op::Eq}, {"!=", Op::Ne}, {"<=", Op::Le},
                                                         {">=", Op::Ge}, {"<", Op::Lt},  {">", Op::Gt}};
        for (const auto& [token, op] : ops)
            if (eat(token)) return binary(op, a, postfix());
        if (eat("in")) {
            // 'name' in device.attributes['domain']
            if (out_[size_t(a)].op != Op::Literal || out_[size_t(a)].value.type != Value::Type::String) {
                fail("'in' needs a quoted name on its left");
                return a;
            }
            Node n;
            std::string key = out_[size_t(a)].value.text;
            if (!eat("device") || !eat("."))
                fail("'in' is supported only over device.attributes or device.capacity");
            bool attrs = eat("attributes");
            if (!attrs && !eat("capacity"))
                fail("'in' is supported only over device.attributes or device.capacity");
            n.op = attrs ? Op::HasAttr : Op::HasCap;
            n.domain = bracketString();
            n.name = key;
            return add(std::move(n));
        }
        return a;
    }
    int32_t postfix() {
        int32_t a = primary();
        while (error_.empty() && eat(".compareTo")) {
            expect("(");
            int32_t b = orExpr();
            expect(")");
            a = binary(Op::CompareTo, a, b);
        }
        return a;
    }
    std::string bracketString() {
        expect("[");
        skip();
        std::string v = quoted();
        expect("]");
        return v;
    }
    std::string quoted() {
        skip();
        if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) {
            fail("expected a quoted string");
            return {};
        }
        char q = s_[pos_++];
        std::string v;
        while (pos_ < s_.size() && s_[pos_] != q) {
            if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) ++pos_;
            v += s_[pos_++];
        }
        if (pos_ >= s_.size()) {
            fail("unterminated string");
            return v;
        }
        ++pos_;
        return v;
    }
    std::string identifier() {
        skip();
        size_t start = pos_;
        while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
            ++pos_;
        if (start == pos_) fail("expected a name");
        return s_.substr(start, pos_ - start);
    }
    int32_t primary() {
        skip();
        if (eat("(")) {
            int32_t a = orExpr();
            expect(")");
            return a;
        }
        Node n;
        if (pos_ < s_.size() && (s_[pos_] == '\'' || s_[pos_] == '"')) {
            n.value.type = Value::Type::String;
            n.value.text = quoted();
            return add(std::move(n));
        }
        if (eat("true") || eat("false")) {
            n.value.type = Value::Type::Bool;
            n.value.flag = s_[pos_ - 1] == 'e' && s_[pos_ - 2] == 'u'; // "true", not "false"
            return add(std::move(n));
        }
        if (eat("quantity")) {
            expect("(");
            std::string text = quoted();
            expect(")");
            std::string why;
            auto q = Quantity::parse(text, &why);
            auto milli = q ? q->milliValue() : std::nullopt;
            if (!milli) fail("quantity('" + text + "'): " + (why.empty() ? "out of range" : why));
            n.value.type = Value::Type::Quantity;
            n.value.number = milli.value_or(0);
            return add(std::move(n));
        }
        if (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '-')) {
            size_t start = pos_++;
            while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
            if (pos_ < s_.size() && (s_[pos_] == '.' || s_[pos_] == 'u' || s_[pos_] == 'e')) {
                fail("only whole numbers are supported");
                return -1;
            }
            n.value.type = Value::Type::Int;
            try {
                n.value.number = std::stoll(s_.substr(start, pos_ - start));
            } catch (const std::exception&) {
                fail("number out of range");
            }
            return add(std::move(n));
        }
        if (eat("device")) {
            expect(".");
            std::string field = identifier();
            if (field == "driver") {
                n.op = Op::Driver;
                return add(std::move(n));
            }
            if (field != "attributes" && field != "capacity") {
                fail("device." + field + " is not supported");
                return -1;
            }
            n.op = field == "attributes" ? Op::Attribute : Op::Capacity;
            n.domain = bracketString();
            expect(".");
            n.name = identifier();
            return add(std::move(n));
        }
        fail(pos_ < s_.size() ? "unsupported expression '" + s_.substr(pos_, 16) + "'" : "unexpected end");
        return -1;
    }

    const std::string& s_;
    std::vector<Node>& out_;
    size_t pos_ = 0;
    std::string error_;
    size_t failAt_ = 0;
};

class Evaluator {
  public:
    Evaluator(const std::vector<Node>& nodes, const std::string& driver, const Device& d)
        : nodes_(nodes), driver_(driver), device_(d) {}

    Value eval(int32_t i) {
        const Node& n = nodes_[size_t(i)];
        switch (n.op) {
        case Op::Literal:
            return n.value;
        case Op::Driver:
            return text(driver_);
        case Op::Attribute:
            return attribute(n.domain, n.name);
        case Op::Capacity:
            return capacity(n.domain, n.name);
        case Op::HasAttr:
            return boolean(attribute(n.domain, n.name).type != Value::Type::Missing);
        case Op::HasCap:
            return boolean(capacity(n.domain, n.name).type != Value::Type::Missing);
        case Op::Not: {
            Value v = eval(n.a);
            if (v.type != Value::Type::Bool) return error("'!' needs a bool", v);
            return boolean(!v.flag);
        }
        case Op::And:
        case Op::Or: {
            // CEL's logical operators are commutative over errors: a side that decides wins.
            const bool decides = n.op == Op::Or;
            Value a = eval(n.a);
            if (a.type == Value::Type::Bool && a.flag == decides) return a;
            Value b = eval(n.b);
            if (b.type == Value::Type::Bool && b.flag == decides) return b;
            if (a.type != Value::Type::Bool) return error("operand is not a bool", a);
            if (b.type != Value::Type::Bool) return error("operand is not a bool", b);
            return boolean(!decides);
        }
        case Op::CompareTo: {
            Value a = eval(n.a), b = eval(n.b);
            if (a.type != Value::Type::Quantity || b.type != Value::Type::Quantity)
                return error("compareTo needs two quantities", a.type != Value::Type::Quantity ? a : b);
            Value v;
            v.type = Value::Type::Int;
            v.number = a.number < b.number ? -1 : a.number > b.number ? 1 : 0;
            return v;
        }
        default:
            return compare(n.op, eval(n.a), eval(n.b));
        }
    }

    std::string why;

  private:
    static Value text(const std::string& s) {
        Value v;
        v.type = Value::Type::String;
        v.text = s;
        return v;
    }
    static Value boolean(bool b) {
        Value v;
        v.type = Value::Type::Bool;
        v.flag = b;
        return v;
    }
    Value error(const std::string& what, const Value& cause) {
        if (why.empty()) why = cause.type == Value::Type::Missing ? cause.text : what;
        return Value{};
    }
    // An unqualified name belongs to the driver's domain (the device's attributes are written so).
    template <class Map> auto find(const Map& m, const std::string& domain, const std::string& name) const {
        auto it = m.end();
        if (domain == driver_) it = m.find(name);
        if (it == m.end()) it = m.find(domain + "/" + name);
        return it;
    }
    Value missing(const char* what, const std::string& domain, const std::string& name) const {
        Value v;
        v.type = Value::Type::Missing;
        // CEL's own words for a map without the key (what, domain: where it was looked up).
        (void)what;
        (void)domain;
        v.text = "no such key: " + name;
        return v;
    }
    Value attribute(const std::string& domain, const std::string& name) const {
        auto it = find(device_.attributes, domain, name);
        if (it == device_.attributes.end()) return missing("attributes", domain, name);
        const DeviceAttribute& a = it->second;
        Value v;
        if (a.type == "int") {
            v.type = Value::Type::Int;
            v.number = a.number;
        } else if (a.type == "bool") {
            v.type = Value::Type::Bool;
            v.flag = a.flag;
        } else {
            v.type = Value::Type::String; // string, and versions compared by equality
            v.text = a.text;
        }
        return v;
    }
    Value capacity(const std::string& domain, const std::string& name) const {
        auto it = find(device_.capacity, domain, name);
        if (it == device_.capacity.end()) return missing("capacity", domain, name);
        Value v;
        v.type = Value::Type::Quantity;
        v.number = it->second;
        return v;
    }
    Value compare(Op op, const Value& a, const Value& b) {
        if (a.type == Value::Type::Missing || a.type == Value::Type::Error) return error("", a);
        if (b.type == Value::Type::Missing || b.type == Value::Type::Error) return error("", b);
        if (a.type != b.type) return error("no such overload: comparison of different types", a);
        int c = 0;
        switch (a.type) {
        case Value::Type::String:
            c = a.text.compare(b.text);
            break;
        case Value::Type::Bool:
            if (op != Op::Eq && op != Op::Ne) return error("bools compare only for equality", a);
            c = int(a.flag) - int(b.flag);
            break;
        case Value::Type::Quantity:
            // CEL quantities have no ordering operators; equality is isEqualTo's.
            if (op != Op::Eq && op != Op::Ne) return error("quantities order only through compareTo", a);
            [[fallthrough]];
        default:
            c = a.number < b.number ? -1 : a.number > b.number ? 1 : 0;
        }
        switch (op) {
        case Op::Eq:
            return boolean(c == 0);
        case Op::Ne:
            return boolean(c != 0);
        case Op::Lt:
            return boolean(c < 0);
        case Op::Le:
            return boolean(c <= 0);
        case Op::Gt:
            return boolean(c > 0);
        default:
            return boolean(c >= 0);
        }
    }

    const std::vector<Node>& nodes_;
    const std::string& driver_;
    const Device& device_;
};

} // namespace

std::optional<DeviceSelector> DeviceSelector::compile(const std::string& expression, std::string* error) {
    auto nodes = std::make_shared<std::vector<Node>>();
    Parser p(expression, *nodes);
    if (!p.parse(error)) return std::nullopt;
    if (nodes->empty()) {
        if (error) *error = "empty expression";
        return std::nullopt;
    }
    // Operands are added before the node that uses them: the root is the last node.
    DeviceSelector s;
    s.nodes_ = std::move(nodes);
    return s;
}

bool DeviceSelector::matches(const std::string& driver, const Device& device, std::string* error) const {
    Evaluator e(*nodes_, driver, device);
    Value v = e.eval(int32_t(nodes_->size() - 1));
    if (v.type == Value::Type::Bool) return v.flag;
    if (error)
        *error = !e.why.empty()                   ? e.why
                 : v.type == Value::Type::Missing ? v.text
                                                  : "the expression is not a bool";
    return false;
}

} // namespace gantry::engine::k8s
