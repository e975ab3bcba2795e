// YuniKorn's node scans visit only the open nodes an ask fits (runs of the order with their largest
// free resources, and a memo of the resources no node fitted) and pick the node to reserve without
// walking the order (block maxima): random node collections of one to several runs and blocks,
// crowded by allocations, reservations and releases in turn, give the same nodes, in the same
// order, as the full walk of the sorted nodes filtered by hand.
#include "profiles/yunikorn/nodes.h"
#include "test_registry.h"

#include <QtTest>
#include <random>
#include <vector>

using namespace gantry::engine::yunikorn;

namespace {

constexpr int kVcore = 0, kMemory = 1, kPods = 2, kGpu = 3;

// What the full walk gives: open nodes the ask fits, in sort order.
std::vector<uint32_t> fittingByWalk(const NodeCollection& nodes, const Res& ask) {
    std::vector<uint32_t> out;
    nodes.forEach([&](uint32_t n) {
        const Node& node = nodes[n];
        if (node.schedulable && !node.reserved() && node.available.fitIn(ask)) out.push_back(n);
        return true;
    });
    return out;
}

// The core's choice of a node to reserve: the first open node (in order) large enough with the
// least FitInScore.
uint32_t closestByWalk(const NodeCollection& nodes, const Res& ask) {
    uint32_t best = NodeCollection::kNoNode;
    double bestScore = std::numeric_limits<double>::infinity();
    nodes.forEach([&](uint32_t n) {
        const Node& node = nodes[n];
        if (!node.schedulable || node.reserved() || !node.total.fitIn(ask)) return true;
        const double score = ask.fitInScore(node.available);
        if (score < bestScore) {
            bestScore = score;
            best = n;
        }
        return true;
    });
    return best;
}

Res resources(int64_t vcore, int64_t memory, int64_t gpu) {
    Res r = Res::empty();
    r.set(kVcore, vcore);
    r.set(kMemory, memory);
    r.set(kPods, 1);
    if (gpu > 0) r.set(kGpu, gpu);
    return r;
}

} // namespace

class YuniKornScanTest : public QObject {
    Q_OBJECT

  private slots:
    void scansMatchTheFullWalk_data() {
        QTest::addColumn<uint32_t>("seed");
        for (uint32_t seed = 1; seed <= 24; ++seed) QTest::newRow(qPrintable(QString::number(seed))) << seed;
    }

    void scansMatchTheFullWalk() {
        QFETCH(uint32_t, seed);
        std::mt19937 rng(seed);
        auto pick = [&](int n) { return int(rng() % uint32_t(n)); };
        const int count = 1 + pick(300); // over several runs and blocks
        std::vector<Node> list(static_cast<size_t>(count));
        for (int n = 0; n < count; ++n) {
            Node& node = list[size_t(n)];
            node.id = "node-" + std::to_string(pick(1000)) + "-" + std::to_string(n);
            const bool gpu = pick(3) == 0;
            node.total = resources(8000 * (1 + pick(8)), 1000 * (1 + pick(8)), gpu ? 8 : 0);
            node.total.set(kPods, 110);
            node.schedulable = pick(20) != 0;
        }
        NodeCollection nodes;
        nodes.setPolicy(pick(2) == 0, {{kVcore, 1.0}, {kMemory, 1.0}, {kGpu, double(pick(3))}});
        nodes.init(std::move(list));
        // A fixed set of asks, each with its own key (the memo's).
        std::vector<Res> asks;
        for (int k = 0; k < 12; ++k)
            asks.push_back(resources(1000 * (1 + pick(16)), 100 * (1 + pick(16)), pick(3) ? 0 : 1 + pick(8)));
        std::vector<std::pair<uint32_t, Res>> placed;
        uint32_t nextReservation = 0;
        for (int step = 0; step < 400; ++step) {
            const uint32_t n = uint32_t(pick(count));
            const int what = pick(10);
            if (what < 5) { // allocate an ask where it fits, crowding the cluster
                const Res& ask = asks[size_t(pick(int(asks.size())))];
                if (nodes[n].available.fitIn(ask)) {
                    nodes[n].allocated.addTo(ask);
                    nodes.updated(n);
                    placed.emplace_back(n, ask);
                }
            } else if (what < 7 && !placed.empty()) { // release one
                const size_t i = size_t(pick(int(placed.size())));
                Node& node = nodes[placed[i].first];
                node.allocated.subFrom(placed[i].second);
                node.allocated.prune();
                nodes.updated(placed[i].first);
                placed.erase(placed.begin() + long(i));
            } else if (what < 9) { // reserve
                nodes[n].reservations.push_back(nextReservation++);
                nodes.reservationsChanged(n);
            } else if (nodes[n].reserved()) { // unreserve
                nodes[n].reservations.pop_back();
                nodes.reservationsChanged(n);
            }
            for (uint32_t key = 0; key < asks.size(); ++key) {
                const Res& ask = asks[key];
                std::vector<uint32_t> scanned;
                nodes.forEachFitting(ask, key, [&](uint32_t m) {
                    scanned.push_back(m);
                    return true;
                });
                QCOMPARE(scanned, fittingByWalk(nodes, ask));
                // A scan stopped early gives the walk's first nodes.
                std::vector<uint32_t> first;
                nodes.forEachFitting(ask, key, [&](uint32_t m) {
                    first.push_back(m);
                    return first.size() < 2;
                });
                QCOMPARE(first,
                         std::vector<uint32_t>(scanned.begin(),
                                               scanned.begin() + long(std::min<size_t>(2, scanned.size()))));
                QCOMPARE(nodes.closestFit(ask, key), closestByWalk(nodes, ask));
            }
        }
    }
};

GANTRY_TEST(YuniKornScanTest)
#include "test_yunikorn_scans.moc"
