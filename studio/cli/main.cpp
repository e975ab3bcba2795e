// gantry: the headless front of Gantry. Everything the studio does, for scripts and CI.
#include "command.h"

#include <algorithm>
#include <exception>
#include <iostream>

using namespace gantry::cli;

namespace {

void printHelp() {
    auto table = commandTable();
    std::sort(table.begin(), table.end(), [](const Command& a, const Command& b) { return a.name < b.name; });
    std::cout << "gantry " GANTRY_VERSION
                 " - plan Kubernetes GPU clusters and their batch-scheduler policy\n\n"
                 "Usage: gantry <command> [options]\n"
                 "       gantry --help | --version\n\nCommands:\n";
    for (const auto& c : table) {
        std::string head = "  " + c.name + " " + c.usage;
        if (head.size() < 34)
            head.resize(34, ' ');
        else
            head += "\n" + std::string(34, ' ');
        std::cout << head << c.summary << '\n';
    }
    std::cout << "\nRun 'gantry <command> --help' for a command's options.\n"
                 "Exit codes: 0 success, 1 usage error, 2 bad input, 3 runtime failure.\n";
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        printHelp();
        return UsageError;
    }
    std::string first = argv[1];
    if (first == "--help" || first == "-h" || first == "help") {
        printHelp();
        return Ok;
    }
    if (first == "--version" || first == "-V") {
        std::cout << "gantry " GANTRY_VERSION "\n";
        return Ok;
    }
    const auto& table = commandTable();
    auto it = std::find_if(table.begin(), table.end(), [&](const Command& c) { return c.name == first; });
    if (it == table.end()) {
        std::cerr << "gantry: unknown command '" << first << "'\nTry 'gantry --help'.\n";
        return UsageError;
    }
    try {
        return it->run(Args(argv + 2, argv + argc));
    } catch (const std::exception& e) {
        std::cerr << "gantry " << first << ": " << e.what() << '\n';
        return RuntimeFailure;
    }
}
