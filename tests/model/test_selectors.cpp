#include "model/selectors.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry;

class SelectorsTest : public QObject {
    Q_OBJECT
  private slots:
    void labelSelectorOperators() {
        Labels labels{{"gpu", "a100"}, {"rack", "r1"}, {"cores", "96"}};
        QVERIFY(matches(SelectorRequirement{"gpu", SelectorOp::In, {"a100", "h100"}}, labels));
        QVERIFY(!matches(SelectorRequirement{"gpu", SelectorOp::NotIn, {"a100"}}, labels));
        QVERIFY(matches(SelectorRequirement{"zone", SelectorOp::NotIn, {"z1"}}, labels));
        QVERIFY(matches(SelectorRequirement{"rack", SelectorOp::Exists, {}}, labels));
        QVERIFY(matches(SelectorRequirement{"zone", SelectorOp::DoesNotExist, {}}, labels));
        QVERIFY(matches(SelectorRequirement{"cores", SelectorOp::Gt, {"64"}}, labels));
        QVERIFY(!matches(SelectorRequirement{"cores", SelectorOp::Lt, {"64"}}, labels));
        QVERIFY(!matches(SelectorRequirement{"gpu", SelectorOp::Gt, {"1"}}, labels)); // not an integer
        LabelSelector sel;
        sel.matchLabels = {{"rack", "r1"}};
        sel.matchExpressions = {{"gpu", SelectorOp::In, {"a100"}}};
        QVERIFY(matches(sel, labels));
        sel.matchLabels["rack"] = "r2";
        QVERIFY(!matches(sel, labels));
        QVERIFY(matches(LabelSelector{}, labels));
    }
    void nodeAffinityTermsAreOredAndEmptyTermMatchesNothing() {
        Labels node{{"zone", "a"}};
        NodeAffinity aff;
        aff.required =
            std::vector<NodeSelectorTerm>{NodeSelectorTerm{{{"zone", SelectorOp::In, {"b"}}}, {}},
                                          NodeSelectorTerm{{}, {{"metadata.name", SelectorOp::In, {"n1"}}}}};
        QVERIFY(matchesNodeSelectorAndAffinity({}, aff, node, "n1"));
        QVERIFY(!matchesNodeSelectorAndAffinity({}, aff, node, "n2"));
        aff.required = std::vector<NodeSelectorTerm>{NodeSelectorTerm{}};
        QVERIFY(!matchesNodeSelectorAndAffinity({}, aff, node, "n1"));
        QVERIFY(!matchesNodeSelectorAndAffinity({{"zone", "b"}}, std::nullopt, node, "n1"));
        QVERIFY(matchesNodeSelectorAndAffinity({{"zone", "a"}}, std::nullopt, node, "n1"));
    }
    void taintsAndTolerations() {
        std::vector<Taint> taints{{"nvidia.com/gpu", "present", TaintEffect::NoSchedule},
                                  {"soft", "", TaintEffect::PreferNoSchedule}};
        QVERIFY(firstUntoleratedTaint(taints, {}) == &taints[0]);
        Toleration equal{"nvidia.com/gpu", false, "present", TaintEffect::NoSchedule, std::nullopt};
        QVERIFY(firstUntoleratedTaint(taints, {equal}) == nullptr);
        Toleration wrongValue{"nvidia.com/gpu", false, "absent", std::nullopt, std::nullopt};
        QVERIFY(firstUntoleratedTaint(taints, {wrongValue}) != nullptr);
        Toleration everything{"", true, "", std::nullopt, std::nullopt};
        QVERIFY(firstUntoleratedTaint(taints, {everything}) == nullptr);
        Toleration wrongEffect{"nvidia.com/gpu", true, "", TaintEffect::NoExecute, std::nullopt};
        QVERIFY(firstUntoleratedTaint(taints, {wrongEffect}) != nullptr);
    }
};

GANTRY_TEST(SelectorsTest)
#include "test_selectors.moc"
