#pragma once
// The scheduler profiles Gantry emulates, by name. `--profile NAME` in the CLI, the studio's profile
// choice and the simulator look here. The interface names no profile: the list is filled, on first
// use, by the factory above it (engine/profiles/factory.cpp), as Volcano's framework registries are
// by its factory.
#include "model/project.h"
#include "profile/profile_info.h"

#include <string>
#include <string_view>
#include <vector>

namespace gantry::engine {

const std::vector<ProfileInfo>& profiles();
// The profile a run uses when none is named (Volcano's): the first of profiles().
const std::string& defaultProfileName();
const ProfileInfo* findProfile(std::string_view name);
// "volcano, kube-default": for messages and help texts.
std::string profileNames();

// The profiles a project's what-if runs and compares: those its simulation settings name (unknown
// names skipped), else the target scheduler's profile and kube-default when the project has a
// contrast profile.
std::vector<std::string> whatIfProfiles(const Project& project);

// The profiles Gantry implements, in the order they are offered; defined in
// engine/profiles/factory.cpp, the one place that names them all.
std::vector<ProfileInfo> profileFactory();

} // namespace gantry::engine
