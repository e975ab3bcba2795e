#pragma once
// How `gantry simulate` writes a simulation's result: JSON (one document), CSV (a folder of
// tables) or a readable summary. Numbers are written in their shortest exact form, so the same
// result always gives the same bytes.
#include "sim/result.h"

#include <map>
#include <nlohmann/json_fwd.hpp> // the definitions that use it include json.hpp
#include <ostream>
#include <string>

namespace gantry::cli {

struct ReportContext {
    std::string input; // what was simulated ("inventory gpu-cloud-east.yaml", "trace ...")
    size_t nodes = 0;
};

nlohmann::ordered_json simulationDocument(const sim::SimResult& r, const ReportContext& context);
// The same bytes written to `out` as they are made, without the whole text in memory at once.
void writeSimulationJson(std::ostream& out, const sim::SimResult& r, const ReportContext& context);
// File name -> contents: timeseries.csv, queues.csv, priorities.csv, pending.csv, reasons.csv.
std::map<std::string, std::string> simulationCsv(const sim::SimResult& r);
void printSimulationSummary(std::ostream& out, const sim::SimResult& r, const ReportContext& context);

} // namespace gantry::cli
