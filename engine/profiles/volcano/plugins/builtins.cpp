#include "profiles/volcano/plugins/plugins.h"

namespace gantry::engine::plugins {

void registerBuiltins(const std::function<void(const std::string&, PluginFactory)>& add) {
    add("gang", makeGang);
    add("priority", makePriority);
    add("conformance", makeConformance);
    add("drf", makeDrf);
    add("proportion", makeProportion);
    add("capacity", makeCapacity);
    add("predicates", makePredicates);
    add("nodeorder", makeNodeOrder);
    add("binpack", makeBinpack);
    add("overcommit", makeOvercommit);
    add("network-topology-aware", makeNetworkTopologyAware);
    add("sla", makeSla);
    add("deviceshare", makeDeviceShare);
    add("fgd", makeFgd);
}

} // namespace gantry::engine::plugins
