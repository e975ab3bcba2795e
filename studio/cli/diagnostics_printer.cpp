#include "diagnostics_printer.h"

#include <iostream>

namespace gantry::cli {

void printDiagnostics(const Diagnostics& diagnostics, const DiagnosticsStyle& style) {
    for (const auto& d : diagnostics)
        if (!style.errorsOnly || d.severity == Severity::Error) std::cerr << style.prefix << d.str() << '\n';
}

} // namespace gantry::cli
