#pragma once
// Small text conversions the scheduler's configuration and objects need, with Go's own rules.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gantry::engine {

// time.ParseDuration: "300ms", "1.5h", "2h45m", "-1m" (units ns, us, µs, ms, s, m, h). Seconds.
std::optional<double> parseGoDuration(std::string_view text);
// strconv.Atoi: optional sign, decimal digits, fits in int64.
std::optional<int64_t> parseGoInt(std::string_view text);
// strconv.ParseBool: 1 t T TRUE true True 0 f F FALSE false False.
std::optional<bool> parseGoBool(std::string_view text);
// strconv.ParseFloat subset: decimal with optional exponent.
std::optional<double> parseGoFloat(std::string_view text);
std::string trim(std::string_view text);
// time.Time's RFC 3339 form as Kubernetes objects and Go's encoding/json write it: a date, 'T' or
// 't', a time with optional fraction, then 'Z' or an offset ("2026-10-01T02:00:00.5+02:00").
// Unix seconds; nullopt when the text is not one.
std::optional<double> parseRfc3339(std::string_view text);

} // namespace gantry::engine
