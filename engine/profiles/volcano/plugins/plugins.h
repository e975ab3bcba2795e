#pragma once
// The built-in plugins, one file each, named as Volcano names them.
#include <functional>
#include <memory>
#include <string>

#include "profiles/volcano/framework/session.h"

namespace gantry::engine::plugins {

std::unique_ptr<Plugin> makeGang(const PluginOption& option);
std::unique_ptr<Plugin> makePriority(const PluginOption& option);
std::unique_ptr<Plugin> makeConformance(const PluginOption& option);
std::unique_ptr<Plugin> makeDrf(const PluginOption& option);
std::unique_ptr<Plugin> makeProportion(const PluginOption& option);
std::unique_ptr<Plugin> makeCapacity(const PluginOption& option);
std::unique_ptr<Plugin> makePredicates(const PluginOption& option);
std::unique_ptr<Plugin> makeNodeOrder(const PluginOption& option);
std::unique_ptr<Plugin> makeBinpack(const PluginOption& option);
std::unique_ptr<Plugin> makeOvercommit(const PluginOption& option);
std::unique_ptr<Plugin> makeNetworkTopologyAware(const PluginOption& option);
std::unique_ptr<Plugin> makeSla(const PluginOption& option);
std::unique_ptr<Plugin> makeDeviceShare(const PluginOption& option);
std::unique_ptr<Plugin> makeFgd(const PluginOption& option);

void registerBuiltins(const std::function<void(const std::string&, PluginFactory)>& add);

} // namespace gantry::engine::plugins
