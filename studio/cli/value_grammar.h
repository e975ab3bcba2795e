#pragma once
// How every gantry subcommand reads a number or a duration from its command line, so `--seed 7` or
// `--cycle 90s` mean the same in every command: Go's grammar, as the scheduler configurations are read.
#include <cstdint>
#include <optional>
#include <string_view>

namespace gantry::cli {

// strconv.Atoi: an optional sign and decimal digits that fit in int64 ("42", "+7", "-3").
std::optional<int64_t> parseWholeNumber(std::string_view text);
// strconv.ParseFloat's decimal form: "1.3", ".5", "2e3", "-0.25" (no hex, inf or nan).
std::optional<double> parseNumber(std::string_view text);
// A span of time in seconds: a Go duration ("90s", "1h30m", "250ms") or plain seconds ("2.5");
// blanks around it are ignored. Never negative.
std::optional<double> parseSeconds(std::string_view text);

} // namespace gantry::cli
