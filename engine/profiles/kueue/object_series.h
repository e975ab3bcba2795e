#pragma once
// Kueue's own objects over a simulation: each ClusterQueue's usage against its nominal quota, what
// it borrows from its cohort and what of its quota others use (lent), per resource summed over
// flavors; and per ClusterQueue and per workload class the time from creation to the first quota
// reservation; with Admission Fair Sharing, each LocalQueue's consumed resources and the usage its
// workloads are ordered by.
#include "profile/scheduler_profile.h"
#include "profiles/kueue/workloads.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gantry::engine::kueue {

class ObjectRecorder {
  public:
    void sample(const World& w);
    std::vector<ObjectSeries> series(const World& w, const std::vector<Workload>& wls) const;

  private:
    // per ClusterQueue, per resource: usage, nominal, borrowed, lent at each sample
    std::vector<std::vector<std::vector<double>>> usage_, nominal_, borrowed_, lent_;
    // per LocalQueue under Admission Fair Sharing (by (namespace, name)): measure -> one value per
    // sample (zeros before the measure first appears)
    std::map<std::pair<std::string, std::string>, std::map<std::string, std::vector<double>>> afs_;
    size_t samples_ = 0;
};

// The class of a workload: its name without the numbers generated names end with ("train-12",
// "small-0-31-0" -> "train", "small").
std::string workloadClass(const std::string& name);

} // namespace gantry::engine::kueue
