#pragma once
// Where an object came from and what is wrong with it. Importers fill SourceRef; the engine's own
// checks report against it so an error can always say file:line:column.
#include <string>
#include <vector>

namespace gantry {

struct SourceRef {
    std::string file;
    int line = 0;     // 1-based; 0 = unknown
    int column = 0;   // 1-based; 0 = unknown
    int document = 0; // 1-based document index in a multi-document YAML; 0 = n/a

    std::string str() const; // "file:line:column" (parts that are unknown are left out)
};

enum class Severity { Warning, Error };

struct Diagnostic {
    Severity severity = Severity::Error;
    SourceRef where;
    std::string message;

    std::string str() const; // "file:line:column: error: message"
};

using Diagnostics = std::vector<Diagnostic>;

bool hasErrors(const Diagnostics& diagnostics);

} // namespace gantry
