// The list of scheduler profiles, as the factory (engine/profiles/factory.cpp) fills it.
#include "profile/registry.h"

#include <algorithm>

namespace gantry::engine {

namespace {

// A profile whose placement does not allocate claims says so, once, where a pod uses one.
ProfileInfo warnAboutClaims(ProfileInfo info) {
    if (info.claimsCaveat.empty()) return info;
    info.make = [make = info.make, title = info.title, caveat = info.claimsCaveat](const ProfileSetup& setup,
                                                                                   Diagnostics* diagnostics) {
        if (diagnostics)
            for (const auto& pod : setup.cluster.pods)
                if (!pod.resourceClaims.empty()) {
                    diagnostics->push_back(Diagnostic{Severity::Warning, pod.source,
                                                      "pod " + pod.key() + " uses DRA ResourceClaims; the " +
                                                          title + " emulation " + caveat});
                    break;
                }
        return make(setup, diagnostics);
    };
    return info;
}

} // namespace

const std::vector<ProfileInfo>& profiles() {
    static const std::vector<ProfileInfo> all = [] {
        std::vector<ProfileInfo> list = profileFactory();
        for (auto& info : list) info = warnAboutClaims(std::move(info));
        return list;
    }();
    return all;
}

const std::string& defaultProfileName() {
    return profiles().front().name;
}

const ProfileInfo* findProfile(std::string_view name) {
    for (const auto& p : profiles())
        if (p.name == name) return &p;
    return nullptr;
}

std::string profileNames() {
    std::string out;
    for (const auto& p : profiles()) out += (out.empty() ? "" : ", ") + p.name;
    return out;
}

std::vector<std::string> whatIfProfiles(const Project& project) {
    std::vector<std::string> names;
    for (const auto& name : project.simulation.profiles)
        if (findProfile(name) && std::find(names.begin(), names.end(), name) == names.end())
            names.push_back(name);
    if (!names.empty()) return names;
    // The target scheduler's own profile: the policy the project designs is that scheduler's.
    names.push_back(project.target == TargetScheduler::Kueue      ? "kueue"
                    : project.target == TargetScheduler::YuniKorn ? "yunikorn"
                                                                  : defaultProfileName());
    if (project.contrast) names.push_back("kube-default");
    return names;
}

} // namespace gantry::engine
