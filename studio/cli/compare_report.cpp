#include "compare_report.h"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

namespace gantry::cli {

namespace {

using nlohmann::ordered_json;

// A CSV field, quoted when it holds a separator, a quote or a line break.
std::string field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + '"';
}

std::string shortest(double v) {
    std::ostringstream o;
    o << std::setprecision(15) << v;
    return o.str();
}

} // namespace

std::string comparisonJson(const std::vector<sim::ProfileRun>& runs,
                           const std::vector<sim::Verdict>& verdicts, const ReportContext& context) {
    ordered_json o;
    o["input"] = context.input;
    ordered_json names = ordered_json::array();
    for (const auto& r : runs) names.push_back(r.profile);
    o["profiles"] = std::move(names);
    ordered_json list = ordered_json::array();
    for (const auto& v : verdicts) {
        ordered_json j;
        j["metric"] = v.metric;
        j["title"] = v.title;
        j["lower_is_better"] = v.lowerIsBetter;
        ordered_json values = ordered_json::object();
        for (size_t i = 0; i < runs.size(); ++i)
            values[runs[i].profile] = v.values[i] ? ordered_json(*v.values[i]) : ordered_json(nullptr);
        j["values"] = std::move(values);
        j["best"] = v.best >= 0 ? ordered_json(runs[size_t(v.best)].profile) : ordered_json(nullptr);
        j["verdict"] = v.text;
        list.push_back(std::move(j));
    }
    o["verdicts"] = std::move(list);
    ordered_json each = ordered_json::object();
    for (const auto& r : runs) each[r.profile] = simulationDocument(*r.result, context);
    o["runs"] = std::move(each);
    return o.dump(1) + "\n";
}

std::string comparisonCsv(const std::vector<sim::ProfileRun>& runs,
                          const std::vector<sim::Verdict>& verdicts) {
    std::string out = "metric,title";
    for (const auto& r : runs) out.append(",").append(field(r.profile));
    out += ",best,verdict\n";
    for (const auto& v : verdicts) {
        out.append(field(v.metric)).append(",").append(field(v.title));
        for (const auto& x : v.values) out.append(",").append(x ? shortest(*x) : std::string());
        out.append(",").append(v.best >= 0 ? field(runs[size_t(v.best)].profile) : std::string());
        out.append(",").append(field(v.text)).append("\n");
    }
    return out;
}

void printComparison(std::ostream& out, const std::vector<sim::ProfileRun>& runs,
                     const std::vector<sim::Verdict>& verdicts, const ReportContext& context) {
    out << "Compared on " << context.input << ", the same workload and seed:";
    for (const auto& r : runs)
        out << "\n  " << std::left << std::setw(14) << r.profile << r.result->jobsCompleted << " of "
            << r.result->jobsTotal << " jobs completed, " << r.result->sessions << " scheduling cycles";
    out << "\n\n";
    size_t width = 7;
    for (const auto& v : verdicts) width = std::max(width, v.title.size());
    // Cells: the value, and a star on the winner's.
    std::vector<std::vector<std::string>> cells(verdicts.size());
    std::vector<size_t> column;
    for (const auto& r : runs) column.push_back(r.profile.size() + 2);
    for (size_t k = 0; k < verdicts.size(); ++k)
        for (size_t i = 0; i < runs.size(); ++i) {
            const auto& v = verdicts[k];
            std::string cell = v.values[i] ? sim::formatMetricValue(v.unit, *v.values[i]) : std::string("-");
            cell.append(int(i) == v.best ? "*" : " ");
            column[i] = std::max(column[i], cell.size() + 2);
            cells[k].push_back(std::move(cell));
        }
    out << std::left << std::setw(int(width + 2)) << "Measure";
    for (size_t i = 0; i < runs.size(); ++i)
        out << std::right << std::setw(int(column[i])) << runs[i].profile + " ";
    out << '\n';
    for (size_t k = 0; k < verdicts.size(); ++k) {
        out << std::left << std::setw(int(width + 2)) << verdicts[k].title;
        for (size_t i = 0; i < runs.size(); ++i)
            out << std::right << std::setw(int(column[i])) << cells[k][i];
        out << '\n';
    }
    out << "\n* wins. Verdicts:\n";
    for (const auto& v : verdicts) out << "  " << v.title << ": " << v.text << '\n';
    out << "\nEach profile ran with the policy the project would export for it; every figure is from\n"
           "`gantry simulate --profile NAME` on the same input (--json for all of them).\n";
}

} // namespace gantry::cli
