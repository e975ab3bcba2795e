#pragma once
// Validation of manifests before anything is applied or written: every document against its schema
// (the real CRDs, Gantry's schemas for core kinds, YuniKorn's queues.yaml and Volcano's scheduler
// conf, also inside their ConfigMaps), then the cross-object rules of the three schedulers.
// Used by `gantry validate` on users' files and by every export before it writes a byte.
#include "manifest/document.h"
#include "model/diagnostic.h"
#include "model/resources.h"

#include <deque>
#include <map>
#include <string>

namespace gantry {

class ManifestValidator {
  public:
    // Reads a file; a file that cannot be read or parsed becomes an error diagnostic.
    void addFile(const std::string& path);
    void addText(const std::string& text, const std::string& name);
    // A document built in memory (an export); `file` names where it is going to be written.
    void addDocument(const Json& value, const std::string& file, int index);

    // The cluster the manifests are for (the sum of its nodes' allocatable), for the checks against
    // it. Without it, the Node objects among the documents (a snapshot) give it, if any.
    void setClusterCapacity(const ResourceList& capacity) { clusterCapacity_ = capacity; }

    // Every problem found, errors and warnings, in file and document order within each check.
    Diagnostics run();

    size_t documentCount() const { return documents_.size(); }

  private:
    size_t documentsOf(const std::string& file) const;
    std::deque<ManifestDocument> documents_;
    std::deque<ManifestDocument> embedded_; // YAML held in ConfigMap values
    std::map<std::string, std::string> texts_;
    Diagnostics readErrors_;
    ResourceList clusterCapacity_;
};

// Convenience for tests and the CLI: validates one YAML text.
Diagnostics validateManifestText(const std::string& text, const std::string& name);

} // namespace gantry
