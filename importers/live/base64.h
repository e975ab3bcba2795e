#pragma once
// Standard base64 (RFC 4648), as kubeconfig *-data fields and HTTP basic auth use it.
#include <optional>
#include <string>
#include <string_view>

namespace gantry::live {

std::string base64Encode(std::string_view bytes);
// Ignores whitespace and accepts missing padding; nullopt on any other character.
std::optional<std::string> base64Decode(std::string_view text);

} // namespace gantry::live
