// gantry plan: the fewest nodes of a type (or the cheapest mix of two types) for which every service
// level holds, found by searching the simulator (engine/plan, docs/planning.md).
#include "command.h"
#include "diagnostics_printer.h"
#include "input_error.h"
#include "options.h"
#include "plan/parallel.h"
#include "plan/planner.h"
#include "plan_report.h"
#include "profile_help.h"
#include "sim/metrics.h"
#include "value_grammar.h"
#include "whatif_setup.h"

#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <unistd.h>

namespace gantry::cli {

namespace {

constexpr const char* kUsage = "INPUT... --node-type NAME[,NAME] --slo EXPR [--slo EXPR...] [options]";

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        size_t comma = text.find(',', start);
        out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) return out;
        start = comma + 1;
    }
}

// "16" (every type) or "a=16,b=8" (per type): one value per type, or an error message.
template <typename T, typename Parse>
std::optional<std::vector<T>> perType(const std::string& option, const std::string& text,
                                      const std::vector<std::string>& types, Parse parse,
                                      std::string* error) {
    std::vector<T> out(types.size());
    if (auto v = parse(text)) {
        std::fill(out.begin(), out.end(), *v);
        return out;
    }
    std::vector<bool> set(types.size(), false);
    for (const auto& item : splitList(text)) {
        const size_t eq = item.find('=');
        const std::string name = item.substr(0, eq);
        auto it = std::find(types.begin(), types.end(), name);
        auto v = eq == std::string::npos ? std::nullopt : parse(item.substr(eq + 1));
        if (it == types.end() || !v) {
            *error = option + ": '" + item + "' is not TYPE=VALUE for one of the node types";
            return std::nullopt;
        }
        out[size_t(it - types.begin())] = *v;
        set[size_t(it - types.begin())] = true;
    }
    for (size_t i = 0; i < types.size(); ++i)
        if (!set[i]) {
            *error = option + ": no value for node type '" + types[i] + "'";
            return std::nullopt;
        }
    return out;
}

// The metric names on lines of at most 100 characters, each line starting with two blanks.
std::string metricList() {
    std::string out;
    size_t column = 0;
    for (const auto& name : sim::metricNames()) {
        if (column > 0 && column + 1 + name.size() > 100) {
            out += "\n";
            column = 0;
        }
        out += column == 0 ? "  " : " ";
        out += name;
        column += (column == 0 ? 2 : 1) + name.size();
    }
    return out;
}

int runPlan(const Args& args) {
    std::vector<std::string> inputs, sloTexts;
    std::string nodeType, nodeTemplate, profile = "volcano", confPath, costText, minText, maxText;
    std::optional<uint64_t> seeds, seed, jobs;
    std::optional<double> horizon, cycle;
    bool json = false;
    const OptionTable table{
        .command = "plan",
        .synopsis = kUsage,
        .about = "Finds the fewest nodes of a type to add (or, with a negative range, the most to remove)\n"
                 "for which every SLO holds in the simulation, for all seeds: exponential then bisection\n"
                 "over the count. With two node types and costs, the cheapest mix. docs/planning.md.",
        .options =
            {
                {.section = "Input:",
                 .metavar = "INPUT",
                 .value = Texts{&inputs},
                 .help = "a project (.gantry), an inventory, or Kubernetes snapshot files, with the\n"
                         "workload to simulate",
                 .required = true},
                {.section = "What to plan:",
                 .names = {"--node-type"},
                 .metavar = "NAME[,NAME]",
                 .value = Text{&nodeType},
                 .help = "the pool whose nodes to add or remove (an inventory's or project's pool, or\n"
                         "the gantry.io/pool, node-group or instance-type label); two, comma-separated,\n"
                         "with --cost, for the cheapest mix"},
                {.names = {"--node-template"},
                 .metavar = "FILE",
                 .value = Text{&nodeTemplate},
                 .help = "a file holding the Node to add instead of a pool's (added only)"},
                {.names = {"--slo"},
                 .metavar = "EXPR",
                 .value = Texts{&sloTexts},
                 .help = "a service level, repeatable: METRIC OP VALUE with OP one of < <= > >= == !=,\n"
                         "e.g. 'wait.p95<1h', 'queue[pretrain].wait.p95<2h', 'pending_at_end==0',\n"
                         "'gpu.mean_allocation_pct>=70'; durations as 90s, 30m, 1h30m",
                 .required = true},
                {.names = {"--min"},
                 .metavar = "N",
                 .value = Text{&minText},
                 .help = "fewest nodes to add, negative to remove (default 0); TYPE=N,... per type"},
                {.names = {"--max"},
                 .metavar = "N",
                 .value = Text{&maxText},
                 .help = "most nodes to add (default: the pool's size, at least 8); TYPE=N,... per type"},
                {.names = {"--cost"},
                 .metavar = "TYPE=C,...",
                 .value = Text{&costText},
                 .help = "cost of one node of each type, for two types (e.g. a=3.2,b=1.1)"},
                {.section = "Policy and simulation:",
                 .names = {"--profile"},
                 .metavar = "NAME",
                 .value = Text{&profile},
                 .help = profileOptionHelp()},
                {.names = {"--scheduler-conf"},
                 .metavar = "FILE",
                 .value = Text{&confPath},
                 .help =
                     schedulerConfOptionHelp("Default: the project's policy, or the scheduler's default")},
                {.names = {"--seeds"},
                 .metavar = "K",
                 .value = Uint{&seeds},
                 .help = "workload draws per point; a point passes when all pass (default 3)",
                 .sign = Sign::Positive,
                 .max = 1000},
                {.names = {"--seed"},
                 .metavar = "N",
                 .value = Uint{&seed},
                 .help = "the first seed; the others follow it (default: the project's, else 42)"},
                {.names = {"--horizon"},
                 .metavar = "D",
                 .value = Duration{&horizon},
                 .help = "simulate up to this time (default: the project's, else until done)"},
                {.names = {"--cycle"},
                 .metavar = "D",
                 .value = Duration{&cycle},
                 .help = "scheduling period (default: the project's, else 1s)",
                 .sign = Sign::Positive},
                {.names = {"--jobs"},
                 .metavar = "N",
                 .value = Uint{&jobs},
                 .help = "simulations at once (default: one per core); the answer is the same for any N",
                 .sign = Sign::Positive,
                 .max = 1024},
                {.section = "Output (default: a readable report):",
                 .names = {"--json"},
                 .value = Switch{&json},
                 .help = "the answer, the SLOs and every point with its metrics, as JSON"},
            },
        .epilog = "Metrics for --slo:\n" + metricList() + "\n"};
    if (auto exit = parseCommandLine(table, args)) return *exit;

    // SLOs first: a typo should not wait for the inputs to load.
    plan::PlanRequest request;
    Diagnostics sloErrors;
    for (const auto& text : sloTexts) {
        auto parsed = plan::parseSlo(text);
        if (auto* slo = std::get_if<plan::Slo>(&parsed)) {
            request.slos.push_back(std::move(*slo));
            continue;
        }
        const auto& e = std::get<plan::SloError>(parsed);
        sloErrors.push_back(
            {Severity::Error, SourceRef{"--slo '" + text + "'", 1, int(e.column), 0}, e.message});
    }
    if (!sloErrors.empty()) {
        printDiagnostics(sloErrors);
        std::cerr << "metrics:\n" << metricList() << '\n';
        return UsageError;
    }
    if (nodeType.empty() == nodeTemplate.empty())
        return usageError("plan", "give --node-type NAME or --node-template FILE (one of them)");
    const std::vector<std::string> typeNames =
        nodeType.empty() ? std::vector<std::string>{} : splitList(nodeType);
    if (typeNames.size() > 2) return usageError("plan", "--node-type: plan one type, or two with --cost");
    if (typeNames.size() == 2 && typeNames[0] == typeNames[1])
        return usageError("plan", "--node-type: the two types are the same");
    if (typeNames.size() == 2 && costText.empty())
        return usageError("plan", "two node types need --cost TYPE=C,TYPE=C to find the cheapest mix");
    if (typeNames.size() < 2 && !costText.empty())
        return usageError("plan", "--cost is for two node types (--node-type a,b)");

    WhatIfChoice choice{inputs, profile, confPath, cycle, horizon, {}};
    LoadedWhatIf loaded;
    try {
        loaded = loadWhatIf(choice);
        if (!nodeTemplate.empty()) {
            request.types.push_back(plan::NodeType::fromTemplate(readNodeTemplate(nodeTemplate)));
        } else {
            for (const auto& t : typeNames) request.types.push_back(plan::NodeType::pool(t));
        }
    } catch (const InputError& e) {
        printDiagnostics(e.all());
        return BadInput;
    } catch (const std::invalid_argument& e) {
        return usageError("plan", e.what());
    }
    printDiagnostics(loaded.warnings);

    PlanContext context;
    context.input = loaded.input;
    context.profile = profile;
    context.notes = loaded.notes;
    std::vector<std::string> names;
    for (const auto& t : request.types) {
        names.push_back(t.name);
        context.pools.push_back(plan::summaryOf(loaded.setup.cluster, t));
    }
    std::string error;
    auto whole = [](const std::string& s) { return parseWholeNumber(s); };
    auto number = [](const std::string& s) -> std::optional<double> {
        auto v = parseNumber(s);
        return v && *v > 0 ? v : std::nullopt;
    };
    std::vector<int64_t> mins(names.size(), 0), maxs(names.size(), 0);
    std::vector<double> costs(names.size(), 1);
    for (size_t i = 0; i < names.size(); ++i) maxs[i] = std::max<int64_t>(8, context.pools[i].nodes);
    if (!minText.empty()) {
        auto v = perType<int64_t>("--min", minText, names, whole, &error);
        if (!v) return usageError("plan", error);
        mins = *v;
    }
    if (!maxText.empty()) {
        auto v = perType<int64_t>("--max", maxText, names, whole, &error);
        if (!v) return usageError("plan", error);
        maxs = *v;
    } else {
        for (size_t i = 0; i < names.size(); ++i) maxs[i] = std::max(maxs[i], mins[i]);
    }
    if (!costText.empty()) {
        auto v = perType<double>("--cost", costText, names, number, &error);
        if (!v) return usageError("plan", error + " (costs are positive numbers)");
        costs = *v;
    }
    for (size_t i = 0; i < names.size(); ++i) request.ranges.push_back({mins[i], maxs[i], costs[i]});
    const uint64_t first = seed.value_or(loaded.projectSeed);
    for (uint64_t k = 0; k < seeds.value_or(3); ++k) request.seeds.push_back(first + k);
    request.threads = int(jobs.value_or(0));
    context.threads = plan::threadCount(request.threads);

    // Progress on a terminal only: stdout carries the result, stderr stays quiet in pipelines.
    plan::PlanControl control;
    if (isatty(STDERR_FILENO))
        control.progress = [&](int done, int runs, int round, const plan::PlanPoint* point) {
            std::cerr << "\rround " << round << ": " << done << "/" << runs << " runs";
            if (point) {
                std::string counts;
                for (size_t i = 0; i < point->counts.size(); ++i)
                    counts.append(i ? "," : "")
                        .append(point->counts[i] > 0 ? "+" : "")
                        .append(std::to_string(point->counts[i]));
                std::cerr << "  (" << counts << " " << (point->pass ? "passes" : "fails") << ")";
            }
            std::cerr << "        " << std::flush;
        };
    plan::PlanResult result;
    try {
        result = plan::plan(loaded.setup, request, control);
    } catch (const std::invalid_argument& e) {
        if (control.progress) std::cerr << '\n';
        std::cerr << "gantry plan: " << e.what() << '\n';
        return BadInput;
    } catch (const std::exception& e) {
        if (control.progress) std::cerr << '\n';
        std::cerr << "gantry plan: " << e.what() << '\n';
        return RuntimeFailure;
    }
    if (control.progress) std::cerr << '\n';
    if (json)
        std::cout << planJson(result, request, context);
    else
        printPlan(std::cout, result, request, context);
    return Ok;
}

const CommandRegistration reg{
    {"plan", kUsage, "find the fewest nodes (or the cheapest mix) that meet service levels", runPlan}};

} // namespace

} // namespace gantry::cli
