#pragma once
// The times and spans of a history window as users write them: RFC 3339 instants
// ("2026-10-01T00:00:00Z", "2026-10-01T02:00:00.5+02:00") and durations in Go's units or
// Prometheus's ("90s", "1h30m", "30d", "2w", or plain seconds).
#include <optional>
#include <string>
#include <string_view>

namespace gantry::history {

// Unix seconds; nullopt when the text is not RFC 3339 (a date, 'T' or 't', a time, then 'Z' or an
// offset).
std::optional<double> parseRfc3339(std::string_view text);
// "2026-10-01T00:00:00Z" (whole seconds, UTC).
std::string formatRfc3339(double unixSeconds);

// Seconds; nullopt when the text is no duration. Units ms, s, m, h, d (24h), w (7d), y (365d),
// combined largest first as Prometheus writes them ("1d12h"); Go's "1.5h" and plain "90" too.
std::optional<double> parseSpan(std::string_view text);
// The shortest exact form: "30d", "6h", "1h30m", "90s", "250ms".
std::string formatSpan(double seconds);

} // namespace gantry::history
