#pragma once
// Reading plugin arguments with the conversions of upstream's framework.Arguments. Arguments
// arrive as text (the configuration reader keeps the YAML scalars' text); a value that does not
// convert leaves the default in place, as upstream does after logging a warning.
// checkSchedulerConf reports such values as errors before a session ever runs.
#include "model/go_text.h"
#include "model/scheduler_conf.h"

#include <optional>
#include <string>

namespace gantry::engine::plugins {

inline void getInt(const PluginOption& o, const std::string& key, int& value) {
    if (auto v = o.argument(key))
        if (auto i = parseGoInt(trim(*v))) value = int(*i);
}

inline void getFloat(const PluginOption& o, const std::string& key, double& value) {
    if (auto v = o.argument(key))
        if (auto f = parseGoFloat(trim(*v))) value = *f;
}

inline void getBool(const PluginOption& o, const std::string& key, bool& value) {
    if (auto v = o.argument(key))
        if (auto b = parseGoBool(trim(*v))) value = *b;
}

} // namespace gantry::engine::plugins
