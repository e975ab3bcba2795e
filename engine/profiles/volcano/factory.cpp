// The factory, as Volcano's plugins/factory.go and actions/factory.go are: the one list of the
// plugins and actions Gantry implements. The framework's registries call it on first use.
#include "profiles/volcano/actions/actions.h"
#include "profiles/volcano/framework/registry.h"
#include "profiles/volcano/plugins/plugins.h"

namespace gantry::engine {

void registerFactories() {
    registerPlugin(plugins::gangPlugin());
    registerPlugin(plugins::priorityPlugin());
    registerPlugin(plugins::conformancePlugin());
    registerPlugin(plugins::drfPlugin());
    registerPlugin(plugins::fairsharePlugin());
    registerPlugin(plugins::proportionPlugin());
    registerPlugin(plugins::capacityPlugin());
    registerPlugin(plugins::predicatesPlugin());
    registerPlugin(plugins::nodeorderPlugin());
    registerPlugin(plugins::binpackPlugin());
    registerPlugin(plugins::overcommitPlugin());
    registerPlugin(plugins::networkTopologyAwarePlugin());
    registerPlugin(plugins::slaPlugin());
    registerPlugin(plugins::devicesharePlugin());
    registerPlugin(plugins::fgdPlugin());
    registerPlugin(plugins::nodegroupPlugin());
    registerPlugin(plugins::resourceStrategyFitPlugin());
    registerAction(actions::enqueueAction());
    registerAction(actions::allocateAction());
    registerAction(actions::backfillAction());
    registerAction(actions::preemptAction());
    registerAction(actions::reclaimAction());
}

} // namespace gantry::engine
