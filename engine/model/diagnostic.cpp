#include "model/diagnostic.h"

#include <algorithm>

namespace gantry {

std::string SourceRef::str() const {
    std::string out = file.empty() ? std::string("<input>") : file;
    if (line > 0) {
        out += ':' + std::to_string(line);
        if (column > 0) out += ':' + std::to_string(column);
    }
    return out;
}

std::string Diagnostic::str() const {
    return where.str() + (severity == Severity::Error ? ": error: " : ": warning: ") + message;
}

bool hasErrors(const Diagnostics& diagnostics) {
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

} // namespace gantry
