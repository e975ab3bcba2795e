#pragma once
// The objects of the files being validated (or of an export about to be written), and the sink the
// checks report into. Every problem names its file, document, object and field path.
#include "manifest/document.h"
#include "model/diagnostic.h"
#include "model/resources.h"

#include <string>
#include <vector>

namespace gantry {

struct ManifestObject {
    enum class Content { Object, YuniKornQueues, VolcanoSchedulerConf };
    Content content = Content::Object;
    const ManifestDocument* doc = nullptr;
    FieldPath base;              // where the object sits in its document ("items[3]" in a List)
    const Json* value = nullptr; // the object itself
    std::string apiVersion, group, version, kind, name, ns;
    std::string label; // "Queue team-a", "ConfigMap yunikorn/yunikorn-configs data[queues.yaml]"
    // For configuration documents: their text and where it sits in the file (see EmbeddedText).
    EmbeddedText source;

    const Json& json() const { return *value; }
    // The value at a path relative to the object, or nullptr.
    const Json* at(std::initializer_list<const char*> keys) const;
};

class ProblemSink {
  public:
    void add(Severity severity, const ManifestObject& object, const FieldPath& path,
             const std::string& message);
    void error(const ManifestObject& o, const FieldPath& p, const std::string& m) {
        add(Severity::Error, o, p, m);
    }
    void warning(const ManifestObject& o, const FieldPath& p, const std::string& m) {
        add(Severity::Warning, o, p, m);
    }
    // A problem located in a document but in no object (unparseable kind, read problems).
    void addRaw(Diagnostic d) { diagnostics_.push_back(std::move(d)); }
    const Diagnostics& diagnostics() const { return diagnostics_; }
    Diagnostics take() { return std::move(diagnostics_); }

  private:
    Diagnostics diagnostics_;
};

// "document 2, Queue team-a, spec.weight: must be ..." (the message every check produces).
std::string describeProblem(const ManifestObject& object, const FieldPath& path, const std::string& message);

// The string under `key` of an object, or "" when it is missing or not a string: the schema check
// reports the wrong type, the rules must not throw on it.
std::string stringAt(const Json& object, const char* key);

// Quantity helpers for the rules. A quantity is a string or an integer; invalid ones are skipped
// here because the schema check reports them.
std::optional<int64_t> quantityAmount(const std::string& resource, const Json& value);
// A map of resource name -> quantity; entries that do not parse are left out.
ResourceList quantityMap(const Json* map);

// The checks. Each reads every object it cares about and reports into the sink.
void checkObjectMetadata(const ManifestObject& object, const Json& metadata, const FieldPath& path,
                         bool namespaced, ProblemSink& sink);
// clusterCapacity: the allocatable resources of the whole cluster (empty when unknown); Volcano's root
// queue gets it as its capability, so no queue may ask for more.
void checkVolcanoObjects(const std::vector<ManifestObject>& objects, const ResourceList& clusterCapacity,
                         ProblemSink& sink);
void checkKueueObjects(const std::vector<ManifestObject>& objects, ProblemSink& sink);
void checkYuniKornConfigs(const std::vector<ManifestObject>& objects, ProblemSink& sink);
void checkCoreObjects(const std::vector<ManifestObject>& objects, ProblemSink& sink);
void checkVolcanoSchedulerConfs(const std::vector<ManifestObject>& objects, ProblemSink& sink);

} // namespace gantry
