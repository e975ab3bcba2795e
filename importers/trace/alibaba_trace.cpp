#include "trace/alibaba_trace.h"

#include "input_error.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <unordered_map>

namespace gantry {

namespace {

constexpr int kMaxGpusPerNode = 16; // what the placement engine models per node
constexpr int kMilliPerGpu = 1000;

struct Field {
    std::string text;
    int column = 1; // 1-based character column where the field starts
};

struct Row {
    int line = 0;
    std::vector<Field> fields;
};

// Splits CSV text into rows of fields (RFC 4180 quoting, CRLF or LF, blank lines skipped).
std::vector<Row> splitCsv(std::string_view text, const std::string& file) {
    std::vector<Row> rows;
    size_t pos = 0;
    int line = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") pos = 3; // UTF-8 byte order mark
    while (pos < text.size()) {
        ++line;
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view raw = text.substr(pos, end - pos);
        pos = end + 1;
        if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
        if (raw.find_first_not_of(" \t") == std::string_view::npos) continue;
        Row row;
        row.line = line;
        size_t i = 0;
        for (;;) {
            Field f;
            f.column = int(i) + 1;
            if (i < raw.size() && raw[i] == '"') {
                ++i;
                for (;;) {
                    if (i >= raw.size())
                        throw InputError(SourceRef{file, line, f.column}, "unterminated quoted field");
                    if (raw[i] == '"') {
                        if (i + 1 < raw.size() && raw[i + 1] == '"') {
                            f.text += '"';
                            i += 2;
                            continue;
                        }
                        ++i;
                        break;
                    }
                    f.text += raw[i++];
                }
                if (i < raw.size() && raw[i] != ',')
                    throw InputError(SourceRef{file, line, int(i) + 1},
                                     "unexpected text after a quoted field");
            } else {
                size_t comma = raw.find(',', i);
                if (comma == std::string_view::npos) comma = raw.size();
                f.text = std::string(raw.substr(i, comma - i));
                i = comma;
            }
            row.fields.push_back(std::move(f));
            if (i >= raw.size()) break;
            ++i; // the comma
            if (i == raw.size()) {
                row.fields.push_back(Field{"", int(i) + 1});
                break;
            }
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string trimmed(const std::string& s) {
    size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// Column lookup by header name; reports missing required columns at the header line.
class Header {
  public:
    Header(const Row& header, const std::string& file, const std::vector<std::string>& required)
        : file_(file) {
        for (size_t i = 0; i < header.fields.size(); ++i) {
            std::string name = trimmed(header.fields[i].text);
            if (index_.count(name))
                throw InputError(SourceRef{file, header.line, header.fields[i].column},
                                 "column '" + name + "' appears twice in the header");
            index_[name] = i;
        }
        std::string missing;
        for (const auto& r : required)
            if (!index_.count(r)) missing += (missing.empty() ? "'" : ", '") + r + "'";
        if (!missing.empty())
            throw InputError(SourceRef{file, header.line, 1},
                             "missing column" +
                                 std::string(missing.find(',') != std::string::npos ? "s " : " ") + missing +
                                 " in the header");
        width_ = header.fields.size();
    }
    std::optional<size_t> find(const std::string& name) const {
        auto it = index_.find(name);
        return it == index_.end() ? std::nullopt : std::optional<size_t>(it->second);
    }
    size_t at(const std::string& name) const { return index_.at(name); }
    size_t width() const { return width_; }

  private:
    std::string file_;
    std::unordered_map<std::string, size_t> index_;
    size_t width_ = 0;
};

struct Cell {
    const std::string& file;
    const Row& row;
    size_t index;
    const std::string& column;

    SourceRef where() const { return SourceRef{file, row.line, row.fields[index].column}; }
    std::string text() const { return trimmed(row.fields[index].text); }

    int64_t wholeNumber(bool allowEmpty = false, int64_t ifEmpty = 0) const {
        std::string t = text();
        if (t.empty()) {
            if (allowEmpty) return ifEmpty;
            throw InputError(where(), column + ": expected a whole number, found an empty field");
        }
        int64_t v = 0;
        const char* b = t.data();
        const char* e = t.data() + t.size();
        if (*b == '+') ++b;
        auto [p, ec] = std::from_chars(b, e, v);
        if (ec == std::errc::result_out_of_range)
            throw InputError(where(), column + ": '" + t + "' is too large");
        if (ec != std::errc() || p != e) {
            // Whole numbers written as decimals ("96000.0", as pandas writes them) are accepted.
            double d = 0;
            auto [q, ec2] = std::from_chars(b, e, d);
            // The range check comes first: converting a double beyond int64 is undefined (found by
            // fuzzing: "2e76").
            if (ec2 == std::errc() && q == e && std::abs(d) < 9e15 && d == std::trunc(d))
                v = int64_t(d);
            else
                throw InputError(where(), column + ": expected a whole number, found '" + t + "'");
        }
        if (v < 0) throw InputError(where(), column + ": must not be negative, found '" + t + "'");
        return v;
    }
};

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(SourceRef{path, 0, 0}, std::string("cannot open: ") + std::strerror(errno));
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw InputError(SourceRef{path, 0, 0}, "cannot read the file");
    return ss.str();
}

void requireWidth(const Row& row, const Header& header, const std::string& file) {
    if (row.fields.size() != header.width()) {
        int col = row.fields.size() > header.width() ? row.fields[header.width()].column : 1;
        throw InputError(SourceRef{file, row.line, col}, "expected " + std::to_string(header.width()) +
                                                             " fields as in the header, found " +
                                                             std::to_string(row.fields.size()));
    }
}

// A row's name: present and not seen before (lineOf remembers where each name was first).
std::string uniqueName(const Cell& cell, const std::string& kind,
                       std::unordered_map<std::string, int>& lineOf) {
    std::string name = cell.text();
    if (name.empty()) throw InputError(cell.where(), cell.column + ": a " + kind + " needs a name");
    if (auto [it, fresh] = lineOf.emplace(name, cell.row.line); !fresh)
        throw InputError(cell.where(), "duplicate " + kind + " '" + name + "' (first at line " +
                                           std::to_string(it->second) + ")");
    return name;
}

void countedWarning(Diagnostics& out, const SourceRef& first, int64_t count, const std::string& what) {
    if (count == 0) return;
    out.push_back(Diagnostic{Severity::Warning, first,
                             std::to_string(count) + " " + what + (count > 1 ? " (first here)" : "")});
}

} // namespace

std::vector<TraceNode> parseTraceNodes(std::string_view text, const std::string& file,
                                       Diagnostics& warnings) {
    auto rows = splitCsv(text, file);
    if (rows.empty()) throw InputError(SourceRef{file, 1, 1}, "empty node list: expected a header line");
    Header h(rows[0], file, {"sn", "cpu_milli", "memory_mib", "gpu", "model"});
    std::vector<TraceNode> nodes;
    std::unordered_map<std::string, int> lineOf;
    int64_t noModel = 0, modelNoGpu = 0;
    SourceRef firstNoModel, firstModelNoGpu;
    for (size_t r = 1; r < rows.size(); ++r) {
        const Row& row = rows[r];
        requireWidth(row, h, file);
        static const std::string sn = "sn", cpu = "cpu_milli", mem = "memory_mib", gpu = "gpu",
                                 model = "model";
        TraceNode n;
        n.name = uniqueName(Cell{file, row, h.at(sn), sn}, "node", lineOf);
        n.cpuMilli = Cell{file, row, h.at(cpu), cpu}.wholeNumber();
        n.memoryMiB = Cell{file, row, h.at(mem), mem}.wholeNumber();
        Cell gpuCell{file, row, h.at(gpu), gpu};
        int64_t gpus = gpuCell.wholeNumber();
        if (gpus > kMaxGpusPerNode)
            throw InputError(gpuCell.where(), "gpu: " + std::to_string(gpus) + " GPUs on one node; at most " +
                                                  std::to_string(kMaxGpusPerNode) + " are supported");
        n.gpuCount = int32_t(gpus);
        Cell modelCell{file, row, h.at(model), model};
        n.gpuModel = modelCell.text();
        if (n.gpuModel == "nan" || n.gpuModel == "NaN") n.gpuModel.clear(); // pandas' missing value
        n.source = SourceRef{file, row.line, 1};
        if (n.gpuCount > 0 && n.gpuModel.empty() && noModel++ == 0) firstNoModel = modelCell.where();
        if (n.gpuCount == 0 && !n.gpuModel.empty() && modelNoGpu++ == 0) firstModelNoGpu = modelCell.where();
        nodes.push_back(std::move(n));
    }
    countedWarning(warnings, firstNoModel, noModel,
                   "node(s) with GPUs but no model: tasks that name a model never go there");
    countedWarning(warnings, firstModelNoGpu, modelNoGpu, "node(s) name a GPU model but have no GPU");
    return nodes;
}

std::vector<TraceTask> parseTraceTasks(std::string_view text, const std::string& file,
                                       Diagnostics& warnings) {
    auto rows = splitCsv(text, file);
    if (rows.empty()) throw InputError(SourceRef{file, 1, 1}, "empty task list: expected a header line");
    Header h(rows[0], file, {"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli"});
    static const std::string name = "name", cpu = "cpu_milli", mem = "memory_mib", numGpu = "num_gpu",
                             gpuMilli = "gpu_milli", spec = "gpu_spec", qos = "qos", phase = "pod_phase",
                             created = "creation_time", deleted = "deletion_time",
                             scheduled = "scheduled_time";
    const auto specCol = h.find(spec), qosCol = h.find(qos), phaseCol = h.find(phase);
    const auto createdCol = h.find(created), deletedCol = h.find(deleted), scheduledCol = h.find(scheduled);
    std::vector<TraceTask> tasks;
    std::unordered_map<std::string, int> lineOf;
    int64_t milliWithoutGpu = 0;
    SourceRef firstMilliWithoutGpu;
    for (size_t r = 1; r < rows.size(); ++r) {
        const Row& row = rows[r];
        requireWidth(row, h, file);
        TraceTask t;
        t.name = uniqueName(Cell{file, row, h.at(name), name}, "task", lineOf);
        t.cpuMilli = Cell{file, row, h.at(cpu), cpu}.wholeNumber();
        t.memoryMiB = Cell{file, row, h.at(mem), mem}.wholeNumber();
        Cell countCell{file, row, h.at(numGpu), numGpu};
        int64_t count = countCell.wholeNumber();
        if (count > kMaxGpusPerNode)
            throw InputError(countCell.where(), "num_gpu: " + std::to_string(count) +
                                                    " GPUs for one task; no node can have more than " +
                                                    std::to_string(kMaxGpusPerNode));
        Cell milliCell{file, row, h.at(gpuMilli), gpuMilli};
        int64_t milli = milliCell.wholeNumber();
        if (milli > kMilliPerGpu)
            throw InputError(milliCell.where(),
                             "gpu_milli: " + std::to_string(milli) + " is more than one whole GPU (1000)");
        if (count > 1 && milli != kMilliPerGpu)
            throw InputError(milliCell.where(), "gpu_milli: a task of " + std::to_string(count) +
                                                    " GPUs must take them whole (1000), found " +
                                                    std::to_string(milli));
        if (count > 0 && milli == 0)
            throw InputError(milliCell.where(), "gpu_milli: the task asks for " + std::to_string(count) +
                                                    " GPU(s) but 0 milli of each");
        if (count == 0 && milli > 0 && milliWithoutGpu++ == 0) firstMilliWithoutGpu = milliCell.where();
        t.gpuCount = int32_t(count);
        t.gpuMilli = count > 0 ? int32_t(milli) : 0;
        if (specCol) {
            std::string s = Cell{file, row, *specCol, spec}.text();
            if (s == "nan" || s == "NaN") s.clear();
            size_t p = 0;
            while (p <= s.size()) {
                size_t bar = s.find('|', p);
                if (bar == std::string::npos) bar = s.size();
                std::string part = trimmed(s.substr(p, bar - p));
                if (!part.empty()) t.gpuModels.push_back(part);
                p = bar + 1;
            }
            for (size_t i = 0; i < t.gpuModels.size(); ++i) t.gpuSpec += (i ? "|" : "") + t.gpuModels[i];
        }
        if (qosCol) t.qos = Cell{file, row, *qosCol, qos}.text();
        if (phaseCol) t.phase = Cell{file, row, *phaseCol, phase}.text();
        auto time = [&](std::optional<size_t> col, const std::string& column) -> std::optional<int64_t> {
            if (!col) return std::nullopt;
            Cell c{file, row, *col, column};
            if (c.text().empty() || c.text() == "nan") return std::nullopt;
            return c.wholeNumber();
        };
        t.creationTime = time(createdCol, created);
        t.deletionTime = time(deletedCol, deleted);
        t.scheduledTime = time(scheduledCol, scheduled);
        t.source = SourceRef{file, row.line, 1};
        tasks.push_back(std::move(t));
    }
    countedWarning(warnings, firstMilliWithoutGpu, milliWithoutGpu,
                   "task(s) give gpu_milli but num_gpu 0: they are taken as CPU-only");
    return tasks;
}

std::vector<TraceNode> readTraceNodes(const std::string& path, Diagnostics& warnings) {
    return parseTraceNodes(readFile(path), path, warnings);
}

std::vector<TraceTask> readTraceTasks(const std::string& path, Diagnostics& warnings) {
    return parseTraceTasks(readFile(path), path, warnings);
}

Diagnostics checkTrace(const Trace& trace) {
    Diagnostics out;
    std::map<std::string, int32_t> maxGpusOfModel; // model -> most GPUs on one node
    int32_t maxGpus = 0;
    for (const auto& n : trace.nodes) {
        maxGpus = std::max(maxGpus, n.gpuCount);
        if (!n.gpuModel.empty())
            maxGpusOfModel[n.gpuModel] = std::max(maxGpusOfModel[n.gpuModel], n.gpuCount);
    }
    struct Count {
        int64_t n = 0;
        SourceRef first;
    };
    std::map<std::string, Count> unknownModel;
    Count tooBig, noModelAtAll;
    for (const auto& t : trace.tasks) {
        if (t.gpuCount == 0) continue;
        int32_t most = 0;
        bool anyKnown = t.gpuModels.empty();
        if (t.gpuModels.empty()) most = maxGpus;
        for (const auto& m : t.gpuModels) {
            auto it = maxGpusOfModel.find(m);
            if (it == maxGpusOfModel.end()) {
                auto& c = unknownModel[m];
                if (c.n++ == 0) c.first = t.source;
            } else {
                anyKnown = true;
                most = std::max(most, it->second);
            }
        }
        if (!anyKnown) {
            if (noModelAtAll.n++ == 0) noModelAtAll.first = t.source;
        } else if (t.gpuCount > most) {
            if (tooBig.n++ == 0) tooBig.first = t.source;
        }
    }
    for (const auto& [model, c] : unknownModel)
        countedWarning(out, c.first, c.n, "task(s) ask for GPU model '" + model + "' that no node has");
    countedWarning(out, noModelAtAll.first, noModelAtAll.n,
                   "task(s) accept only GPU models no node has: they can never be placed");
    countedWarning(out, tooBig.first, tooBig.n, "task(s) ask for more GPUs than any node they accept has");
    return out;
}

Trace readTrace(const std::string& nodesPath, const std::string& tasksPath, Diagnostics& warnings) {
    Trace trace;
    trace.nodes = readTraceNodes(nodesPath, warnings);
    trace.tasks = readTraceTasks(tasksPath, warnings);
    auto more = checkTrace(trace);
    warnings.insert(warnings.end(), more.begin(), more.end());
    return trace;
}

} // namespace gantry
