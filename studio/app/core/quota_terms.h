#pragma once
// A queue's quotas in the words of the target scheduler: which three numbers the studio shows and
// edits for Volcano (guarantee / deserved / capability), Kueue (nominal / borrowing limit / lending
// limit, summed over flavors for display) and YuniKorn (guaranteed / max).
#include "model/project.h"

#include <QString>
#include <optional>
#include <string>
#include <vector>

namespace gantry::studio {

enum class QuotaField { Low, Share, High }; // Volcano: guarantee, deserved, capability ...

struct QuotaTerms {
    QString low, share, high; // column names; empty = not used by this scheduler
    QString shareOfParent;    // what the share bar compares
};
QuotaTerms quotaTerms(TargetScheduler target);

// The value of one quota field for one resource; nullopt = not set (no limit / not given).
std::optional<int64_t> quotaValue(const Queue& queue, TargetScheduler target, QuotaField field,
                                  const std::string& resource);
// Writes one field. For Kueue the value goes to the queue's first flavor that covers the resource
// (one is created for the resource when there is none); nullopt clears the field.
void setQuotaValue(Queue& queue, TargetScheduler target, QuotaField field, const std::string& resource,
                   std::optional<int64_t> value);
// The amount a queue is entitled to in the tree's terms (deserved, nominal, guaranteed), used to
// draw shares against the parent.
std::optional<int64_t> entitlement(const Queue& queue, TargetScheduler target, const std::string& resource);

// Resource names that appear in any quota of the project, GPU resources first, then cpu, memory.
std::vector<std::string> quotaResources(const Project& project);
// The GPU resource name the project's nodes use ("nvidia.com/gpu" when none is seen).
std::string primaryGpuResource(const Cluster& cluster);
// Total allocatable of a resource over all nodes (the implicit root's size).
int64_t clusterTotal(const Cluster& cluster, const std::string& resource);

} // namespace gantry::studio
