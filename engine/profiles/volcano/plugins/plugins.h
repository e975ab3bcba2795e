#pragma once
// The built-in plugins, one file each, named as Volcano names them. Each file's descriptor says how
// to build the plugin and what the session cache must know about it; the factory
// (profiles/volcano/factory.cpp) registers them.
#include "profiles/volcano/framework/registry.h"
#include "profiles/volcano/framework/session.h"

namespace gantry::engine::plugins {

PluginDescriptor binpackPlugin();
PluginDescriptor capacityPlugin();
PluginDescriptor conformancePlugin();
PluginDescriptor devicesharePlugin();
PluginDescriptor drfPlugin();
PluginDescriptor fairsharePlugin();
PluginDescriptor fgdPlugin();
PluginDescriptor gangPlugin();
PluginDescriptor networkTopologyAwarePlugin();
PluginDescriptor nodegroupPlugin();
PluginDescriptor nodeorderPlugin();
PluginDescriptor overcommitPlugin();
PluginDescriptor predicatesPlugin();
PluginDescriptor priorityPlugin();
PluginDescriptor proportionPlugin();
PluginDescriptor resourceStrategyFitPlugin();
PluginDescriptor slaPlugin();

} // namespace gantry::engine::plugins
