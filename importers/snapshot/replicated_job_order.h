#pragma once
// The JobSet controller's creation order of replicated jobs, read once for JobSets and for the
// JobSets Kubeflow Trainer builds from a runtime: startupPolicy InOrder (each replicated job once
// every earlier one is ready) and dependsOn (once the named ones are Ready or Complete), with the
// JobSet webhook's rules on them (jobset pkg/controllers/depends_on.go, api validation).
#include "import_state.h"

#include <map>
#include <string>
#include <vector>

namespace gantry::snapshot {

class ReplicatedJobOrder {
  public:
    // `jobSetSpec`: the JobSet's spec (startupPolicy is read from it).
    explicit ReplicatedJobOrder(const Y& jobSetSpec);
    // The next replicated job `rj`, in the spec's order: its pods' creation conditions, and with
    // `gantry.io/duration` on its template, how long its pods run.
    void next(const Y& rj, Expansion::Role& role);
    // A replicated job others wait for to complete finishes on its own clock in `gantry simulate`
    // (gantry.io/duration on its template, 0 s with a warning); the others' durations come from the
    // workload and are dropped, with a warning where one was written.
    void finish(std::vector<Expansion::Role>& roles, const Y& where) const;

  private:
    bool inOrder_ = false;
    std::vector<std::string> names_;           // the replicated jobs seen so far
    std::map<std::string, Y> awaitedComplete_; // and where the first wait for each is written
};

} // namespace gantry::snapshot
