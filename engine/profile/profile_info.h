#pragma once
// What a scheduler profile tells the rest of Gantry about itself: its names, its configuration
// format, how to build it for a cluster and how it completes a policy for a workload. Each profile
// folder under engine/profiles/ offers one (profileInfo()); the list of them is profile/registry.h.
#include "model/cluster.h"
#include "model/diagnostic.h"
#include "model/policy.h"
#include "profile/scheduler_profile.h"

#include <functional>
#include <memory>
#include <string>
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

} // namespace gantry::engine
