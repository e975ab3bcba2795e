#pragma once
// The schemas Gantry validates with: the upstream CRDs and Gantry's own schemas, all embedded in
// the binary (resources/schemas/). Each file is parsed and compiled the first time a kind of it is
// asked for.
#include "validation/openapi_schema.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gantry {

struct KindSchema {
    std::string group;   // "" for the core group
    std::string version; // v1beta2
    std::string kind;
    bool namespaced = false;
    bool served = true;
    bool storage = true;
    bool deprecated = false;
    std::string file; // path under resources/schemas/
    const Schema* schema = nullptr;

    std::string apiVersion() const { return group.empty() ? version : group + "/" + version; }
};

class SchemaCatalog {
  public:
    // The process-wide catalog of the embedded files.
    static SchemaCatalog& shared();

    // The schema of apiVersion + kind, or nullptr when the catalog does not know that version.
    const KindSchema* find(const std::string& apiVersion, const std::string& kind);
    // The versions known for a group and kind ("" when the kind is unknown altogether).
    std::vector<std::string> versionsOf(const std::string& group, const std::string& kind);
    // A schema of a non-Kubernetes document: "yunikorn-queues" or "volcano-scheduler-conf".
    const Schema* document(const std::string& name);
    // Every kind of every embedded file (compiles them all).
    std::vector<KindSchema> allKinds();
    // CEL rules that have no C++ check, over every file (compiles them all).
    std::vector<std::string> unevaluatedRules();

  private:
    SchemaCatalog();
    struct File;
    File& load(File& file);
    const Schema* resolve(const std::string& ref);

    std::recursive_mutex mutex_;
    std::vector<std::unique_ptr<File>> files_;
    SchemaSet schemas_;
};

} // namespace gantry
