#pragma once
// YuniKorn's own quantity syntax (yunikorn-core pkg/common/resources/quantity.go), stricter than
// Kubernetes': digits only, an optional suffix k M G T P E or Ki Mi Gi Ti Pi Ei, `m` for vcore
// only, no decimal point, no sign. vcore is counted in millicores ("10" = 10 cores = 10000).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gantry {

// The value in YuniKorn's internal unit, or nullopt with the reason in *why.
std::optional<int64_t> parseYuniKornQuantity(std::string_view resource, std::string_view text,
                                             std::string* why);

// The same as the model's canonical amount of that YuniKorn resource (model/resources.h): vcore
// and byte sizes as they are, counts of other resources in milli-units.
std::optional<int64_t> parseYuniKornAmount(std::string_view resource, std::string_view text,
                                           std::string* why);

} // namespace gantry
