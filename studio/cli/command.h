#pragma once
// The CLI's command table. Each subcommand lives in its own cmd_<name>.cpp and registers itself:
//   static const CommandRegistration reg{{"inspect", "FILE...", "summarise a cluster", runInspect}};
#include <functional>
#include <string>
#include <vector>

namespace gantry::cli {

enum ExitCode : int { Ok = 0, UsageError = 1, BadInput = 2, RuntimeFailure = 3 };

using Args = std::vector<std::string>; // arguments after the subcommand name

struct Command {
    std::string name;
    std::string usage;   // e.g. "FILE..."
    std::string summary; // one line for `gantry --help`
    std::function<int(const Args&)> run;
};

std::vector<Command>& commandTable();

struct CommandRegistration {
    explicit CommandRegistration(Command command) { commandTable().push_back(std::move(command)); }
};

// Prints "gantry <name>: <message>" on stderr and returns UsageError.
int usageError(const std::string& command, const std::string& message);

} // namespace gantry::cli
