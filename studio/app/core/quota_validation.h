#pragma once
// Live checks for the quota editor: the rules each scheduler's admission enforces on one queue and
// its relation to parent and children, reported against the field so the editor can show the
// message next to it. The full, object-level validation of an export is the exporters' validator.
#include "core/quota_terms.h"
#include "model/diagnostic.h"

#include <QString>
#include <string>
#include <vector>

namespace gantry::studio {

struct QuotaIssue {
    Severity severity = Severity::Error;
    QuotaField field = QuotaField::Share;
    std::string resource; // "" = the queue as a whole (name, weight, parent)
    QString message;
};

std::vector<QuotaIssue> validateQueue(const Project& project, const std::string& queueName,
                                      TargetScheduler target);
// The same checks for an edited but not yet committed version of a queue of the project (matched
// by name), so the editor can validate while the user types.
std::vector<QuotaIssue> validateQueue(const Project& project, const Queue& candidate, TargetScheduler target);

} // namespace gantry::studio
