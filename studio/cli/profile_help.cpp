#include "profile_help.h"

#include "profile/registry.h"

namespace gantry::cli {

std::string profileOptionHelp() {
    std::string out = "the scheduler to emulate:";
    for (const auto& p : engine::profiles())
        out += "\n  " + p.name + (&p == &engine::profiles().front() ? " (default)" : "") + ": " + p.summary;
    return out;
}

std::string schedulerConfOptionHelp(const std::string& lead) {
    std::string out = "the profile's own configuration:";
    for (const auto& p : engine::profiles()) out += "\n  " + p.name + ": " + toString(p.configFormat);
    return out + "\n" + lead;
}

} // namespace gantry::cli
