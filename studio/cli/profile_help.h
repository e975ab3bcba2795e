#pragma once
// Help for the options every command that runs a scheduler profile has (--profile, --scheduler-conf),
// made from the profile registry so a new profile appears in every help text by itself.
#include <string>

namespace gantry::cli {

// One line per profile: "volcano (default): Volcano's sessions: ...".
std::string profileOptionHelp();
// What --scheduler-conf holds for each profile, one line each, then `lead` (where the policy comes
// from without the option).
std::string schedulerConfOptionHelp(const std::string& lead);

} // namespace gantry::cli
