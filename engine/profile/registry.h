#pragma once
// The scheduler profiles Gantry emulates, by name: the one place that knows them all
// (profile/registry.cpp). `--profile NAME` in the CLI and the studio's profile choice look here.
#include "model/cluster.h"
#include "model/diagnostic.h"
#include "model/policy.h"
#include "model/project.h"
#include "profile/scheduler_profile.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gantry::engine {

// What the workload of a run asks of a policy.
struct WorkloadNeeds {
    bool sharesGpus = false; // some pod asks for a fraction of a GPU
};

struct ProfileSetup {
    const Cluster& cluster;
    const SchedulerPolicies& policies;
    ProfileShortcuts shortcuts;
};

struct ProfileInfo {
    std::string name;          // as --profile spells it: "volcano", "kube-default"
    std::string title;         // for people: "Volcano", "kube-scheduler"
    std::string summary;       // one line: what the emulation decides
    ConfigFormat configFormat; // what --scheduler-conf FILE holds for it
    bool takesPasses = false;  // its cycle is a number of smaller ones (CycleOptions::passes)
    // What its emulation leaves out of DRA ResourceClaims (k8s/dra_allocator.h), warned about when
    // a pod uses one; empty: nothing.
    std::string claimsCaveat = "does not allocate them yet (only kube-scheduler's placement does): their "
                               "devices are not checked or held";
    // The profile with its policy in a few words, for legends: "Volcano policy",
    // "kube-scheduler LeastAllocated".
    std::function<std::string(const SchedulerPolicies&)> describe;
    // Builds the profile. Problems with the policy are appended to *diagnostics; errors among them
    // mean the policy cannot run (the result is then null).
    std::function<std::unique_ptr<SchedulerProfile>(const ProfileSetup&, Diagnostics* diagnostics)> make;
    // Completes the profile's part of the policy for a workload before a run, the same way for every
    // caller: notes say what Gantry added for the user; warnings (located at `where` when the policy
    // has no file of its own) say where the user's own policy falls short. May be empty.
    std::function<void(SchedulerPolicies&, const WorkloadNeeds&, const SourceRef& where,
                       std::vector<std::string>* notes, Diagnostics* warnings)>
        fitToWorkload;
};

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

} // namespace gantry::engine
