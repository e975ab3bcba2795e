#pragma once
// How `gantry simulate --profile a,b,...` writes a comparison of scheduler profiles on one workload:
// every profile's whole result and one verdict per measure (sim/compare.h), as JSON, as CSV or as
// a readable table.
#include "sim/compare.h"
#include "simulate_report.h"

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace gantry::cli {

std::string comparisonJson(const std::vector<sim::ProfileRun>& runs,
                           const std::vector<sim::Verdict>& verdicts, const ReportContext& context);
// compare.csv: one row per measure, a column per profile, the winner and the verdict.
std::string comparisonCsv(const std::vector<sim::ProfileRun>& runs,
                          const std::vector<sim::Verdict>& verdicts);
void printComparison(std::ostream& out, const std::vector<sim::ProfileRun>& runs,
                     const std::vector<sim::Verdict>& verdicts, const ReportContext& context);

} // namespace gantry::cli
