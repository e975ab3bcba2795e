#pragma once
// What a snapshot keeps of a live object. Gantry plans scheduling, so a snapshot holds what
// scheduling reads and nothing that could carry a secret: no managedFields, no last-applied
// configuration, and of a pod's containers only name, image, resources, ports and restartPolicy
// (no env, args, command or probes, where people paste tokens). Node image lists are dropped (big,
// and not used for placement). Secrets are never read at all. docs/live-import.md lists it all.
#include <nlohmann/json.hpp>

namespace gantry::live {

// Trims one object in place. `kind` is the object's kind ("Pod", "Node", ...).
void sanitizeObject(nlohmann::json& object, const std::string& kind);

} // namespace gantry::live
