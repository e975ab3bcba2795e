#include "project/project_writer.h"

#include "atomic_file.h"
#include "gantry/api_version.h"
#include "project/project_schema.h"

#include <charconv>
#include <type_traits>
#include <yaml-cpp/yaml.h>

namespace gantry {

namespace {

using namespace project;

// Shortest text that reads back as the same double.
std::string number(double v) {
    char buf[64];
    auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, ec == std::errc() ? p : buf);
}

bool scalarLike(const auto& v) {
    using T = std::decay_t<decltype(v)>;
    return std::is_arithmetic_v<T> || std::is_same_v<T, std::string> || std::is_enum_v<T>;
}

template <class T> void writeValue(YAML::Emitter& out, const T& v);

template <class T> void writeStruct(YAML::Emitter& out, const T& obj) {
    static const T def{};
    out << YAML::BeginMap;
    std::apply(
        [&](const auto&... f) {
            (([&] {
                 const auto& value = obj.*(f.member);
                 if (!f.required && value == def.*(f.member)) return;
                 out << YAML::Key << f.key << YAML::Value;
                 writeValue(out, value);
             }()),
             ...);
        },
        Schema<T>::fields());
    out << YAML::EndMap;
}

void writeResources(YAML::Emitter& out, const ResourceList& list) {
    out << YAML::Flow << YAML::BeginMap;
    for (const auto& [name, amount] : list)
        out << YAML::Key << name << YAML::Value << formatAmount(name, amount);
    out << YAML::EndMap;
}

void writeArguments(YAML::Emitter& out, const std::map<std::string, std::string>& args) {
    out << YAML::BeginMap;
    for (const auto& [k, v] : args) out << YAML::Key << k << YAML::Value << v;
    out << YAML::EndMap;
}

// volcano-scheduler.conf form, so the policy can be copied to and from a cluster's ConfigMap.
void writeSchedulerConf(YAML::Emitter& out, const SchedulerConf& conf) {
    out << YAML::BeginMap;
    std::string actions;
    for (const auto& a : conf.actions) actions += (actions.empty() ? "" : ", ") + a;
    out << YAML::Key << "actions" << YAML::Value << YAML::DoubleQuoted << actions;
    out << YAML::Key << "tiers" << YAML::Value << YAML::BeginSeq;
    for (const auto& tier : conf.tiers) {
        out << YAML::BeginMap << YAML::Key << "plugins" << YAML::Value << YAML::BeginSeq;
        for (const auto& p : tier.plugins) {
            out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << p.name;
            for (const auto& [s, on] : p.switches) out << YAML::Key << s << YAML::Value << on;
            if (!p.arguments.empty()) {
                out << YAML::Key << "arguments" << YAML::Value;
                writeArguments(out, p.arguments);
            }
            out << YAML::EndMap;
        }
        out << YAML::EndSeq << YAML::EndMap;
    }
    out << YAML::EndSeq;
    if (!conf.configurations.empty()) {
        out << YAML::Key << "configurations" << YAML::Value << YAML::BeginSeq;
        for (const auto& c : conf.configurations) {
            out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << c.name;
            if (!c.arguments.empty()) {
                out << YAML::Key << "arguments" << YAML::Value;
                writeArguments(out, c.arguments);
            }
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    if (!conf.metrics.empty()) {
        out << YAML::Key << "metrics" << YAML::Value;
        writeArguments(out, conf.metrics);
    }
    out << YAML::EndMap;
}

void writeTolerations(YAML::Emitter& out, const std::vector<Toleration>& tolerations) {
    out << YAML::BeginSeq;
    for (const auto& t : tolerations) {
        out << YAML::Flow << YAML::BeginMap;
        if (!t.key.empty()) out << YAML::Key << "key" << YAML::Value << t.key;
        out << YAML::Key << "operator" << YAML::Value << (t.exists ? "Exists" : "Equal");
        if (!t.value.empty()) out << YAML::Key << "value" << YAML::Value << t.value;
        if (t.effect) out << YAML::Key << "effect" << YAML::Value << toString(*t.effect);
        if (t.tolerationSeconds)
            out << YAML::Key << "tolerationSeconds" << YAML::Value << *t.tolerationSeconds;
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
}

// The inventory's workload form (docs/inventory.md), in its explicit spelling.
void writeWorkload(YAML::Emitter& out, const WorkloadTemplate& w) {
    static const WorkloadTemplate def{};
    auto key = [&](const char* k) -> YAML::Emitter& { return out << YAML::Key << k << YAML::Value; };
    out << YAML::BeginMap;
    key("name") << w.name;
    if (w.ns != def.ns) key("namespace") << w.ns;
    if (!w.queue.empty()) key("queue") << w.queue;
    if (!w.priorityClass.empty()) key("priorityClass") << w.priorityClass;
    if (w.jobs != def.jobs) key("jobs") << w.jobs;
    if (w.replicas != def.replicas) key("replicas") << w.replicas;
    if (w.minMember != def.minMember) key("minMember") << w.minMember;
    if (w.role != def.role) key("role") << w.role;
    if (!w.podRequests.empty()) {
        key("resources");
        writeResources(out, w.podRequests);
    }
    if (w.gpu != def.gpu) {
        key("gpu") << YAML::Flow << YAML::BeginMap << YAML::Key << "count" << YAML::Value << w.gpu.count;
        if (w.gpu.milliPerGpu != 1000) out << YAML::Key << "milli" << YAML::Value << w.gpu.milliPerGpu;
        if (!w.gpu.models.empty()) out << YAML::Key << "models" << YAML::Value << YAML::Flow << w.gpu.models;
        out << YAML::EndMap;
    }
    if (!w.nodeSelector.empty()) {
        key("nodeSelector");
        writeValue(out, w.nodeSelector);
    }
    if (!w.tolerations.empty()) {
        key("tolerations");
        writeTolerations(out, w.tolerations);
    }
    if (w.networkTopology != def.networkTopology) {
        const auto& n = w.networkTopology;
        key("networkTopology") << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "mode" << YAML::Value
            << (n.mode == NetworkTopologyConstraint::Mode::Soft ? "soft" : "hard");
        if (n.highestTierAllowed)
            out << YAML::Key << "highestTierAllowed" << YAML::Value << *n.highestTierAllowed;
        if (!n.highestTierName.empty())
            out << YAML::Key << "highestTierName" << YAML::Value << n.highestTierName;
        out << YAML::EndMap;
    }
    if (w.arrival != def.arrival) {
        const auto& a = w.arrival;
        key("arrival") << YAML::Flow << YAML::BeginMap;
        const char* kind = a.kind == ArrivalProcess::Kind::Poisson ? "poisson"
                           : a.kind == ArrivalProcess::Kind::Burst ? "burst"
                                                                   : "fixed";
        out << YAML::Key << "kind" << YAML::Value << kind;
        if (a.startSeconds != 0) out << YAML::Key << "start" << YAML::Value << number(a.startSeconds);
        if (a.kind == ArrivalProcess::Kind::Fixed && !a.times.empty()) {
            out << YAML::Key << "times" << YAML::Value << YAML::Flow << YAML::BeginSeq;
            for (double t : a.times) out << number(t);
            out << YAML::EndSeq;
        }
        if (a.kind != ArrivalProcess::Kind::Poisson && a.intervalSeconds != 0)
            out << YAML::Key << "every" << YAML::Value << number(a.intervalSeconds);
        if (a.kind == ArrivalProcess::Kind::Poisson)
            out << YAML::Key << "ratePerHour" << YAML::Value << number(a.ratePerHour);
        if (a.kind == ArrivalProcess::Kind::Burst) out << YAML::Key << "burst" << YAML::Value << a.burstSize;
        out << YAML::EndMap;
    }
    if (w.duration != def.duration) {
        const auto& d = w.duration;
        key("duration") << YAML::Flow << YAML::BeginMap;
        switch (d.kind) {
        case DurationDistribution::Kind::Fixed:
            out << YAML::Key << "kind" << YAML::Value << "fixed" << YAML::Key << "mean" << YAML::Value
                << number(d.meanSeconds);
            break;
        case DurationDistribution::Kind::Exponential:
            out << YAML::Key << "kind" << YAML::Value << "exponential" << YAML::Key << "mean" << YAML::Value
                << number(d.meanSeconds);
            break;
        case DurationDistribution::Kind::Uniform:
            out << YAML::Key << "kind" << YAML::Value << "uniform" << YAML::Key << "min" << YAML::Value
                << number(d.minSeconds) << YAML::Key << "max" << YAML::Value << number(d.maxSeconds);
            break;
        case DurationDistribution::Kind::LogNormal:
            out << YAML::Key << "kind" << YAML::Value << "lognormal" << YAML::Key << "median" << YAML::Value
                << number(d.meanSeconds) << YAML::Key << "sigma" << YAML::Value << number(d.sigma);
            break;
        }
        out << YAML::EndMap;
    }
    if (w.checkpointSeconds != 0) key("checkpoint") << number(w.checkpointSeconds);
    if (!w.preemptable) key("preemptable") << false;
    out << YAML::EndMap;
}

template <class T> void writeValue(YAML::Emitter& out, const T& v) {
    if constexpr (std::is_same_v<T, std::string>) {
        out << v;
    } else if constexpr (std::is_same_v<T, bool>) {
        out << v;
    } else if constexpr (std::is_same_v<T, double>) {
        out << number(v);
    } else if constexpr (std::is_integral_v<T>) {
        out << v;
    } else if constexpr (std::is_enum_v<T>) {
        out << enumText(v);
    } else if constexpr (std::is_same_v<T, ResourceList>) {
        writeResources(out, v);
    } else if constexpr (std::is_same_v<T, SchedulerConf>) {
        writeSchedulerConf(out, v);
    } else if constexpr (std::is_same_v<T, WorkloadTemplate>) {
        writeWorkload(out, v);
    } else if constexpr (IsOptional<T>::value) {
        writeValue(out, *v);
    } else if constexpr (IsMap<T>::value) {
        bool flat = std::is_arithmetic_v<typename T::mapped_type> ||
                    std::is_same_v<typename T::mapped_type, std::string>;
        if (flat && v.size() <= 3) out << YAML::Flow;
        out << YAML::BeginMap;
        for (const auto& [k, x] : v) {
            out << YAML::Key << k << YAML::Value;
            writeValue(out, x);
        }
        out << YAML::EndMap;
    } else if constexpr (IsPair<T>::value) {
        out << YAML::Flow << YAML::BeginSeq;
        writeValue(out, v.first);
        writeValue(out, v.second);
        out << YAML::EndSeq;
    } else if constexpr (IsVector<T>::value) {
        if (!v.empty() && scalarLike(v.front())) out << YAML::Flow;
        out << YAML::BeginSeq;
        for (const auto& x : v) writeValue(out, x);
        out << YAML::EndSeq;
    } else {
        writeStruct(out, v);
    }
}

} // namespace

std::string projectToYaml(const Project& project) {
    YAML::Emitter out;
    out.SetIndent(2);
    out << YAML::BeginMap;
    out << YAML::Key << "apiVersion" << YAML::Value << kGantryApiVersion;
    out << YAML::Key << "kind" << YAML::Value << kProjectKind;
    std::apply(
        [&](const auto&... f) {
            static const Project def{};
            (([&] {
                 const auto& value = project.*(f.member);
                 if (value == def.*(f.member)) return;
                 out << YAML::Key << f.key << YAML::Value;
                 writeValue(out, value);
             }()),
             ...);
        },
        Schema<Project>::fields());
    out << YAML::EndMap;
    if (!out.good()) throw std::runtime_error("cannot write the project: " + out.GetLastError());
    return std::string("# Gantry project (docs/project-file.md)\n") + out.c_str() + "\n";
}

void writeProjectFile(const std::string& path, const Project& project) {
    writeFileAtomically(path, projectToYaml(project));
}

} // namespace gantry
