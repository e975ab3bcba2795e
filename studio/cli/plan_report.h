#pragma once
// How `gantry plan` writes its answer: JSON (one document, keys fixed by issue 16) or a readable
// report with the answer, its margin, every point tried and the curve of the first SLO's metric.
#include "plan/planner.h"

#include <ostream>
#include <string>
#include <vector>

namespace gantry::cli {

struct PlanContext {
    std::string input;                    // "inventory gpu-cloud-east.yaml"
    std::string profile;                  // "volcano"
    std::vector<plan::PoolSummary> pools; // per type, as loaded
    int threads = 1;
    std::vector<std::string> notes; // what Gantry added to the policy, and the like
};

std::string planJson(const plan::PlanResult& result, const plan::PlanRequest& request,
                     const PlanContext& context);
void printPlan(std::ostream& out, const plan::PlanResult& result, const plan::PlanRequest& request,
               const PlanContext& context);

} // namespace gantry::cli
