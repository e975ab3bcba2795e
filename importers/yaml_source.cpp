#include "yaml_source.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace gantry {

SourceRef TextOrigin::locate(int line0, int column0, int document) const {
    if (pinned) return *pinned;
    SourceRef ref{file, 0, 0, document};
    if (line0 >= 0) {
        ref.line = line0 + 1 + lineOffset;
        ref.column = column0 + 1 + columnOffset;
    }
    return ref;
}

SourceRef whereOf(const YAML::Node& node, const std::string& file, int document) {
    SourceRef ref;
    ref.file = file;
    ref.document = document;
    if (node.IsDefined() && node.Mark().line >= 0) {
        ref.line = node.Mark().line + 1;
        ref.column = node.Mark().column + 1;
    }
    return ref;
}

namespace {

// Validates JSON without building a document; remembers where the first error is.
struct JsonChecker : nlohmann::json_sax<nlohmann::json> {
    size_t errorByte = 0;
    std::string message;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& ex) override {
        errorByte = position;
        message = ex.what();
        return false;
    }
};

bool looksLikeJson(const std::string& text) {
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
        return c == '{' || c == '[';
    }
    return false;
}

void checkJson(const std::string& text, const TextOrigin& origin) {
    JsonChecker checker;
    if (nlohmann::json::sax_parse(text, &checker, nlohmann::json::input_format_t::json, false)) return;
    // nlohmann reports the position just after the offending token; point at the token's start.
    size_t end = checker.errorByte > 0 ? std::min(checker.errorByte - 1, text.size() - 1) : 0;
    if (!text.empty() && text[end] == '"' && end > 0) {
        size_t i = end;
        while (i > 0) {
            --i;
            if (text[i] != '"') continue;
            size_t slashes = 0;
            while (i >= slashes + 1 && text[i - slashes - 1] == '\\') ++slashes;
            if (slashes % 2 == 0) break;
        }
        end = i;
    } else {
        auto word = [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-';
        };
        while (end > 0 && word(text[end]) && word(text[end - 1])) --end;
    }
    int line = 0, column = 0;
    for (size_t i = 0; i < end; ++i) {
        if (text[i] == '\n')
            ++line, column = 0;
        else
            ++column;
    }
    std::string what = checker.message;
    auto pos = what.find(": syntax error");
    if (pos != std::string::npos)
        what = what.substr(pos + 2);
    else if ((pos = what.find("] ")) != std::string::npos)
        what = what.substr(pos + 2);
    throw InputError(origin.locate(line, column, 0), "JSON " + what);
}

} // namespace

std::vector<YamlDocument> loadYamlString(const std::string& text, const TextOrigin& origin) {
    if (looksLikeJson(text)) checkJson(text, origin);
    std::vector<YamlDocument> docs;
    try {
        auto nodes = YAML::LoadAll(text);
        int index = 0;
        for (auto& n : nodes) {
            ++index;
            if (!n.IsDefined() || n.IsNull()) continue;
            docs.push_back(YamlDocument{n, origin.file, index, origin});
        }
    } catch (const YAML::Exception& e) {
        throw InputError(origin.locate(e.mark.line, e.mark.column, 0), "YAML syntax error: " + e.msg);
    }
    return docs;
}

std::vector<YamlDocument> loadYamlString(const std::string& text, const std::string& name) {
    TextOrigin origin;
    origin.file = name;
    return loadYamlString(text, origin);
}

std::string readTextFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(SourceRef{path, 0, 0, 0}, std::string("cannot open file: ") + std::strerror(errno));
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) throw InputError(SourceRef{path, 0, 0, 0}, "cannot read file");
    return buffer.str();
}

std::vector<YamlDocument> loadYamlFile(const std::string& path) {
    return loadYamlString(readTextFile(path), path);
}

TextOrigin embeddedOrigin(const YAML::Node& scalar, const std::string& fileText, const TextOrigin& outer,
                          int document) {
    TextOrigin out;
    out.file = outer.file;
    SourceRef here = outer.locate(scalar.Mark().line, scalar.Mark().column, document);
    out.pinned = here;
    if (outer.pinned || scalar.Mark().line < 0 || scalar.Mark().pos < 0) return out;
    size_t pos = size_t(scalar.Mark().pos);
    if (pos >= fileText.size() || fileText[pos] != '|') return out;
    // Lines of the outer text after the indicator line.
    size_t lineStart = fileText.find('\n', pos);
    if (lineStart == std::string::npos) return out;
    ++lineStart;
    int firstContentLine = scalar.Mark().line + 1; // 0-based line of the block's first content line
    // The block's indentation is that of its first non-blank line.
    size_t p = lineStart;
    while (p < fileText.size()) {
        size_t eol = fileText.find('\n', p);
        if (eol == std::string::npos) eol = fileText.size();
        size_t spaces = 0;
        while (p + spaces < eol && fileText[p + spaces] == ' ') ++spaces;
        if (p + spaces < eol && fileText[p + spaces] != '\r') {
            out.pinned.reset();
            out.lineOffset = firstContentLine + outer.lineOffset;
            out.columnOffset = int(spaces) + outer.columnOffset;
            return out;
        }
        p = eol + 1;
    }
    return out;
}

} // namespace gantry
