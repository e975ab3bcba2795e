// Benchmark: opening a 10,000-node snapshot in the studio, from the file to the first painted
// window (import, project models, GPU map layout, fragmentation, every tab refreshed). Target
// (issue 7): under 2 s.
//
//   build/bench/studio_open_snapshot [nodes] [--json] [--repeats N]
//
// --json writes the same objects as `kubectl get -o json` would (a List), which the importers read
// with their own JSON parser instead of yaml-cpp. Times are medians over the repeats.
#include "core/project_files.h"
#include "main_window.h"
#include "studio_synthetic.h"
#include "workspace.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <vector>
#include <yaml-cpp/yaml.h>

using namespace gantry;
using namespace gantry::studio;

namespace {

// A YAML node as JSON: scalars that read as integers stay numbers, the rest strings.
nlohmann::json toJson(const YAML::Node& n) {
    switch (n.Type()) {
    case YAML::NodeType::Map: {
        nlohmann::json o = nlohmann::json::object();
        for (const auto& kv : n) o[kv.first.as<std::string>()] = toJson(kv.second);
        return o;
    }
    case YAML::NodeType::Sequence: {
        nlohmann::json a = nlohmann::json::array();
        for (const auto& e : n) a.push_back(toJson(e));
        return a;
    }
    case YAML::NodeType::Scalar: {
        const std::string& v = n.Scalar();
        if (n.Tag() != "!" && !v.empty() && v.find_first_not_of("0123456789-") == std::string::npos &&
            v != "-")
            return std::stoll(v);
        if (n.Tag() != "!" && (v == "true" || v == "false")) return v == "true";
        return v;
    }
    default:
        return nullptr;
    }
}

std::string asJsonList(const std::string& yaml) {
    nlohmann::json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", nlohmann::json::array()}};
    for (const auto& doc : YAML::LoadAll(yaml)) {
        if (!doc || doc.IsNull()) continue;
        nlohmann::json j = toJson(doc);
        if (j.contains("items") && j["items"].is_array())
            for (auto& item : j["items"]) list["items"].push_back(std::move(item));
        else
            list["items"].push_back(std::move(j));
    }
    return list.dump();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    if (qgetenv("QT_QPA_PLATFORM").isEmpty()) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("GantryBench");
    bench::SyntheticSpec spec;
    bool json = false;
    int repeats = 3;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0)
            json = true;
        else if (std::strcmp(argv[i], "--repeats") == 0 && i + 1 < argc)
            repeats = std::max(1, std::atoi(argv[++i]));
        else
            spec.nodes = std::atoi(argv[i]);
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(json ? "cluster.json" : "cluster.yaml");
    {
        std::string text = bench::syntheticSnapshot(spec);
        if (json) text = asJsonList(text);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) return 3;
        f.write(text.data(), qint64(text.size()));
        std::printf("snapshot: %d nodes, %.1f MB of %s, median of %d\n", spec.nodes,
                    double(text.size()) / 1e6, json ? "JSON" : "YAML", repeats);
    }

    QElapsedTimer t;
    std::vector<double> imports;
    LoadedFile loaded;
    for (int r = 0; r < repeats; ++r) {
        t.start();
        loaded = loadFile(path);
        imports.push_back(t.nsecsElapsed() / 1e6);
    }
    double importMs = median(imports);
    std::printf("  import alone:                %8.0f ms (%zu nodes, %zu pods)\n", importMs,
                loaded.project.cluster.nodes.size(), loaded.project.cluster.pods.size());

    MainWindow window(makeDefaultWhatIfEngine(), dir.filePath("autosave"));
    window.resize(1600, 1000);
    window.show();
    QApplication::processEvents();

    // The studio's own share: the project handed to the window, every model and tab refreshed, the
    // GPU map laid out, fragmentation measured, and the window painted.
    std::vector<double> replaces, studios, painteds;
    for (int r = 0; r < repeats; ++r) {
        window.workspace()->document()->replace(Project{}, QString(), QString());
        QApplication::processEvents();
        t.restart();
        window.workspace()->document()->replace(loaded.project, QString(), path);
        replaces.push_back(t.nsecsElapsed() / 1e6);
        QApplication::processEvents();
        QImage shown = window.grab().toImage();
        studios.push_back(t.nsecsElapsed() / 1e6);
    }
    // The whole path a user takes: File > Open to the painted window.
    for (int r = 0; r < repeats; ++r) {
        window.workspace()->document()->replace(Project{}, QString(), QString());
        QApplication::processEvents();
        t.restart();
        QString error;
        if (!window.openFiles({path}, false, &error)) {
            std::fprintf(stderr, "open failed: %s\n", qPrintable(error));
            return 3;
        }
        QApplication::processEvents();
        QImage first = window.grab().toImage();
        painteds.push_back(t.nsecsElapsed() / 1e6);
    }
    const double replaceMs = median(replaces), studioMs = median(studios), paintedMs = median(painteds);
    std::printf("  studio: models, tabs, map:  %8.0f ms (painted after %.0f ms)\n", replaceMs, studioMs);
    std::printf("  open to first painted window: %6.0f ms  [target < 2000 ms]\n", paintedMs);
    return paintedMs < 2000 ? 0 : 1;
}
