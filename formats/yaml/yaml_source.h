#pragma once
// Reading YAML (and JSON, which YAML 1.2 contains) with every node's location kept, so importers can
// report file:line:column for anything they reject.
#include "input_error.h"
#include "model/diagnostic.h"
#include "yaml/yaml_dom.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gantry {

// Where a text came from. A text embedded in another file (a ConfigMap's `queues.yaml: |` block) is
// shifted by the block's first line and indentation; when the embedding cannot be mapped line by line
// (a quoted or JSON string), every location is pinned to the embedding string itself.
struct TextOrigin {
    std::string file;
    int lineOffset = 0;   // added to 1-based lines of the text
    int columnOffset = 0; // added to 1-based columns of the text
    std::optional<SourceRef> pinned;

    SourceRef locate(int line0, int column0, int document) const; // 0-based parser marks
};

// A document as located tree (yaml_dom.h): what the importers read, through Y (yaml_reader.h).
struct SourceDocument {
    const DomNode* root = nullptr;
    std::shared_ptr<const DomArena> arena; // owns root and everything under it
    std::string file;
    int index = 0; // 1-based position in a multi-document stream
    TextOrigin origin;
};

// Parses every document; a syntax error becomes an InputError at the parser's mark. A text that starts
// with '{' or '[' is JSON and is read by a strict JSON parser (YAML would accept trailing commas and
// other things JSON does not, and reading JSON as YAML is slow). Empty documents (a stray `---`) are
// skipped.
std::vector<SourceDocument> loadDocuments(const std::string& text, const TextOrigin& origin);
std::vector<SourceDocument> loadDocuments(const std::string& text, const std::string& name);

// Exactly one document: "<what> is empty" at the start, or "<what> must be a single YAML document" at
// the second one, as InputErrors.
SourceDocument loadSingleDocument(const std::string& text, const TextOrigin& origin, const std::string& what);

// Throws the located InputError libyaml gives for text that is not YAML (JSON is YAML here, not held to
// strict JSON); silent otherwise. Code that hands outside text to yaml-cpp calls this first: yaml-cpp 0.7
// (Debian 12) loops forever on some malformed inputs the fuzzers found (tests/fuzz/corpus/manifests/).
void checkYamlSyntax(const std::string& text, const TextOrigin& origin);

// The whole content of a file; InputError when it cannot be read.
std::string readTextFile(const std::string& path);

// Origin of a string scalar embedded in `fileText` (the text the node was parsed from): a literal block
// (`key: |`) maps line by line; anything else pins locations to the scalar.
TextOrigin embeddedOrigin(const DomNode* scalar, const std::string& fileText, const TextOrigin& outer,
                          int document);

} // namespace gantry
