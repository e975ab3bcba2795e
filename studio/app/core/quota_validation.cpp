#include "core/quota_validation.h"

#include "core/qt_text.h"
#include "core/queue_commands.h"
#include "model/kubernetes_names.h"
#include "model/yunikorn_names.h"

#include <QObject>
#include <set>

namespace gantry::studio {

namespace {

QString amount(const std::string& resource, int64_t v) {
    return qs(formatAmount(resource, v));
}

struct Checker {
    const Project& project;
    const Queue& queue;
    TargetScheduler target;
    std::vector<QuotaIssue> out;

    void error(QuotaField f, const std::string& r, const QString& m) {
        out.push_back({Severity::Error, f, r, m});
    }
    void warn(QuotaField f, const std::string& r, const QString& m) {
        out.push_back({Severity::Warning, f, r, m});
    }

    const Queue* parent() const {
        if (queue.parent.empty() || queue.parent == "root") return nullptr;
        int i = queueIndex(project, queue.parent);
        return i < 0 ? nullptr : &project.cluster.queues[size_t(i)];
    }
    std::vector<const Queue*> childrenOf(const std::string& name) const {
        std::vector<const Queue*> kids;
        for (const auto& c : project.cluster.queues)
            if (c.parent == name && c.name != name) kids.push_back(&c);
        return kids;
    }
    std::set<std::string> resources() const {
        std::set<std::string> rs;
        for (const auto& r : quotaResources(project)) rs.insert(r);
        return rs;
    }
    // The candidate stands in for the stored queue of the same name wherever the tree is walked.
    const Queue& current(const Queue& x) const { return x.name == queue.name ? queue : x; }
    std::optional<int64_t> value(const Queue& x, QuotaField f, const std::string& r) const {
        return quotaValue(current(x), target, f, r);
    }
    int depth() const {
        int d = 1;
        std::string p = queue.parent;
        for (int guard = 0; !p.empty() && p != "root" && guard < 64; ++guard, ++d) {
            int i = queueIndex(project, p);
            if (i < 0) break;
            p = project.cluster.queues[size_t(i)].parent;
        }
        return d;
    }

    // "children of X sum to S, more than X's V": checked from the queue's side and the parent's side.
    // unsetIsZero: the scheduler reads a value the parent leaves unset as 0 (Volcano, volcano#5634);
    // the export then sets it to the children's sum, so the parent gets a warning saying so.
    void childrenWithin(QuotaField f, const QString& fieldName, bool unsetIsZero = false) {
        for (const auto& r : resources()) {
            auto kids = childrenOf(queue.name);
            int64_t kidsSum = 0;
            for (const auto* c : kids) kidsSum += value(*c, f, r).value_or(0);
            if (auto mine = value(queue, f, r)) {
                if (!kids.empty() && kidsSum > *mine)
                    error(f, r,
                          QObject::tr("children's %1 add up to %2, more than this queue's %3")
                              .arg(fieldName, amount(r, kidsSum), amount(r, *mine)));
            } else if (unsetIsZero && kidsSum > 0) {
                warn(f, r,
                     QObject::tr("no %1 set while the children's add up to %2: Volcano counts it as 0, so "
                                 "the export sets it to %2")
                         .arg(fieldName, amount(r, kidsSum)));
            }
            const Queue* p = parent();
            if (!p) continue;
            auto theirs = value(*p, f, r);
            if (!theirs || !value(queue, f, r)) continue;
            int64_t sum = 0;
            for (const auto* c : childrenOf(p->name)) sum += value(*c, f, r).value_or(0);
            if (sum > *theirs)
                error(f, r,
                      QObject::tr("with its siblings this comes to %1, more than parent %2's %3 of %4")
                          .arg(amount(r, sum), qs(p->name), fieldName, amount(r, *theirs)));
        }
    }

    // Volcano Queues, Kueue ClusterQueues and Cohorts are objects: their names are DNS-1123
    // subdomains, in Kubernetes' own words.
    void kubernetesName() {
        if (const std::string why = checkDns1123Subdomain(queue.name); !why.empty())
            error(QuotaField::Share, "",
                  QObject::tr("'%1' is not a valid Kubernetes name: %2").arg(qs(queue.name), qs(why)));
    }

    void volcano() {
        for (const auto& r : resources()) {
            auto g = value(queue, QuotaField::Low, r), d = value(queue, QuotaField::Share, r),
                 c = value(queue, QuotaField::High, r);
            if (d && c && *d > *c)
                error(QuotaField::Share, r,
                      QObject::tr("deserved %1 exceeds capability %2").arg(amount(r, *d), amount(r, *c)));
            if (g && !d)
                error(QuotaField::Share, r,
                      QObject::tr("a guarantee needs a deserved value of at least %1").arg(amount(r, *g)));
            if (g && d && *g > *d)
                error(QuotaField::Low, r,
                      QObject::tr("guarantee %1 exceeds deserved %2").arg(amount(r, *g), amount(r, *d)));
            if (const Queue* p = parent()) {
                auto pc = value(*p, QuotaField::High, r);
                if (c && pc && *c > *pc)
                    error(QuotaField::High, r,
                          QObject::tr("capability %1 exceeds parent %2's capability %3")
                              .arg(amount(r, *c), qs(p->name), amount(r, *pc)));
            }
            int64_t total = clusterTotal(project.cluster, r);
            if (c && total > 0 && *c > total)
                warn(QuotaField::High, r,
                     QObject::tr("capability %1 is more than the cluster has (%2): Volcano would stop "
                                 "scheduling every queue, so the export lowers it to %2")
                         .arg(amount(r, *c), amount(r, total)));
            if (d && total > 0 && *d > total && !parent())
                warn(QuotaField::Share, r,
                     QObject::tr("deserved %1 is more than the cluster has (%2)")
                         .arg(amount(r, *d), amount(r, total)));
        }
        childrenWithin(QuotaField::Low, QObject::tr("guarantee"), true);
        childrenWithin(QuotaField::Share, QObject::tr("deserved"), true);
        if (queue.weight < 1 || queue.weight > 65535)
            error(QuotaField::Share, "", QObject::tr("weight must be between 1 and 65535"));
        if (depth() > 5)
            warn(QuotaField::Share, "",
                 QObject::tr("depth %1 exceeds Volcano's default --max-queue-depth of 5").arg(depth()));
        kubernetesName();
    }

    void kueue() {
        bool inCohort = !queue.parent.empty() && queue.parent != "root";
        bool isCohort = queue.kind == Queue::Kind::KueueCohort || !childrenOf(queue.name).empty();
        std::set<std::string> flavorsSeen;
        for (size_t gi = 0; gi < queue.resourceGroups.size(); ++gi)
            for (const auto& f : queue.resourceGroups[gi].flavors) {
                if (!flavorsSeen.insert(f.flavor).second)
                    error(QuotaField::Share, "",
                          QObject::tr("flavor %1 appears in more than one resource group").arg(qs(f.flavor)));
                for (const auto& rq : f.resources) {
                    if (rq.nominal < 0)
                        error(QuotaField::Share, rq.resource, QObject::tr("nominal quota must be >= 0"));
                    if (rq.borrowingLimit && !inCohort)
                        error(QuotaField::High, rq.resource,
                              QObject::tr("a borrowing limit needs a cohort: give the queue a parent"));
                    if (rq.lendingLimit && !inCohort)
                        error(QuotaField::Low, rq.resource,
                              QObject::tr("a lending limit needs a cohort: give the queue a parent"));
                    if (rq.lendingLimit && *rq.lendingLimit > rq.nominal && !isCohort)
                        error(QuotaField::Low, rq.resource,
                              QObject::tr("lending limit %1 exceeds nominal quota %2 in flavor %3")
                                  .arg(amount(rq.resource, *rq.lendingLimit), amount(rq.resource, rq.nominal),
                                       qs(f.flavor)));
                }
            }
        if (const Queue* p = parent(); p && p->kind == Queue::Kind::KueueClusterQueue)
            error(
                QuotaField::Share, "",
                QObject::tr("parent %1 is a ClusterQueue; only cohorts can have children").arg(qs(p->name)));
        kubernetesName();
    }

    void yunikorn() {
        for (const auto& r : resources()) {
            const auto g = value(queue, QuotaField::Share, r);
            const auto m = value(queue, QuotaField::High, r);
            // Read once into a plain value (GCC 12 at -O3 wrongly thinks the optional may be unset).
            const bool hasGuaranteed = g.has_value();
            int64_t guaranteed = hasGuaranteed ? *g : 0;
            if (hasGuaranteed && m && guaranteed > *m)
                error(QuotaField::Share, r,
                      QObject::tr("guaranteed %1 exceeds max %2").arg(amount(r, guaranteed), amount(r, *m)));
            // The ancestors' max bounds this queue's max and its guaranteed (YuniKorn refuses the
            // whole configuration otherwise).
            std::string p = queue.parent;
            for (int guard = 0; !p.empty() && p != "root" && guard < 64; ++guard) {
                int i = queueIndex(project, p);
                if (i < 0) break;
                const Queue& a = project.cluster.queues[size_t(i)];
                auto am = value(a, QuotaField::High, r);
                if (am && guaranteed > *am) {
                    error(QuotaField::Share, r,
                          QObject::tr("guaranteed %1 exceeds ancestor %2's max %3")
                              .arg(amount(r, guaranteed), qs(a.name), amount(r, *am)));
                    guaranteed = 0; // once is enough
                }
                if (m && am && *m > *am) {
                    error(QuotaField::High, r,
                          QObject::tr("max %1 exceeds ancestor %2's max %3")
                              .arg(amount(r, *m), qs(a.name), amount(r, *am)));
                    break;
                }
                p = a.parent;
            }
        }
        childrenWithin(QuotaField::Share, QObject::tr("guaranteed"));
        if (!yunikorn::validQueueName(queue.name))
            error(
                QuotaField::Share, "",
                QObject::tr("YuniKorn queue names are %1").arg(QString::fromUtf8(yunikorn::kQueueNameRule)));
        if (const Queue* p = parent(); p && p->maxApplications > 0) {
            if (queue.maxApplications == 0)
                error(
                    QuotaField::Share, "",
                    QObject::tr("parent %1 sets max applications, so this queue must too").arg(qs(p->name)));
            else if (queue.maxApplications > p->maxApplications)
                error(QuotaField::Share, "",
                      QObject::tr("max applications %1 exceeds parent's %2")
                          .arg(queue.maxApplications)
                          .arg(p->maxApplications));
        }
    }
};

} // namespace

std::vector<QuotaIssue> validateQueue(const Project& project, const std::string& queueName,
                                      TargetScheduler target) {
    int i = queueIndex(project, queueName);
    if (i < 0) return {};
    return validateQueue(project, project.cluster.queues[size_t(i)], target);
}

std::vector<QuotaIssue> validateQueue(const Project& project, const Queue& candidate,
                                      TargetScheduler target) {
    Checker c{project, candidate, target, {}};
    switch (target) {
    case TargetScheduler::Volcano:
        c.volcano();
        break;
    case TargetScheduler::Kueue:
        c.kueue();
        break;
    case TargetScheduler::YuniKorn:
        c.yunikorn();
        break;
    }
    return c.out;
}

} // namespace gantry::studio
