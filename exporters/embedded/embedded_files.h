#pragma once
// Files of resources/schemas/ compiled into the binary (the upstream CRDs and Gantry's own schemas),
// generated at build time by embed_files.cmake. Paths are relative to resources/schemas/.
#include <optional>
#include <string_view>
#include <vector>

namespace gantry {

struct EmbeddedFile {
    std::string_view path;     // e.g. "volcano/scheduling.volcano.sh_queues.yaml"
    std::string_view contents; // exact bytes of the file
};

// Every embedded file, sorted by path.
const std::vector<EmbeddedFile>& embeddedFiles();

// The contents of one file, or nullopt when it is not embedded.
std::optional<std::string_view> embeddedFile(std::string_view path);

} // namespace gantry
