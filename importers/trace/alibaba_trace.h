#pragma once
// Reader of the Alibaba GPU trace v2023 ("openb") CSVs: node lists (sn, cpu_milli, memory_mib, gpu,
// model) and task lists (name, cpu_milli, memory_mib, num_gpu, gpu_milli and optionally gpu_spec,
// qos, pod_phase, creation_time, deletion_time, scheduled_time — the multigpu lists have only the
// first five). Columns are found by their header names, in any order; unknown columns are ignored.
//
// Bad input throws gantry::InputError at file:line:column (missing column, wrong type, negative
// value, a duplicate name, a fractional share of more than one GPU ...). Oddities that a run can
// survive come back as warnings, counted per kind (a task asking for a GPU model no node has, a node
// with GPUs but no model ...).
#include "model/diagnostic.h"
#include "trace/trace.h"

#include <string>
#include <string_view>
#include <vector>

namespace gantry {

std::vector<TraceNode> parseTraceNodes(std::string_view text, const std::string& file, Diagnostics& warnings);
std::vector<TraceTask> parseTraceTasks(std::string_view text, const std::string& file, Diagnostics& warnings);

std::vector<TraceNode> readTraceNodes(const std::string& path, Diagnostics& warnings);
std::vector<TraceTask> readTraceTasks(const std::string& path, Diagnostics& warnings);

// Checks across the two lists: tasks naming GPU models no node has (one warning per model, with the
// count and the first task's location), tasks no node could ever hold because none has enough GPUs.
Diagnostics checkTrace(const Trace& trace);

// Both files plus checkTrace; warnings appended to `warnings`.
Trace readTrace(const std::string& nodesPath, const std::string& tasksPath, Diagnostics& warnings);

} // namespace gantry
