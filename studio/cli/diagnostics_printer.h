#pragma once
// How every gantry subcommand reports what it found wrong (or doubtful) in its input: one line per
// diagnostic, "file:line:column: error|warning: message", always on stderr, so stdout carries only
// the command's result (JSON stays parseable with warnings).
#include "model/diagnostic.h"

#include <string>

namespace gantry::cli {

struct DiagnosticsStyle {
    bool errorsOnly = false; // leave the warnings out (--quiet)
    std::string prefix{};    // before each line, for commands that mark all their lines ("gantry import: ")
};

void printDiagnostics(const Diagnostics& diagnostics, const DiagnosticsStyle& style = {});

} // namespace gantry::cli
