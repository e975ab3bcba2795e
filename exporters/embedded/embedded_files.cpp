#include "embedded/embedded_files.h"

#include <algorithm>

namespace gantry {

std::optional<std::string_view> embeddedFile(std::string_view path) {
    const auto& files = embeddedFiles();
    auto it = std::lower_bound(files.begin(), files.end(), path,
                               [](const EmbeddedFile& f, std::string_view p) { return f.path < p; });
    if (it == files.end() || it->path != path) return std::nullopt;
    return it->contents;
}

} // namespace gantry
