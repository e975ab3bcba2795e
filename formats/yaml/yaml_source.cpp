#include "yaml/yaml_source.h"

#include <cerrno>
#include <cstring>
#include <fstream>
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

namespace {

bool looksLikeJson(const std::string& text) {
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
        return c == '{' || c == '[';
    }
    return false;
}

} // namespace

std::vector<SourceDocument> loadDocuments(const std::string& text, const TextOrigin& origin) {
    auto arena = std::make_shared<DomArena>();
    std::vector<SourceDocument> docs;
    if (looksLikeJson(text)) {
        auto doc = parseJson(text, origin, *arena);
        if (doc.root && doc.root->kind != DomNode::Kind::Null)
            docs.push_back(SourceDocument{doc.root, arena, origin.file, 1, origin});
        return docs;
    }
    for (const auto& doc : parseYaml(text, origin, *arena))
        docs.push_back(SourceDocument{doc.root, arena, origin.file, doc.index, origin});
    return docs;
}

std::vector<SourceDocument> loadDocuments(const std::string& text, const std::string& name) {
    TextOrigin origin;
    origin.file = name;
    return loadDocuments(text, origin);
}

void checkYamlSyntax(const std::string& text, const TextOrigin& origin) {
    DomArena scratch;
    parseYaml(text, origin, scratch);
}

SourceDocument loadSingleDocument(const std::string& text, const TextOrigin& origin,
                                  const std::string& what) {
    auto docs = loadDocuments(text, origin);
    if (docs.empty()) throw InputError(origin.locate(0, 0, 0), what + " is empty");
    if (docs.size() > 1)
        throw InputError(origin.locate(docs[1].root->line, docs[1].root->column, docs[1].index),
                         what + " must be a single YAML document");
    return docs[0];
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

TextOrigin embeddedOrigin(const DomNode* scalar, const std::string& fileText, const TextOrigin& outer,
                          int document) {
    TextOrigin out;
    out.file = outer.file;
    SourceRef here = outer.locate(scalar->line, scalar->column, document);
    out.pinned = here;
    if (outer.pinned || scalar->line < 0 || scalar->pos < 0) return out;
    size_t pos = size_t(scalar->pos);
    if (pos >= fileText.size() || fileText[pos] != '|') return out;
    // Lines of the outer text after the indicator line.
    size_t lineStart = fileText.find('\n', pos);
    if (lineStart == std::string::npos) return out;
    ++lineStart;
    int firstContentLine = scalar->line + 1; // 0-based line of the block's first content line
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
