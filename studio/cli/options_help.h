#pragma once
// A command's `--help`, made from its option table: the usage line (required options bare, optional
// ones in brackets), what the command does, each option with its help, then the epilog.
#include "options.h"

#include <string>

namespace gantry::cli {

// What follows "gantry <command>" on the usage line: the table's synopsis, else one made from the
// options ("--snapshot FILE... [--scheduler-conf FILE] [--json]").
std::string synopsis(const OptionTable& table);
std::string helpText(const OptionTable& table);

} // namespace gantry::cli
