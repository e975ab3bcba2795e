#pragma once
// Atomic saves: write a temporary file in the same folder, flush it to disk, rename it over the
// target (atomic_stream.h). A crash or an error leaves either the old file or the new one, never half
// of either.
#include <string>
#include <string_view>

namespace gantry {

// Throws std::runtime_error naming the path and the OS reason on failure; the target is untouched.
void writeFileAtomically(const std::string& path, std::string_view contents);

} // namespace gantry
