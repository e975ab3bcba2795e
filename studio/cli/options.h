#pragma once
// A subcommand's command line as a table: each option's spellings, the kind of value it takes and
// where that value goes, whether it is required, and its help; the positional arguments are an
// option without a name. One parser reads every command's arguments from its table, so errors read
// the same in every command, and the help (options_help.h) cannot disagree with what is parsed.
//
//   std::string conf; bool json = false;
//   const OptionTable table{.command = "cycle", .options = {
//       {.names = {"--scheduler-conf"}, .metavar = "FILE", .value = Text{&conf}, .help = "..."},
//       {.names = {"--json"}, .value = Switch{&json}, .help = "print JSON"}}};
//   if (auto exit = parseCommandLine(table, args)) return *exit;
#include "command.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace gantry::cli {

// What an option takes, and where it goes. Numbers and durations read as value_grammar.h says.
struct Switch { // no value: present or not
    bool* into;
};
struct Text { // one value; the last one given wins
    std::string* into;
};
struct Texts { // repeatable: every value, in order
    std::vector<std::string>* into;
};
struct Int { // a whole number
    std::optional<int64_t>* into;
};
struct Uint { // a whole number, never negative
    std::optional<uint64_t>* into;
};
struct Float { // a decimal number
    std::optional<double>* into;
};
struct Duration { // seconds, from a Go duration or plain seconds
    std::optional<double>* into;
};
struct Choice { // one of a fixed list of words
    std::string* into;
    std::vector<std::string> allowed;
};
using Value = std::variant<Switch, Text, Texts, Int, Uint, Float, Duration, Choice>;

// Bounds of a number or a duration.
enum class Sign { Any, NonNegative, Positive };

struct Option {
    std::string section{};            // help heading of the options from this one on (default "Options:")
    std::vector<std::string> names{}; // "--out", "-o"; none: the positional arguments (a Texts value)
    std::string metavar{};            // what the value is, as help and usage show it: FILE, DIR, N
    Value value{};
    std::string help{};    // lines separated by '\n'
    bool required = false; // a value (or, for the positionals, at least one) must be given
    Sign sign = Sign::Any;
    std::optional<double> max{}; // inclusive
};

struct OptionTable {
    std::string command{};  // "cycle"
    std::string synopsis{}; // usage line after "gantry <command>"; empty: made from the options
    std::string about{};    // what the command does, between the usage line and the options
    std::vector<Option> options{};
    std::string epilog{}; // after the options: exit codes, notes
};

// What reading the arguments came to: go on, show the help, or stop with a usage error.
struct ParseOutcome {
    enum class Kind { Run, Help, Error } kind = Kind::Run;
    std::string message; // Error: what is wrong, e.g. "--cycle: 'x' is not a positive duration (...)"
};

// What the value is called in help and messages: the metavar, else a choice's words ("a|b|c").
std::string valueName(const Option& option);
// What a value of the option must be, in words: "a positive duration (e.g. 1s, 30m, 2h)".
std::string expectedValue(const Option& option);

// Fills the options' destinations from `args`, in order. Destinations keep their values for what
// is not given, so callers set defaults first.
ParseOutcome parseArguments(const OptionTable& table, const Args& args);

// What a command calls first: nullopt to go on, or the exit code to return at once: Ok after the
// help was printed on stdout, UsageError after the message was printed on stderr.
std::optional<int> parseCommandLine(const OptionTable& table, const Args& args);

} // namespace gantry::cli
