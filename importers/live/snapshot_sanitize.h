#pragma once
// What a snapshot keeps of a live object. Gantry plans scheduling, so a snapshot holds what
// scheduling reads and nothing that could carry a secret: no managedFields, no last-applied
// configuration, and of a pod's containers only name, image, resources, ports and restartPolicy
// (no env, args, command or probes, where people paste tokens); of its volumes only the name and a
// claim reference; of its status only the phase, conditions, nominated node, QoS class, start time,
// resize state and the ResourceClaims made for it; of DRA classes and claims, not the drivers' opaque
// configuration. Node image lists are dropped (big, and not used for placement). Secrets are never
// read at all. docs/live-import.md lists it all.
#include <string>
#include <string_view>
#include <vector>

namespace gantry::live {

// Whether field `key` is kept, for an object of `kind` whose parents are `path` (keys from the object's
// root, "[]" for a list element: {"spec", "containers", "[]"}).
bool keepField(std::string_view kind, const std::vector<std::string>& path, std::string_view key);

} // namespace gantry::live
