#include "atomic_file.h"

#include "atomic_stream.h"

namespace gantry {

void writeFileAtomically(const std::string& path, std::string_view contents) {
    AtomicFileStream file(path);
    file.write(contents);
    file.commit();
}

} // namespace gantry
