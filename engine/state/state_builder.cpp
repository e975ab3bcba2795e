// Building the state from the model, and adding a job to it later (the simulator's arrivals).
#include "model/go_text.h"
#include "state/cluster_state.h"

#include <algorithm>
#include <regex>
#include <stdexcept>

namespace gantry::engine {

namespace {

int32_t nameIndexOf(const std::string& name) {
    size_t parts = 1;
    for (char c : name)
        if (c == '-') ++parts;
    if (parts < 3) return -1;
    auto pos = name.rfind('-');
    auto v = parseGoInt(std::string_view(name).substr(pos + 1));
    if (!v || *v < INT32_MIN || *v > INT32_MAX) return -1;
    return int32_t(*v);
}

void appendLabels(std::string& key, const Labels& labels) {
    for (const auto& [k, v] : labels) key += k + '=' + v + ',';
    key += ';';
}

void appendRequirement(std::string& key, const SelectorRequirement& r) {
    key += r.key + ' ' + toString(r.op);
    for (const auto& v : r.values) key += ' ' + v;
    key += ',';
}

void appendSelector(std::string& key, const std::optional<LabelSelector>& s) {
    if (!s) {
        key += "~;";
        return;
    }
    appendLabels(key, s->matchLabels);
    for (const auto& r : s->matchExpressions) appendRequirement(key, r);
    key += ';';
}

void appendTerm(std::string& key, const NodeSelectorTerm& term) {
    for (const auto& r : term.matchExpressions) appendRequirement(key, r);
    key += '#';
    for (const auto& r : term.matchFields) appendRequirement(key, r);
    key += ';';
}

void appendPodAffinity(std::string& key, const PodAffinity& a) {
    auto term = [&](const PodAffinityTerm& t) {
        appendSelector(key, t.labelSelector);
        for (const auto& n : t.namespaces) key += n + ',';
        appendSelector(key, t.namespaceSelector);
        key += t.topologyKey + ';';
    };
    for (const auto& t : a.required) term(t);
    key += '|';
    for (const auto& w : a.preferred) {
        key += std::to_string(w.weight) + ':';
        term(w.term);
    }
    key += ';';
}

} // namespace

uint32_t ClusterState::internShape(PodShape&& shape) {
    auto noteKeys = [&](const PodShape& sh) {
        auto note = [&](const std::string& k) {
            if (relevantLabelKeys.insert(k).second && !nodeBucket.empty()) indexesStale = true;
        };
        for (const auto& [k, v] : sh.nodeSelector) note(k);
        if (sh.nodeAffinity) {
            if (sh.nodeAffinity->required)
                for (const auto& t : *sh.nodeAffinity->required)
                    for (const auto& r : t.matchExpressions) note(r.key);
            for (const auto& p : sh.nodeAffinity->preferred)
                for (const auto& r : p.preference.matchExpressions) note(r.key);
        }
    };
    std::string key;
    key.reserve(256);
    for (int64_t v : shape.request) key += std::to_string(v) + ',';
    key += std::to_string(shape.presentMask) + (shape.cpuRequested ? "c" : "-") +
           (shape.memRequested ? "m" : "-");
    key += '|' + std::to_string(shape.ns) + '|';
    appendLabels(key, shape.labels);
    appendLabels(key, shape.pluginAnnotations);
    appendLabels(key, shape.nodeSelector);
    if (shape.nodeAffinity) {
        key += 'A';
        if (shape.nodeAffinity->required) {
            key += 'R';
            for (const auto& t : *shape.nodeAffinity->required) appendTerm(key, t);
        }
        for (const auto& p : shape.nodeAffinity->preferred) {
            key += std::to_string(p.weight) + ':';
            appendTerm(key, p.preference);
        }
    }
    key += '|';
    for (const auto& t : shape.tolerations) {
        key += t.key + (t.exists ? "?" : "=") + t.value + (t.effect ? toString(*t.effect) : "*") + ',';
    }
    key += '|';
    appendPodAffinity(key, shape.podAffinity);
    appendPodAffinity(key, shape.podAntiAffinity);
    for (const auto& s : shape.topologySpread) {
        key += std::to_string(s.maxSkew) + s.topologyKey + (s.doNotSchedule ? "D" : "A");
        appendSelector(key, s.labelSelector);
        key += std::to_string(s.minDomains.value_or(-1)) + ';';
    }
    key += '|' + shape.priorityClassName + (shape.preemptNever ? "N" : "P");
    key += '|' + std::to_string(shape.gpu.count) + ':' + std::to_string(shape.gpu.milliPerGpu);
    for (const auto& m : shape.gpu.models) key += ',' + m;
    key += '|';
    for (const auto& g : shape.schedulingGates) key += g + ',';
    auto it = shapeIndex.find(key);
    if (it != shapeIndex.end()) return it->second;
    uint32_t id = uint32_t(shapes.size());
    noteKeys(shape);
    shapes.push_back(std::move(shape));
    shapeIndex.emplace(std::move(key), id);
    return id;
}

namespace {

// Workloads expanded by an importer or from a template (origin other than a PodGroup object) are
// what-if jobs: the scheduler under study takes their pods whatever scheduler they name.
bool whatIfOrigin(const PodGroup& g) {
    return !g.origin.empty() && g.origin.rfind("scheduling.", 0) != 0 && g.origin.rfind("kueue.", 0) != 0;
}

// The schedulers the profiles emulate: a pod naming one of them is the workload under study; a pod
// naming another waits for that scheduler.
bool emulatedScheduler(const std::string& name) {
    return name.empty() || name == "default-scheduler" || name == "volcano" || name == "yunikorn";
}

} // namespace

struct StateBuilder {
    StateBuilder(ClusterState& state, Diagnostics* diagnostics, const BuildOptions& buildOptions)
        : s(state), warnings(diagnostics), options(buildOptions) {}
    ClusterState& s;
    Diagnostics* warnings;
    const BuildOptions& options;

    void warn(const SourceRef& where, std::string message) {
        if (warnings) warnings->push_back(Diagnostic{Severity::Warning, where, std::move(message)});
    }

    void internDims(const Cluster& c) {
        s.everyResource = options.everyResource;
        for (const auto& n : c.nodes)
            for (const auto& [name, amount] : n.allocatable)
                if (s.countsResource(name)) s.dims.intern(name);
        for (const auto& p : c.pods)
            for (const auto& [name, amount] : p.requests)
                if (s.countsResource(name)) s.dims.intern(name);
        for (const auto& q : c.queues)
            for (const auto* list : {&q.guarantee, &q.deserved, &q.capability})
                for (const auto& [name, amount] : *list)
                    if (s.countsResource(name)) s.dims.intern(name);
        for (const auto& g : c.podGroups)
            for (const auto& [name, amount] : g.minResources)
                if (s.countsResource(name)) s.dims.intern(name);
    }

    void addNodes(const Cluster& c) {
        std::vector<const Node*> ready;
        for (const auto& n : c.nodes)
            if (n.ready) ready.push_back(&n);
        std::sort(ready.begin(), ready.end(), [](const Node* a, const Node* b) { return a->name < b->name; });
        const size_t d = size_t(s.D());
        s.nodes.resize(ready.size());
        for (auto* arr : {&s.allocatable, &s.idle, &s.used, &s.releasing, &s.pipelined, &s.k8sRequested})
            arr->assign(ready.size() * d, 0);
        s.nonZeroCpu.assign(ready.size(), 0);
        s.nonZeroMem.assign(ready.size(), 0);
        s.k8sPods.assign(ready.size(), 0);
        s.nodeTasks.assign(ready.size(), {});
        s.nodeByRank.resize(ready.size());
        for (uint32_t i = 0; i < ready.size(); ++i) {
            const Node& src = *ready[i];
            auto& n = s.nodes[i];
            n.name = s.strings.intern(src.name);
            n.rank = i;
            s.nodeByRank[i] = i;
            n.unschedulable = src.unschedulable;
            n.labels = src.labels;
            n.taints = src.taints;
            n.gpus = src.gpus;
            n.maxTaskNum = int32_t(src.allocatable.get(res::Pods));
            for (const auto& [name, amount] : src.allocatable) {
                int dim = s.dims.find(name);
                if (dim < 0) continue;
                s.allocatable[i * d + size_t(dim)] = amount;
                s.idle[i * d + size_t(dim)] = amount;
                n.allocMask |= uint64_t(1) << dim;
            }
            s.nodeIndex.emplace(src.name, i);
        }
        s.gpuOffset.assign(ready.size() + 1, 0);
        for (uint32_t i = 0; i < ready.size(); ++i)
            s.gpuOffset[i + 1] = s.gpuOffset[i] + uint32_t(std::clamp(ready[i]->gpus.count, 0, kMaxNodeGpus));
        s.gpuFree.assign(s.gpuOffset.back(), kMilliGpu);
    }

    void addHyperNodes(const Cluster& c) {
        std::map<std::string, int32_t> byName;
        for (const auto& h : c.hyperNodes) {
            HyperNodeRec r;
            r.name = h.name;
            r.tier = h.tier;
            r.tierName = h.tierName;
            byName[h.name] = int32_t(s.hyperNodes.size());
            if (!h.tierName.empty()) s.hyperNodeTierByName[h.tierName] = h.tier;
            s.hyperNodes.push_back(std::move(r));
        }
        // Members: nodes directly, hypernodes as children.
        std::vector<std::vector<uint32_t>> direct(s.hyperNodes.size());
        for (size_t i = 0; i < c.hyperNodes.size(); ++i) {
            for (const auto& m : c.hyperNodes[i].members) {
                if (m.type == HyperNodeMember::Type::HyperNode) {
                    std::vector<int32_t> targets;
                    if (m.match == HyperNodeMember::Match::Exact) {
                        auto it = byName.find(m.value);
                        if (it != byName.end()) targets.push_back(it->second);
                    } else if (m.match == HyperNodeMember::Match::Regex) {
                        std::regex re(m.value);
                        for (const auto& [name, idx] : byName)
                            if (std::regex_match(name, re)) targets.push_back(idx);
                    }
                    for (int32_t child : targets) {
                        if (child == int32_t(i) || s.hyperNodes[size_t(child)].parent >= 0) continue;
                        s.hyperNodes[size_t(child)].parent = int32_t(i);
                        s.hyperNodes[i].children.push_back(child);
                    }
                    continue;
                }
                for (uint32_t n = 0; n < s.nodes.size(); ++n) {
                    const std::string& name = s.nodeName(n);
                    bool hit = false;
                    switch (m.match) {
                    case HyperNodeMember::Match::Exact:
                        hit = name == m.value;
                        break;
                    case HyperNodeMember::Match::Regex:
                        hit = std::regex_match(name, std::regex(m.value));
                        break;
                    case HyperNodeMember::Match::Label:
                        hit = matches(m.selector, s.nodes[n].labels);
                        break;
                    }
                    if (hit) direct[i].push_back(n);
                }
            }
        }
        // Real nodes below each hypernode (cycle-safe depth-first walk).
        std::function<void(int32_t, std::vector<uint32_t>&, std::vector<bool>&)> collect =
            [&](int32_t h, std::vector<uint32_t>& out, std::vector<bool>& seen) {
                if (seen[size_t(h)]) return;
                seen[size_t(h)] = true;
                out.insert(out.end(), direct[size_t(h)].begin(), direct[size_t(h)].end());
                for (int32_t c2 : s.hyperNodes[size_t(h)].children) collect(c2, out, seen);
            };
        for (size_t i = 0; i < s.hyperNodes.size(); ++i) {
            std::vector<bool> seen(s.hyperNodes.size(), false);
            std::vector<uint32_t> out;
            collect(int32_t(i), out, seen);
            std::sort(out.begin(), out.end());
            out.erase(std::unique(out.begin(), out.end()), out.end());
            s.hyperNodes[i].nodes = std::move(out);
        }
        // The virtual cluster top: one tier above the highest, parent of every root.
        int32_t top = 1;
        for (const auto& h : s.hyperNodes) top = std::max(top, h.tier + 1);
        HyperNodeRec t;
        t.name = "<cluster-top-hypernode>";
        t.tier = top;
        const int32_t topIdx = int32_t(s.hyperNodes.size());
        for (size_t i = 0; i < s.hyperNodes.size(); ++i)
            if (s.hyperNodes[i].parent < 0) {
                s.hyperNodes[i].parent = topIdx;
                t.children.push_back(int32_t(i));
            }
        for (uint32_t n = 0; n < s.nodes.size(); ++n) t.nodes.push_back(n);
        s.hyperNodes.push_back(std::move(t));
        std::set<int32_t> tiers;
        for (const auto& h : s.hyperNodes) tiers.insert(h.tier);
        s.hyperNodeTiers.assign(tiers.begin(), tiers.end());
        // Each node's hypernodes, lowest tier first.
        for (int32_t h = 0; h < int32_t(s.hyperNodes.size()); ++h)
            for (uint32_t n : s.hyperNodes[size_t(h)].nodes) s.nodes[n].hyperNodes.push_back(h);
        for (auto& n : s.nodes)
            std::stable_sort(n.hyperNodes.begin(), n.hyperNodes.end(), [&](int32_t a, int32_t b) {
                return s.hyperNodes[size_t(a)].tier < s.hyperNodes[size_t(b)].tier;
            });
    }

    void addQueues(const Cluster& c) {
        std::vector<const Queue*> queues;
        for (const auto& q : c.queues)
            if (q.kind == Queue::Kind::Queue) queues.push_back(&q);
        for (const auto& sq : options.startupQueues)
            if (std::none_of(queues.begin(), queues.end(),
                             [&](const Queue* q) { return q->name == sq.queue.name; })) {
                queues.push_back(&sq.queue);
                assumedQueues.emplace(sq.queue.name, &sq.note);
            }
        for (const Queue* qp : queues) {
            const Queue& q = *qp;
            QueueRec r;
            r.name = q.name;
            r.parentName = q.parent;
            r.weight = q.weight;
            r.priority = q.priority;
            r.open = q.state == QueueState::Open;
            r.reclaimable = q.reclaimable;
            r.guarantee = q.guarantee;
            r.deserved = q.deserved;
            r.capability = q.capability;
            auto h = q.annotations.find("volcano.sh/hierarchy");
            if (h != q.annotations.end()) r.hierarchy = h->second;
            auto w = q.annotations.find("volcano.sh/hierarchy-weights");
            if (w != q.annotations.end()) r.hierarchyWeights = w->second;
            r.nodeGroupAffinity = q.nodeGroupAffinity;
            auto limits = q.annotations.find("volcano.sh/nodegroup-resource-limits");
            if (limits != q.annotations.end()) r.nodeGroupResourceLimits = limits->second;
            r.assumed = assumedQueues.count(q.name) > 0;
            s.queueIndex.emplace(q.name, uint32_t(s.queues.size()));
            s.queues.push_back(std::move(r));
        }
        for (auto& q : s.queues) {
            std::string parent = q.parentName.empty() ? (q.name == "root" ? "" : "root") : q.parentName;
            q.parent = parent.empty() ? -1 : s.findQueue(parent);
        }
    }

    void addPriorityClasses(const Cluster& c) {
        for (const auto& pc : c.priorityClasses) {
            if (pc.workload) continue;
            s.priorityClasses[pc.name] = pc.value;
            if (pc.globalDefault) s.defaultPriority = pc.value;
            if (pc.preemptionPolicy == "Never") {
                s.preemptNeverClasses.insert(pc.name);
                if (pc.globalDefault) s.preemptNeverClasses.insert("");
            }
        }
    }

    void addJobs(const Cluster& c) {
        for (const auto& p : c.pods)
            if (p.creationTimestamp) newest = std::max(newest.value_or(INT64_MIN), *p.creationTimestamp);
        for (const auto& g : c.podGroups)
            if (g.creationTimestamp) newest = std::max(newest.value_or(INT64_MIN), *g.creationTimestamp);
        startOrigin = newest;
        s.epochUnix = newest;
        if (!startOrigin)
            for (const auto& p : c.pods)
                if (p.startTime) startOrigin = std::max(startOrigin.value_or(INT64_MIN), *p.startTime);
        std::unordered_map<std::string, std::vector<const Pod*>> podsOf;
        if (options.readWorkload)
            for (const auto& p : c.pods)
                if (!p.group.empty()) podsOf[p.ns + '/' + p.group].push_back(&p);
        static const std::vector<const Pod*> none;
        for (const auto& input : c.podGroups) {
            std::optional<PodGroup> read;
            WorkloadReading reading;
            if (options.readWorkload) {
                auto it = podsOf.find(input.key());
                reading = options.readWorkload(input, it == podsOf.end() ? none : it->second);
                read = applyReading(input, reading);
            }
            const PodGroup& g = read ? *read : input;
            std::string queue = g.queue.empty() ? "default" : g.queue;
            if (read) queue = reading.queue;
            if (s.findQueue(queue) < 0 && !options.anyQueue) {
                std::string why =
                    "PodGroup " + g.key() + " names queue '" + queue + "', which does not exist";
                if (!options.unknownQueueConsequence.empty()) {
                    why += "; " + options.unknownQueueConsequence;
                    warn(g.source, why);
                }
                s.skippedGroups[g.key()] = why;
                continue;
            }
            if (auto assumed = assumedQueues.find(queue); assumed != assumedQueues.end() && assumed->second) {
                warn(g.source, *assumed->second);
                assumed->second = nullptr; // once per queue
            }
            uint32_t id = addJobRecord(g, queue);
            if (read) keepReading(id, reading, g.source);
            if (g.name != input.name) jobOfGroup.emplace(input.key(), id);
            s.jobs[id].whatIf = whatIfOrigin(g);
        }
    }

    std::unordered_map<std::string, uint32_t> jobOfGroup; // renamed by the controllers: input key -> job

    static PodGroup applyReading(const PodGroup& g, const WorkloadReading& r) {
        PodGroup out = g;
        if (!r.name.empty()) out.name = r.name;
        out.queue = r.queue;
        out.minMember = r.minMember;
        out.minTaskMember = r.minTaskMember;
        out.minResources = r.minResources;
        return out;
    }

    void keepReading(uint32_t job, const WorkloadReading& r, const SourceRef& where) {
        JobRec& j = s.jobs[job];
        j.managed = r.managed;
        j.admitAtLeast = r.admitAtLeast;
        j.podsAdmittedApart = r.podsAdmittedApart;
        if (r.priority) j.priority = *r.priority;
        if (!r.application.empty()) j.application = s.strings.intern(r.application);
        j.readingNoted = !r.note.empty();
        if (!r.note.empty() && notesSaid.insert(r.note).second) warn(where, r.note);
    }
    std::set<std::string> notesSaid;
    // The newest creationTimestamp of the input: the snapshot's "now", to which objects' creation
    // times are made relative (so they come before jobs the simulation adds at time 0 and later).
    std::optional<int64_t> newest;
    std::optional<int64_t> startOrigin; // the same for start times: newest, else the latest start

    std::map<std::string, const std::string*> assumedQueues; // name -> note, null once said

    uint32_t addJobRecord(const PodGroup& g, const std::string& queue) {
        JobRec j;
        j.requeuedAt = ++s.requeues;
        j.name = s.strings.intern(g.name);
        j.ns = s.strings.intern(g.ns);
        j.key = g.key();
        j.queue = s.findQueue(queue);
        j.queueName = s.strings.intern(queue);
        j.kueue = g.kueue;
        j.minAvailable = g.minMember;
        j.priority = s.defaultPriority;
        auto pc = s.priorityClasses.find(g.priorityClassName);
        if (pc != s.priorityClasses.end()) j.priority = pc->second;
        for (const auto& [role, n] : g.minTaskMember) {
            j.minTaskMember.emplace_back(roleId(role), n);
            j.taskMinAvailableTotal += n;
        }
        j.hasMinResources = !g.minResources.empty();
        j.minResources = VResource::fromList(g.minResources, s.dims);
        for (const auto& [name, amount] : g.minResources)
            if (int dim = s.dims.find(name); dim >= 0) j.minResourcesMask |= uint64_t(1) << dim;
        j.phase = g.phase;
        j.topology = g.networkTopology;
        if (options.holdDependentTasks)
            for (const auto& d : g.dependsOn) {
                DependentTask t;
                t.role = roleId(d.task);
                for (const auto& a : d.after) t.after.push_back(roleId(a));
                t.any = d.any;
                j.dependents.push_back(std::move(t));
            }
        j.creationSeconds =
            g.creationTimestamp && newest ? double(*g.creationTimestamp - *newest) : g.arrivalSeconds;
        auto readBool = [&](const Labels& m, const char* key) -> std::optional<bool> {
            auto it = m.find(key);
            if (it == m.end()) return std::nullopt;
            return parseGoBool(it->second).value_or(false);
        };
        if (auto b = readBool(g.annotations, "volcano.sh/preemptable"))
            j.preemptable = *b;
        else if (auto b2 = readBool(g.labels, "volcano.sh/preemptable"))
            j.preemptable = *b2;
        for (const char* key : {"volcano.sh/sla-waiting-time", "sla-waiting-time"}) {
            auto it = g.annotations.find(key);
            if (it == g.annotations.end()) continue;
            auto d = parseGoDuration(it->second);
            if (d && *d > 0) {
                j.slaWaitingSeconds = *d;
                break;
            }
        }
        j.order = s.nextJobOrder++;
        uint32_t id;
        if (!s.freeJobs.empty()) {
            id = s.freeJobs.back();
            s.freeJobs.pop_back();
            s.jobs[id] = std::move(j);
        } else {
            id = uint32_t(s.jobs.size());
            s.jobs.push_back(std::move(j));
        }
        s.jobIndex.emplace(s.jobs[id].key, id);
        return id;
    }

    uint16_t roleId(const std::string& role) {
        for (size_t i = 0; i < s.roles.size(); ++i)
            if (s.roles[i] == role) return uint16_t(i);
        s.roles.push_back(role);
        return uint16_t(s.roles.size() - 1);
    }

    bool takesPod(const Pod& p, uint32_t job) const {
        if (options.admissionTakesEveryPod && p.nodeName.empty() && p.phase == PodPhase::Pending)
            return std::find(options.admissionBypassNamespaces.begin(),
                             options.admissionBypassNamespaces.end(),
                             p.ns) == options.admissionBypassNamespaces.end();
        if (!emulatedScheduler(p.schedulerName)) return false;
        if (options.allSchedulers || p.schedulerName.empty()) return true;
        if (std::find(options.schedulerNames.begin(), options.schedulerNames.end(), p.schedulerName) !=
            options.schedulerNames.end())
            return true;
        return job != UINT32_MAX && s.jobs[job].whatIf;
    }

    PodShape shapeOf(const Pod& p) {
        PodShape sh;
        sh.request.assign(size_t(s.D()), 0);
        sh.vres = VResource(s.D());
        sh.vres.touchMap();
        for (const auto& [name, amount] : p.requests) {
            int dim = s.dims.find(name);
            if (dim < 0) continue;
            sh.request[size_t(dim)] += amount;
            if (dim >= 2) sh.presentMask |= uint64_t(1) << dim;
            if (dim == kCpu) sh.cpuRequested = true;
            if (dim == kMemory) sh.memRequested = true;
        }
        // GetPodResourceWithoutInitContainers adds one "pods" to every task's request: a pod takes a
        // pod slot of its node, and the count takes part in every resource comparison and share.
        sh.request[kPods] += 1;
        sh.presentMask |= uint64_t(1) << kPods;
        for (int dim = 0; dim < s.D(); ++dim) {
            if (dim < 2)
                sh.vres.set(dim, double(sh.request[size_t(dim)]));
            else if ((sh.presentMask >> dim) & 1u)
                sh.vres.set(dim, double(sh.request[size_t(dim)]));
        }
        sh.bestEffort = sh.vres.isEmpty();
        sh.ns = s.strings.intern(p.ns);
        sh.labels = p.labels;
        for (const auto& [k, v] : p.annotations)
            if (k.rfind("volcano.sh/resource-strategy-", 0) == 0) sh.pluginAnnotations.emplace(k, v);
        sh.nodeSelector = p.nodeSelector;
        sh.nodeAffinity = p.nodeAffinity;
        sh.tolerations = p.tolerations;
        sh.podAffinity = p.podAffinity;
        sh.podAntiAffinity = p.podAntiAffinity;
        sh.topologySpread = p.topologySpread;
        sh.priorityClassName = p.priorityClassName;
        sh.preemptNever = p.preemptionPolicy.empty() ? s.preemptNeverClasses.count(p.priorityClassName) > 0
                                                     : p.preemptionPolicy == "Never";
        sh.gpu = p.gpu;
        sh.schedulingGates = holdingSchedulingGates(p);
        bool fieldSelector = false;
        if (p.nodeAffinity && p.nodeAffinity->required)
            for (const auto& t : *p.nodeAffinity->required)
                if (!t.matchFields.empty()) fieldSelector = true;
        if (p.nodeAffinity)
            for (const auto& pt : p.nodeAffinity->preferred)
                if (!pt.preference.matchFields.empty()) fieldSelector = true;
        sh.hasPreferredNodeAffinity = p.nodeAffinity && !p.nodeAffinity->preferred.empty();
        sh.perNode = fieldSelector || !p.podAffinity.empty() || !p.podAntiAffinity.empty() ||
                     !p.topologySpread.empty();
        return sh;
    }

    void addTask(const Pod& p, uint32_t jobId, uint32_t order) {
        TaskRec t;
        t.job = jobId;
        t.shape = s.internShape(shapeOf(p));
        t.name = s.strings.intern(p.name);
        if (!p.group.empty()) t.group = s.strings.intern(p.group);
        t.uid = s.strings.intern(p.uid.empty() ? p.ns + "-" + p.name : p.uid);
        t.ns = s.strings.intern(p.ns);
        t.role = roleId(p.role);
        t.preemptable = p.preemptable.value_or(true);
        auto pre = p.annotations.find("volcano.sh/preemptable");
        if (pre != p.annotations.end()) t.preemptable = parseGoBool(pre->second).value_or(false);
        t.ours = takesPod(p, jobId);
        t.priority = p.priority.value_or(1);
        t.podPriority = p.priority.value_or(0);
        t.kubePriority = p.priority.value_or(s.defaultPriority);
        if (!p.priority)
            if (auto pc = s.priorityClasses.find(p.priorityClassName); pc != s.priorityClasses.end())
                t.kubePriority = pc->second;
        auto tp = p.annotations.find("volcano.sh/task-priority");
        if (tp != p.annotations.end())
            if (auto v = parseGoInt(tp->second); v && *v >= INT32_MIN && *v <= INT32_MAX)
                t.priority = int32_t(*v);
        t.nameIndex = nameIndexOf(p.name);
        t.order = order;
        // status.startTime in the state's seconds; a pod without one started now, as
        // GetPodStartTime answers for it.
        if (p.startTime && startOrigin) t.startSeconds = double(*p.startTime - *startOrigin);
        s.nextTaskOrder = std::max(s.nextTaskOrder, order + 1);
        for (int32_t g : p.gpuIndices)
            if (g >= 0 && g < kMaxNodeGpus) t.gpuMask |= uint64_t(1) << g; // a hint for acquireGpus
        // Status as the Volcano cache derives it from the pod.
        TaskStatus status = TaskStatus::Unknown;
        switch (p.phase) {
        case PodPhase::Running:
            status = TaskStatus::Running;
            break;
        case PodPhase::Pending:
            status = p.nodeName.empty() ? TaskStatus::Pending : TaskStatus::Bound;
            break;
        case PodPhase::Succeeded:
            status = TaskStatus::Succeeded;
            break;
        case PodPhase::Failed:
            status = TaskStatus::Failed;
            break;
        case PodPhase::Unknown:
            status = TaskStatus::Unknown;
            break;
        }
        int32_t node = -1;
        if (!p.nodeName.empty()) {
            node = s.findNode(p.nodeName);
            if (node < 0)
                warn(p.source,
                     "pod " + p.key() + " is bound to node '" + p.nodeName +
                         "', which is not in the cluster (or not Ready); its requests are not counted");
        }
        // A pod whose controller waits for a condition does not exist yet.
        const bool gated =
            !p.createdAfter.empty() && jobId != UINT32_MAX && status == TaskStatus::Pending && node < 0;
        if (gated) status = TaskStatus::NotCreated;
        if (status == TaskStatus::Pending && node < 0 && !p.nominatedNodeName.empty())
            t.nominatedNode = s.findNode(p.nominatedNodeName);
        t.status = TaskStatus::Pending;
        uint32_t id;
        if (!s.freeTasks.empty()) {
            id = s.freeTasks.back();
            s.freeTasks.pop_back();
            s.tasks[id] = t;
        } else {
            id = uint32_t(s.tasks.size());
            s.tasks.push_back(t);
        }
        if (jobId != UINT32_MAX) {
            auto& j = s.jobs[jobId];
            j.tasks.push_back(id);
            j.statusCount[int(TaskStatus::Pending)]++;
            if (s.shapes[t.shape].bestEffort) j.pendingBestEffort++;
            j.requestMask |= s.shapes[t.shape].presentMask;
            if (!s.shapes[t.shape].schedulingGates.empty()) j.schedulingGatedTasks++;
            j.allocated.resize(size_t(s.D()), 0);
        }
        if (status != TaskStatus::Pending || node >= 0) {
            s.setTask(id, status, node);
            if (node >= 0 && occupiesNode(status)) s.k8sAdd(id, uint32_t(node));
        }
        if (s.tasks[id].node < 0) s.tasks[id].gpuMask = 0; // the hint was not used
        if (gated) gatedPods.emplace_back(id, &p);
        if (p.runSeconds && jobId != UINT32_MAX) {
            auto& seconds = s.jobs[jobId].roleSeconds;
            if (std::none_of(seconds.begin(), seconds.end(),
                             [&](const auto& r) { return r.first == t.role; }))
                seconds.emplace_back(t.role, std::max(0.0, *p.runSeconds));
        }
    }

    // The gates of the pods added NotCreated, once every task of their jobs is in: tasks with the
    // same conditions share one gate.
    std::vector<std::pair<uint32_t, const Pod*>> gatedPods;
    void addGates() {
        std::unordered_map<uint32_t, std::unordered_map<std::string, uint32_t>> byName; // job -> pod -> task
        for (const auto& [t, pod] : gatedPods) {
            const uint32_t job = s.tasks[t].job;
            std::vector<GateCondition> conditions;
            for (const CreationCondition& c : pod->createdAfter) {
                GateCondition g;
                g.kind = c.kind;
                g.topologyKey = c.topologyKey;
                if (c.kind == CreationCondition::Kind::PodScheduled) {
                    auto [it, fresh] = byName.try_emplace(job);
                    if (fresh)
                        for (uint32_t x : s.jobs[job].tasks)
                            it->second.emplace(s.strings.str(s.tasks[x].name), x);
                    auto found = it->second.find(c.name);
                    if (found != it->second.end()) g.task = found->second;
                } else {
                    g.role = roleId(c.name);
                }
                conditions.push_back(std::move(g));
            }
            auto same = [&](const CreationGate& gate) {
                if (gate.conditions.size() != conditions.size()) return false;
                for (size_t i = 0; i < conditions.size(); ++i) {
                    const auto &a = gate.conditions[i], &b = conditions[i];
                    if (a.kind != b.kind || a.role != b.role || a.task != b.task ||
                        a.topologyKey != b.topologyKey)
                        return false;
                }
                return true;
            };
            auto& gates = s.jobs[job].gates;
            auto it = std::find_if(gates.begin(), gates.end(), same);
            if (it == gates.end()) {
                gates.push_back(CreationGate{std::move(conditions), {}});
                it = gates.end() - 1;
            }
            it->tasks.push_back(t);
        }
        gatedPods.clear();
    }

    void addPods(const Cluster& c) {
        std::unordered_map<std::string, uint32_t> looseJobs;
        if (options.groupLoosePods && options.readWorkload) looseJobs = addLooseGroups(c);
        std::vector<uint32_t> jobOf(c.pods.size(), UINT32_MAX);
        for (size_t i = 0; i < c.pods.size(); ++i) {
            const Pod& p = c.pods[i];
            if (!p.group.empty()) {
                auto renamed = jobOfGroup.find(p.ns + "/" + p.group);
                int j = renamed != jobOfGroup.end() ? int(renamed->second) : s.findJob(p.ns + "/" + p.group);
                if (j >= 0) jobOf[i] = uint32_t(j);
            } else if (auto it = looseJobs.find(looseKey(p)); it != looseJobs.end()) {
                jobOf[i] = it->second;
            }
            // A dependent task some of whose pods have started was made by the controller already.
            if (DependentTask* d = dependentOf(p, jobOf[i]);
                d && !(p.phase == PodPhase::Pending && p.nodeName.empty()))
                d->created = true;
        }
        std::vector<uint32_t> holding;
        uint32_t order = 0;
        for (size_t i = 0; i < c.pods.size(); ++i) {
            const Pod& p = c.pods[i];
            if (DependentTask* d = dependentOf(p, jobOf[i]); d && !d->created) {
                if (d->pods.empty()) holding.push_back(jobOf[i]);
                d->pods.push_back(p);
                continue;
            }
            addTask(p, jobOf[i], order++);
        }
        std::sort(holding.begin(), holding.end());
        holding.erase(std::unique(holding.begin(), holding.end()), holding.end());
        for (uint32_t j : holding) s.createReadyDependents(j, options);
    }

    // The job's dependent task the pod belongs to, if any.
    DependentTask* dependentOf(const Pod& p, uint32_t job) {
        if (job == UINT32_MAX || s.jobs[job].dependents.empty()) return nullptr;
        const uint16_t role = roleId(p.role);
        for (auto& d : s.jobs[job].dependents)
            if (d.role == role) return &d;
        return nullptr;
    }

    // Pods of no gang that the scheduler's controllers group themselves (Volcano's pod-group
    // controller: one PodGroup per controller owner, else per pod; Kueue: a plain pod is a workload).
    static std::string looseKey(const Pod& p) {
        if (!p.ownerUid.empty()) return p.ns + "/uid:" + p.ownerUid;
        if (!p.ownerName.empty()) return p.ns + "/" + p.ownerKind + ":" + p.ownerName;
        return p.ns + "/pod:" + p.name;
    }

    std::unordered_map<std::string, uint32_t> addLooseGroups(const Cluster& c) {
        std::map<std::string, std::vector<const Pod*>> byOwner;
        for (const auto& p : c.pods)
            if (p.group.empty() && takesPod(p, UINT32_MAX) && p.phase != PodPhase::Succeeded &&
                p.phase != PodPhase::Failed)
                byOwner[looseKey(p)].push_back(&p);
        std::unordered_map<std::string, uint32_t> out;
        for (const auto& [key, pods] : byOwner) {
            const Pod& first = *pods.front();
            PodGroup g;
            g.name = first.ownerName.empty() ? first.name : first.ownerName;
            g.ns = first.ns;
            g.origin = first.ownerKind.empty() ? "v1/Pod" : first.ownerKind;
            g.labels = first.labels;
            g.priorityClassName = first.priorityClassName;
            g.minMember = int32_t(pods.size());
            g.creationTimestamp = first.creationTimestamp;
            g.source = first.source;
            const WorkloadReading reading = options.readWorkload(g, pods);
            if (!reading.name.empty()) g.name = reading.name;
            if (s.findJob(g.key()) >= 0) continue; // a PodGroup object of that name is in the input
            if (s.findQueue(reading.queue) < 0 && !options.anyQueue) continue;
            const uint32_t id = addJobRecord(applyReading(g, reading), reading.queue);
            keepReading(id, reading, g.source);
            out.emplace(key, id);
        }
        return out;
    }
};

ClusterState buildClusterState(const Cluster& cluster, Diagnostics* warnings, const BuildOptions& options) {
    ClusterState s;
    s.strings.intern(""); // id 0 = empty
    StateBuilder b{s, warnings, options};
    b.internDims(cluster);
    b.addNodes(cluster);
    b.addHyperNodes(cluster);
    b.addQueues(cluster);
    b.addPriorityClasses(cluster);
    for (const auto& ns : cluster.namespaces) s.namespaceLabels[ns.name] = ns.labels;
    for (const auto& pdb : cluster.disruptionBudgets) {
        DisruptionBudgetRec r;
        r.ns = s.strings.intern(pdb.ns);
        r.selector = pdb.selector.value_or(LabelSelector{});
        r.minAvailable = pdb.minAvailable;
        r.maxUnavailable = pdb.maxUnavailable;
        r.statusAllowed = pdb.disruptionsAllowed.value_or(0);
        r.disruptedPods = pdb.disruptedPods;
        s.disruptionBudgets.push_back(std::move(r));
    }
    s.fairshareStates = cluster.fairshareStates;
    b.addJobs(cluster);
    b.addPods(cluster);
    b.addGates();
    s.rebuildIndexes();
    return s;
}

uint32_t ClusterState::addJob(const PodGroup& group, const std::vector<Pod>& pods) {
    return addJob(group, pods, BuildOptions{});
}

uint32_t ClusterState::addJob(const PodGroup& group, const std::vector<Pod>& pods,
                              const BuildOptions& options) {
    StateBuilder b{*this, nullptr, options};
    for (const auto& p : pods)
        for (const auto& [name, amount] : p.requests)
            if (countsResource(name) && dims.find(name) < 0)
                throw std::invalid_argument("addJob: resource '" + name + "' is unknown to this cluster");
    uint32_t job;
    if (options.readWorkload) {
        std::vector<const Pod*> list;
        list.reserve(pods.size());
        for (const auto& p : pods) list.push_back(&p);
        const WorkloadReading reading = options.readWorkload(group, list);
        job = b.addJobRecord(StateBuilder::applyReading(group, reading), reading.queue);
        b.keepReading(job, reading, group.source);
    } else {
        job = b.addJobRecord(group, group.queue.empty() ? "default" : group.queue);
    }
    jobs[job].whatIf = whatIfOrigin(group);
    bool holding = false;
    for (const auto& p : pods) {
        if (DependentTask* d = b.dependentOf(p, job)) {
            d->pods.push_back(p);
            holding = true;
            continue;
        }
        b.addTask(p, job, nextTaskOrder);
    }
    b.addGates();
    if (holding) createReadyDependents(job, options);
    markChanged(job);
    return job;
}

void ClusterState::addTaskOf(const Pod& pod, uint32_t job, const BuildOptions& options) {
    StateBuilder b{*this, nullptr, options};
    b.addTask(pod, job, nextTaskOrder);
}

} // namespace gantry::engine
