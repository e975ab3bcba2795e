#pragma once
// A snapshot written inline in a test, read as `gantry inspect` reads a file named snapshot.yaml:
// errors thrown as InputError (with that name and the line), warnings dropped.
#include "input_error.h"
#include "snapshot/snapshot_importer.h"

#include <string>

namespace gantry::test {

inline Cluster readSnapshotText(const std::string& yaml) {
    SnapshotImporter importer;
    importer.addText(yaml, "snapshot.yaml");
    Diagnostics d;
    Cluster c = importer.finish(d);
    throwIfErrors(d);
    return c;
}

} // namespace gantry::test
