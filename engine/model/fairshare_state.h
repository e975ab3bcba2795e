#pragma once
// A ConfigMap holding what Volcano's fairshare plugin persists between scheduler restarts: its
// `state.json` ({"lastCycle": RFC 3339, "queues": {queue: {namespace: usage}}}), kept as written.
// The plugin reads the one its arguments name (fairshare.stateNamespace / stateConfigMap) and only
// with fairshare.persistState on, so the text is parsed there, not when the snapshot is read.
#include "model/diagnostic.h"

#include <string>

namespace gantry {

struct FairshareStateMap {
    std::string name;
    std::string ns;
    std::string stateJson; // data["state.json"]
    SourceRef source;
    bool operator==(const FairshareStateMap& o) const {
        return name == o.name && ns == o.ns && stateJson == o.stateJson;
    }
};

} // namespace gantry
