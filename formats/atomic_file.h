#pragma once
// Atomic saves: write a temporary file in the same folder, flush it to disk, rename it over the
// target (atomic_stream.h). A crash or an error leaves either the old file or the new one, never half
// of either.
#include <string>
#include <string_view>

namespace gantry {

// Throws std::runtime_error naming the path and the OS reason on failure; the target is untouched.
void writeFileAtomically(const std::string& path, std::string_view contents);

// Removes the temporary files that saves killed between naming their file and renaming it over the
// target left in `dir` (a save removes its own target's; a folder of many writers, such as the
// studio's autosaves, is cleaned when a session starts).
void removeOrphanedTemporaryFiles(const std::string& dir);

} // namespace gantry
