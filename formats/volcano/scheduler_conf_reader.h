#pragma once
// Volcano's volcano-scheduler.conf -> SchedulerConf. Reads the syntax only: types and structure are
// checked here (located InputErrors); whether an action or plugin name exists, and combinations
// such as capacity + proportion, are the engine's checks, which use the SourceRefs kept here.
#include "model/diagnostic.h"
#include "model/scheduler_conf.h"
#include "yaml/yaml_reader.h"

#include <string>

namespace gantry {

// The ConfigMap data key that holds the configuration.
inline constexpr const char* kVolcanoConfKey = "volcano-scheduler.conf";

// A file that is either the configuration itself (actions, tiers, configurations, metrics) or a
// ConfigMap (YAML or JSON) holding it under data."volcano-scheduler.conf". Warnings (unknown keys,
// switches this Volcano version does not know) go to *warnings when given.
SchedulerConf readSchedulerConfFile(const std::string& path, Diagnostics* warnings = nullptr);

// The configuration text itself; locations are reported through origin (see TextOrigin).
SchedulerConf parseSchedulerConf(const std::string& text, const TextOrigin& origin,
                                 Diagnostics* warnings = nullptr);

// An already parsed configuration mapping.
SchedulerConf readSchedulerConf(const Y& root);

// Plugin switches Volcano's PluginOption knows (spelled as upstream, enable... and enabled...).
bool isKnownPluginSwitch(std::string_view name);

} // namespace gantry
