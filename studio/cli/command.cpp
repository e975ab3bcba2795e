#include "command.h"

#include <iostream>

namespace gantry::cli {

std::vector<Command>& commandTable() {
    static std::vector<Command> table;
    return table;
}

int usageError(const std::string& command, const std::string& message) {
    std::cerr << "gantry " << command << ": " << message << "\n"
              << "Try 'gantry " << command << " --help'.\n";
    return UsageError;
}

} // namespace gantry::cli
