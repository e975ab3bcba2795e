#pragma once
// A flavor assignment of a workload, as Kueue's flavor assigner produces it: for each pod set a
// flavor per requested resource with the mode it would be admitted in (fit, preempt, no fit), how far
// up the cohort tree it borrows, the flavors tried, and the usage it would add.
#include "model/kueue_workload.h"
#include "profiles/kueue/quota.h"

#include <optional>
#include <string>
#include <vector>

namespace gantry::engine::kueue {

// Ordered from least to most preferred, as Kueue's FlavorAssignmentMode.
enum class Mode : int { NoFit = 0, Preempt = 1, DeferredFit = 2, Fit = 3 };

// Kueue's finer preemption mode inside the assigner.
enum class PMode : int { NoFit = 0, NoCandidates = 1, Preempt = 2, Reclaim = 3, Fit = 4 };

struct FlavorChoice {
    int flavor = -1;
    Mode mode = Mode::NoFit;
    int borrow = 0;
    int triedIdx = -1;
};

struct FlavorAttempt {
    int flavor = -1;
    Mode mode = Mode::NoFit;
    int borrow = 0;
    std::vector<std::string> reasons;
    std::string noFitReason;
};

struct PodSetAssignment {
    std::string name;
    int32_t count = 0;
    std::vector<FlavorChoice> flavors; // by resource id; flavor -1 = none
    int assigned = 0;                  // resources with a flavor
    std::vector<std::string> reasons;  // why not fit
    std::string error;
    std::vector<FlavorAttempt> attempts;          // sorted by flavor name
    std::vector<std::pair<int, Amount>> requests; // whole pod set, by resource id
    std::optional<KueueTopologyAssignment> topology;
    int topologyFlavor = -1;
    bool fit() const { return reasons.empty() && error.empty(); }
    Mode mode() const;
};

struct Assignment {
    std::vector<PodSetAssignment> podSets;
    int borrowing = 0;
    Usage usage; // sorted by flavor-resource
    std::optional<Mode> forced;
    std::string noFitReason;
    std::vector<std::vector<int>> lastTried; // per pod set, per resource id (-2 = not assigned)
    Mode mode() const;
    void setMode(Mode m);
    bool borrows() const { return borrowing > 0; }
    std::string message() const;
};

// Adds v to the usage entry of fr.
void addTo(Usage& u, int fr, Amount v);
Amount usageOf(const Usage& u, int fr);

} // namespace gantry::engine::kueue
