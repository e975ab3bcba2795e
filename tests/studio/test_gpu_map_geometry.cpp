// The GPU map's geometry: every drawn GPU has a cell, the cell maps back to the GPU, gaps map to
// nothing, zoom is clamped and keeps the mapping exact, groups wrap to the viewport.
#include "gpumap/gpu_map_geometry.h"
#include "gpumap/gpu_map_renderer.h"
#include "test_registry.h"

#include <QtTest>
#include <set>

using namespace gantry::studio;

namespace {

// racks x nodesPerRack nodes with `gpus` GPUs each, in `sections` zones.
GpuMapLayout makeLayout(int racks, int nodesPerRack, int gpus, int sections = 2) {
    GpuMapLayout l;
    for (int s = 0; s < sections; ++s) l.sections.push_back(QStringLiteral("zone %1").arg(s));
    int node = 0;
    for (int r = 0; r < racks; ++r) {
        GpuMapLayout::Group g;
        g.title = QStringLiteral("rack %1").arg(r);
        g.section = r * sections / racks;
        for (int i = 0; i < nodesPerRack; ++i) {
            g.nodes.push_back(node++);
            l.gpuCount.push_back(gpus);
        }
        l.groups.push_back(g);
    }
    return l;
}

} // namespace

class GpuMapGeometryTest : public QObject {
    Q_OBJECT
  private slots:
    void everyGpuRoundTripsAtEveryZoom() {
        for (double zoom : {0.25, 0.5, 1.0, 1.7, 3.0, 5.0}) {
            GpuMapGeometry g;
            g.setViewportWidth(900);
            g.setZoom(zoom);
            g.setLayout(makeLayout(12, 8, 8));
            for (int node = 0; node < 96; ++node)
                for (int gpu = 0; gpu < 8; ++gpu) {
                    QRect r = g.cellRect({node, gpu});
                    QVERIFY2(
                        !r.isEmpty(),
                        qPrintable(QStringLiteral("zoom %1 node %2 gpu %3").arg(zoom).arg(node).arg(gpu)));
                    QCOMPARE(r.width(), g.cellSize());
                    QCOMPARE(g.gpuAt(r.topLeft()), (GpuRef{node, gpu}));
                    QCOMPARE(g.gpuAt(r.bottomRight()), (GpuRef{node, gpu}));
                    QCOMPARE(g.gpuAt(r.center()), (GpuRef{node, gpu}));
                    QCOMPARE(g.nodeAt(r.center()), node);
                    QVERIFY(g.nodeRect(node).contains(r));
                    QVERIFY(g.groupRect(g.groupOfNode(node)).contains(r));
                }
        }
    }

    void cellsDoNotOverlap() {
        GpuMapGeometry g;
        g.setViewportWidth(700);
        g.setLayout(makeLayout(6, 5, 8));
        std::vector<QRect> cells;
        for (int node = 0; node < 30; ++node)
            for (int gpu = 0; gpu < 8; ++gpu) cells.push_back(g.cellRect({node, gpu}));
        for (size_t i = 0; i < cells.size(); ++i)
            for (size_t j = i + 1; j < cells.size(); ++j) QVERIFY(!cells[i].intersects(cells[j]));
    }

    void gapsAndTitlesHitNothing() {
        GpuMapGeometry g;
        g.setViewportWidth(900);
        g.setLayout(makeLayout(4, 8, 8));
        QRect a = g.cellRect({0, 0}), b = g.cellRect({0, 1});
        QVERIFY(b.left() > a.right() + 1); // a one-pixel gap at zoom 1
        QCOMPARE(g.gpuAt(QPoint(a.right() + 1, a.center().y())), GpuRef{});
        QCOMPARE(g.gpuAt(g.groupTitleRect(0).center()), GpuRef{});
        QCOMPARE(g.gpuAt(QPoint(-5, -5)), GpuRef{});
        QCOMPARE(g.gpuAt(QPoint(100000, 100000)), GpuRef{});
        QCOMPARE(g.nodeAt(g.sectionTitleRect(0).center()), -1);
        // Between two nodes of a rack: no node.
        QRect n0 = g.nodeRect(0), n1 = g.nodeRect(1);
        QVERIFY(n1.top() > n0.bottom() + 1);
        QCOMPARE(g.nodeAt(QPoint(n0.center().x(), n0.bottom() + 1)), -1);
    }

    void zoomIsClampedAndScalesCells() {
        GpuMapGeometry g;
        g.setLayout(makeLayout(4, 8, 8));
        g.setZoom(100);
        QCOMPARE(g.zoom(), GpuMapGeometry::MaxZoom);
        QCOMPARE(g.cellSize(), 60);
        g.setZoom(0.001);
        QCOMPARE(g.zoom(), GpuMapGeometry::MinZoom);
        QCOMPARE(g.cellSize(), 3);
        g.setZoom(1.0);
        QCOMPARE(g.cellSize(), GpuMapGeometry::BaseCell);
        QSize at1 = g.contentSize();
        g.setZoom(2.0);
        QCOMPARE(g.cellSize(), 24);
        QVERIFY(g.contentSize().height() > at1.height());
    }

    void groupsWrapToTheViewport() {
        GpuMapGeometry g;
        g.setLayout(makeLayout(20, 8, 8, 1));
        g.setViewportWidth(5000);
        int tallWide = g.contentSize().height();
        QCOMPARE(g.groupRect(0).top(), g.groupRect(19).top()); // one shelf
        g.setViewportWidth(400);
        QVERIFY(g.contentSize().height() > tallWide);
        QVERIFY(g.groupRect(19).top() > g.groupRect(0).top());
        for (int i = 0; i < 20; ++i) QVERIFY(g.groupRect(i).right() < 400);
    }

    void bigNodesWrapTheirGpus() {
        GpuMapLayout l;
        l.sections = {"zone"};
        l.groups.push_back({"rack", 0, {0, 1}, 0});
        l.gpuCount = {16, 4};
        GpuMapGeometry g;
        g.setLayout(l);
        QCOMPARE(g.cellRect({0, 8}).left(), g.cellRect({0, 0}).left()); // GPU 8 starts the second row
        QVERIFY(g.cellRect({0, 8}).top() > g.cellRect({0, 0}).bottom());
        QCOMPARE(g.gpuAt(g.cellRect({0, 15}).center()), (GpuRef{0, 15}));
        QCOMPARE(g.gpuAt(g.cellRect({1, 3}).center()), (GpuRef{1, 3}));
        QVERIFY(g.cellRect({1, 4}).isEmpty()); // node 1 has four GPUs
        QVERIFY(g.cellRect({0, 16}).isEmpty());
    }

    void largeGroupsSplitIntoColumns() {
        GpuMapGeometry g;
        g.setViewportWidth(1200);
        g.setLayout(makeLayout(1, 100, 8, 1));
        QRect r = g.groupRect(0);
        QVERIFY(r.width() <= 1200);
        QVERIFY(r.height() < 100 * g.cellSize()); // not one tall column
        for (int node = 0; node < 100; ++node) QCOMPARE(g.nodeAt(g.nodeRect(node).center()), node);
    }

    void visibleIterationCoversExactlyTheCellsInView() {
        GpuMapGeometry g;
        g.setViewportWidth(800);
        g.setLayout(makeLayout(30, 8, 8, 3));
        QRect view(0, 300, 800, 250);
        std::set<int> seen;
        g.forGroupsIn(view,
                      [&](int group) { g.forNodesIn(group, view, [&](int node) { seen.insert(node); }); });
        for (int node = 0; node < 240; ++node) {
            bool visible = false;
            for (int gpu = 0; gpu < 8; ++gpu) visible = visible || g.cellRect({node, gpu}).intersects(view);
            if (visible) QVERIFY2(seen.count(node), qPrintable(QString::number(node)));
        }
        QVERIFY(!seen.empty());
        QVERIFY(seen.size() < 240);
    }

    void rendererPaintsTheCellColours() {
        GpuMapGeometry g;
        g.setLayout(makeLayout(2, 2, 4, 1));
        GpuOccupancy occ;
        occ.gpuOffset = {0, 4, 8, 12, 16};
        occ.usedMilli.assign(16, 0);
        occ.job.assign(16, -1);
        occ.queue.assign(16, -1);
        occ.holders.assign(16, 0);
        occ.fragmentation.assign(16, 0.f);
        occ.usedMilli[5] = 1000; // node 1, GPU 1 fully used
        occ.usedMilli[6] = 300;  // node 1, GPU 2 partly
        GpuMapScene scene;
        scene.geometry = &g;
        scene.occupancy = &occ;
        scene.colors = GpuMapColors::forPalette(QPalette());
        QImage image(g.contentSize(), QImage::Format_RGB32);
        renderGpuMap(image, QPoint(0, 0), scene);
        auto at = [&](GpuRef r) { return image.pixel(g.cellRect(r).center()) & 0xffffff; };
        QCOMPARE(at({1, 1}), scene.colors.occupancyColor(1000) & 0xffffff);
        QCOMPARE(at({1, 2}), scene.colors.occupancyColor(300) & 0xffffff);
        QCOMPARE(at({0, 0}), scene.colors.free & 0xffffff);
        QVERIFY(at({1, 1}) != at({0, 0}));
        // Dimmed nodes (not matching the filter) are painted in the dimmed colour.
        std::vector<uint8_t> matches = {1, 0, 1, 1};
        scene.matches = &matches;
        renderGpuMap(image, QPoint(0, 0), scene);
        QCOMPARE(at({1, 1}), scene.colors.dimmed & 0xffffff);
    }
};

GANTRY_TEST(GpuMapGeometryTest)
#include "test_gpu_map_geometry.moc"
