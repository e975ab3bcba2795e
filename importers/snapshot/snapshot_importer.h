#pragma once
// Kubernetes snapshot import: `kubectl get -o yaml|json` output (a List or single objects),
// multi-document YAML, or several such files, merged into one Cluster.
//
//   SnapshotImporter in;
//   in.addFile("nodes.yaml");
//   in.addFile("queues.json");
//   Diagnostics diags;
//   Cluster cluster = in.finish(diags);   // diags: warnings and cross-object errors
//
// Bad syntax or a wrong field type throws InputError (located) from addFile/addText. finish() runs the
// cross-object checks (model/cluster_check.h) and returns their errors in the diagnostics; the
// convenience readSnapshotFiles() throws on any error instead. docs/snapshots.md lists the kinds read.
#include "input_error.h"
#include "model/cluster.h"
#include "model/diagnostic.h"

#include <memory>
#include <string>
#include <vector>

namespace gantry {

class SnapshotImporter {
  public:
    SnapshotImporter();
    ~SnapshotImporter();
    SnapshotImporter(const SnapshotImporter&) = delete;
    SnapshotImporter& operator=(const SnapshotImporter&) = delete;

    void addFile(const std::string& path);
    // `name` is the file name used in locations.
    void addText(const std::string& text, const std::string& name);

    // Expands what-if workloads, resolves cross references, applies the checks. Call once.
    Cluster finish(Diagnostics& diagnostics);

  private:
    struct State;
    std::unique_ptr<State> state_;
};

// Reads and merges the files; throws InputError on the first error of any kind (all errors are in
// InputError::all()). Warnings go to *warnings when given.
Cluster readSnapshotFiles(const std::vector<std::string>& paths, Diagnostics* warnings = nullptr);

} // namespace gantry
