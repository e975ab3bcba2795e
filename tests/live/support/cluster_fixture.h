#pragma once
// Kubernetes objects as a real cluster serves them (managedFields, owner references, statuses), for
// the loopback API server: GPU nodes, pods of training jobs, Volcano and Kueue objects, and the
// scheduler ConfigMaps. Pods carry the things a snapshot must never keep (an env value, a probe's
// Authorization header, a last-applied annotation) so tests can check they are gone.
#include "api_server.h"

#include <nlohmann/json.hpp>
#include <string>

namespace gantry::testing {

// Strings planted in pods that must never reach a snapshot.
inline constexpr const char* kPlantedEnvSecret = "planted-env-value-s3cr3t";
inline constexpr const char* kPlantedProbeHeader = "Bearer planted-probe-header";
inline constexpr const char* kPlantedLastApplied = "planted-last-applied";

nlohmann::json makeNode(int index, const std::string& gpuModel, int gpus);
// phase: Running (bound to `node`), Pending (node empty), Succeeded or Failed.
nlohmann::json makePod(const std::string& ns, const std::string& name, const std::string& node,
                       const std::string& phase, int gpus, const std::string& group = "");
nlohmann::json makeNamespace(const std::string& name);

void serveVolcano(LoopbackApiServer& server);
void serveKueue(LoopbackApiServer& server);

// A small GPU cluster: 3 namespaces, 2 priority classes, `nodes` nodes, `pods` pods (a few finished),
// and with `schedulers` the Volcano and Kueue objects plus YuniKorn's and Volcano's ConfigMaps.
void populateCluster(LoopbackApiServer& server, int nodes, int pods, bool schedulers);

} // namespace gantry::testing
