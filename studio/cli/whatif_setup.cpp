#include "whatif_setup.h"

#include "input_error.h"
#include "input_loader.h"
#include "plan/project_setup.h"
#include "policy_reader.h"
#include "profile/registry.h"

#include <filesystem>
#include <stdexcept>

namespace gantry::cli {

LoadedWhatIf loadWhatIf(const WhatIfChoice& choice) {
    const engine::ProfileInfo* info = engine::findProfile(choice.profile);
    if (!info)
        throw std::invalid_argument("unknown profile '" + choice.profile + "' (" + engine::profileNames() +
                                    ")");
    LoadedWhatIf out;
    LoadedInput in = loadInputs(choice.inputs);
    out.warnings = std::move(in.warnings);
    Project& p = in.project;
    out.input = std::string(toString(in.kind)) + " " +
                std::filesystem::path(choice.inputs.front()).filename().string();
    out.projectSeed = p.simulation.seed;

    out.setup.options = plan::projectOptions(p, choice.profile);
    sim::SimOptions& options = out.setup.options;
    if (!choice.schedulerConf.empty())
        readPolicyFile(choice.schedulerConf, info->configFormat, options.policies, &out.warnings);
    for (const auto& setting : choice.settings)
        if (std::string why = applyPolicySetting(options.policies, setting.key, setting.value); !why.empty())
            throw InputError(setting.source, setting.key + ": " + why);
    if (choice.cycleSeconds) options.cycleSeconds = *choice.cycleSeconds;
    if (choice.horizonSeconds) options.horizonSeconds = *choice.horizonSeconds;

    out.setup.cluster = std::move(p.cluster);
    out.setup.workloads = std::move(p.workloads);
    Cluster probe;
    const sim::SimWorkload workload =
        plan::fitToWorkload(out.setup, probe, SourceRef{out.input, 0, 0, 0}, &out.notes, &out.warnings);
    if (workload.jobs.empty()) {
        Diagnostic none;
        none.severity = Severity::Warning;
        none.where.file = out.input;
        none.message = "the input has no jobs to simulate (no workload templates, no what-if jobs)";
        out.warnings.push_back(std::move(none));
    }
    // The policy's own errors now, located, rather than from every simulation.
    Diagnostics policy;
    info->make({probe, options.policies, options.shortcuts}, &policy);
    for (auto& d : policy)
        if (d.where.file.empty())
            d.where.file = choice.schedulerConf.empty() ? out.input : choice.schedulerConf;
    throwIfErrors(policy);
    out.warnings.insert(out.warnings.end(), policy.begin(), policy.end());
    return out;
}

Node readNodeTemplate(const std::string& path) {
    LoadedInput in = loadInputs({path});
    const auto& nodes = in.project.cluster.nodes;
    if (nodes.size() != 1)
        throw InputError(SourceRef{path, 0, 0, 0}, "a node template holds exactly one Node; this file has " +
                                                       std::to_string(nodes.size()));
    Node n = nodes.front();
    n.pool.clear();
    return n;
}

} // namespace gantry::cli
