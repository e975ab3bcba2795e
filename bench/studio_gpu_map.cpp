// Benchmark: repaint of the GPU map with 80,000 GPUs (10,000 nodes x 8) all on screen, as the
// widget's paintEvent draws it. Target (issue 7): under 16 ms.
//
//   build/bench/studio_gpu_map [nodes] [repeats]
#include "core/topology_paths.h"
#include "gpumap/gpu_map_renderer.h"
#include "gpumap/gpu_map_widget.h"
#include "model/cluster.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QPainter>
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

using namespace gantry;
using namespace gantry::studio;

namespace {

Cluster makeCluster(int n) {
    Cluster c;
    c.nodes.resize(size_t(n));
    for (int i = 0; i < n; ++i) {
        Node& node = c.nodes[size_t(i)];
        node.name = "gpu-" + std::to_string(i);
        node.gpus.count = 8;
        node.gpus.model = "H100";
        node.labels["topology.kubernetes.io/zone"] = "zone-" + std::to_string(i / 5000);
        node.labels["topology.gantry.io/block"] = "block-" + std::to_string(i / 128);
        node.labels["topology.gantry.io/rack"] = "rack-" + std::to_string(i / 8);
    }
    return c;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM",
            qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    const int nodes = argc > 1 ? std::atoi(argv[1]) : 10000;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 30;
    Cluster cluster = makeCluster(nodes);

    // Occupancy: 70 % of the nodes hold work, with a mix of whole and shared GPUs, 400 jobs in 12 queues.
    std::mt19937 rng(7);
    std::vector<GpuPlacement> placements;
    std::vector<std::string> jobs, queues;
    for (int q = 0; q < 12; ++q) queues.push_back("queue-" + std::to_string(q));
    for (int j = 0; j < 400; ++j) jobs.push_back("team/job-" + std::to_string(j));
    for (int i = 0; i < nodes; ++i) {
        int r = int(rng() % 10);
        if (r < 5)
            placements.push_back({i, {8, 1000, {}}, {}, int32_t(rng() % 400), int32_t(rng() % 12), 0, {}});
        else if (r < 7)
            placements.push_back({i, {3, 1000, {}}, {}, int32_t(rng() % 400), int32_t(rng() % 12), 0, {}});
        else if (r < 8)
            placements.push_back({i, {1, 500, {}}, {}, int32_t(rng() % 400), int32_t(rng() % 12), 0, {}});
    }
    QElapsedTimer t;
    t.start();
    auto occ = std::make_shared<GpuOccupancy>(buildOccupancy(cluster, placements, jobs, queues));
    double occMs = t.nsecsElapsed() / 1e6;
    t.restart();
    GpuMapLayout layout = buildGpuMapLayout(cluster);
    double layoutMs = t.nsecsElapsed() / 1e6;

    // 1) The renderer alone, every GPU on screen: the whole content at the smallest zoom.
    GpuMapGeometry geometry;
    geometry.setViewportWidth(1600);
    geometry.setZoom(GpuMapGeometry::MinZoom);
    t.restart();
    geometry.setLayout(layout);
    double geometryMs = t.nsecsElapsed() / 1e6;
    GpuMapScene scene;
    scene.geometry = &geometry;
    scene.occupancy = occ.get();
    scene.colors = GpuMapColors::forPalette(app.palette());
    scene.font = app.font();
    QImage all(geometry.contentSize(), QImage::Format_RGB32);
    std::vector<double> full;
    for (int mode = 0; mode < 4; ++mode) {
        scene.mode = GpuColorMode(mode);
        for (int k = 0; k < repeats; ++k) {
            t.restart();
            renderGpuMap(all, QPoint(0, 0), scene);
            full.push_back(t.nsecsElapsed() / 1e6);
        }
    }
    // Check every GPU was drawn: count pixels of the cells' centres that are not background.
    int drawn = 0;
    for (int node = 0; node < nodes; ++node)
        for (int gpu = 0; gpu < 8; ++gpu)
            drawn += (all.pixel(geometry.cellRect({node, gpu}).center()) & 0xffffff) !=
                     (scene.colors.background & 0xffffff);

    // 2) The widget itself, tall enough that all GPUs are on screen at the smallest zoom.
    GpuMapWidget widget;
    widget.resize(1600, geometry.contentSize().height() + 4);
    widget.setData(&cluster, layout, occ);
    widget.setZoom(GpuMapGeometry::MinZoom);
    widget.show();
    QApplication::processEvents();
    QImage target(widget.size(), QImage::Format_RGB32);
    std::vector<double> viewport;
    for (int k = 0; k < repeats; ++k) {
        t.restart();
        widget.render(&target);
        viewport.push_back(t.nsecsElapsed() / 1e6);
    }
    // 3) A 1600x1000 window at the default zoom (what a user usually has on screen).
    widget.resize(1600, 1000);
    widget.setZoom(1.0);
    QImage small(widget.size(), QImage::Format_RGB32);
    std::vector<double> zoomed;
    for (int k = 0; k < repeats; ++k) {
        t.restart();
        widget.render(&small);
        zoomed.push_back(t.nsecsElapsed() / 1e6);
    }

    std::printf("GPU map, %d nodes x 8 = %d GPUs (%d cells drawn)\n", nodes, nodes * 8, drawn);
    std::printf("  occupancy build        %8.2f ms\n", occMs);
    std::printf("  layout (topology)      %8.2f ms\n", layoutMs);
    std::printf("  geometry               %8.2f ms\n", geometryMs);
    std::sort(full.begin(), full.end());
    std::printf("  renderer, all %d GPUs (content %dx%d): median %.2f ms, p95 %.2f ms  [target < 16 ms]\n",
                nodes * 8, geometry.contentSize().width(), geometry.contentSize().height(), median(full),
                full[full.size() * 95 / 100]);
    std::printf("  widget repaint with all %d GPUs on screen (%dx%d): median %.2f ms\n", nodes * 8,
                widget.width(), geometry.contentSize().height() + 4, median(viewport));
    std::printf("  widget repaint 1600x1000 at zoom 1: median %.2f ms\n", median(zoomed));
    return median(full) < 16.0 && median(viewport) < 16.0 ? 0 : 1;
}
